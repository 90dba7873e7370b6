// Dialogs: taking a seat, the cashier (balance, ledger, hand histories) and the last-hand window.
import { h, clear, fmt } from "./dom.js";
import { api } from "./api.js";
import { cardName } from "./cards.js";
import { handText, withHand } from "./handwords.js";
import { bettingShort, errorText, fmtDateTime, fmtTime, gameName, named, t } from "./i18n.js";
import { describeRunTwice, runWords } from "./runtwice.js";
import { moneySection } from "./cashier.js";
import { reportHandBox } from "./reporthand.js";

export function dialog(title, cls) {
  const body = h("div", { class: "dialog-body" });
  const el = h("dialog", { class: `dialog ${cls}`, "aria-label": title },
    h("header", {}, h("h2", { text: title }),
      h("button", { type: "button", class: "dialog-close", "aria-label": t("dlg.close"), onclick: () => el.close(), text: "\u00d7" })),
    body);
  document.body.append(el);
  return { el, body };
}

export class SitDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("sit.title"), "sit-dialog");
    this.el = el;
    this.body = body;
  }

  open(tile, seat) {
    const st = tile.model.state;
    const { min } = st.cash.buy_in;
    const max = st.cash.buy_in.max || 0; // 0: no maximum
    const amount = h("input", { type: "number", name: "buy_in", min, max: max || undefined, step: 1,
      value: max || 2 * min, required: true, "aria-label": t("sit.buy_in") });
    const range = max ? t("sit.between", { min: fmt(min, st.currency), max: fmt(max, st.currency) })
      : t("sit.at_least", { min: fmt(min, st.currency) });
    const postNow = h("input", { type: "checkbox", name: "post_now" });
    const err = h("p", { class: "error", role: "alert" });
    const form = h("form", { method: "dialog", onsubmit: (ev) => {
      ev.preventDefault();
      const v = Math.round(Number(amount.value));
      if (!(v >= min && (!max || v <= max))) {
        err.textContent = t("sit.bad_buy_in", { range });
        return;
      }
      tile.send({ type: "sit", table: tile.id, seat, buy_in: v, post_now: postNow.checked });
      this.el.close();
    } },
    h("p", { text: t("sit.intro", { name: st.name, seat, range }) }),
    h("label", {}, `${t("sit.buy_in")} `, amount),
    h("label", { class: "check" }, postNow, ` ${t("sit.post_now")}`),
    err,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary sit-confirm", text: t("sit.sit_down") })));
    clear(this.body).append(form);
    this.el.showModal();
    amount.focus();
  }
}

export class Cashier {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("cash.title"), "cashier");
    this.el = el;
    this.body = body;
  }

  async open() {
    clear(this.body).append(h("p", { text: t("dlg.loading") }));
    this.el.showModal();
    let account;
    let ledger;
    let hands;
    try {
      [account, ledger, hands] = await Promise.all([api.account(), api.ledger(), api.hands()]);
    } catch (err) {
      clear(this.body).append(h("p", { class: "error", text: errorText(err) }));
      return;
    }
    const b = account.balances;
    const refill = h("button", { type: "button", class: "refill", onclick: async () => {
      try {
        await api.refill();
        this.open();
        this.app.refreshBalance();
      } catch (err) {
        refill.after(h("span", { class: "error", text: ` ${errorText(err)}` }));
      }
    }, text: t("cash.refill") });
    const rows = ledger.entries.map((e) => h("tr", {},
      h("td", { text: fmtDateTime(e.created_at || e.at || "") }),
      h("td", { text: named("ledger", e.kind || e.type || "") }),
      h("td", { class: "num", text: fmt(e.amount, ledger.currency) }),
      h("td", { class: "num", text: e.balance !== undefined ? fmt(e.balance, ledger.currency) : "" })));
    // Each stored hand: when, where, the game and stakes, what it won or lost us; replay it or download it.
    const handRows = hands.hands.map((x) => {
      const net = x.net ?? null;
      return h("tr", { "data-hand-id": x.hand_id },
        h("td", { text: x.ended_at ? fmtDateTime(x.ended_at) : "" }),
        h("td", { text: x.table_name || x.table }),
        h("td", { text: storedGame(x.game) }),
        h("td", { class: "stakes", text: x.stakes_label || "" }),
        h("td", { class: `num net ${net > 0 ? "won" : net < 0 ? "lost" : ""}`, "data-net": net ?? "",
          text: net === null ? "" : `${net > 0 ? "+" : ""}${fmt(net, x.currency)}` }),
        h("td", {},
          h("button", { type: "button", class: "link replay-btn", onclick: () => this.replay(x.hand_id), text: t("cash.replay") }), " ",
          h("a", { href: `/api/hands/${encodeURIComponent(x.hand_id)}.phh`, download: `${x.hand_id}.phh`, text: "PHH" }), " ",
          h("a", { href: `/api/hands/${encodeURIComponent(x.hand_id)}.txt`, download: `${x.hand_id}.txt`, text: t("cash.text") })));
    });
    this.replayBox = h("div", { class: "cashier-replay" });
    const money = h("div", { class: "money-box" }); // every currency of the room: cashier.js
    moneySection(() => { this.open(); this.app.refreshBalance(); })
      .then((el) => clear(money).append(el))
      .catch((err) => clear(money).append(h("p", { class: "error", text: errorText(err) })));
    clear(this.body).append(
      h("section", { class: "balances" },
        h("div", {}, `${t("cash.play_money")} `, h("b", { class: "balance-play", text: fmt(b.PLAY ?? 0) })),
        h("div", {}, `${t("cash.points")} `, h("b", { text: fmt(b.POINTS ?? 0, "POINTS_CENTS") })),
        refill),
      money,
      h("h3", { text: t("cash.ledger") }),
      rows.length
        ? h("table", { class: "ledger" }, h("thead", {}, h("tr", {}, ...["cash.when", "cash.what", "cash.amount", "cash.balance"].map((k) => h("th", { text: t(k) })))), h("tbody", {}, rows))
        : h("p", { text: t("cash.no_entries") }),
      h("h3", { text: t("cash.histories") }),
      h("p", {}, `${t("cash.all_hands")} `,
        h("a", { class: "dl-phh", href: "/api/hands/export.phhs", download: "hands.phhs", text: "PHH" }), " \u00b7 ",
        h("a", { class: "dl-txt", href: "/api/hands/export.txt", download: "hands.txt", text: t("cash.text") })),
      handRows.length
        ? h("table", { class: "hand-list" }, h("thead", {}, h("tr", {}, ...["cash.ended", "cash.table", "cash.game", "cash.stakes", "cash.result", ""].map((k) => h("th", { text: k ? t(k) : "" })))), h("tbody", {}, handRows))
        : h("p", { text: t("cash.no_hands") }),
      this.replayBox,
    );
  }

  // A stored hand on a table of its own (replay.js), as we saw it (GET /api/hands/{id}/replay).
  async replay(handId) {
    let msg;
    try {
      msg = await api.handReplay(handId);
    } catch (err) {
      clear(this.replayBox).append(h("p", { class: "error", text: errorText(err) }));
      return;
    }
    if (this.replayTile) this.replayTile.destroy();
    this.replayTile = this.app.replayTile({ ...msg, table: msg.table_name || msg.table });
    const names = msg.players || {};
    const lines = describeHand(msg.events, (seat) => names[String(seat)] || t("tile.seat_n", { seat }), msg.seat);
    clear(this.replayBox).append(h("h3", { text: `${msg.table_name || msg.table} ${msg.hand_id}` }),
      reportHandBox(msg.hand_id), this.replayTile.el,
      h("details", { class: "hand-text" }, h("summary", { text: t("cash.as_text") }),
        h("ol", { class: "hand-events" }, lines.map((t) => h("li", { text: t })))));
    this.replayBox.scrollIntoView({ block: "nearest" });
  }
}

export class LastHands {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("hdr.last_hands"), "last-hands");
    this.el = el;
    this.body = body;
    this.list = h("ol", { class: "last-list" });
    this.detail = h("div", { class: "last-detail" });
    body.append(this.list, this.detail);
  }

  open() {
    clear(this.list).append(h("li", { text: t("dlg.loading") }));
    clear(this.detail);
    this.app.socket.send({ type: "last_hands" });
    if (!this.el.open) this.el.showModal();
  }

  onMessage(msg) {
    if (msg.type === "last_hands") {
      clear(this.list);
      if (!msg.hands.length) this.list.append(h("li", { text: t("last.none") }));
      // Newest first, in time order across tables (the server lists them per table session; issue 31).
      const when = (x) => Date.parse(x.started_at) || 0;
      for (const x of [...msg.hands].sort((a, b) => when(b) - when(a))) {
        this.list.append(h("li", {}, h("button", { type: "button", class: "link",
          onclick: () => this.app.socket.send({ type: "last_hands", hand_id: x.hand_id }),
          text: `${x.table} \u00b7 ${x.hand_id} \u00b7 ${fmtTime(x.started_at)}` })));
      }
    } else if (msg.type === "last_hand") {
      const names = msg.players || {};
      const who = (seat) => names[String(seat)] || t("tile.seat_n", { seat });
      const lines = describeHand(msg.events, who, msg.seat);
      if (this.replay) this.replay.destroy();
      this.replay = this.app.replayTile(msg); // the hand on a table, street by street (replay.js)
      clear(this.detail).append(h("h3", { text: `${msg.table || ""} ${msg.hand_id}` }), reportHandBox(msg.hand_id),
        this.replay.el,
        h("details", { class: "hand-text", open: true }, h("summary", { text: t("last.as_text") }),
          h("ol", { class: "hand-events" }, lines.map((t) => h("li", { text: t })))));
      const proof = msg.proof || this.app.fairness.proofs.get(msg.hand_id);
      if (proof) {
        this.verdict = h("div", { class: "verify-result", role: "status" });
        this.detail.append(h("p", {}, h("button", { type: "button", class: "link verify",
          onclick: () => this.verify(msg.hand_id, proof), text: t("last.verify") }),
          ` ${t("last.verify_deck", { commitment: `${proof.commitment.slice(0, 16)}\u2026` })}`), this.verdict);
      }
    } else if (msg.type === "hand_verified" && this.verdict && msg.hand_id === this.verifying) {
      const room = msg.ok
        ? [t("fair.room_ok", { n: msg.checked })]
        : msg.problems.map((p) => t("fair.differs", { problem: p }));
      const list = this.verdict.querySelector("ul");
      for (const line of [...room, ...msg.notes.map((n) => t("fair.note", { note: n }))]) list.append(h("li", { text: line }));
      this.verdict.dataset.room = msg.ok ? "ok" : "failed";
      this.verdict.querySelector(".verify-head").textContent =
        msg.ok && this.verdict.dataset.browser === "ok" ? t("fair.ok") : t("fair.failed");
    }
  }

  // The browser checks the hash and the commitment it saw at the start; the room checks the dealing
  // order on the player's own history (the same check as `pokerroom verify`).
  verify(handId, proof) {
    const { ok, lines } = this.app.fairness.check(handId, proof);
    this.verifying = handId;
    clear(this.verdict).append(h("strong", { class: "verify-head", text: ok ? t("fair.checking") : t("fair.failed") }),
      h("ul", {}, lines.map((line) => h("li", { text: line }))));
    this.verdict.dataset.browser = ok ? "ok" : "failed";
    this.app.socket.send({ type: "verify_hand", hand_id: handId });
  }
}

// A stored hand's game, "holdem/NL", as the lobby words it ("Texas Hold'em NL", "Техасский Холдем НЛ").
function storedGame(code) {
  const [variant, betting] = String(code || "").split("/");
  return betting ? `${gameName(variant, variant)} ${bettingShort(betting)}` : gameName(code, code);
}

function cards(list) {
  return list.map((c) => (c === "??" ? "??" : c)).join(" ");
}

// A hand's events as lines, worded as the text export words them ("raises 40 to 60": by how much, to
// what), which needs the bet level of the round so far.
export function describeHand(events, who, you) {
  let level = 0;
  const lines = [];
  for (const e of events) {
    if (e.type === "street_started") level = 0;
    if (e.type === "posted" && e.what !== "ante" && e.what !== "dead") level = Math.max(level, e.amount);
    const line = e.type === "action" ? actionLine(e, who, level) : describe(e, who, you);
    if (e.type === "action") level = Math.max(level, e.total);
    if (line) lines.push(line);
  }
  return lines;
}

function actionLine(e, who, level) {
  const p = { who: who(e.seat), amount: fmt(e.amount), total: fmt(e.total), by: fmt(e.total - level),
    all_in: e.all_in ? t("log.and_all_in") : "" };
  switch (e.action) {
    case "fold": return t("log.folds", p);
    case "check": return t("log.checks", p);
    case "call": return t("log.calls", p);
    case "bring_in": return t("log.brings_in", p);
    case "bet": return t("log.bets", p);
    case "complete": return t("log.completes", p);
    default: return t("log.raises", p);
  }
}

export function describe(e, who, you) {
  const w = e.seat !== undefined ? who(e.seat) : "";
  switch (e.type) {
    case "hand_started": return t("log.hand_started", { game: `${gameName(e.variant, e.variant)} ${bettingShort(e.betting)}`,
      seat: e.button ?? "-" });
    case "posted": return t("log.posts", { who: w, what: named("post", e.what), amount: fmt(e.amount) });
    case "street_started": return `*** ${named("street", e.name)} ***`;
    case "cards_dealt": return e.seat === you || e.up.some(Boolean) ? t("log.dealt", { who: w, cards: cards(e.cards) }) : "";
    case "board_dealt": return t("log.board", { cards: cards(e.cards) }) + runWords(e);
    case "action": return `${w} ${e.action}${e.amount ? " " + fmt(e.amount) : ""}${e.all_in ? " (all-in)" : ""}`;
    case "bet_returned": return t("log.returned", { who: w, amount: fmt(e.amount) });
    case "drew": return e.seat === you
      ? t("log.discards_draws", { who: w, out: cards(e.discarded) || t("log.nothing"), in: cards(e.received) || t("log.nothing") })
      : t("log.draws", { who: w, n: e.received.length });
    case "discarded": return e.seat === you ? t("log.discards", { who: w, cards: cards(e.cards) })
      : t("log.discards_n", { who: w, n: e.cards.length });
    case "cards_shown": return t("log.shows", { who: w, cards: cards(e.cards) }) + (e.description ? ` (${handText(e.description)})` : "");
    case "mucked": return e.cards && e.cards.length ? t("log.mucks_cards", { who: w, cards: cards(e.cards) }) : t("log.mucks", { who: w });
    case "pot_awarded": return t("log.wins", { who: e.winners.map(who).join(", "), amount: fmt(e.amount),
      half: e.half ? ` (${named("half", e.half)})` : "", what: withHand(e.description) }) + runWords(e);
    case "run_twice_offered":
    case "run_twice_answered":
    case "run_twice_decided": return describeRunTwice(e, who);
    case "hand_ended": return t("log.hand_over");
    default: return "";
  }
}

export { cardName };

export class PoolDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("pool.title"), "pool-dialog");
    this.el = el;
    this.body = body;
  }

  open(pool) {
    const { min } = pool.buy_in;
    const max = pool.buy_in.max || 0;
    const amount = h("input", { type: "number", name: "buy_in", min, max: max || undefined, step: 1,
      value: max || 2 * min, "aria-label": t("pool.buy_in") });
    const entries = h("input", { type: "number", name: "entries", min: 1, max: pool.max_entries || 4, value: 1,
      "aria-label": t("pool.entries") });
    const err = h("p", { class: "error", role: "alert" });
    const form = h("form", { onsubmit: (ev) => {
      ev.preventDefault();
      const v = Math.round(Number(amount.value));
      const n = Math.round(Number(entries.value));
      if (!(v >= min && (!max || v <= max)) || !(n >= 1 && n <= (pool.max_entries || 4))) {
        err.textContent = t("pool.bad");
        return;
      }
      this.app.joinPool(pool, n, v);
      this.el.close();
    } },
    h("p", { text: t("pool.intro", { name: pool.name }) }),
    h("label", {}, `${t("pool.buy_in")} `, amount),
    h("label", {}, `${t("pool.entries")} `, entries),
    err,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary pool-confirm", text: t("lobby.join") })));
    clear(this.body).append(form);
    this.el.showModal();
  }
}
