// Short animations at a table: new cards slide in as they are dealt, bets move to the pot when a betting
// round ends, and the pot moves to each winner. Flying chips live on an overlay above the felt (which the
// table redraws freely) and are gone after the move; the player's "reduce motion" setting turns them off.
import { h, fmt } from "./dom.js";

const CENTER = [50, 45]; // the pot, in % of the felt
const FLIGHT_MS = 450;

export class Motion {
  constructor(tile) {
    this.tile = tile;
    this.seen = new Set(); // cards already drawn: hand|place|index|card
    this.seatPos = new Map(); // seat -> [x, y] in % of the felt
    this.pending = [];
    this.flights = 0; // chips flown so far (the tests read it)
  }

  // Whether a card is new on the table (its first drawing gets the deal animation).
  fresh(handId, place, index, card) {
    const key = `${handId}|${place}|${index}|${card}`;
    if (this.seen.has(key)) return false;
    if (this.seen.size > 400) this.seen.clear();
    this.seen.add(key);
    return true;
  }

  // Before an event is applied: the chips it moves, from where they are drawn now.
  before(e) {
    const felt = this.tile.felt;
    if (e.type === "round_ended") {
      for (const bet of felt.querySelectorAll(".bet")) {
        // (our own chips sit in our seat, beside the cards: they fly from the seat)
        const from = bet.classList.contains("own-bet") ? this.seatPos.get(Number(bet.dataset.seat)) || []
          : [parseFloat(bet.style.left), parseFloat(bet.style.top)];
        if (from.every(Number.isFinite)) this.pending.push({ from, to: CENTER, text: bet.textContent, kind: "to-pot" });
      }
    } else if (e.type === "pot_awarded") {
      e.winners.forEach((seat, i) => {
        const to = this.seatPos.get(seat);
        if (to && e.shares[i] > 0) this.pending.push({ from: CENTER, to, text: fmt(e.shares[i]), kind: "to-winner" });
      });
    }
  }

  // After the table is drawn: fly the pending chips over it.
  after(layer) {
    const moves = this.pending.splice(0);
    if (!moves.length || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const m of moves) {
      const chip = h("div", { class: `chip-fly ${m.kind}`, "aria-hidden": "true", text: m.text });
      chip.style.left = `${m.from[0]}%`;
      chip.style.top = `${m.from[1]}%`;
      layer.append(chip);
      this.flights += 1;
      layer.dataset.flights = String(this.flights);
      chip.getBoundingClientRect(); // the start position is laid out before the move begins
      requestAnimationFrame(() => {
        chip.classList.add("moving");
        chip.style.left = `${m.to[0]}%`;
        chip.style.top = `${m.to[1]}%`;
      });
      setTimeout(() => chip.remove(), FLIGHT_MS + 150);
    }
  }
}
