// The all-in run-out, street by street. When the hands are turned face up because nobody can bet any more
// (the engine's cards_shown with reason "all_in"), the server sends the rest of the hand at once; this
// plays it back with a beat between streets and asks the server for each face-up hand's equity on the
// board so far (GET /api/equity). A decision of ours never waits behind it: a turn with our decision of
// another hand, or a snapshot, plays the rest at once; our own "run it twice?" question is shown at once and
// the run-out goes on, street by street, after it. Once the pots are awarded the result stays RESULT_MS
// on the felt before the next hand's frames are drawn (the server's pause between hands grows by a beat
// per street run out: Timing.run_out_beat, docs/client.md). The equity is shown during the run-out only.
import { api } from "./api.js";

export const BEAT_MS = 1100;
export const RESULT_MS = 1500;

// The variants whose run-out equity the server computes (board games and stud; draw games have nothing left
// to deal once the hands are face up).
const EQUITY_VARIANTS = new Set(["holdem", "irish", "shortdeck", "omaha", "omaha5", "omaha6", "omaha8", "omaha8_5",
  "stud", "stud8", "razz", "stud5"]);

export class RunOut {
  constructor(tile) {
    this.tile = tile;
    this.queue = [];
    this.timer = null;
    this.handId = null; // the hand being run out
    this.equity = new Map(); // seat -> share (0..1) on the board so far
    this.asked = "";
    this.resting = null; // the timer while the result of a run-out stays on the felt
  }

  get active() {
    return this.handId !== null;
  }

  // The equity of a seat in the hand being run out (undefined outside a run-out).
  shareOf(handId, seat) {
    return this.active && handId === this.handId ? this.equity.get(seat) : undefined;
  }

  // Take a frame that must wait behind the run-out; false: the caller applies it now.
  hold(msg) {
    if (this.resting && msg.type !== "snapshot" && msg.type !== "table_closed" && !(msg.type === "turn" && msg.decision)) {
      this.queue.push(msg); // the run-out's result is still being shown
      return true;
    }
    if (this.resting) this.flush();
    if (!this.active) {
      const e = msg.type === "event" ? msg.event : null;
      if (e && e.type === "cards_shown" && e.reason === "all_in") {
        this.handId = msg.hand_id;
        this.equity.clear();
        this.asked = "";
        // The exposure itself is shown at once (with the equity on the board so far); what follows is paced.
        this.timer = setTimeout(() => this.step(), BEAT_MS);
        setTimeout(() => this.askEquity(), 0);
      }
      return false;
    }
    const mine = msg.type === "turn" && msg.decision;
    if (mine && msg.hand_id === this.handId) {
      // A question of this hand for us ("run it twice?"): shown at once; the run-out goes on after it.
      const queued = this.queue.splice(0);
      for (const m of queued) this.tile.apply(m);
      return false;
    }
    if (msg.type === "snapshot" || msg.type === "table_closed" || mine) {
      this.flush();
      return false;
    }
    if (msg.type === "event" && msg.hand_id === this.handId && !this.queue.length && this.applyNow(msg.event)) {
      setTimeout(() => this.askEquity(), 0); // another hand face up: the equity of all of them
      return false;
    }
    this.queue.push(msg);
    return true;
  }

  // Within the run-out, frames up to the next street are applied as they come (more exposure of stud cards).
  applyNow(e) {
    return e.type === "cards_shown" || e.type === "round_ended";
  }

  // Apply queued frames up to and including the next street's cards, then wait a beat.
  step() {
    this.timer = null;
    let dealt = false;
    while (this.queue.length) {
      const msg = this.queue[0];
      const e = msg.type === "event" ? msg.event : null;
      const street = e && msg.hand_id === this.handId && (e.type === "street_started" || e.type === "board_dealt" || e.type === "cards_dealt");
      // A beat before the next street, and before the pots are awarded after the last one.
      if (dealt && e && ((street && e.type === "street_started") || e.type === "pot_awarded")) break;
      this.queue.shift();
      this.tile.apply(msg);
      if (street) dealt = true;
      if (e && msg.hand_id === this.handId && e.type === "hand_ended") {
        this.end();
        this.rest();
        return;
      }
      if (msg.hand_id !== undefined && msg.hand_id !== this.handId) {
        this.end();
        this.drain();
        return;
      }
    }
    this.askEquity();
    this.timer = setTimeout(() => this.step(), BEAT_MS);
  }

  // The result stays on the felt a while; what came meanwhile (the next hand) is drawn after it.
  rest() {
    this.resting = setTimeout(() => {
      this.resting = null;
      this.drain();
    }, RESULT_MS);
  }

  // The frames that waited, through the usual way in (one of them may start the next hand's run-out).
  drain() {
    while (this.queue.length && !this.active && !this.resting) this.tile.onMessage(this.queue.shift());
  }

  end() {
    this.handId = null;
    this.equity.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  flush() {
    this.end();
    if (this.resting) clearTimeout(this.resting);
    this.resting = null;
    const queued = this.queue.splice(0);
    for (const msg of queued) this.tile.apply(msg);
  }

  // Each face-up hand's share of the pot on the board so far, shown by its seat when the answer comes.
  async askEquity() {
    const st = this.tile.model.state;
    const hand = st && st.hand;
    if (!hand || hand.over || hand.hand_id !== this.handId || !EQUITY_VARIANTS.has(hand.variant)) return;
    const seats = Object.keys(hand.players).filter((s) => {
      const p = hand.players[s];
      return !p.folded && p.cards.length && !p.cards.includes("??");
    });
    if (seats.length < 2) return;
    const hands = seats.map((s) => hand.players[s].cards.join(""));
    const board = hand.board2 || hand.board; // run it twice: the run being dealt (the second comes last)
    const key = `${hand.hand_id}|${hands.join(",")}|${board.join("")}`;
    if (key === this.asked) return;
    this.asked = key;
    try {
      const res = await api.equity(hand.variant, hands, board.join(""));
      if (this.tile.model.hand !== hand || this.asked !== key) return;
      this.equity.clear();
      seats.forEach((s, i) => this.equity.set(Number(s), res.hands[i].share));
      this.tile.render();
    } catch {
      // no equity this time: the run-out goes on without it
    }
  }

  destroy() {
    this.end();
    if (this.resting) clearTimeout(this.resting);
    this.resting = null;
    this.queue = [];
  }
}
