// Findings (issue 30): the integrity report (`pokerroom integrity report`) for the last 1, 7 or 30 days,
// run on the server off its event loop. Every section of the report is drawn the same way, whatever the
// score (a new one shows without a change here): its rows, flagged first, with the accounts they name (their
// notes and linked accounts counted, each a link), the figures as key and value, and the hands that support
// them, each a link to the replayer (#hand/ID: the stored hand with every card). Read-only.
import { api } from "./api.js";
import { h, clear } from "../dom.js";
import { ReplayTile } from "../replay.js";

// The keys of a row that name its players (names, or account ids), as the server reads them.
const WHO_KEYS = ["name", "names", "player", "players", "giver", "taker", "a", "b"];
const NOT_FIGURES = new Set([...WHO_KEYS, "flagged", "hands"]);
const SHOWN_HANDS = 20;

let lastRun = null; // the id of the run this page showed last (the server keeps the last few)
let drawing = 0; // the latest drawing: an older poll that answers later is dropped

const handLink = (id) => h("a", { class: "hand-link", href: `#hand/${encodeURIComponent(id)}`, text: id });

// The accounts a row names (by name or id), as the report's accounts map knows them.
export function whoOf(row, accounts) {
  const byId = new Map(Object.values(accounts).map((a) => [a.id, a]));
  const out = [];
  for (const key of WHO_KEYS) {
    const value = row[key];
    for (const v of Array.isArray(value) ? value : [value]) {
      // (Object.hasOwn: a player named "constructor" or "__proto__" is no member of every object)
      const named = typeof v === "string" && Object.hasOwn(accounts, v) ? accounts[v] : { name: v };
      const a = typeof v === "string" ? named : typeof v === "number" ? byId.get(v) : null;
      if (a && !out.some((x) => x.name === a.name)) out.push(a);
    }
  }
  return out;
}

function account(a) {
  if (a.id === undefined) return h("span", { class: "who", text: a.name });
  return h(
    "span",
    { class: "who", "data-player": a.id },
    h("a", { href: `#players/${a.id}`, text: a.name }),
    " (",
    h("a", { class: "notes-count", href: `#players/${a.id}`, text: `${a.notes} note${a.notes === 1 ? "" : "s"}` }),
    ", ",
    h("a", { class: "linked-count", href: `#integrity/${a.id}`, text: `${a.linked} linked` }),
    ")",
  );
}

// A group's links (the report's "groups"): each pair and the detectors that flagged it, one a line.
const isLinks = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => x && Array.isArray(x.players) && Array.isArray(x.detectors));

function value(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) return v.join(", ");
  if (isLinks(v)) {
    return h("ul", { class: "links" }, v.map((x) => h("li", { text: `${x.players.join(" + ")}: ${x.detectors.map((d) => d.replace(/_/g, " ")).join(", ")}` })));
  }
  if (typeof v === "object") {
    return h("details", {}, h("summary", { text: Array.isArray(v) ? `${v.length} items` : "show" }),
      h("pre", { text: JSON.stringify(v, null, 1) }));
  }
  return String(v);
}

function figures(row) {
  const dl = h("dl", { class: "figures" });
  for (const [k, v] of Object.entries(row)) {
    if (NOT_FIGURES.has(k)) continue;
    dl.append(h("dt", { text: k.replace(/_/g, " ") }), h("dd", {}, value(v)));
  }
  if (!Array.isArray(row.hands) && row.hands !== undefined) dl.append(h("dt", { text: "hands" }), h("dd", { text: String(row.hands) }));
  return dl;
}

function hands(row) {
  const cell = h("span", { class: "hands" });
  // The supporting hands: a list of hand ids; and any figure that names one hand (first_hand, ...).
  const ids = Array.isArray(row.hands) ? row.hands.filter((x) => typeof x === "string") : [];
  ids.slice(0, SHOWN_HANDS).forEach((id, i) => cell.append(i ? " " : "", handLink(id)));
  if (ids.length > SHOWN_HANDS) cell.append(` and ${ids.length - SHOWN_HANDS} more`);
  return cell;
}

function section(x, accounts) {
  const out = h("section", { class: "findings-section", "data-key": x.key },
    h("h3", { text: `${x.title}: ${x.flagged} flagged of ${x.rows}` }));
  if (!x.shown.length) {
    out.append(h("p", { class: "none", text: "Nothing to show for this period." }));
    return out;
  }
  out.append(h(
    "table",
    { class: "findings-rows" },
    h("tr", {}, ["", "Players", "Figures", "Hands"].map((t) => h("th", { text: t }))),
    x.shown.map((row) => {
      const who = h("span", {});
      whoOf(row, accounts).forEach((a, i) => who.append(i ? "; " : "", account(a)));
      return h("tr", { class: "finding", "data-flagged": row.flagged ? "yes" : "no" },
        h("td", {}, row.flagged ? h("b", { class: "flag", text: "FLAGGED" }) : ""),
        h("td", {}, who),
        h("td", {}, figures(row)),
        h("td", {}, hands(row)));
    }),
  ));
  if (x.left_out) out.append(h("p", { class: "left-out", text: `${x.left_out} more not flagged, not shown (pokerroom integrity report --json lists every one).` }));
  return out;
}

function drawRun(box, run) {
  const head = h("p", { id: "findings-run", "data-state": run.state },
    `Report ${run.id} of the last ${run.days} day(s) (hands since ${run.since}), asked by ${run.by} at ${run.started_at}: `);
  clear(box).append(head);
  if (run.state === "running") {
    head.append(h("b", { text: "running\u2026" }));
    return;
  }
  if (run.state === "failed" || run.state === "cancelled" || !run.report) {
    head.append(h("b", { class: "error", text: `${run.state}: ${run.error}` }));
    return;
  }
  const r = run.report;
  head.append(`done at ${run.finished_at}. ${r.hands_read} hands read, ${r.flagged} flagged.`);
  box.append(h("details", { id: "findings-figures" }, h("summary", { text: "The report's figures and thresholds" }), figures(r.figures || {})));
  if (r.hands_unreadable.length) box.append(h("p", { class: "error", text: `Unreadable histories: ${r.hands_unreadable.join(", ")}` }));
  box.append(...r.sections.map((x) => section(x, r.accounts)));
}

// Ask for a run until it has finished (each request waits a while on the server), drawing it meanwhile.
async function follow(ui, box, first, mine) {
  let run = first;
  for (;;) {
    if (mine !== drawing) return;
    lastRun = run.id;
    drawRun(box, run);
    if (run.state !== "running") return;
    try {
      run = (await api.findingsRun(run.id)).run;
    } catch (e) {
      if (mine === drawing) ui.status(`${e.code || "error"}: ${e.message}`, true);
      return;
    }
  }
}

export async function findingsPage(ui) {
  const mine = ++drawing;
  const box = h("div", { id: "findings-results" });
  const days = h("select", { name: "days" }, [1, 7, 30].map((d) => h("option", { value: d, text: `the last ${d} day${d > 1 ? "s" : ""}` })));
  const form = h(
    "form",
    { id: "findings-form", onsubmit: async (ev) => {
      ev.preventDefault();
      const me = ++drawing;
      clear(box).append(h("p", { id: "findings-run", "data-state": "running", text: "Running the report\u2026" }));
      try {
        const out = await api.findings(days.value);
        follow(ui, box, out.run, me);
      } catch (e) {
        ui.status(`${e.code || "error"}: ${e.message}`, true);
        clear(box);
      }
    } },
    h("label", {}, "Hands of ", days),
    h("button", { type: "submit", class: "primary", text: "Run the report" }),
  );
  const page = h("div", {},
    h("h2", { text: "Integrity findings" }),
    h("p", { class: "hint", text: "The detectors of `pokerroom integrity report` over the stored hands (docs/integrity.md: what each can and cannot see). A flag is a reason to look at the hands, not a verdict." }),
    form, box);
  if (lastRun) {
    api.findingsRun(lastRun).then((out) => follow(ui, box, out.run, mine)).catch(() => { lastRun = null; });
  }
  return page;
}

// ---------------------------------------------------------------------------------- the replayer

let replay = null; // the replayer tile shown (its clock stops when another replaces it)

// The console's replayer has no socket, no seat of its own and no player's settings.
const replayApp = { me: null, layout: { update() {} }, focusTile() {}, socket: { send() {} } };

export async function handPage(ui, args) {
  const id = decodeURIComponent(args.join("/"));
  const msg = await api.auditHand(id);
  if (replay) replay.destroy();
  replay = new ReplayTile(replayApp, { ...msg, table: msg.table_name || msg.table, seat: null });
  const nets = Object.entries(msg.nets || {});
  return h(
    "div",
    { id: "console-hand", "data-hand-id": msg.hand_id },
    h("h2", { text: `Hand ${msg.hand_id}` }),
    h("p", { text: `${[msg.table_name || msg.table, msg.variant_name !== msg.table_name ? msg.variant_name : null,
      `${msg.stakes_label} ${msg.currency}`, msg.tournament ? `tournament ${msg.tournament}` : null].filter(Boolean).join(" \u00b7 ")}. Every card is shown (the audit copy).` }),
    h("div", { class: "console-replay" }, replay.el),
    h("h3", { text: "Won or lost" }),
    h("table", { id: "hand-nets" }, nets.map(([name, net]) => h("tr", {}, h("td", { text: name }), h("td", { class: "num", text: String(net) })))),
    h("p", {}, h("button", { type: "button", class: "back", onclick: () => history.back(), text: "Back" })),
  );
}
