// Lifetime statistics (issue 31): every hand the player was dealt, from the room's stored histories
// (GET /api/my/stats, docs/protocol.md "Lifetime statistics"; the figures are defined in docs/client.md).
// Filters (game, stakes, cash or tournament, currency, a range of days), the profit over time as an SVG line
// drawn here, the figures by game and stakes, the latest sessions and the session summary as CSV.
import { h, s, clear, fmt } from "./dom.js";
import { dialog } from "./dialogs.js";
import { call } from "./api.js";
import { bettingShort, errorText, fmtNumber, gameName, t } from "./i18n.js";

const RATES = [["vpip", "stats.vpip"], ["pfr", "stats.pfr"], ["three_bet", "life.three_bet"], ["wtsd", "life.wtsd"], ["wsd", "life.wsd"]];
const MAX_ROUNDS = 400; // requests while the server is still reading hands (500 a request)
const W = 600;
const H = 220;
const PAD = 8;

// The query string of the filters, without the empty ones.
export function query(filters) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== "" && v !== null && v !== undefined) q.set(k, v);
  return q.toString();
}

// The profit graph: a polyline through (0, 0) and every point {n, net}, x by hand number, y by the result,
// with the zero line, stretched to the box (the stroke keeps its width); the highest and lowest result
// written beside it. Pure drawing from the numbers (no chart library).
export function profitGraph(points, currency) {
  const all = [{ n: 0, net: 0 }, ...points];
  const last = all[all.length - 1].n || 1;
  const nets = all.map((p) => p.net);
  const top = Math.max(0, ...nets);
  const bottom = Math.min(0, ...nets);
  const span = top - bottom || 1;
  const x = (n) => PAD + ((W - 2 * PAD) * n) / last;
  const y = (v) => PAD + ((H - 2 * PAD) * (top - v)) / span;
  const line = all.map((p) => `${x(p.n).toFixed(1)},${y(p.net).toFixed(1)}`).join(" ");
  const end = all[all.length - 1].net;
  return h("div", { class: "life-plot" },
    s("svg", { class: "life-graph", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
      "aria-label": `${t("life.graph", { n: last })}: ${fmt(end, currency)}`, "data-points": all.length },
    s("line", { class: "zero", x1: PAD, x2: W - PAD, y1: y(0), y2: y(0) }),
    s("polyline", { class: `profit ${end < 0 ? "lost" : "won"}`, points: line, fill: "none" })),
    h("span", { class: "life-top", text: fmt(top, currency) }),
    h("span", { class: "life-bottom", text: fmt(bottom, currency) }));
}

const pct = (v) => (v === null || v === undefined ? "\u2013" : `${v.toFixed(1)}%`);
const signed = (n, currency) => `${n > 0 ? "+" : ""}${fmt(n, currency)}`;
const utc = (iso) => String(iso).slice(0, 16).replace("T", " ");

export class LifetimeStats {
  constructor(app) {
    this.app = app;
    this.seq = 0;
    this.games = new Set();
    this.stakes = new Set();
    const { el, body } = dialog(t("life.title"), "lifetime-dialog");
    this.el = el;
    this.body = body;
    const select = (name, label, first) => h("select", { name, "aria-label": t(label) }, h("option", { value: "", text: t(first) }));
    this.f = {
      game: select("game", "life.game", "life.all_games"),
      stakes: select("stakes", "life.stakes", "life.all_stakes"),
      kind: h("select", { name: "kind", "aria-label": t("life.kind") },
        h("option", { value: "", text: t("life.all_kinds") }),
        h("option", { value: "cash", text: t("life.kind_cash") }),
        h("option", { value: "tournament", text: t("life.kind_tournament") })),
      currency: h("select", { name: "currency", "aria-label": t("life.currency") }),
      from: h("input", { type: "date", name: "from", "aria-label": t("life.from") }),
      to: h("input", { type: "date", name: "to", "aria-label": t("life.to") }),
    };
    const label = (key, input) => h("label", { class: "life-filter" }, h("span", { text: t(key) }), input);
    this.form = h("form", { class: "life-filters", onsubmit: (ev) => ev.preventDefault() },
      label("life.game", this.f.game), label("life.stakes", this.f.stakes), label("life.kind", this.f.kind),
      label("life.currency", this.f.currency), label("life.from", this.f.from), label("life.to", this.f.to));
    for (const [name, input] of Object.entries(this.f)) {
      input.addEventListener("change", () => {
        if (name !== "currency") this.f.currency.value = ""; // the server picks the one most played
        this.load();
      });
    }
    this.status = h("p", { class: "life-status", role: "status" });
    this.out = h("div", { class: "life-out" });
    body.append(h("p", { class: "hint", text: t("life.hint") }), this.form, this.status, this.out);
  }

  open() {
    if (!this.el.open) this.el.showModal();
    this.load();
  }

  filters() {
    return Object.fromEntries(Object.entries(this.f).map(([k, input]) => [k, input.value]));
  }

  async load() {
    const seq = ++this.seq;
    this.el.setAttribute("aria-busy", "true");
    try {
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const data = await call("GET", `/api/my/stats?${query(this.filters())}`);
        if (seq !== this.seq) return;
        this.render(data);
        if (!data.pending) break;
      }
    } catch (err) {
      if (seq !== this.seq) return;
      clear(this.out);
      this.status.textContent = errorText(err);
      this.status.setAttribute("role", "alert");
    } finally {
      if (seq === this.seq) this.el.removeAttribute("aria-busy");
    }
  }

  // The options of a filter: what the player has played (remembered as answers come), the chosen kept.
  options(select, values, label) {
    const chosen = select.value;
    const first = select.firstElementChild;
    clear(select).append(first, ...[...values].sort().map((v) => h("option", { value: v, text: label(v) })));
    select.value = chosen;
  }

  render(data) {
    const cur = data.currency;
    for (const r of data.rows) {
      this.games.add(r.game);
      this.stakes.add(r.stakes);
    }
    this.options(this.f.game, this.games, (g) => gameName(g, g));
    this.options(this.f.stakes, this.stakes, (v) => v);
    const chosen = this.f.currency.value;
    clear(this.f.currency).append(...Object.keys(data.currencies).map((c) => h("option", { value: c, text: c })));
    this.f.currency.value = cur || chosen;
    this.status.setAttribute("role", "status");
    const notes = [];
    if (data.pending) notes.push(t("life.pending", { n: data.pending }));
    if (data.unreadable) notes.push(t("life.unreadable", { n: data.unreadable }));
    this.status.textContent = notes.join(" ");
    const tot = data.totals;
    if (!tot.hands) {
      clear(this.out).append(h("p", { class: "life-none", text: t("life.none") }));
      return;
    }
    const csv = `/api/my/stats/sessions.csv?${query({ ...this.filters(), currency: cur })}`;
    clear(this.out).append(
      h("dl", { class: "life-totals" },
        h("div", {}, h("dt", { text: t("stats.hands") }), h("dd", { class: "hands", text: fmtNumber(tot.hands) })),
        h("div", {}, h("dt", { text: t("stats.net") }),
          h("dd", { class: `net ${tot.net < 0 ? "lost" : "won"}`, "data-net": tot.net, text: signed(tot.net, cur) })),
        ...RATES.map(([k, label]) => h("div", {}, h("dt", { text: t(label) }), h("dd", { class: k, text: pct(tot.rates[k]) })))),
      h("figure", { class: "life-chart" }, profitGraph(data.graph, cur),
        h("figcaption", { text: t("life.graph", { n: tot.hands }) })),
      h("h3", { text: t("life.by_game") }),
      h("div", { class: "life-scroll" }, h("table", { class: "ledger life-rows" },
        h("thead", {}, h("tr", {}, ...["life.game", "life.stakes", "life.kind", "stats.hands", "stats.net", ...RATES.map(([, l]) => l)]
          .map((k) => h("th", { text: t(k) })))),
        h("tbody", {}, ...data.rows.map((r) => h("tr", { "data-game": r.game, "data-stakes": r.stakes },
          h("td", { text: `${gameName(r.game, r.game)} ${bettingShort(r.betting)}` }),
          h("td", { text: r.stakes }),
          h("td", { text: t(`life.kind_${r.kind}`) }),
          h("td", { class: "num hands", text: fmtNumber(r.hands) }),
          h("td", { class: `num net ${r.net < 0 ? "lost" : "won"}`, "data-net": r.net, text: signed(r.net, cur) }),
          ...RATES.map(([k]) => h("td", { class: `num ${k}`, text: pct(r.rates[k]) }))))))),
      h("h3", { text: t("life.sessions", { n: data.session_count, gap: data.gap_minutes }) }),
      h("div", { class: "life-scroll" }, h("table", { class: "ledger life-sessions" },
        h("thead", {}, h("tr", {}, ...["life.start", "life.minutes", "stats.hands", "stats.net"].map((k) => h("th", { text: t(k) })))),
        h("tbody", {}, ...data.sessions.slice(-10).reverse().map((x) => h("tr", {},
          h("td", { text: utc(x.start) }), h("td", { class: "num", text: fmtNumber(x.minutes) }),
          h("td", { class: "num", text: fmtNumber(x.hands) }),
          h("td", { class: `num net ${x.net < 0 ? "lost" : "won"}`, text: signed(x.net, cur) })))))),
      h("p", {}, h("a", { class: "life-csv", href: csv, download: "sessions.csv", "aria-disabled": data.pending ? "true" : undefined,
        onclick: (ev) => { if (data.pending) ev.preventDefault(); }, text: t("life.csv") })));
  }
}
