// Integrity (issue 30): where players come from. The addresses and devices several accounts logged in
// from; an account's login history and the accounts that share an address or a device with it. Read-only.
import { api } from "./api.js";
import { h } from "../dom.js";
import { notesSection } from "./notes.js";

function row(...cells) {
  return h("tr", {}, cells.map((c) => (c instanceof Node ? h("td", {}, c) : h("td", { text: c ?? "" }))));
}

const who = (p) => h("a", { href: `#integrity/${p.id}`, text: p.name });

async function account(ui, id) {
  const d = await api.logins(id);
  return h(
    "div",
    { id: "integrity-account" },
    h("h2", {}, `Logins of ${d.player.name} `, h("a", { href: `#players/${d.player.id}`, text: "(account)" })),
    h("p", { text: `Logins are kept ${d.kept_days} days.` }),
    await notesSection(ui, id),
    h("h3", { text: "Accounts sharing an address or a device" }),
    d.linked.length
      ? h(
          "table",
          { id: "linked-accounts" },
          h("tr", {}, ["Account", "Shared addresses", "Shared devices", "Last seen"].map((t) => h("th", { text: t }))),
          d.linked.map((k) => row(who(k), k.addresses.join(", "), k.devices.join(", "), k.last_seen)),
        )
      : h("p", { id: "linked-accounts", text: "None." }),
    h("h3", { text: "Login history" }),
    h(
      "table",
      { id: "login-history" },
      h("tr", {}, ["When", "Address", "Device", "Browser"].map((t) => h("th", { text: t }))),
      d.logins.map((x) => row(x.at, x.address, x.device, x.user_agent)),
    ),
  );
}

export async function integrityPage(ui, args) {
  const results = h("div", { id: "integrity-results" });
  const form = h(
    "form",
    { id: "integrity-search", onsubmit: async (ev) => {
      ev.preventDefault();
      const found = await api.players(ev.target.elements.q.value);
      results.replaceChildren(
        h("table", {}, found.players.map((p) => row(who(p), p.role, p.created_at))),
      );
    } },
    h("label", {}, "Account", h("input", { name: "q", maxlength: 20 })),
    h("button", { type: "submit", text: "Search" }),
  );
  const page = h("div", {}, h("h2", { text: "Integrity: where players come from" }), form, results);
  if (args[0]) {
    page.append(await account(ui, args[0]));
    return page;
  }
  const d = await api.shared();
  page.append(
    h("p", {
      id: "integrity-settings",
      text: `Logins are kept ${d.kept_days} days. Players who share an address or a device ${d.separate_linked ? "are kept apart (one table, pool or tournament)" : "may play together (the room option is off)"}.`,
    }),
    h("h3", { text: "Addresses and devices of several accounts" }),
    h(
      "table",
      { id: "shared-connections" },
      h("tr", {}, ["Kind", "Address or device", "Accounts", "Last used"].map((t) => h("th", { text: t }))),
      d.shared.map((x) => {
        const names = h("span", {});
        x.players.forEach((p, i) => names.append(i ? ", " : "", who(p)));
        return row(x.kind, x.value, names, x.last_seen);
      }),
    ),
  );
  return page;
}
