// Session statistics (issue 20, item 6): for each game, the hands we were dealt this session (this tab),
// VPIP (we put money in voluntarily in the first betting round: a call, bet, raise or completion, not a
// blind, an ante or the bring-in), PFR (we bet, raised or completed in it) and what we won or lost.
import { h, clear, fmt } from "./dom.js";
import { dialog } from "./dialogs.js";
import { bettingShort, fmtNumber, gameName, t } from "./i18n.js";

const KEY = "pokerroom.session-stats";
const VOLUNTARY = new Set(["call", "bet", "raise", "complete"]);
const AGGRESSIVE = new Set(["bet", "raise", "complete"]);

// One finished hand's figures for our seat: {dealt, vpip, pfr, net}, or null when we were not dealt in.
export function handFigures(events, seat) {
  const start = events.find((e) => e.type === "hand_started");
  const end = events.find((e) => e.type === "hand_ended");
  if (!start || !end || !start.seats.includes(seat) || !end.seats.includes(seat)) return null;
  let later = false; // past the first betting round (the engine starts the first street without an event)
  let vpip = false;
  let pfr = false;
  for (const e of events) {
    if (e.type === "street_started" && e.index !== 0) later = true;
    if (e.type === "action" && e.seat === seat && !later) {
      if (VOLUNTARY.has(e.action)) vpip = true;
      if (AGGRESSIVE.has(e.action)) pfr = true;
    }
  }
  const net = end.stacks[end.seats.indexOf(seat)] - start.stacks[start.seats.indexOf(seat)];
  return { dealt: 1, vpip: vpip ? 1 : 0, pfr: pfr ? 1 : 0, net };
}

export class SessionStats {
  constructor(app) {
    this.app = app;
    try {
      this.games = JSON.parse(sessionStorage.getItem(KEY) || "{}");
    } catch {
      this.games = {};
    }
    const { el, body } = dialog(t("stats.title"), "stats-dialog");
    this.el = el;
    this.body = body;
  }

  // A hand we watched to its end at a table where we sat (events as we saw them).
  add(game, currency, events, seat, kind = {}) {
    const f = handFigures(events, seat);
    if (!f) return;
    const key = `${game}|${currency}`;
    const g = this.games[key] || { game, currency, hands: 0, vpip: 0, pfr: 0, net: 0, ...kind };
    g.hands += f.dealt;
    g.vpip += f.vpip;
    g.pfr += f.pfr;
    g.net += f.net;
    this.games[key] = g;
    try {
      sessionStorage.setItem(KEY, JSON.stringify(this.games));
    } catch {
      // storage refused: the figures still count in this page
    }
    if (this.el.open) this.render();
  }

  open() {
    this.render();
    if (!this.el.open) this.el.showModal();
  }

  render() {
    const rows = Object.values(this.games);
    const pct = (n, d) => (d ? `${Math.round((100 * n) / d)}%` : "\u2013");
    const total = rows.reduce((sum, g) => sum + g.hands, 0);
    clear(this.body).append(
      h("p", { class: "hint", text: t("stats.hint") }),
      rows.length
        ? h("table", { class: "ledger stats-table" },
          h("thead", {}, h("tr", {}, ...["stats.game", "stats.hands", "stats.vpip", "stats.pfr", "stats.net"].map((k) => h("th", { text: t(k) })))),
          h("tbody", {}, ...rows.map((g) => h("tr", { "data-game": g.game },
            h("td", { text: g.variant ? `${gameName(g.variant, g.game)} ${bettingShort(g.betting)}` : g.game }),
            h("td", { class: "num hands", text: fmtNumber(g.hands) }),
            h("td", { class: "num vpip", text: pct(g.vpip, g.hands) }), h("td", { class: "num pfr", text: pct(g.pfr, g.hands) }),
            h("td", { class: `num net ${g.net < 0 ? "lost" : "won"}`, "data-net": g.net,
              text: `${g.net > 0 ? "+" : ""}${fmt(g.net, g.currency)}` })))))
        : h("p", { text: t("stats.none") }),
      h("p", { class: "stats-total", text: t("stats.total", { n: total }) }));
  }
}
