// Operator API keys (issue 29; docs/operator-api.md): administrators make a key for the club's website
// (a name and its scopes), see its secret once, and revoke one at once; support sees the list.
import { call } from "./api.js";
import { h } from "../dom.js";

const K = "/api/console/api-keys";
const SCOPE_WORDS = {
  accounts: "create and read accounts",
  balances: "read balances",
  cashier: "credit deposits, withdrawals",
  tournaments: "list tournaments, register players",
  sso: "sign-on links into the room",
};

let justMade = null; // the key made by the last form sent: its secret is shown on the next drawing only

function secretBox(made) {
  return h(
    "section",
    { id: "apikey-secret", class: "card-box" },
    h("h2", { text: `The key "${made.key.name}"` }),
    h("p", { text: "Copy it now: the room keeps only its hash and will never show it again." }),
    h("pre", { id: "apikey-secret-text", text: made.secret }),
  );
}

function keyRow(ui, k) {
  const revoke = h("button", {
    type: "button",
    class: "revoke",
    text: "Revoke",
    onclick: () => {
      if (!window.confirm(`Revoke the key "${k.name}"? Its next call is refused.`)) return;
      ui.act(`Key ${k.name} revoked`, () => call("POST", `${K}/${encodeURIComponent(k.id)}/revoke`));
    },
  });
  return h(
    "tr",
    { dataset: { key: k.name } },
    h("td", { text: k.name }),
    h("td", {}, h("code", { text: `prk_${k.prefix}_…` })),
    h("td", { text: k.scopes.join(", ") }),
    h("td", { text: `${k.created_at.slice(0, 16).replace("T", " ")} by ${k.created_by}` }),
    h("td", { text: k.last_used_at ? k.last_used_at.slice(0, 16).replace("T", " ") : "never" }),
    h("td", { class: "state", text: k.revoked_at ? `revoked ${k.revoked_at.slice(0, 16).replace("T", " ")} by ${k.revoked_by}` : "active" }),
    h("td", {}, k.revoked_at || !ui.isAdmin() ? "" : revoke),
  );
}

export async function apiKeysPage(ui) {
  const page = h("div", { id: "apikeys" }, h("h2", { text: "Operator API keys" }));
  const admin = ui.isAdmin();
  const data = await call("GET", K);
  if (justMade) {
    page.append(secretBox(justMade));
    justMade = null;
  }
  const boxes = data.scopes.map((s) =>
    h("label", { class: "scope" }, h("input", { type: "checkbox", name: "scope", value: s }), `${s} (${SCOPE_WORDS[s] || s})`),
  );
  if (admin) page.append(
    h(
      "form",
      { id: "apikey-form", onsubmit: (ev) => {
        ev.preventDefault();
        const form = ev.target;
        const scopes = [...form.querySelectorAll("input[name=scope]:checked")].map((b) => b.value);
        const name = form.elements.name.value.trim();
        ui.act(`Key ${name} made`, async () => {
          justMade = await call("POST", K, { name, scopes });
          return justMade;
        });
      } },
      h("label", {}, "Name", h("input", { name: "name", required: true, maxlength: 32, placeholder: "club website" })),
      h("fieldset", {}, h("legend", { text: "Scopes" }), boxes),
      h("button", { type: "submit", class: "primary", text: "Make the key" }),
    ),
  );
  const head = h("tr", {}, ["Name", "Key", "Scopes", "Made", "Last used", "State", ""].map((t) => h("th", { text: t })));
  page.append(h("table", { id: "apikey-list" }, head, data.keys.map((k) => keyRow(ui, k))));
  if (!data.keys.length) page.append(h("p", { class: "none", text: "No keys yet." }));
  page.append(h("p", { class: "hint", text: "Every call made with a key is in the audit log (actions api.…). See docs/operator-api.md." }));
  return page;
}
