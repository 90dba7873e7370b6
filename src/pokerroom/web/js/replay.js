// The hand replayer (issue 20, item 6): a hand of the "Last hands" window, or a stored hand of the cashier's
// list, drawn on a table of its own and stepped through street by street (or action by action), with the
// cards as the player saw them, then the showdown. It is a table that no socket feeds: each step replays
// the hand's events from the start.
import { h, clear, s } from "./dom.js";
import { Tile } from "./tile.js";
import { TableState } from "./table-state.js";
import { t } from "./i18n.js";

export class ReplayTile extends Tile {
  constructor(app, msg) {
    super(app, `replay-${msg.hand_id}`);
    clearInterval(this.timer);
    this.msg = msg;
    this.events = msg.events;
    const start = this.events.find((e) => e.type === "hand_started") || { seats: [], stacks: [] };
    const names = msg.players || {};
    this.base = { players: {}, seats: Math.max(msg.seats || 0, ...start.seats, 2) };
    start.seats.forEach((seat, i) => {
      this.base.players[String(seat)] = { name: names[String(seat)] || t("tile.seat_n", { seat }), stack: start.stacks[i],
        status: "playing", markers: [] };
    });
    this.el.classList.add("replay");
    this.el.querySelector(".chat").hidden = true;
    // Where the steps stop: before each later street (the first has no street_started event), before the
    // showdown, and at the end.
    const stops = new Set([this.events.length]);
    const showdown = this.events.findIndex((e) => (e.type === "cards_shown" && e.reason !== "all_in") || e.type === "pot_awarded");
    if (showdown >= 0) stops.add(showdown);
    this.events.forEach((e, i) => {
      if (e.type === "street_started" && e.index !== 0) stops.add(i);
    });
    this.stops = [...stops].sort((a, b) => a - b);
    this.go(this.stops[0]);
  }

  go(pos) {
    this.pos = Math.max(0, Math.min(pos, this.events.length));
    const msg = this.msg;
    const m = new TableState(this.id, this.app.me && this.app.me.id);
    m.state = {
      kind: "replay", table: msg.table || "", name: `${msg.table || ""} \u00b7 ${msg.hand_id}`,
      variant: (this.events[0] || {}).variant, betting: (this.events[0] || {}).betting,
      currency: msg.currency || "PLAY", stakes: { chip_unit: 1 }, seats: this.base.seats, you: msg.seat ?? null, hand: null, clocks: {},
      players: JSON.parse(JSON.stringify(this.base.players)), cash: null, tournament: null, rush: null,
    };
    for (const e of this.events.slice(0, this.pos)) m.event(msg.hand_id, e);
    m.decision = null;
    m.clocks.clear();
    this.model = m;
    this.el.dataset.step = String(this.stops.indexOf(this.pos));
    this.el.dataset.pos = String(this.pos);
    this.render();
  }

  onMessage() {} // no socket feeds a replay

  renderHeader() {
    const at = this.pos;
    const prev = [...this.stops].reverse().find((i) => i < at) ?? 0;
    const next = this.stops.find((i) => i > at);
    const hand = this.model.state.hand;
    patch2(this.header, [
      h("h2", { text: this.model.state.name }),
      h("span", { class: "spacer" }),
      // (an icon of our own: the "to start" glyph U+23EE is missing from Debian's fonts)
      h("button", { type: "button", class: "rp-start", onclick: () => this.go(0), "aria-label": t("replay.start") },
        s("svg", { class: "icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true" },
          s("path", { d: "M2 2h2.5v12H2zM14 2v12L5 8z", fill: "currentColor" }))),
      h("button", { type: "button", class: "rp-prev", disabled: at === 0, onclick: () => this.go(prev),
        text: `\u25c0 ${t("replay.street")}`, "aria-label": t("replay.prev_street") }),
      h("button", { type: "button", class: "rp-step", disabled: at >= this.events.length,
        onclick: () => this.go(at + 1), text: `${t("replay.action")} \u25b6`, "aria-label": t("replay.next_action") }),
      h("button", { type: "button", class: "rp-next", disabled: next === undefined, onclick: () => this.go(next),
        text: hand && hand.over ? t("replay.done") : `${t("replay.street")} \u25b6`, "aria-label": t("replay.next_street") }),
    ]);
  }

  renderBar() {
    clear(this.barHost);
  }

  controlParts() {
    return [];
  }
}

function patch2(el, children) {
  clear(el).append(...children);
}
