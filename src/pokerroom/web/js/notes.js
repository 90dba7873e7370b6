// Reads on opponents (issue 31): the player's private notes and colour tags on other players, kept on the
// server for him only (GET/PUT/DELETE /api/notes..., docs/protocol.md "Reads and preferences"). Every seat
// of every table (and of the replayer) shows the tag's colour on the name plate, the note on hover (its
// title) and a button that opens the editor: the note, the tag, and the names of the palette's colours.
import { h, s, clear } from "./dom.js";
import { call } from "./api.js";
import { dialog } from "./dialogs.js";
import { errorText, t } from "./i18n.js";

export const readsApi = {
  list: () => call("GET", "/api/notes"),
  save: (name, text, tag) => call("PUT", `/api/notes/players/${encodeURIComponent(name)}`, { text, tag }),
  remove: (name) => call("DELETE", `/api/notes/players/${encodeURIComponent(name)}`),
  nameTags: (names) => call("PUT", "/api/notes/tags", names),
};

const COLORS = ["red", "orange", "yellow", "green", "teal", "blue", "purple", "grey"];

export class Reads {
  constructor(app) {
    this.app = app;
    this.notes = new Map(); // lower-case name -> {name, text, tag}
    this.colors = COLORS;
    this.tagNames = {};
    this.limit = 2000;
    const { el, body } = dialog(t("reads.title"), "reads-dialog");
    this.el = el;
    this.body = body;
  }

  async load() {
    try {
      const d = await readsApi.list();
      this.colors = d.colors;
      this.tagNames = d.tag_names || {};
      this.limit = d.limits.note;
      this.notes = new Map(d.notes.map((n) => [n.name.toLowerCase(), n]));
    } catch {
      return; // the tables go on without reads; the next login asks again
    }
    this.redraw();
  }

  of(name) {
    return this.notes.get(String(name || "").toLowerCase()) || null;
  }

  tagName(color) {
    return this.tagNames[color] || t(`reads.color.${color}`);
  }

  // Every open table (and replay) draws its seats again.
  redraw() {
    for (const tile of this.app.tiles.values()) if (tile.model.state) tile.render();
    const replays = [this.app.lastHands && this.app.lastHands.replay, this.app.cashier && this.app.cashier.replayTile];
    for (const tile of replays) if (tile && tile.model.state) tile.render();
  }

  // A seat of another player: the tag's colour, the note as the plate's title, and the notes button.
  decorate(seatEl, plate, name) {
    if (!this.app.me || !name || name === this.app.me.name) return;
    const read = this.of(name);
    plate.dataset.reads = "yes";
    if (read && read.tag) {
      seatEl.dataset.tag = read.tag;
      plate.prepend(h("span", { class: "tag-dot", "aria-hidden": "true" }));
    }
    const label = read && read.tag ? `${name} \u00b7 ${this.tagName(read.tag)}` : name;
    if (read && read.text) plate.title = `${label}: ${read.text}`;
    else if (read && read.tag) plate.title = label;
    const btn = h("button", { type: "button", class: `read-btn${read && read.text ? " has-note" : ""}`,
      "data-player": name, "aria-label": read && read.text ? t("reads.open_with", { name, note: read.text }) : t("reads.open", { name }),
      title: read && read.text ? read.text : t("reads.open", { name }) }, pencil());
    btn.addEventListener("click", (ev) => {
      ev.stopPropagation();
      this.open(name);
    });
    plate.append(btn);
  }

  open(name) {
    const read = this.of(name) || { text: "", tag: null };
    const err = h("p", { class: "error", role: "alert" });
    const text = h("textarea", { name: "text", rows: 4, maxlength: this.limit, class: "read-text",
      "aria-label": t("reads.note_on", { name }) });
    text.value = read.text || "";
    const tags = h("fieldset", { class: "read-tags" }, h("legend", { text: t("reads.tag") }),
      this.tagChoice("", t("reads.no_tag"), !read.tag));
    for (const color of this.colors) tags.append(this.tagChoice(color, this.tagName(color), read.tag === color));
    const form = h("form", { class: "read-form", "data-player": name, onsubmit: async (ev) => {
      ev.preventDefault();
      const tag = form.elements.tag.value || null;
      await this.change(err, async () => {
        const got = await readsApi.save(name, text.value, tag);
        if (got.note) this.notes.set(name.toLowerCase(), got.note);
        else this.notes.delete(name.toLowerCase());
      });
    } },
    h("label", { class: "read-label" }, h("span", { text: t("reads.note_on", { name }) }), text),
    tags, err,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "primary read-save", text: t("reads.save") }),
      h("button", { type: "button", class: "read-remove", disabled: !this.of(name), text: t("reads.remove"),
        onclick: () => this.change(err, async () => {
          await readsApi.remove(name);
          this.notes.delete(name.toLowerCase());
        }) })));
    this.el.setAttribute("aria-label", t("reads.title_of", { name }));
    this.el.querySelector("header h2").textContent = t("reads.title_of", { name });
    clear(this.body).append(form, this.namesForm());
    if (!this.el.open) this.el.showModal();
    text.focus();
  }

  tagChoice(color, label, checked) {
    const input = h("input", { type: "radio", name: "tag", value: color, checked });
    return h("label", { class: "tag-choice", "data-color": color || "none" }, input,
      color ? h("span", { class: "tag-swatch", "aria-hidden": "true" }) : null, h("span", { class: "tag-name", text: label }));
  }

  // The names of the palette's colours ("" gives a colour its default name back).
  namesForm() {
    const err = h("p", { class: "error", role: "alert" });
    const rows = this.colors.map((color) => h("label", { class: "tag-choice", "data-color": color },
      h("span", { class: "tag-swatch", "aria-hidden": "true" }),
      h("input", { type: "text", name: color, maxlength: 24, value: this.tagNames[color] || "",
        placeholder: t(`reads.color.${color}`), "aria-label": t("reads.name_of", { color: t(`reads.color.${color}`) }) })));
    const form = h("form", { class: "tag-names-form", onsubmit: async (ev) => {
      ev.preventDefault();
      const names = {};
      for (const color of this.colors) names[color] = form.elements[color].value;
      await this.change(err, async () => {
        this.tagNames = (await readsApi.nameTags(names)).tag_names;
        for (const color of this.colors) {
          const label = this.body.querySelector(`.read-tags [data-color="${color}"] .tag-name`);
          if (label) label.textContent = this.tagName(color);
        }
      }, false);
    } }, ...rows, err, h("div", { class: "buttons" },
      h("button", { type: "submit", class: "tag-names-save", text: t("reads.save_names") })));
    return h("details", { class: "tag-names" }, h("summary", { text: t("reads.tag_names") }), form);
  }

  async change(err, job, close = true) {
    err.textContent = "";
    try {
      await job();
    } catch (e) {
      err.textContent = errorText(e);
      return;
    }
    if (close) this.el.close();
    this.redraw();
  }
}

function pencil() {
  return s("svg", { viewBox: "0 0 16 16", width: 12, height: 12, "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M11.5 1.5l3 3-9 9H2.5v-3z M10 3l3 3", fill: "none", stroke: "currentColor", "stroke-width": 1.6,
      "stroke-linejoin": "round" }));
}
