// Reports: rake by day, game and stakes; tournament fees and overlays; points; each with a CSV download.
import { api } from "./api.js";
import { h, fmt } from "../dom.js";

const REPORTS = [
  { name: "rake", title: "Rake by day, game and stakes", cols: ["day", "game", "kind", "table", "stakes", "currency", "hands", "rake"], days: 7 },
  { name: "tournaments", title: "Tournament fees and overlays", cols: ["tournament", "currency", "fees", "overlay"], days: 30 },
  { name: "points", title: "Loyalty points issued (centipoints)", cols: ["day", "source", "points"], days: 7 },
];
const MONEY = new Set(["rake", "fees", "overlay", "points"]);

export async function reportsPage() {
  const days = Number(new URLSearchParams(location.search).get("days")) || 0;
  const page = h("div", {}, h("h2", { text: "Reports" }));
  for (const r of REPORTS) {
    const d = days || r.days;
    const data = await api.report(r.name, d);
    page.append(
      h("h2", { text: `${r.title}, last ${d} days` }),
      h("a", { href: `/api/console/reports/${r.name}.csv?days=${d}`, download: `${r.name}.csv`, id: `csv-${r.name}`, text: "Download CSV" }),
      h(
        "table",
        { id: `report-${r.name}` },
        h("tr", {}, r.cols.map((c) => h("th", { class: MONEY.has(c) ? "num" : undefined, text: c }))),
        data.rows.map((row) => h("tr", {}, r.cols.map((c) => h("td", { class: MONEY.has(c) ? "num" : undefined, text: MONEY.has(c) ? fmt(row[c]) : row[c] })))),
      ),
    );
  }
  return page;
}
