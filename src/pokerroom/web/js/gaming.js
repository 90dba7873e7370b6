// Responsible gaming (docs/responsible-gaming.md): the player's own limits (deposits and losses per day,
// week and month, a session reminder), a cool-off or a self-exclusion, and the session reminder itself,
// which asks the server when the next one is due and shows the time played and the session's result.
import { h, clear, fmt } from "./dom.js";
import { call } from "./api.js";
import { dialog } from "./dialogs.js";
import { errorText, fmtDateTime, t } from "./i18n.js";

const api = {
  overview: () => call("GET", "/api/gaming"),
  setLimit: (kind, currency, amount) => call("PUT", "/api/gaming/limits", { kind, currency, amount }),
  exclude: (body) => call("POST", "/api/gaming/exclusion", body),
  session: () => call("GET", "/api/gaming/session"),
};

const MONEY_KINDS = ["deposit_day", "deposit_week", "deposit_month", "loss_day", "loss_week", "loss_month"];
const COOL_OFF_DAYS = [1, 2, 3, 7, 14, 30, 42];
const EXCLUSION_MONTHS = [6, 12, 24, 60];

function limitText(limit, amount) {
  if (amount === null || amount === undefined) return t("rg.none");
  return limit.kind === "session" ? t("rg.minutes", { n: amount }) : `${fmt(amount, limit.currency)} ${limit.currency}`;
}

function duration(seconds) {
  const m = Math.floor(seconds / 60);
  return t("rg.played_time", { h: Math.floor(m / 60), m: m % 60 });
}

export class GamingDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("rg.title"), "gaming");
    this.el = el;
    this.body = body;
  }

  async open() {
    clear(this.body).append(h("p", { text: t("dlg.loading") }));
    if (!this.el.open) this.el.showModal();
    let data;
    try {
      data = await api.overview();
    } catch (err) {
      clear(this.body).append(h("p", { class: "error", role: "alert", text: errorText(err) }));
      return;
    }
    clear(this.body).append(this.limitsView(data), this.limitForm(data), this.breakForm(data));
  }

  limitsView(data) {
    const rows = data.limits.map((l) => h("tr", { dataset: { kind: l.kind } },
      h("td", { text: t(`rg.kind.${l.kind}`) }),
      h("td", { class: "rg-amount", text: limitText(l, l.amount) }),
      h("td", { class: "rg-pending", text: l.pending_from
        ? t("rg.pending", { amount: limitText(l, l.pending), when: fmtDateTime(l.pending_from) }) : "" })));
    const used = Object.entries(data.used).flatMap(([cur, kinds]) => Object.entries(kinds).map(([what, w]) =>
      h("li", { text: t(`rg.used_${what}`, { currency: cur, day: fmt(w.day, cur), week: fmt(w.week, cur), month: fmt(w.month, cur) }) })));
    return h("section", { class: "rg-limits" },
      h("h3", { text: t("rg.limits") }),
      h("p", { class: "hint", text: t("rg.cooling", { n: data.cooling_hours }) }),
      rows.length ? h("table", { class: "rg-table" }, h("tbody", {}, ...rows)) : h("p", { text: t("rg.no_limits") }),
      used.length ? h("ul", { class: "rg-used" }, ...used) : "");
  }

  limitForm(data) {
    const kinds = [...MONEY_KINDS, "session"];
    const kind = h("select", { name: "kind", "aria-label": t("rg.kind") },
      ...kinds.map((k) => h("option", { value: k, text: t(`rg.kind.${k}`) })));
    const currency = h("select", { name: "currency", "aria-label": t("rg.currency") },
      ...data.currencies.map((c) => h("option", { value: c, text: c })));
    const amount = h("input", { type: "number", name: "amount", min: 0, step: "any", "aria-label": t("rg.amount") });
    const err = h("p", { class: "error", role: "alert" });
    const sync = () => { currency.disabled = kind.value === "session" || !data.currencies.length; };
    kind.addEventListener("change", sync);
    sync();
    const send = async (remove) => {
      err.textContent = "";
      const session = kind.value === "session";
      let value = null;
      if (!remove) {
        const n = Number(amount.value);
        if (!(amount.value !== "" && n > 0)) {
          err.textContent = t("rg.bad_amount");
          return;
        }
        value = session ? Math.round(n) : Math.round(n * 100); // minutes, or cents of the currency
      }
      try {
        await api.setLimit(kind.value, session ? null : currency.value, value);
        if (session) this.app.reminder?.start();
        await this.open();
      } catch (e) {
        err.textContent = errorText(e);
      }
    };
    return h("form", { class: "rg-limit-form", onsubmit: (ev) => { ev.preventDefault(); send(false); } },
      h("h3", { text: t("rg.set_limit") }),
      h("label", {}, `${t("rg.kind")} `, kind), " ", h("label", {}, `${t("rg.currency")} `, currency), " ",
      h("label", {}, `${t("rg.amount")} `, amount),
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary rg-set", text: t("rg.set") }),
        h("button", { type: "button", class: "rg-remove", text: t("rg.remove"), onclick: () => send(true) })),
      err);
  }

  breakForm(data) {
    const section = h("section", { class: "rg-break" }, h("h3", { text: t("rg.break") }));
    if (data.exclusion) {
      const e = data.exclusion;
      section.append(h("p", { class: "rg-active", text: t(`rg.active_${e.kind}`, {
        until: e.ends_at ? fmtDateTime(e.ends_at) : t("rg.permanent") }) }));
    }
    const choice = h("select", { name: "length", "aria-label": t("rg.length") },
      ...COOL_OFF_DAYS.map((d) => h("option", { value: `cool_off:${d}`, text: t("rg.cool_off_days", { n: d }) })),
      ...EXCLUSION_MONTHS.map((m) => h("option", { value: `self_exclusion:${m}`, text: t("rg.exclusion_months", { n: m }) })),
      h("option", { value: "self_exclusion:permanent", text: t("rg.exclusion_permanent") }));
    const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true,
      "aria-label": t("rg.password") });
    const sure = h("input", { type: "checkbox", name: "sure", required: true });
    const err = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "rg-break-form", onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const [kind, length] = choice.value.split(":");
      const body = { kind, password: password.value };
      if (kind === "cool_off") body.days = Number(length);
      else if (length === "permanent") body.permanent = true;
      else body.months = Number(length);
      try {
        await api.exclude(body);
      } catch (e) {
        err.textContent = errorText(e);
        return;
      }
      sessionStorage.clear();
      location.reload(); // every session has ended: the login form says until when
    } },
    h("p", { class: "hint", text: t("rg.break_hint") }),
    h("label", {}, `${t("rg.length")} `, choice), " ",
    h("label", {}, `${t("rg.password")} `, password),
    h("label", { class: "check" }, sure, ` ${t("rg.sure")}`),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "danger rg-exclude", text: t("rg.start_break") })),
    err);
    section.append(form);
    if (data.exclusions.length) {
      section.append(h("ul", { class: "rg-history" }, ...data.exclusions.map((e) => h("li", { text:
        t(`rg.history_${e.kind}`, { from: fmtDateTime(e.started_at), until: e.ends_at ? fmtDateTime(e.ends_at) : t("rg.permanent") }) }))));
    }
    return section;
  }
}

// The session reminder: after the session length the player chose, and every such interval after, a
// window with the time played and the net result since the login, to log out or to continue.
export class SessionReminder {
  constructor(app) {
    this.app = app;
    this.timer = null;
    const { el, body } = dialog(t("rg.reminder_title"), "reminder");
    this.el = el;
    this.body = body;
  }

  async start() {
    clearTimeout(this.timer);
    let s;
    try {
      s = await api.session();
    } catch {
      return; // (logged out meanwhile, or the room is away: the next login starts it again)
    }
    if (s.seconds_to_reminder === null) return;
    this.timer = setTimeout(() => this.show(), (s.seconds_to_reminder + 1) * 1000);
  }

  async show() {
    let s;
    try {
      s = await api.session();
    } catch {
      return;
    }
    const net = Object.entries(s.net).map(([cur, v]) => `${v > 0 ? "+" : ""}${fmt(v, cur)} ${cur}`).join(", ");
    clear(this.body).append(
      h("p", { class: "rg-played", text: duration(s.played_seconds) }),
      h("p", { class: "rg-net", text: t("rg.net", { net: net || t("rg.net_none") }) }),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "rg-logout", text: t("hdr.logout"), onclick: async () => {
          await call("POST", "/api/logout").catch(() => null);
          sessionStorage.clear();
          location.reload();
        } }),
        h("button", { type: "button", class: "primary rg-continue", text: t("rg.continue"), onclick: () => {
          this.el.close();
          this.start();
        } })));
    if (!this.el.open) this.el.showModal();
  }
}
