// Pre-actions: what to do when the action comes to us, chosen while others act. "Check/Fold", "Check",
// "Call N" (dropped when the amount to call changes) and "Call any"; each is kept for the betting round it
// was chosen in and used once, at our next betting decision.
import { h, fmt } from "./dom.js";
import { t } from "./i18n.js";

// What we would have to call now, as the table shows it (capped at our stack: a call for less is all-in).
export function toCall(hand, seat) {
  const me = hand.players[String(seat)];
  if (!me) return 0;
  const top = Math.max(0, ...Object.values(hand.players).map((p) => p.bet || 0));
  return Math.max(0, Math.min(top - (me.bet || 0), me.stack));
}

// Whether the pre-actions are offered: we are in a hand's betting, still to act, and it is not our turn.
export function offered(model) {
  const hand = model.hand;
  const seat = model.you;
  if (!hand || hand.over || seat === null || seat === undefined || model.decision) return false;
  const me = hand.players[String(seat)];
  return Boolean(me && !me.folded && !me.all_in && me.cards.length && me.stack > 0);
}

// The action a chosen pre-action takes for a decision, or null (the pre-action no longer fits: dropped).
export function resolve(pre, d) {
  if (!pre || d.kind !== "bet") return null;
  switch (pre.kind) {
    case "check_fold":
      if (d.check) return { type: "check" };
      return d.fold ? { type: "fold" } : null;
    case "check":
      return d.check ? { type: "check" } : null;
    case "call":
      return !d.check && d.call === pre.amount ? { type: "call" } : null;
    case "call_any":
      if (d.check) return { type: "check" };
      return d.call > 0 ? { type: "call" } : null;
    default:
      return null;
  }
}

export class PreActions {
  constructor() {
    this.pre = null; // {kind, amount, hand, street}
    this.dropped = "";
  }

  // Keep the choice while it still means what the player chose: same hand, same round, same amount.
  check(model) {
    const pre = this.pre;
    if (!pre) return;
    const hand = model.hand;
    if (!hand || hand.hand_id !== pre.hand || hand.street !== pre.street || hand.over) {
      this.pre = null;
      return;
    }
    if (pre.kind === "call" && offered(model) && toCall(hand, model.you) !== pre.amount) {
      this.pre = null;
      this.dropped = t("pre.changed");
    }
  }

  choose(kind, amount, model) {
    const same = this.pre && this.pre.kind === kind && this.pre.amount === amount;
    this.pre = same ? null : { kind, amount, hand: model.hand.hand_id, street: model.hand.street };
    this.dropped = "";
  }

  // The action to send for the decision that just came, clearing the choice either way.
  take(decision) {
    const action = resolve(this.pre, decision);
    if (this.pre && !action) this.dropped = t("pre.no_fit");
    this.pre = null;
    return action;
  }

  render(model, currency, onchange) {
    if (!offered(model)) return null;
    const owe = toCall(model.hand, model.you);
    const choices = owe > 0
      ? [["check_fold", 0, t("bar.fold")], ["call", owe, t("bar.call", { amount: fmt(owe, currency) })], ["call_any", 0, t("pre.call_any")]]
      : [["check_fold", 0, t("pre.check_fold")], ["check", 0, t("bar.check")], ["call_any", 0, t("pre.call_any")]];
    const bar = h("div", { class: "preactions", role: "group", "aria-label": t("pre.label") });
    for (const [kind, amount, label] of choices) {
      const on = Boolean(this.pre && this.pre.kind === kind && this.pre.amount === amount);
      bar.append(h("button", { type: "button", class: `pre pre-${kind}`, "data-pre": kind, "data-amount": amount,
        "aria-pressed": on ? "true" : "false", text: label,
        onclick: () => { this.choose(kind, amount, model); onchange(); } }));
    }
    if (this.dropped) bar.append(h("span", { class: "hint pre-dropped", text: this.dropped }));
    return bar;
  }
}
