// Responsible gaming (docs/responsible-gaming.md): every player's limits, with the raises and removals
// waiting out their cooling period, and every cool-off and self-exclusion, with a CSV download. There is
// no action here on purpose: nobody lifts or shortens an exclusion (the API refuses it too).
import { call } from "./api.js";
import { h, fmt } from "../dom.js";

const COLS = ["player", "what", "kind", "currency", "amount", "pending", "pending_from", "started_at", "ends_at", "active"];

function cell(row, col) {
  const v = row[col];
  if (v === null || v === undefined) return col === "ends_at" && row.what === "exclusion" ? "permanent" : "";
  if ((col === "amount" || col === "pending") && row.currency) return `${fmt(v, row.currency)} ${row.currency}`;
  if (col === "amount" && row.kind === "session") return `${v} min`;
  if (col === "active") return v ? "in force" : "ended";
  return String(v);
}

export async function gamingPage() {
  const data = await call("GET", "/api/console/gaming");
  const rows = data.rows.map((row) => h("tr", { dataset: { player: row.player, what: row.what } },
    COLS.map((c) => h("td", { text: cell(row, c) }))));
  return h("div", {},
    h("h2", { text: "Responsible gaming" }),
    h("p", { class: "hint", text: "Limits players set on themselves and their cool-offs and self-exclusions. "
      + "A cool-off or self-exclusion runs to its end: it cannot be lifted or shortened from here or any API." }),
    h("a", { href: "/api/console/gaming/register.csv", download: "responsible-gaming.csv", id: "csv-gaming", text: "Download CSV" }),
    data.rows.length
      ? h("table", { id: "gaming-register" }, h("tr", {}, COLS.map((c) => h("th", { text: c }))), rows)
      : h("p", { text: "No player has set a limit or taken a break." }));
}
