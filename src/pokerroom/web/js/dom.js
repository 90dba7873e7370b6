import { fmtMoney, fmtNumber } from "./i18n.js";

// Small DOM helpers. User data is always set as text (textContent / attributes), never as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    // Through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes.
    else if (key === "style") el.style.cssText = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// The server escapes chat text (docs/protocol.md); turn the entities back into characters, then render as text.
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
export function unescapeText(text) {
  return String(text).replace(/&(amp|lt|gt|quot|#x27|#39);/g, (m) => ENTITIES[m] ?? m);
}

export function fmt(amount, currency = "PLAY") {
  if (amount === null || amount === undefined) return "";
  // In the page's language (1,234 / 1 234); the operator's console is always English.
  if (currency === "PLAY" || currency === "POINTS" || currency === "CHIPS") return fmtNumber(Number(amount));
  return fmtMoney(amount);
}

// Replace the children of ``container`` by ``children``, keeping every old element whose freshly drawn
// markup has not changed (so that a click or a half-typed number is not lost to a redraw).
export function patch(container, children) {
  const old = [...container.children];
  children.forEach((child, i) => {
    child._sig = child.outerHTML;
    const prev = old[i];
    if (prev && prev._sig === child._sig) return;
    if (prev) prev.replaceWith(child);
    else container.append(child);
  });
  for (let i = children.length; i < old.length; i += 1) old[i].remove();
}
