// The model of one table as this client sees it: the snapshot, then every message applied in order.
import { boardDealt } from "./runtwice.js";

export class TableState {
  constructor(tableId, me) {
    this.table = tableId;
    this.me = me; // our player id (string) or null
    this.state = null; // the snapshot's state, kept current
    this.decision = null; // {decision, hand_id, action_no} while it is our turn
    this.clocks = new Map(); // seat -> {actionEnd, bankEnd, bankTotal} (ms since epoch)
    this.results = []; // texts of the last hand's pots
    this.handsPlayed = 0; // hands we were dealt into that ended while we watched
    this.log = []; // [{from, text}] chat and dealer lines
    this.prompt = null;
    this.offer = null;
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  get hand() {
    return this.state ? this.state.hand : null;
  }

  // One shape for every kind of table (docs/protocol.md, "snapshot"): the parts every table has, and
  // one part of its kind (cash, tournament or rush).
  snapshot(state) {
    this.clocks.clear();
    this.decision = null;
    if (!("hand" in state)) state.hand = null;
    this.state = state;
    const hand = state.hand;
    if (hand) {
      for (const p of Object.values(hand.players)) if (!p.up) p.up = p.cards.map(() => false);
      if (hand.decision) this.decision = { decision: hand.decision, hand_id: hand.hand_id, action_no: hand.action_no };
      for (const [seat, c] of Object.entries(state.clocks || {})) this.setClock(Number(seat), c.action_left, c.bank_left);
    }
  }

  setClock(seat, actionLeft, bankLeft) {
    const now = Date.now();
    const actionEnd = now + actionLeft * 1000;
    this.clocks.set(seat, { actionEnd, actionTotal: Math.max(1, actionLeft * 1000), bankEnd: actionEnd + bankLeft * 1000,
      bankTotal: bankLeft * 1000 });
  }

  seatMsg(msg) {
    const players = this.state.players;
    if (!msg.player || msg.status === "empty") {
      delete players[msg.seat];
      if (this.state.you === msg.seat) this.state.you = null;
      return;
    }
    players[msg.seat] = {
      ...(players[msg.seat] || {}),
      player: msg.player,
      name: msg.name,
      stack: msg.stack,
      status: msg.status,
      markers: msg.markers || [],
    };
    if (this.me && msg.player === this.me) this.state.you = msg.seat;
    else if (this.state.you === msg.seat) this.state.you = null;
  }

  turn(msg) {
    const hand = this.hand;
    if (hand && hand.hand_id === msg.hand_id) {
      hand.action_no = msg.action_no;
      hand.to_act = msg.seat;
    }
    // One clock at a time, except the Irish discard and run it twice (every player at the same number).
    if (msg.action_no !== this.lastTurnNo) this.clocks.clear();
    this.lastTurnNo = msg.action_no;
    this.setClock(msg.seat, msg.action_left, msg.bank_left);
    if (msg.decision && msg.seat === this.you) {
      this.decision = { decision: msg.decision, hand_id: msg.hand_id, action_no: msg.action_no };
    } else if (this.decision && !["discard", "run_twice"].includes(this.decision.decision.kind)) {
      this.decision = null;
    }
  }

  player(seat) {
    return this.hand && this.hand.players[String(seat)];
  }

  event(handId, e) {
    const t = e.type;
    if (t === "hand_started") {
      advanceMix(this.state.cash && this.state.cash.mix, e);
      advanceLevelMix(this.state.tournament && this.state.tournament.mix, e);
      const players = {};
      e.seats.forEach((seat, i) => {
        players[String(seat)] = { stack: e.stacks[i], bet: 0, paid: 0, folded: false, all_in: false,
          cards: [], up: [], shown: false };
      });
      this.state.hand = { hand_id: handId, variant: e.variant, betting: e.betting, button: e.button, board: [],
        street: "", phase: "betting", pots: [], players, action_no: 0, waiting_for: [], over: false };
      this.results = [];
      this.decision = null;
      this.clocks.clear();
      return;
    }
    const hand = this.hand;
    if (!hand || hand.hand_id !== handId) return;
    const p = e.seat !== undefined ? this.player(e.seat) : null;
    switch (t) {
      case "posted":
        if (!p) break;
        p.stack -= e.amount;
        p.paid += e.amount;
        if (e.what !== "ante" && e.what !== "dead") p.bet += e.amount;
        p.all_in = p.all_in || e.all_in;
        break;
      case "street_started":
        hand.street = e.name;
        break;
      case "cards_dealt":
        if (!p) break;
        p.cards.push(...e.cards);
        p.up.push(...e.up);
        break;
      case "board_dealt":
        boardDealt(hand, e);
        break;
      case "run_twice_offered":
        hand.phase = "run_twice";
        break;
      case "run_twice_answered":
        if (p) p.last = e.agree ? "twice" : "once";
        if (e.seat === this.you) this.decision = null;
        this.clocks.delete(e.seat);
        break;
      case "run_twice_decided":
        if (this.decision && this.decision.decision.kind === "run_twice") this.decision = null;
        this.clocks.clear();
        break;
      case "action":
        if (!p) break;
        p.stack -= e.amount;
        p.paid += e.amount;
        p.bet = e.total;
        p.all_in = p.all_in || e.all_in;
        p.last = e.action;
        if (e.action === "fold") {
          p.folded = true;
          if (e.seat !== this.you) {
            p.cards = [];
            p.up = [];
          }
        }
        if (e.seat === this.you) this.decision = null;
        this.clocks.delete(e.seat);
        break;
      case "bet_returned":
        if (!p) break;
        p.stack += e.amount;
        p.paid -= e.amount;
        p.bet = Math.max(0, p.bet - e.amount);
        break;
      case "round_ended":
        hand.pots = e.pots;
        for (const q of Object.values(hand.players)) {
          q.bet = 0;
          q.last = "";
        }
        break;
      case "drew":
        if (!p) break;
        if (e.seat === this.you) {
          const cards = [...p.cards];
          e.discarded.forEach((card, i) => {
            const at = cards.indexOf(card);
            if (at >= 0) cards[at] = e.received[i];
          });
          p.cards = cards;
          this.decision = null;
        }
        p.last = e.received.length ? `draws ${e.received.length}` : "stands pat";
        this.clocks.delete(e.seat);
        break;
      case "discarded":
        if (!p) break;
        if (e.seat === this.you) {
          p.cards = p.cards.filter((c) => !e.cards.includes(c));
          this.decision = null;
        } else {
          p.cards = p.cards.slice(0, Math.max(0, p.cards.length - e.cards.length));
        }
        p.up = p.cards.map(() => false);
        p.last = "discards";
        this.clocks.delete(e.seat);
        break;
      case "cards_shown":
        if (!p) break;
        p.cards = e.cards;
        p.up = e.cards.map(() => true);
        p.shown = true;
        p.description = e.description || "";
        break;
      case "mucked":
        if (!p) break;
        if (e.cards && e.cards.length && !e.cards.includes("??")) p.cards = e.cards;
        p.mucked = true;
        break;
      case "pot_awarded":
        e.winners.forEach((seat, i) => {
          const w = this.player(seat);
          if (w) w.stack += e.shares[i];
        });
        this.results.push(e);
        break;
      case "hand_ended":
        hand.over = true;
        hand.phase = "done";
        this.decision = null;
        this.clocks.clear();
        e.seats.forEach((seat, i) => {
          const q = this.player(seat);
          if (q) q.stack = e.stacks[i];
          const sp = this.state.players[String(seat)];
          if (sp) sp.stack = e.stacks[i];
        });
        if (this.you !== null && e.seats.includes(this.you)) this.handsPlayed += 1;
        break;
      default:
        break;
    }
  }

  totalPot() {
    const hand = this.hand;
    if (!hand) return 0;
    return Object.values(hand.players).reduce((sum, p) => sum + p.paid, 0);
  }
}


// A mixed tournament (RULES.md §11.1, R251): each level one game of the mix; a hand names its level's
// game, and the header shows it and the next level's (the snapshot's tournament.mix, kept current).
export function advanceLevelMix(mix, e) {
  if (!mix || !mix.games || !mix.games.length) return;
  const i = mix.games.findIndex((g) => g.variant === e.variant && g.betting === e.betting);
  if (i < 0) return;
  const next = mix.games[(i + 1) % mix.games.length];
  Object.assign(mix, { index: i, game: e.variant, betting: e.betting, game_label: mix.games[i].label,
    next_game: next.variant, next_betting: next.betting, next_label: next.label });
}

// A mixed table (RULES.md §11.1): a hand starts in the round's game. A hand in another game than the
// round's, or after the round's last hand, begins the next round; the header shows the game now, the
// next one and the hands left after this one (the snapshot's cash.mix, kept current between snapshots).
export function advanceMix(mix, e) {
  if (!mix || !mix.games || !mix.games.length) return;
  const i = mix.games.findIndex((g) => g.variant === e.variant && g.betting === e.betting);
  if (i < 0) return;
  if (i !== mix.index || mix.hands_left <= 0) {
    mix.index = i;
    mix.hands_left = mix.round_hands - 1;
  } else {
    mix.hands_left -= 1;
  }
  const next = mix.games[(i + 1) % mix.games.length];
  Object.assign(mix, { game: e.variant, betting: e.betting, game_label: mix.games[i].label,
    next_game: next.variant, next_betting: next.betting, next_label: next.label, choosing: null });
}
