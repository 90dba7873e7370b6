// Bet sizing of one's own (issue 31): the player's presets, kept on the server (GET/PATCH /api/prefs),
// become the action bar's size buttons in pot and no limit (fixed limit has its fixed sizes). Before the
// flop (or the first draw) each preset is a multiple of the bet to match, at least the big blind: "3x"
// raises to 3 big blinds in an unopened pot and to 9 over a raise to 3; later each is a share of the pot
// after our call ("50%": the bet to match plus half of that pot). "Pot" and "All-in" stay as they were.
import { h, s, clear } from "./dom.js";
import { call } from "./api.js";
import { dialog } from "./dialogs.js";
import { errorText, fmtNumber, t } from "./i18n.js";

export const prefsApi = {
  get: () => call("GET", "/api/prefs"),
  change: (changes) => call("PATCH", "/api/prefs", changes),
};

// The first betting round of a game with blinds (its presets are in big blinds): "" in a live hand (the
// engine announces only the later streets), the street's name in a snapshot. Stud games have no blinds.
const FIRST_ROUND = new Set(["", "preflop", "predraw"]);
const NO_BLINDS = new Set(["stud", "stud8", "razz", "stud5", "soko"]);

export class Presets {
  constructor(app) {
    this.app = app;
    this.preflop = [2.5, 3, 4];
    this.postflop = [33, 50, 75, 100];
    const { el, body } = dialog(t("presets.title"), "presets-dialog");
    this.el = el;
    this.body = body;
  }

  async load() {
    try {
      this.take(await prefsApi.get());
    } catch {
      // the defaults stay until the next login
    }
  }

  take(prefs) {
    this.preflop = prefs.presets.preflop;
    this.postflop = prefs.presets.postflop;
    for (const tile of this.app.tiles.values()) {
      if (!tile.model.state || !tile.model.decision) continue;
      tile.decisionKey = "x"; // an action bar on the screen gets the new buttons now
      tile.renderBar();
    }
  }

  // The size buttons of a decision: [data-preset, raise-to amount, label]. ``at``: {level, after} as the
  // action bar computes them (the bet to match; the pot after our call); ``st``: the table's state.
  sizes(at, st) {
    const out = [];
    const hand = st.hand;
    const level = st.tournament && st.tournament.level;
    const bigBlind = (level && level.big_blind) || (st.stakes && st.stakes.big_blind) || 0;
    if (hand && FIRST_ROUND.has(String(hand.street || "")) && !NO_BLINDS.has(hand.variant) && bigBlind > 0) {
      const base = Math.max(at.level, bigBlind);
      for (const x of this.preflop) out.push([`x${x}`, Math.round(x * base), t("presets.times", { n: fmtDecimal(x) })]);
    } else {
      for (const p of this.postflop) {
        if (p !== 100) out.push([`p${p}`, at.level + Math.floor((at.after * p) / 100), t("presets.pot_share", { n: String(p) })]);
      }
    }
    out.push(["Pot", at.level + at.after, t("bar.pot")]);
    return out;
  }

  editButton() {
    return h("button", { type: "button", class: "preset preset-edit", title: t("presets.edit"), "aria-label": t("presets.edit"),
      onclick: () => this.open() }, s("svg", { viewBox: "0 0 16 16", width: 12, height: 12, "aria-hidden": "true", focusable: "false" },
      s("path", { d: "M2 4h12M2 8h12M2 12h12M5 2.5v3M11 6.5v3M7 10.5v3", fill: "none", stroke: "currentColor", "stroke-width": 1.6 })));
  }

  open() {
    const err = h("p", { class: "error", role: "alert" });
    const row = (kind, values, attrs) => h("fieldset", { class: `preset-row preset-${kind}` },
      h("legend", { text: t(`presets.${kind}`) }),
      ...[0, 1, 2, 3].map((i) => h("input", { type: "number", name: `${kind}${i}`, value: values[i] ?? "", ...attrs,
        "aria-label": t(`presets.${kind}_n`, { n: i + 1 }) })));
    const form = h("form", { class: "presets-form", onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const read = (kind) => [0, 1, 2, 3].map((i) => form.elements[`${kind}${i}`].value.trim()).filter(Boolean).map(Number);
      try {
        this.take(await prefsApi.change({ presets: { preflop: read("preflop"), postflop: read("postflop") } }));
        this.el.close();
      } catch (e) {
        err.textContent = errorText(e);
      }
    } },
    h("p", { class: "hint", text: t("presets.intro") }),
    row("preflop", this.preflop, { min: 1.5, max: 100, step: 0.1, inputmode: "decimal" }),
    row("postflop", this.postflop, { min: 10, max: 500, step: 1, inputmode: "numeric" }),
    err,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary presets-save", text: t("presets.save") })));
    clear(this.body).append(form);
    if (!this.el.open) this.el.showModal();
  }
}

function fmtDecimal(x) {
  return Number.isInteger(x) ? fmtNumber(x) : new Intl.NumberFormat(document.documentElement.lang || "en",
    { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}
