// Deals at the final table (RULES.md §11.3, R256-R258; docs/tournaments.md, "Deals at the final table"):
// the Propose deal button's rule, the proposal (each player's ICM and chip-chop figures of the stacks now,
// and the part of the pool left to play for), the offer every player still in accepts or refuses before
// its deadline (who has accepted, the time left), and the outcome (the amounts paid, or play resuming).
// The server decides and computes everything; this shows its figures (tournament_deal frames and the
// "deal" of GET /api/tournaments/{id}).
import { h, clear, fmt } from "./dom.js";
import { api } from "./api.js";
import { dialog } from "./dialogs.js";
import { errorText, t } from "./i18n.js";
import { clockText } from "./tournament.js";

// May this player propose a deal now: deals allowed, the final table, nothing proposed, and he is still in
// (the server checks again; this only shows the button).
export function canPropose(d, me) {
  const deal = d && d.deal;
  if (!deal || !deal.allowed || deal.blocked || !deal.preview || !me) return false;
  return (d.standings || []).some((e) => String(e.player) === me && !e.place && e.stack > 0);
}

// The rows of a deal's table: each player's stack and both methods' figures; `amounts` (the deal offered)
// when there is one.
export function dealRows(x, amounts = null) {
  const figures = x.figures || x;
  return x.players.map((name, i) => ({
    name,
    stack: x.stacks[i],
    icm: figures.icm ? figures.icm[i] : null,
    chip_chop: figures.chip_chop ? figures.chip_chop[i] : null,
    amount: amounts ? amounts[i] : null,
  }));
}

function methodName(m) {
  return t(m === "icm" ? "deal.icm" : "deal.chip_chop");
}

export class DealDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("deal.title"), "deal-dialog");
    this.el = el;
    this.body = body;
    this.tournament = null;
    this.offer = null; // the offered frame (kept for the outcome: what was paid)
    this.accepted = new Set();
    this.answered = false;
    this.timer = null;
    this.currencies = new Map(); // tournament -> its currency
    el.addEventListener("close", () => {
      clearInterval(this.timer);
      this.timer = null;
    });
  }

  myName() {
    return this.app.me ? this.app.me.name : null;
  }

  show() {
    if (!this.el.open) this.el.showModal();
  }

  // The proposer's view: the stacks now and what each method would pay; a button per method.
  propose(d) {
    const s = d.summary;
    const p = d.deal.preview;
    this.tournament = s.tournament;
    this.el.dataset.tournament = s.tournament;
    this.el.dataset.state = "propose";
    const msg = h("p", { class: "hint", role: "status" });
    const send = (method) => async () => {
      try {
        await api.proposeDeal(s.tournament, method);
        msg.textContent = t("deal.proposed_you");
      } catch (err) {
        msg.textContent = errorText(err);
      }
    };
    const buttons = h("div", { class: "buttons" });
    if (p.icm) buttons.append(h("button", { type: "button", class: "primary deal-propose-icm", onclick: send("icm"), text: t("deal.propose_icm") }));
    buttons.append(h("button", { type: "button", class: "deal-propose-chop", onclick: send("chip_chop"), text: t("deal.propose_chop") }));
    clear(this.body).append(
      h("p", { text: t("deal.explain") }),
      this.table(dealRows(p), s.currency, null),
      p.keep ? h("p", { class: "deal-keep", "data-keep": String(p.keep), text: t("deal.keep", { amount: fmt(p.keep, s.currency) }) }) : null,
      buttons, msg);
    this.show();
  }

  table(rows, currency, method) {
    const head = [t("t.player"), t("t.chips"), t("deal.icm"), t("deal.chip_chop")];
    return h("table", { class: "deal-table" },
      h("thead", {}, h("tr", {}, ...head.map((x) => h("th", { text: x })), method ? h("th", { text: t("deal.answer") }) : null)),
      h("tbody", {}, ...rows.map((r) => h("tr", { "data-name": r.name, class: r.name === this.myName() ? "me" : "" },
        h("td", { text: r.name }), h("td", { text: fmt(r.stack) }),
        h("td", { class: method === "icm" ? "deal-icm chosen" : "deal-icm", "data-amount": r.icm ?? "", text: r.icm === null ? "\u2014" : fmt(r.icm, currency) }),
        h("td", { class: method === "chip_chop" ? "deal-chop chosen" : "deal-chop", "data-amount": r.chip_chop ?? "", text: r.chip_chop === null ? "" : fmt(r.chip_chop, currency) }),
        method ? h("td", { class: "deal-status", text: this.accepted.has(r.name) ? t("deal.accepted") : t("deal.waiting") }) : null))));
  }

  // The tournament's currency (the amounts' unit): from its page if open, else asked once.
  currency() {
    const d = this.app.tournamentDialog && this.app.tournamentDialog.details;
    if (d && d.summary.tournament === this.tournament) this.currencies.set(this.tournament, d.summary.currency);
    const known = this.currencies.get(this.tournament);
    if (known === undefined) {
      const id = this.tournament;
      this.currencies.set(id, "PLAY"); // (meanwhile; asked once)
      api.tournament(id).then((x) => {
        this.currencies.set(id, x.summary.currency);
        if (x.summary.currency !== "PLAY" && this.tournament === id && this.offer) this.renderOffer();
      }).catch(() => {});
    }
    return this.currencies.get(this.tournament);
  }

  // A tournament_deal frame (to every entrant of the tournament).
  onFrame(msg) {
    this.tournament = msg.tournament;
    this.el.dataset.tournament = msg.tournament;
    if (msg.state === "proposed") {
      this.offer = null;
      this.accepted = new Set();
      this.answered = false;
      this.el.dataset.state = "proposed";
      clear(this.body).append(h("p", { class: "deal-news", role: "status",
        text: t("deal.proposed", { name: msg.player, method: methodName(msg.method) }) }));
      this.show();
    } else if (msg.state === "offered") {
      this.offer = { ...msg, at: Date.now() };
      this.accepted = new Set();
      this.answered = false;
      this.renderOffer();
      this.show();
    } else if (msg.state === "accepted") {
      this.accepted.add(msg.player);
      if (this.offer) this.renderOffer();
    } else if (msg.state === "closed") {
      this.renderClosed(msg);
      this.show();
    }
    if (this.app.tournamentDialog && this.app.tournamentDialog.id === msg.tournament) this.app.tournamentDialog.load();
  }

  left() {
    const o = this.offer;
    return o ? Math.max(0, (o.expires_in ?? 0) - (Date.now() - o.at) / 1000) : 0;
  }

  renderOffer() {
    const o = this.offer;
    const cur = this.currency();
    this.el.dataset.state = "offered";
    const mine = o.players.includes(this.myName());
    const msg = h("p", { class: "hint", role: "status" });
    const answer = (accept) => async () => {
      try {
        await api.answerDeal(o.tournament, accept);
        if (this.offer !== o) return; // the deal closed meanwhile (its outcome is shown)
        this.answered = true;
        if (accept) this.accepted.add(this.myName());
        this.renderOffer();
      } catch (err) {
        if (this.offer === o) msg.textContent = errorText(err);
      }
    };
    const buttons = h("div", { class: "buttons" });
    if (mine && !this.answered && !this.accepted.has(this.myName())) {
      buttons.append(
        h("button", { type: "button", class: "primary deal-accept", onclick: answer(true), text: t("deal.accept") }),
        h("button", { type: "button", class: "deal-refuse", onclick: answer(false), text: t("deal.refuse") }));
    } else if (mine) {
      buttons.append(h("span", { class: "hint deal-answered", text: t("deal.you_accepted") }));
    }
    clear(this.body).append(
      h("p", { class: "deal-news", text: t("deal.offered", { method: methodName(o.method) }) }),
      this.table(dealRows(o), cur, o.method),
      o.keep ? h("p", { class: "deal-keep", "data-keep": String(o.keep), text: t("deal.keep", { amount: fmt(o.keep, cur) }) }) : null,
      h("p", { class: "deal-clock", role: "timer", text: t("deal.time_left", { time: clockText(this.left()) }) }),
      buttons, msg);
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      const el = this.body.querySelector(".deal-clock");
      if (el) el.textContent = t("deal.time_left", { time: clockText(this.left()) });
    }, 1000);
  }

  renderClosed(msg) {
    clearInterval(this.timer);
    this.timer = null;
    const o = this.offer;
    const cur = this.currency();
    this.el.dataset.state = msg.made ? "made" : "closed";
    this.el.dataset.reason = msg.reason;
    const parts = [];
    if (msg.made && o) {
      parts.push(h("p", { class: "deal-news", role: "status", text: t(o.keep ? "deal.made_keep" : "deal.made", { amount: fmt(o.keep, cur) }) }),
        h("ul", { class: "deal-paid" }, ...o.players.map((name, i) => h("li", { "data-name": name, "data-amount": String(o.amounts[i]),
          text: t("deal.paid_line", { name, amount: fmt(o.amounts[i], cur) }) }))));
    } else {
      const key = { refused: "deal.refused", timeout: "deal.timeout", void: "deal.void" }[msg.reason] || "deal.void";
      parts.push(h("p", { class: "deal-news", role: "status", text: t(key, { name: msg.player || "" }) }));
    }
    this.offer = null;
    clear(this.body).append(...parts);
  }
}
