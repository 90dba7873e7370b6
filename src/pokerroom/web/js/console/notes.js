// Operators' notes on an account (issue 30), shown beside the account and its integrity flags: who wrote
// what, when (never changed: write another). Administrators write them.
import { api } from "./api.js";
import { h } from "../dom.js";

export async function notesSection(ui, id) {
  const d = await api.notes(id);
  const f = d.flags;
  const flags = h(
    "p",
    { id: "player-flags" },
    h("a", { href: `#integrity/${id}`, text: `${f.linked} account(s) share an address or a device` }),
    f.chat_muted
      ? h("b", { text: ` Chat muted by ${f.chat_muted.by} until ${f.chat_muted.until ?? "lifted"}: ${f.chat_muted.reason}.` })
      : "",
  );
  const list = h(
    "ol",
    { id: "player-notes", class: "notes" },
    d.notes.map((n) => h("li", {}, h("b", { text: `${n.author.name}, ${n.at}: ` }), h("span", { text: n.text }))),
  );
  const out = h("section", { id: "notes-section" }, h("h3", { text: "Notes" }), flags, list);
  if (!d.notes.length) list.append(h("li", { class: "none", text: "No notes yet." }));
  if (ui.isAdmin()) {
    out.append(
      h(
        "form",
        { id: "note-form", onsubmit: (ev) => {
          ev.preventDefault();
          ui.act("Note added", () => api.addNote(id, ev.target.elements.text.value));
        } },
        h("label", {}, "Note ", h("textarea", { name: "text", required: true, maxlength: 2000, rows: 2, cols: 60 })),
        h("button", { type: "submit", text: "Add the note" }),
      ),
    );
  }
  return out;
}
