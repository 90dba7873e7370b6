// The cashier: the players' deposit and withdrawal requests (pending first). Administrators approve each
// (the payment provider is asked first; with the manual provider the operator confirms the money arrived
// or was paid) or decline it with a reason; every decision is a ledger transaction and an audit entry.
import { call } from "./api.js";
import { h } from "../dom.js";

const C = "/api/console/cashier";
const STATES = ["pending", "approved", "declined", "all"];
const money = (cents) => (cents / 100).toFixed(2);

export async function cashierPage(ui, args) {
  const state = STATES.includes(args[0]) ? args[0] : "pending";
  const data = await call("GET", `${C}?state=${state}`);
  const decide = (r, what) => {
    const reason = document.querySelector(`#cashier-reason-${r.id}`).value.trim();
    if (what === "decline" && reason.length < 3) {
      ui.status("A decline needs a reason (at least 3 characters).", true);
      return;
    }
    const label = `request ${r.id} (${r.player}, ${r.kind} ${money(r.amount)} ${r.currency}) ${what}d`;
    ui.act(label, () => call("POST", `${C}/${r.id}/${what}`, { reason }));
  };
  const actions = (r) => (r.state !== "pending" || !ui.isAdmin()) ? h("td", { text: r.reason })
    : h("td", {},
      h("input", { id: `cashier-reason-${r.id}`, name: "reason", maxlength: 500, placeholder: "reason", "aria-label": `reason for request ${r.id}` }),
      h("button", { type: "button", class: "primary approve", onclick: () => decide(r, "approve"), text: "Approve" }),
      h("button", { type: "button", class: "decline", onclick: () => decide(r, "decline"), text: "Decline" }));
  return h(
    "div",
    {},
    h("h2", { text: "Cashier" }),
    h("p", { text: `Payment provider: ${data.provider}. Approve a deposit once its money has arrived, a withdrawal once it is paid out; a declined withdrawal goes back to the player's balance.` }),
    h("nav", { class: "cashier-states" }, STATES.map((s) => h("a", { href: `#cashier/${s}`, class: s === state ? "active" : "", text: s }))),
    data.requests.length === 0
      ? h("p", { id: "cashier-empty", text: `No ${state === "all" ? "" : `${state} `}requests.` })
      : h(
        "table",
        { id: "cashier-requests" },
        h("tr", {}, ["No", "Asked", "Player", "Kind", "Amount", "Reference", "State", "Decision"].map((t) => h("th", { text: t }))),
        data.requests.map((r) => h(
          "tr",
          { "data-request": r.id, "data-state": r.state },
          h("td", { text: String(r.id) }),
          h("td", { text: r.created_at }),
          h("td", {}, h("a", { href: `#players/${r.player_id}`, text: r.player })),
          h("td", { text: r.kind }),
          h("td", { class: "num", text: `${money(r.amount)} ${r.currency}` }),
          h("td", { text: r.reference }),
          h("td", { class: "state", text: r.state }),
          actions(r),
        )),
      ),
  );
}
