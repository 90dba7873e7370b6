// Run it twice (issue 20; docs/decisions.md, R-RIT): the question to every player still in an all-in hand
// whose board is not complete, the second board drawn under the first, and the lines of the hand log.
// Every text the player reads is in TEXT, from the page's language (i18n.js, keys "rit.*").
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const TEXT = {
  get question() { return t("rit.question"); },
  get hint() { return t("rit.hint"); },
  get yes() { return t("rit.yes"); },
  get no() { return t("rit.no"); },
  get waiting() { return t("rit.waiting"); },
  get board2() { return t("rit.board2"); },
  answeredYes: (who) => t("rit.answered_yes", { who }),
  answeredNo: (who) => t("rit.answered_no", { who }),
  decided: (runs) => t(runs === 2 ? "rit.decided_twice" : "rit.decided_once"),
  run: (n) => t(n === 2 ? "rit.run2" : "rit.run1"),
};

// The controls of the decision {kind: "run_twice", seats} in the action bar. ``button(label, action,
// onclick, key)`` is the bar's own button maker; ``send`` sends the act's action.
export function runTwiceControls(d, send, button) {
  return [
    h("span", { class: "hint run-twice-question", title: TEXT.hint, text: TEXT.question }),
    button(TEXT.yes, "run_twice_yes", () => send({ type: "run_twice", agree: true }), "y"),
    button(TEXT.no, "run_twice_no", () => send({ type: "run_twice", agree: false }), "n"),
  ];
}

// A board_dealt event into the hand model: run 0 (or absent) and 1 go on the board, run 2 on board2,
// which starts with the cards both runs share.
export function boardDealt(hand, e) {
  if (e.run === 2) {
    if (!hand.board2) hand.board2 = hand.board.slice(0, hand.shared ?? hand.board.length);
    hand.board2.push(...e.cards);
    return;
  }
  if (e.run === 1 && hand.shared === undefined) hand.shared = hand.board.length;
  hand.board.push(...e.cards);
}

// The second board, under the first (null when the board was run once). ``cardSvg`` draws a card.
export function secondBoard(hand, cardSvg) {
  if (!hand || !hand.board2 || !hand.board2.length) return null;
  const row = h("div", { class: "board board2", "aria-label": TEXT.board2 });
  const shared = hand.shared ?? 0;
  hand.board2.forEach((c, i) => {
    const svg = cardSvg(c);
    if (i < shared) svg.classList.add("shared");
    row.append(svg);
  });
  return row;
}

// A line of the hand log for the run-it-twice events ("" for the others).
export function describeRunTwice(e, who) {
  switch (e.type) {
    case "run_twice_offered": return `${TEXT.question} (${e.seats.map(who).join(", ")})`;
    case "run_twice_answered": return e.agree ? TEXT.answeredYes(who(e.seat)) : TEXT.answeredNo(who(e.seat));
    case "run_twice_decided": return TEXT.decided(e.runs);
    default: return "";
  }
}

// The run a pot award or board belongs to, as words for the log ("" when the board ran once).
export function runWords(e) {
  return e.run ? ` (${TEXT.run(e.run)})` : "";
}
