// The Dashboard: the room at a glance (GET /api/console/dashboard).
import { api } from "./api.js";
import { h, fmt } from "../dom.js";

function box(label, value, id) {
  return h("div", { class: "card-box", id }, h("span", { text: label }), h("b", { text: value }));
}

function perCurrency(map) {
  const parts = Object.entries(map || {}).map(([c, v]) => `${fmt(v, c)} ${c}`);
  return parts.length ? parts.join(", ") : "0";
}

export async function dashboardPage() {
  const d = await api.dashboard();
  const seated = d.seated.cash + d.seated.rush + d.seated.tournament;
  return h(
    "div",
    {},
    h("h2", { text: "Dashboard" }),
    h(
      "div",
      { class: "cards" },
      box("Players online", d.players_online, "dash-online"),
      box("Seated", seated, "dash-seated"),
      box("Hands in the last hour", d.hands_last_hour, "dash-hands"),
      box("Rake today", perCurrency(d.rake.today), "dash-rake-today"),
      box("Rake this week", perCurrency(d.rake.week), "dash-rake-week"),
      box("Points issued today", fmt(d.points_issued_today / 100), "dash-points"),
      box("Tournaments running", d.tournaments.running, "dash-t-running"),
      box("Tournaments registering", d.tournaments.registering, "dash-t-registering"),
      box("Store", d.store.ready ? "ready" : "NOT READY", "dash-store"),
    ),
    d.store.reasons.length ? h("ul", {}, d.store.reasons.map((r) => h("li", { text: r }))) : null,
    h("h2", { text: "Tables by game and state" }),
    h(
      "table",
      { id: "dash-tables" },
      h("tr", {}, h("th", { text: "Kind" }), h("th", { text: "Game" }), h("th", { text: "State" }), h("th", { class: "num", text: "Tables" })),
      d.tables.map((t) =>
        h("tr", {}, h("td", { text: t.kind }), h("td", { text: t.game }), h("td", { text: t.state }), h("td", { class: "num", text: t.count })),
      ),
    ),
  );
}
