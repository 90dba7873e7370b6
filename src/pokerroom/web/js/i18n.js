// The player's client in English, Russian and Bulgarian (docs/client.md, "Languages"): t(key, params) looks a
// string up in the chosen language's dictionary (js/i18n/*.js, the same keys in each), numbers and times are
// formatted for its locale. The choice is remembered in the browser; the browser's languages choose by
// default. Switching reloads the page, which keeps the open tables, the view and the chat (sessionStorage).
// Only a page whose <html> has data-i18n-page takes a language: the operator's console stays English.
import en from "./i18n/en.js";
import ru from "./i18n/ru.js";
import bg from "./i18n/bg.js";

export const LANGS = { en: "English", ru: "Русский", bg: "Български" };
const DICTS = { en, ru, bg };
const LOCALES = { en: "en-US", ru: "ru-RU", bg: "bg-BG" };
export const LANG_KEY = "pokerroom.lang";

// The browser's first language we have (ru-RU -> ru), else English.
export function browserLang(langs = navigator.languages || [navigator.language || ""]) {
  for (const l of langs) {
    const base = String(l).toLowerCase().split("-")[0];
    if (base in DICTS) return base;
  }
  return "en";
}

function pick() {
  if (typeof document === "undefined" || !document.documentElement.hasAttribute("data-i18n-page")) return "en";
  let saved = null;
  try {
    saved = localStorage.getItem(LANG_KEY);
  } catch {
    saved = null;
  }
  return saved in DICTS ? saved : browserLang();
}

export const lang = pick();
export const locale = LOCALES[lang];
const dict = DICTS[lang];
const plurals = new Intl.PluralRules(locale);
const numbers = new Intl.NumberFormat(locale);
const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function has(key) {
  return key in dict;
}

// The string of ``key`` with its {placeholders} filled. A plural entry is an object of the plural forms
// (one, few, many, other) chosen by params.n. A key missing here falls back to English, then to the key.
export function t(key, params = {}) {
  let text = key in dict ? dict[key] : en[key] ?? key;
  if (text && typeof text === "object") text = text[plurals.select(Number(params.n) || 0)] ?? text.other;
  // Numbers in the locale's format (12 345 in Russian); amounts come already formatted (fmt, with currency).
  return String(text).replace(/\{(\w+)\}/g, (m, name) => {
    if (!(name in params)) return m;
    const v = params[name];
    return typeof v === "number" ? numbers.format(v) : String(v);
  });
}

// A word of a closed set by its code (a status, a street), or the code itself when the set lacks it.
export function named(prefix, code) {
  return has(`${prefix}.${code}`) ? t(`${prefix}.${code}`) : String(code ?? "");
}

export function fmtNumber(n) {
  return numbers.format(n);
}

export function fmtMoney(cents) {
  return money.format(cents / 100);
}

// A time of day (12:34:56) or a date and time, from an ISO string or a Date.
export function fmtTime(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value ?? "");
  return d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function fmtDateTime(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value ?? "");
  return d.toLocaleString(locale, { dateStyle: "short", timeStyle: "medium" });
}

// 1st, 2nd (English); 1-й (Russian); 1-ви (Bulgarian): the "ordinal" plural rules pick the suffix.
const ordinals = new Intl.PluralRules(locale, { type: "ordinal" });
export function ordinal(n) {
  return t(`ord.${ordinals.select(n)}`, { n });
}

// A game's name by its code ("holdem" -> "Texas Hold'em", "Техасский холдем"); the server's name otherwise.
export function gameName(code, fallback) {
  return has(`game.${code}`) ? t(`game.${code}`) : fallback || code || "";
}

// A table's name as the room makes it from its game ("Texas Hold'em NL") in the page's language; a name
// the operator chose ("Rush Hold'em NL 6-max", a tournament's) is the room's own and stays as written.
export function tableName(name, variant, betting, variantName) {
  if (lang === "en" || !name) return name || "";
  const base = variantName || en[`game.${variant}`];
  if (base && name === `${base} ${betting}`) return `${gameName(variant, base)} ${bettingShort(betting)}`;
  return name;
}

// A mix's game as the server labels it ("FL Texas Hold'em": structure, then the game's English name) in
// the page's language, as a table's name is ("Техасский Холдем FL"); a label of another shape as written.
export function gameLabel(label) {
  const m = /^(FL|PL|NL) (.+)$/.exec(label || "");
  if (lang === "en" || !m) return label || "";
  const code = Object.keys(en).find((k) => k.startsWith("game.") && en[k] === m[2]);
  return code ? `${gameName(code.slice(5), m[2])} ${bettingShort(m[1])}` : label;
}

// FL / PL / NL in words, or as the short code for lists ("Omaha PL").
export function bettingShort(code) {
  return has(`betting.${code}`) ? t(`betting.${code}`) : code || "";
}

// An error the server sent (a frame or an HTTP refusal) in the player's language, by its code; the server's
// own (English) message in English, or for a code this client does not know.
export function errorText(err) {
  if (!err) return "";
  const code = err.code;
  if (lang === "en" || !code || !has(`err.${code}`)) return err.message || code || "";
  const params = {};
  for (const [k, v] of Object.entries(err.details || {})) params[k] = typeof v === "number" ? fmtNumber(v) : v;
  return t(`err.${code}`, params).replace(/\{\w+\}/g, "?"); // a detail the server did not send
}

// The static text of index.html: data-i18n="key" sets the text, data-i18n-attr="attr:key;attr:key" attributes.
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el.dataset.i18n) el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// The language switches (the header's and the login form's): remembered, then the page reloads.
export function bindSwitch(select) {
  select.replaceChildren(...Object.entries(LANGS).map(([code, name]) => {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    return o;
  }));
  select.value = lang;
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(LANG_KEY, select.value);
    } catch {
      // storage refused: the choice lasts for this page only
    }
    location.reload();
  });
}
