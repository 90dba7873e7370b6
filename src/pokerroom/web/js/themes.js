// The player's looks (issue 31): an avatar of the shipped set (img/avatars/*.svg, our own drawings) shown
// on his name plate at every table, a felt colour and a card back, kept with his presets on the server
// (GET/PATCH /api/prefs) and chosen in the account dialog. Other players' avatars come from the public
// GET /api/avatars (asked once per name in a page's life, twenty names at a time).
import { h } from "./dom.js";
import { call } from "./api.js";
import { errorText, t } from "./i18n.js";

export class Looks {
  constructor(app) {
    this.app = app;
    this.prefs = { avatar: null, theme: "green", card_back: "blue",
      choices: { avatar: [], theme: ["green"], card_back: ["blue"] } };
    this.known = new Map(); // name (lower case) -> avatar, or null for none
    this.asking = new Set();
    this.timer = null;
  }

  async load() {
    try {
      this.take(await call("GET", "/api/prefs"));
    } catch {
      this.apply(); // the defaults
    }
  }

  take(prefs) {
    this.prefs = { ...this.prefs, ...prefs, choices: prefs.choices || this.prefs.choices };
    if (this.app.me) this.known.set(this.app.me.name.toLowerCase(), this.prefs.avatar || null);
    this.apply();
  }

  apply() {
    document.body.dataset.theme = this.prefs.theme || "green";
    document.body.dataset.cardBack = this.prefs.card_back || "blue";
    this.redraw();
  }

  redraw() {
    for (const tile of this.app.tiles.values()) if (tile.model.state) tile.render();
  }

  // The avatar on a seat's plate (tile.js), once known; an unknown name is asked for shortly after.
  decorate(plate, name) {
    if (!name) return;
    const key = name.toLowerCase();
    if (!this.known.has(key)) {
      this.ask(name);
      return;
    }
    const avatar = this.known.get(key);
    if (avatar) plate.prepend(h("img", { class: "avatar", src: `/static/img/avatars/${avatar}.svg`, alt: "", "data-avatar": avatar }));
  }

  ask(name) {
    this.asking.add(name);
    if (this.timer) return;
    this.timer = setTimeout(async () => {
      this.timer = null;
      const names = [...this.asking].slice(0, 20);
      for (const n of names) this.asking.delete(n);
      const q = new URLSearchParams();
      for (const n of names) q.append("name", n);
      let got = {};
      try {
        got = await call("GET", `/api/avatars?${q}`);
      } catch {
        got = {};
      }
      for (const n of names) this.known.set(n.toLowerCase(), got[n] || null);
      if (this.asking.size) this.ask([...this.asking][0]);
      this.redraw();
    }, 50);
  }

  // The account dialog's section: avatar, felt and card back.
  section() {
    const err = h("p", { class: "error", role: "alert" });
    const done = h("p", { class: "hint", role: "status" });
    const c = this.prefs.choices;
    const avatars = h("fieldset", { class: "avatar-choice" }, h("legend", { text: t("looks.avatar") }),
      h("label", { class: "avatar-none" }, h("input", { type: "radio", name: "avatar", value: "", checked: !this.prefs.avatar }),
        h("span", { text: t("looks.no_avatar") })),
      ...c.avatar.map((a) => h("label", { title: t(`looks.a.${a}`) },
        h("input", { type: "radio", name: "avatar", value: a, checked: this.prefs.avatar === a, "aria-label": t(`looks.a.${a}`) }),
        h("img", { src: `/static/img/avatars/${a}.svg`, alt: "", class: "avatar" }))));
    const select = (name, list, value) => h("select", { name, "aria-label": t(`looks.${name}`) },
      ...list.map((v) => h("option", { value: v, selected: v === value, text: t(`looks.${name}.${v}`) })));
    const form = h("form", { id: "looks-form", onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      done.textContent = "";
      const f = form.elements;
      try {
        this.take(await call("PATCH", "/api/prefs", { avatar: f.avatar.value || null, theme: f.theme.value,
          card_back: f.card_back.value }));
        done.textContent = t("looks.saved");
      } catch (e) {
        err.textContent = errorText(e);
      }
    } },
    h("h3", { text: t("looks.title") }), avatars,
    h("label", {}, h("span", { text: t("looks.theme") }), " ", select("theme", c.theme, this.prefs.theme)),
    h("label", {}, h("span", { text: t("looks.card_back") }), " ", select("card_back", c.card_back, this.prefs.card_back)),
    err, done, h("button", { type: "submit", class: "looks-save", text: t("looks.save") }));
    return form;
  }
}
