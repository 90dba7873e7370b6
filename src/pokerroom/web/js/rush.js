// A Rush (fast-fold) entry: its own tile, dealt a new table after every fold (docs/protocol.md, Rush pools).
import { h } from "./dom.js";
import { Tile } from "./tile.js";
import { t } from "./i18n.js";

export class RushTile extends Tile {
  constructor(app, pool, entry) {
    super(app, `${pool.pool}#${entry}`);
    this.pool = pool;
    this.entry = entry;
    this.el.dataset.pool = pool.pool;
    this.el.dataset.entry = String(entry);
    this.status = "waiting";
    this.canQuickFold = false;
    this.el.querySelector(".chat").hidden = true; // no chat at Rush tables (nobody stays long enough)
    this.model.state = {
      table: "", name: `${pool.name} \u00b7 ${t("rush.entry", { n: entry })}`, variant: pool.variant, betting: pool.betting,
      stakes: { ...pool.stakes, chip_unit: 1 }, currency: pool.currency, seats: pool.table_size, players: {},
      you: null, hand: null, clocks: {}, kind: "rush", cash: null, tournament: null,
      rush: { pool: pool.pool, entry, quick_fold: false, can_quick_fold: false },
    };
    this.render();
  }

  act(action) {
    const dec = this.model.decision;
    if (!dec) return;
    this.send({ type: "pool_act", pool: this.pool.pool, entry: this.entry, hand_id: dec.hand_id,
      action_no: dec.action_no, action });
    this.model.decision = null;
    this.selected.clear();
    this.render();
  }

  apply(msg) {
    const m = this.model;
    const st = m.state;
    switch (msg.type) {
      case "pool_move": {
        this.status = "playing";
        st.table = msg.table;
        st.seats = msg.seats;
        st.you = msg.seat;
        st.players = {};
        for (const [seat, p] of Object.entries(msg.players)) {
          st.players[seat] = { name: p.name, stack: (msg.stacks || {})[seat] ?? 0, status: "playing", markers: [] };
        }
        if (st.hand && st.hand.hand_id !== msg.hand_id) st.hand = null;
        this.canQuickFold = Boolean(msg.quick_fold);
        break;
      }
      case "snapshot": {
        // The window given back on reconnecting: the hand so far as this entry's seat sees it.
        const name = st.name;
        m.snapshot(msg.state);
        m.state.name = name;
        this.status = "playing";
        this.canQuickFold = Boolean(msg.state.rush && msg.state.rush.can_quick_fold);
        this.selected.clear();
        break;
      }
      case "event":
        this.motion.before(msg.event);
        this.collect(msg.hand_id, msg.event);
        if (msg.event.type === "hand_started" && st.table !== msg.table) {
          st.table = msg.table;
          st.players = {};
          msg.event.seats.forEach((seat, i) => {
            st.players[String(seat)] = { name: t("tile.seat_n", { seat }), stack: msg.event.stacks[i], status: "playing", markers: [] };
          });
        }
        m.event(msg.hand_id, msg.event);
        if (msg.event.type === "hand_started" || msg.event.type === "hand_ended") this.selected.clear();
        if (msg.event.type === "action" && msg.event.seat === st.you && msg.event.action === "fold") this.status = "waiting";
        break;
      case "turn":
        m.turn(msg);
        this.canQuickFold = Boolean(msg.can_quick_fold);
        break;
      case "pool_entry":
        this.status = msg.status;
        st.hand = null;
        m.decision = null;
        m.clocks.clear();
        st.players = {};
        st.you = null;
        this.stack = msg.stack;
        break;
      case "error":
        this.error(msg);
        return;
      default:
        return;
    }
    this.render();
  }

  render() {
    super.render();
    this.el.dataset.status = this.status;
    this.el.dataset.rushTable = this.model.state.table || ""; // the short-lived table this entry sits at
  }

  controlParts() {
    const parts = [];
    if (this.status === "left") {
      const broke = this.stack === 0;
      parts.push(h("span", { class: "hint rush-left",
        text: broke ? t("rush.broke") : t("rush.left") }));
      const open = (this.app.lobby.data.pools || []).find((p) => p.pool === this.pool.pool);
      if (open) parts.push(h("button", { type: "button", class: "rejoin-btn", onclick: () => this.app.poolDialog.open(open),
        text: t("rush.join_again") }));
      return parts;
    }
    if (this.status === "waiting") parts.push(h("span", { class: "hint rush-wait", text: t("rush.finding") }));
    const hand = this.model.state.hand;
    const mine = hand && this.model.state.you !== null ? hand.players[String(this.model.state.you)] : null;
    if (mine && !mine.folded && !hand.over) {
      parts.push(h("button", { type: "button", class: "quick-fold-btn", disabled: !this.canQuickFold,
        onclick: () => this.send({ type: "quick_fold", pool: this.pool.pool, entry: this.entry }),
        text: t("rush.quick_fold") }));
    }
    parts.push(h("button", { type: "button", class: "leave-btn",
      onclick: () => this.send({ type: "pool_leave", pool: this.pool.pool, entry: this.entry }),
      text: t("rush.leave") }));
    return parts;
  }
}
