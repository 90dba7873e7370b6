// Cards drawn by us in SVG, with names for screen readers ("Ace of spades", "Face-down card").
import { s } from "./dom.js";
import { t } from "./i18n.js";

const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven",
  6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };
const SUITS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

export function parseCard(text) {
  if (!text || text === "??") return null;
  const str = String(text);
  const rank = str.length === 3 ? "T" : str[0].toUpperCase();
  const suit = str[str.length - 1].toLowerCase();
  if (!RANKS[rank] || !SUITS[suit]) return null;
  return { rank, suit };
}

export function cardName(text) {
  const c = parseCard(text);
  return c ? t(`card.${c.suit}`, { rank: t(`rank.${c.rank}`) }) : t("card.down");
}

// One card as an <svg>. opts: {down: true} marks an own face-down stud card; {selectable, selected}.
export function cardSvg(text, opts = {}) {
  const c = parseCard(text);
  const classes = ["card"];
  if (!c) classes.push("back");
  else classes.push(`suit-${c.suit}`);
  if (opts.down) classes.push("down");
  if (opts.selected) classes.push("selected");
  const svg = s("svg", {
    class: classes.join(" "),
    viewBox: "0 0 60 84",
    role: "img",
    "aria-label": opts.down ? t("card.face_down", { card: cardName(text) }) : cardName(text),
    "data-card": c ? text : "??",
  });
  if (!c) {
    svg.append(
      s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-edge" }),
      s("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, class: "card-back-inner" }),
      s("path", { d: "M30 14 L46 42 L30 70 L14 42 Z", class: "card-back-mark" }),
    );
    return svg;
  }
  const rank = c.rank === "T" ? "10" : c.rank;
  svg.append(
    s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-edge card-face" }),
    s("text", { x: 6, y: 22, class: "card-rank", "text-anchor": "start", text: rank }),
    s("text", { x: 7, y: 38, class: "card-suit-small", "text-anchor": "start", text: SYMBOLS[c.suit] }),
    s("text", { x: 38, y: 72, class: "card-suit-big", "text-anchor": "middle", text: SYMBOLS[c.suit] }),
  );
  return svg;
}
