// Players: search, an account's detail, balances, ledger, hands and tickets; lock, unlock, a forced
// password reset, roles and adjustments with a reason (each audited).
import { api } from "./api.js";
import { h, fmt } from "../dom.js";
import { notesSection } from "./notes.js";

function row(...cells) {
  return h("tr", {}, cells.map((c) => (c instanceof Node ? h("td", {}, c) : h("td", { text: c ?? "" }))));
}

async function detail(ui, id) {
  const d = await api.player(id);
  const p = d.player;
  const ledger = await api.playerLedger(id, "PLAY");
  const points = await api.playerLedger(id, "PTS");
  const hands = await api.playerHands(id);
  const out = h("div", { id: "player-detail" });
  out.append(
    h("h2", { text: `${p.name} (${p.role})` }),
    h(
      "p",
      {},
      `Created ${p.created_at}. `,
      p.locked_by ? h("b", { id: "player-locked", text: `Locked by the operator: ${p.locked_by}. ` }) : "",
      p.locked_until ? `Failed-logins lock until ${p.locked_until}. ` : "",
      p.reset_pending ? "A password reset is pending. " : "",
    ),
    await notesSection(ui, id),
    h("h2", { text: "Balances" }),
    h("table", { id: "player-balances" }, Object.entries(d.balances).map(([c, v]) => row(c, fmt(v, c)))),
  );
  const actions = h("div", { class: "actions" });
  const lockForm = h(
    "form",
    { id: "lock-form", onsubmit: (ev) => {
      ev.preventDefault();
      ui.act(`${p.name} locked`, () => api.lock(id, ev.target.elements.reason.value));
    } },
    h("label", {}, "Reason", h("input", { name: "reason", required: true, maxlength: 500 })),
    h("button", { type: "submit", text: "Lock" }),
  );
  actions.append(lockForm);
  if (ui.isAdmin()) {
    actions.append(
      h("button", { type: "button", id: "unlock-btn", text: "Unlock", onclick: () => ui.act(`${p.name} unlocked`, () => api.unlock(id)) }),
      h("button", {
        type: "button",
        id: "reset-btn",
        text: "Force a password reset",
        onclick: async () => {
          const r = await ui.act(`${p.name}: password reset`, () => api.resetPassword(id));
          if (r) ui.status(`Reset code for ${p.name} (shown once, give it to the player): ${r.code}`);
        },
      }),
    );
    const roleSel = h("select", { name: "role" }, ["player", "support", "admin"].map((r) => h("option", { value: r, text: r, selected: r === p.role })));
    actions.append(
      h(
        "form",
        { id: "role-form", onsubmit: (ev) => {
          ev.preventDefault();
          ui.act(`${p.name} is ${roleSel.value} now`, () => api.setRole(id, roleSel.value));
        } },
        h("label", {}, "Role", roleSel),
        h("button", { type: "submit", text: "Set role" }),
      ),
    );
  }
  out.append(h("h2", { text: "Actions" }), actions);
  if (ui.isAdmin()) {
    out.append(
      h("h2", { text: "Adjust a balance or points" }),
      h(
        "form",
        { id: "adjust-form", onsubmit: (ev) => {
          ev.preventDefault();
          const f = ev.target.elements;
          const body = { currency: f.currency.value, amount: Number(f.amount.value), reason: f.reason.value, request_id: f.request_id.value };
          ui.act(`${p.name}: ${body.currency} adjusted by ${body.amount}`, () => api.adjust(id, body));
        } },
        h("label", {}, "Currency", h("select", { name: "currency" }, ["PLAY", "PTS", ...Object.keys(d.balances).filter((c) => !["PLAY", "PTS"].includes(c))].map((c) => h("option", { value: c, text: c })))),
        h("label", {}, "Amount (minor units; negative debits)", h("input", { name: "amount", type: "number", step: 1, required: true })),
        h("label", {}, "Reason", h("input", { name: "reason", required: true, minlength: 3, maxlength: 500 })),
        h("input", { type: "hidden", name: "request_id", value: `adj-${Date.now()}-${Math.random().toString(36).slice(2, 10)}` }),
        h("button", { type: "submit", class: "primary", text: "Adjust" }),
      ),
    );
  }
  out.append(
    h("h2", { text: "Ledger (PLAY)" }),
    h(
      "table",
      { id: "player-ledger" },
      h("tr", {}, h("th", { text: "Transaction" }), h("th", { text: "Kind" }), h("th", { text: "At" }), h("th", { class: "num", text: "Amount" }), h("th", { class: "num", text: "Balance" })),
      ledger.entries.map((e) => row(e.id, e.kind, e.at, fmt(e.amount), fmt(e.balance))),
    ),
    h("h2", { text: "Loyalty points (centipoints)" }),
    h(
      "table",
      { id: "player-points" },
      points.entries.map((e) => row(e.id, e.kind, e.at, fmt(e.amount), fmt(e.balance))),
    ),
    h("h2", { text: "Open seats" }),
    h("table", {}, d.seats.map((s) => row(s.table, fmt(s.chips, s.currency), s.since))),
    h("h2", { text: "Tickets" }),
    h("table", {}, d.tickets.map((t) => row(t.target, fmt(t.value), t.satellite))),
    h("h2", { text: "Hands" }),
    h("table", {}, hands.hands.map((x) => row(h("a", { href: `/api/console/players/${id}/hands/${x.hand_id}.txt`, target: "_blank", text: x.hand_id }), x.table, x.game, x.ended_at))),
  );
  return out;
}

export async function playersPage(ui, args) {
  const q = new URLSearchParams(location.search).get("q") || "";
  const results = h("div", { id: "player-results" });
  const form = h(
    "form",
    { id: "player-search", onsubmit: async (ev) => {
      ev.preventDefault();
      await draw(ev.target.elements.q.value);
    } },
    h("label", {}, "Name", h("input", { name: "q", value: q, maxlength: 20 })),
    h("button", { type: "submit", text: "Search" }),
  );
  async function draw(text) {
    const found = await api.players(text);
    results.replaceChildren(
      h(
        "table",
        {},
        h("tr", {}, h("th", { text: "Name" }), h("th", { text: "Role" }), h("th", { text: "Locked" }), h("th", { text: "Created" })),
        found.players.map((p) => row(h("a", { href: `#players/${p.id}`, text: p.name }), p.role, p.locked_by ? "yes" : "", p.created_at)),
      ),
    );
  }
  const page = h("div", {}, h("h2", { text: "Players" }), form, results);
  if (args[0]) page.append(await detail(ui, args[0]));
  else await draw(q);
  return page;
}
