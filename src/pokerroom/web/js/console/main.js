// The operator's console: one page per hash (#dashboard, #tables, #tournaments, #players, #promotions,
// #reports, #audit, #integrity, #findings, #hand/ID, #chat, #player-reports), for administrators and support. Everything it changes goes through /api/console (audited).
import { api } from "./api.js";
import { clear } from "../dom.js";
import { dashboardPage } from "./dashboard.js";
import { tablesPage } from "./tables.js";
import { tournamentsPage } from "./tournaments.js";
import { playersPage } from "./players.js";
import { reportsPage } from "./reports.js";
import { promotionsPage } from "./promotions.js";
import { auditPage } from "./audit.js";
import { integrityPage } from "./integrity.js";
import { findingsPage, handPage } from "./findings.js";
import { chatPage, playerReportsPage } from "./chat.js";
import { apiKeysPage } from "./apikeys.js";
import { cashierPage } from "./cashier.js";
import { gamingPage } from "./gaming.js";

const PAGES = {
  dashboard: dashboardPage,
  tables: tablesPage,
  tournaments: tournamentsPage,
  players: playersPage,
  promotions: promotionsPage,
  reports: reportsPage,
  audit: auditPage,
  integrity: integrityPage,
  findings: findingsPage,
  hand: handPage, // a stored hand in the replayer (from the findings and the players' reports)
  chat: chatPage,
  "player-reports": playerReportsPage,
  "api-keys": apiKeysPage,
  cashier: cashierPage,
  gaming: gamingPage,
};

const $ = (sel) => document.querySelector(sel);

export const ui = {
  me: null,
  status(text, error = false) {
    const el = $("#console-status");
    el.textContent = text;
    el.classList.toggle("error", error);
  },
  // Run an action, show what it did (or why it failed), and redraw the page.
  async act(what, fn) {
    try {
      const out = await fn();
      ui.status(what);
      await show();
      return out;
    } catch (e) {
      ui.status(`${e.code || "error"}: ${e.message}`, true);
      return null;
    }
  },
  isAdmin() {
    return ui.me && ui.me.role === "admin";
  },
};

let shown = 0; // the latest drawing: an older one that finishes later is dropped

async function show() {
  const name = (location.hash || "#dashboard").slice(1).split("/")[0];
  const page = PAGES[name] ? name : "dashboard";
  for (const a of document.querySelectorAll(".console-nav a")) a.classList.toggle("active", a.dataset.page === page);
  const host = $("#console-page");
  const mine = ++shown;
  try {
    const content = await PAGES[page](ui, (location.hash || "").slice(1).split("/").slice(1));
    if (mine !== shown) return;
    clear(host).append(content);
    host.dataset.page = page;
  } catch (e) {
    if (mine === shown) ui.status(`${e.code || "error"}: ${e.message}`, true);
  }
}

async function start() {
  let acc = null;
  try {
    acc = await api.account();
  } catch {
    acc = null;
  }
  if (!acc) {
    $("#console-login").hidden = false;
    $("#console").hidden = true;
    return;
  }
  if (!["admin", "support"].includes(acc.player.role)) {
    $("#console-login").hidden = false;
    $("#console-login-error").textContent = "This account is not an administrator or support.";
    return;
  }
  ui.me = acc.player;
  $("#console-me").textContent = acc.player.name;
  $("#console-role").textContent = acc.player.role;
  $("#console-login").hidden = true;
  $("#console").hidden = false;
  await show();
}

$("#console-login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  try {
    await api.login(form.elements.name.value.trim(), form.elements.password.value);
    $("#console-login-error").textContent = "";
    await start();
  } catch (e) {
    $("#console-login-error").textContent = e.message;
  }
});
window.addEventListener("hashchange", () => {
  ui.status("");
  show();
});
start();
