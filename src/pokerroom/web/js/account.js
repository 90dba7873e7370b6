// Accounts players manage (docs/accounts.md): the "Forgot password?" page (a code by e-mail, or the one
// the operator gave after a forced reset, then a new password), the account dialog (change the password,
// an e-mail address verified by a link), and the links mailed by the room (#reset?..., #verify-email?...).
import { h, clear } from "./dom.js";
import { call } from "./api.js";
import { dialog } from "./dialogs.js";
import { errorText, t } from "./i18n.js";

const accountApi = {
  mail: () => call("GET", "/api/account/mail"),
  settings: () => call("GET", "/api/account/settings"),
  forgot: (who) => call("POST", "/api/account/forgot", { who }),
  reset: (name, code, password) => call("POST", "/api/account/reset-password", { name, code, password }),
  changePassword: (old, password) => call("POST", "/api/account/password", { old, new: password }),
  setEmail: (password, address) => call("POST", "/api/account/email", { password, address }),
  verify: (token) => call("POST", "/api/account/email/verify", { token }),
};

function field(label, attrs) {
  return h("label", {}, h("span", { text: label }), " ", h("input", attrs));
}

// The page in place of the login form: ask for a code, then set a new password with it.
export class ForgotPage {
  constructor(app) {
    this.app = app;
    this.el = h("main", { id: "reset-page", class: "login", hidden: true });
    document.body.append(this.el);
  }

  async open({ name = "", code = "", forced = false } = {}) {
    document.querySelector("#login").hidden = true;
    document.querySelector("#app").hidden = true;
    this.el.hidden = false;
    const status = h("p", { id: "reset-status", class: "hint", role: "status" });
    const askErr = h("p", { class: "error", role: "alert" });
    const ask = h("form", { id: "forgot-form", class: "login-form", onsubmit: async (ev) => {
      ev.preventDefault();
      askErr.textContent = "";
      try {
        await accountApi.forgot(ev.target.elements.who.value.trim());
        status.textContent = t("acct.code_sent");
        setErr.textContent = "";
        if (!form.elements.name.value && !ev.target.elements.who.value.includes("@")) form.elements.name.value = ev.target.elements.who.value.trim();
        form.elements.code.focus();
      } catch (e) {
        askErr.textContent = errorText(e);
      }
    } },
    h("p", { text: t("acct.forgot_intro") }),
    field(t("acct.name_or_email"), { name: "who", value: name, maxlength: 254, required: true, autocomplete: "username" }),
    askErr,
    h("div", { class: "buttons" }, h("button", { type: "submit", id: "forgot-send", text: t("acct.send_code") })));
    const setErr = h("p", { id: "reset-error", class: "error", role: "alert" });
    const form = h("form", { id: "reset-form", class: "login-form", onsubmit: async (ev) => {
      ev.preventDefault();
      setErr.textContent = "";
      const f = ev.target.elements;
      if (f.password.value !== f.repeat.value) {
        setErr.textContent = t("acct.mismatch");
        return;
      }
      try {
        await accountApi.reset(f.name.value.trim(), f.code.value.trim(), f.password.value);
        this.close();
        const login = document.querySelector("#login-form");
        login.elements.name.value = f.name.value.trim();
        document.querySelector("#login-error").textContent = t("acct.reset_done");
      } catch (e) {
        setErr.textContent = e.code === "bad_credentials" ? t("acct.bad_code") : errorText(e);
      }
    } },
    h("p", { text: t("acct.reset_intro") }),
    field(t("login.name"), { name: "name", value: name, maxlength: 40, required: true, autocomplete: "username" }),
    field(t("acct.code"), { name: "code", value: code, maxlength: 100, required: true, autocomplete: "one-time-code" }),
    field(t("acct.new_password"), { name: "password", type: "password", maxlength: 200, required: true, autocomplete: "new-password" }),
    field(t("acct.repeat_password"), { name: "repeat", type: "password", maxlength: 200, required: true, autocomplete: "new-password" }),
    setErr,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "reset-submit", text: t("acct.set_password") })));
    const back = h("button", { type: "button", id: "reset-back", text: t("acct.back"), onclick: () => this.close() });
    clear(this.el).append(h("h1", { text: t("acct.forgot_title") }));
    if (forced) this.el.append(h("p", { id: "reset-forced", class: "error", text: t("acct.forced") }));
    let mailOn = false;
    try {
      mailOn = (await accountApi.mail()).enabled;
    } catch {
      mailOn = false;
    }
    if (!forced && !code) this.el.append(mailOn ? ask : h("p", { id: "mail-off", class: "hint", text: t("acct.mail_off") }));
    this.el.append(status, form, h("div", { class: "buttons" }, back));
    const f = form.elements;
    const first = !forced && !code && mailOn ? ask.elements.who : !name ? f.name : !code ? f.code : f.password;
    first.focus();
  }

  close() {
    this.el.hidden = true;
    if (location.hash.startsWith("#reset")) history.replaceState(null, "", location.pathname + location.search);
    this.app.showLogin();
  }
}

// The logged-in player's account: e-mail address and password.
export class AccountDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("acct.title"), "account-dialog");
    this.el = el;
    this.body = body;
  }

  async open() {
    clear(this.body).append(h("p", { text: t("dlg.loading") }));
    this.el.showModal();
    let s;
    try {
      s = await accountApi.settings();
    } catch (e) {
      clear(this.body).append(h("p", { class: "error", text: errorText(e) }));
      return;
    }
    const ok = h("p", { class: "hint", role: "status" });
    const pwErr = h("p", { class: "error", role: "alert" });
    const pw = h("form", { id: "password-form", onsubmit: async (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      pwErr.textContent = "";
      ok.textContent = "";
      if (f.password.value !== f.repeat.value) {
        pwErr.textContent = t("acct.mismatch");
        return;
      }
      try {
        await accountApi.changePassword(f.old.value, f.password.value);
        ev.target.reset();
        ok.textContent = t("acct.password_changed");
      } catch (e) {
        pwErr.textContent = errorText(e);
      }
    } },
    h("h3", { text: t("acct.change_password") }),
    field(t("acct.current_password"), { name: "old", type: "password", maxlength: 200, required: true, autocomplete: "current-password" }),
    field(t("acct.new_password"), { name: "password", type: "password", maxlength: 200, required: true, autocomplete: "new-password" }),
    field(t("acct.repeat_password"), { name: "repeat", type: "password", maxlength: 200, required: true, autocomplete: "new-password" }),
    pwErr,
    h("button", { type: "submit", class: "primary", text: t("acct.change_password") }));
    const mailErr = h("p", { class: "error", role: "alert" });
    const now = s.email ? t(s.email.verified ? "acct.email_verified" : "acct.email_unverified", { address: s.email.address }) : t("acct.email_none");
    const mail = s.mail_enabled ? h("form", { id: "email-form", onsubmit: async (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      mailErr.textContent = "";
      ok.textContent = "";
      try {
        const r = await accountApi.setEmail(f.password.value, f.address.value.trim());
        ok.textContent = r.sent ? t("acct.email_sent", { address: r.email.address }) : t("acct.email_saved");
        f.password.value = "";
      } catch (e) {
        mailErr.textContent = errorText(e);
      }
    } },
    h("h3", { text: t("acct.email") }),
    h("p", { id: "email-now", text: now }),
    field(t("acct.email_address"), { name: "address", type: "email", maxlength: 254, value: s.email ? s.email.address : "", autocomplete: "email" }),
    field(t("acct.current_password"), { name: "password", type: "password", maxlength: 200, required: true, autocomplete: "current-password" }),
    mailErr,
    h("button", { type: "submit", text: t("acct.save_email") })) : h("p", { class: "hint", text: t("acct.mail_off") });
    clear(this.body).append(ok, pw, mail);
    if (this.app.looks) this.body.append(this.app.looks.section()); // avatar, felt, card back (themes.js)
  }
}

// A link the room mailed: the reset page with its name and code filled in, or an address verified.
// Returns true when it showed the reset page (instead of the login form or the lobby).
export async function openFromLink(app) {
  const hash = location.hash;
  const params = new URLSearchParams(hash.slice(hash.indexOf("?") + 1));
  if (hash.startsWith("#reset?")) {
    await app.forgot.open({ name: params.get("name") || "", code: params.get("code") || "" });
    return true;
  }
  if (hash.startsWith("#verify-email?")) {
    history.replaceState(null, "", location.pathname + location.search);
    const { el, body } = dialog(t("acct.email"), "verify-dialog");
    let text;
    try {
      await accountApi.verify(params.get("token") || "");
      text = t("acct.verified");
    } catch (e) {
      text = errorText(e);
    }
    body.append(h("p", { id: "verify-result", text }));
    el.showModal();
  }
  return false;
}
