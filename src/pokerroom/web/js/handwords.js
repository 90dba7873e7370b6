// A hand's value in words in the page's language. The server describes hands in English ("Full house, kings
// full of sevens", "Pair of fives", "A-2-3-4-5 low": pokerroom.eval.value.describe, a small fixed grammar);
// this reads that grammar and says it again with the dictionary's hand.* and rank words. A text of another
// shape (or any text in English) is shown as the server wrote it.
import { lang, t } from "./i18n.js";

const TITLES = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const PLURALS = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
  "kings", "aces"];
const CHARS = "23456789TJQKA";
const R = `(${TITLES.join("|")})`;
const RS = `(${PLURALS.join("|")})`;

const one = (word) => t(`hr.${CHARS[TITLES.findIndex((x) => x.toLowerCase() === word.toLowerCase())]}`);
const many = (word) => t(`hrs.${CHARS[PLURALS.indexOf(word.toLowerCase())]}`);

// [pattern (case-insensitive, whole text), key, how each group becomes a parameter]
const FORMS = [
  [/^Royal flush$/i, "hand.royal", []],
  [new RegExp(`^Straight flush, ${R} high$`, "i"), "hand.straight_flush", [["r", one]]],
  [new RegExp(`^Four of a kind, ${RS}$`, "i"), "hand.quads", [["rs", many]]],
  [new RegExp(`^Full house, ${RS} full of ${RS}$`, "i"), "hand.full_house", [["rs", many], ["rs2", many]]],
  [new RegExp(`^Flush, ${R} high$`, "i"), "hand.flush", [["r", one]]],
  [new RegExp(`^Straight, ${R} high$`, "i"), "hand.straight", [["r", one]]],
  [new RegExp(`^Three of a kind, ${RS}$`, "i"), "hand.trips", [["rs", many]]],
  [new RegExp(`^Two pair, ${RS} and ${RS}$`, "i"), "hand.two_pair", [["rs", many], ["rs2", many]]],
  [new RegExp(`^Pair of ${RS}$`, "i"), "hand.pair", [["rs", many]]],
  [new RegExp(`^Four flush, ${R} high$`, "i"), "hand.four_flush", [["r", one]]],
  [new RegExp(`^Four straight, ${R} high$`, "i"), "hand.four_straight", [["r", one]]],
  [new RegExp(`^${R} high$`, "i"), "hand.high", [["r", one]]],
  [/^No low$/i, "hand.no_low", []],
  [/^([2-9TJQKA](?:-[2-9TJQKA])*) low$/i, "hand.low", [["cards", (x) => x]]],
  [/^([2-9TJQKA](?:-[2-9TJQKA])*) badugi$/i, "hand.badugi", [["cards", (x) => x]]],
  [/^([2-9TJQKA](?:-[2-9TJQKA])*) ([1-3])-card hand$/i, "hand.n_card", [["cards", (x) => x], ["n", Number]]],
];

function phrase(text) {
  for (const [re, key, params] of FORMS) {
    const m = re.exec(text);
    if (!m) continue;
    const p = {};
    params.forEach(([name, conv], i) => { p[name] = conv(m[i + 1]); });
    return t(key, p);
  }
  return null;
}

// " with a pair of fives" after a winner: the description inside a sentence starts in lower case once said
// again (the server's English is kept as it is).
export function withHand(text) {
  if (!text) return "";
  const said = handText(text);
  return t("log.with", { what: lang === "en" ? said : said.charAt(0).toLowerCase() + said.slice(1) });
}

// "Flush, ace high / 8-6-4-2-A low" (a high and a low hand) is said part by part.
export function handText(text) {
  if (!text || lang === "en") return text || "";
  const parts = String(text).split(" / ");
  const said = parts.map((part) => phrase(part.trim()));
  return said.every((x) => x !== null) ? said.join(" / ") : String(text);
}
