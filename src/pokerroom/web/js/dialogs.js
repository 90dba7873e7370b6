// Dialogs: taking a seat, the cashier (balance, ledger, hand histories) and the last-hand window.
import { h, clear, fmt } from "./dom.js";
import { api } from "./api.js";
import { cardName } from "./cards.js";
import { describeRunTwice, runWords } from "./runtwice.js";

export function dialog(title, cls) {
  const body = h("div", { class: "dialog-body" });
  const el = h("dialog", { class: `dialog ${cls}`, "aria-label": title },
    h("header", {}, h("h2", { text: title }),
      h("button", { type: "button", class: "dialog-close", "aria-label": "Close", onclick: () => el.close(), text: "\u00d7" })),
    body);
  document.body.append(el);
  return { el, body };
}

export class SitDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog("Take a seat", "sit-dialog");
    this.el = el;
    this.body = body;
  }

  open(tile, seat) {
    const st = tile.model.state;
    const { min } = st.cash.buy_in;
    const max = st.cash.buy_in.max || 0; // 0: no maximum
    const amount = h("input", { type: "number", name: "buy_in", min, max: max || undefined, step: 1,
      value: max || 2 * min, required: true, "aria-label": "Buy-in" });
    const range = max ? `between ${fmt(min, st.currency)} and ${fmt(max, st.currency)}` : `at least ${fmt(min, st.currency)}`;
    const postNow = h("input", { type: "checkbox", name: "post_now" });
    const err = h("p", { class: "error", role: "alert" });
    const form = h("form", { method: "dialog", onsubmit: (ev) => {
      ev.preventDefault();
      const v = Math.round(Number(amount.value));
      if (!(v >= min && (!max || v <= max))) {
        err.textContent = `The buy-in is ${range}.`;
        return;
      }
      tile.send({ type: "sit", table: tile.id, seat, buy_in: v, post_now: postNow.checked });
      this.el.close();
    } },
    h("p", { text: `${st.name}, seat ${seat}. Buy in ${range}.` }),
    h("label", {}, "Buy-in ", amount),
    h("label", { class: "check" }, postNow, " Post a big blind now (otherwise wait for the big blind)"),
    err,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary sit-confirm", text: "Sit down" })));
    clear(this.body).append(form);
    this.el.showModal();
    amount.focus();
  }
}

export class Cashier {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog("Cashier", "cashier");
    this.el = el;
    this.body = body;
  }

  async open() {
    clear(this.body).append(h("p", { text: "Loading..." }));
    this.el.showModal();
    let account;
    let ledger;
    let hands;
    try {
      [account, ledger, hands] = await Promise.all([api.account(), api.ledger(), api.hands()]);
    } catch (err) {
      clear(this.body).append(h("p", { class: "error", text: err.message }));
      return;
    }
    const b = account.balances;
    const refill = h("button", { type: "button", class: "refill", onclick: async () => {
      try {
        await api.refill();
        this.open();
        this.app.refreshBalance();
      } catch (err) {
        refill.after(h("span", { class: "error", text: ` ${err.message}` }));
      }
    }, text: "Refill play money" });
    const rows = ledger.entries.map((e) => h("tr", {},
      h("td", { text: (e.created_at || e.at || "").replace("T", " ").slice(0, 19) }),
      h("td", { text: e.kind || e.type || "" }),
      h("td", { class: "num", text: fmt(e.amount, ledger.currency) }),
      h("td", { class: "num", text: e.balance !== undefined ? fmt(e.balance, ledger.currency) : "" })));
    const handRows = hands.hands.map((x) => h("li", {},
      h("span", { text: `${x.hand_id} ${x.game} ` }),
      h("a", { href: `/api/hands/${encodeURIComponent(x.hand_id)}.phh`, download: `${x.hand_id}.phh`, text: "PHH" }), " ",
      h("a", { href: `/api/hands/${encodeURIComponent(x.hand_id)}.txt`, download: `${x.hand_id}.txt`, text: "text" })));
    clear(this.body).append(
      h("section", { class: "balances" },
        h("div", {}, "Play money: ", h("b", { class: "balance-play", text: fmt(b.PLAY ?? 0) })),
        h("div", {}, "Loyalty points: ", h("b", { text: ((b.POINTS ?? 0) / 100).toFixed(2) })),
        refill),
      h("h3", { text: "Ledger" }),
      rows.length
        ? h("table", { class: "ledger" }, h("thead", {}, h("tr", {}, ...["When", "What", "Amount", "Balance"].map((t) => h("th", { text: t })))), h("tbody", {}, rows))
        : h("p", { text: "No entries yet." }),
      h("h3", { text: "Hand histories" }),
      h("p", {}, "All your hands: ",
        h("a", { class: "dl-phh", href: "/api/hands/export.phhs", download: "hands.phhs", text: "PHH" }), " \u00b7 ",
        h("a", { class: "dl-txt", href: "/api/hands/export.txt", download: "hands.txt", text: "text" })),
      h("ol", { class: "hand-list" }, handRows),
    );
  }
}

export class LastHands {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog("Last hands", "last-hands");
    this.el = el;
    this.body = body;
    this.list = h("ol", { class: "last-list" });
    this.detail = h("div", { class: "last-detail" });
    body.append(this.list, this.detail);
  }

  open() {
    clear(this.list).append(h("li", { text: "Loading..." }));
    clear(this.detail);
    this.app.socket.send({ type: "last_hands" });
    if (!this.el.open) this.el.showModal();
  }

  onMessage(msg) {
    if (msg.type === "last_hands") {
      clear(this.list);
      if (!msg.hands.length) this.list.append(h("li", { text: "No hands yet in this session." }));
      for (const x of [...msg.hands].reverse()) {
        this.list.append(h("li", {}, h("button", { type: "button", class: "link",
          onclick: () => this.app.socket.send({ type: "last_hands", hand_id: x.hand_id }),
          text: `${x.table} \u00b7 ${x.hand_id} \u00b7 ${x.started_at.slice(11, 19)}` })));
      }
    } else if (msg.type === "last_hand") {
      const names = msg.players || {};
      const who = (seat) => names[String(seat)] || `Seat ${seat}`;
      const lines = describeHand(msg.events, who, msg.seat);
      if (this.replay) this.replay.destroy();
      this.replay = this.app.replayTile(msg); // the hand on a table, street by street (replay.js)
      clear(this.detail).append(h("h3", { text: `${msg.table || ""} ${msg.hand_id}` }), this.replay.el,
        h("details", { class: "hand-text", open: true }, h("summary", { text: "As text" }),
          h("ol", { class: "hand-events" }, lines.map((t) => h("li", { text: t })))));
      const proof = msg.proof || this.app.fairness.proofs.get(msg.hand_id);
      if (proof) {
        this.verdict = h("div", { class: "verify-result", role: "status" });
        this.detail.append(h("p", {}, h("button", { type: "button", class: "link verify",
          onclick: () => this.verify(msg.hand_id, proof), text: "Verify" }),
          ` the deck (commitment ${proof.commitment.slice(0, 16)}\u2026)`), this.verdict);
      }
    } else if (msg.type === "hand_verified" && this.verdict && msg.hand_id === this.verifying) {
      const room = msg.ok
        ? [`The cards of your history were dealt from this deck in order (${msg.checked} compared).`]
        : msg.problems.map((p) => `Differs: ${p}`);
      const list = this.verdict.querySelector("ul");
      for (const t of [...room, ...msg.notes.map((n) => `Note: ${n}`)]) list.append(h("li", { text: t }));
      this.verdict.dataset.room = msg.ok ? "ok" : "failed";
      this.verdict.querySelector(".verify-head").textContent =
        msg.ok && this.verdict.dataset.browser === "ok" ? "OK" : "FAILED";
    }
  }

  // The browser checks the hash and the commitment it saw at the start; the room checks the dealing
  // order on the player's own history (the same check as `pokerroom verify`).
  verify(handId, proof) {
    const { ok, lines } = this.app.fairness.check(handId, proof);
    this.verifying = handId;
    clear(this.verdict).append(h("strong", { class: "verify-head", text: ok ? "Checking..." : "FAILED" }),
      h("ul", {}, lines.map((t) => h("li", { text: t }))));
    this.verdict.dataset.browser = ok ? "ok" : "failed";
    this.app.socket.send({ type: "verify_hand", hand_id: handId });
  }
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
  const allIn = e.all_in ? " and is all-in" : "";
  switch (e.action) {
    case "fold": return `${who(e.seat)} folds`;
    case "check": return `${who(e.seat)} checks`;
    case "call": return `${who(e.seat)} calls ${fmt(e.amount)}${allIn}`;
    case "bring_in": return `${who(e.seat)} brings in for ${fmt(e.amount)}${allIn}`;
    case "bet": return `${who(e.seat)} bets ${fmt(e.amount)}${allIn}`;
    case "complete": return `${who(e.seat)} completes it to ${fmt(e.total)}${allIn}`;
    default: return `${who(e.seat)} raises ${fmt(e.total - level)} to ${fmt(e.total)}${allIn}`;
  }
}

export function describe(e, who, you) {
  switch (e.type) {
    case "hand_started": return `Hand started (${e.variant} ${e.betting}), button seat ${e.button ?? "-"}`;
    case "posted": return `${who(e.seat)} posts ${e.what.replace("_", " ")} ${fmt(e.amount)}`;
    case "street_started": return `*** ${e.name} ***`;
    case "cards_dealt": return e.seat === you || e.up.some(Boolean) ? `${who(e.seat)} is dealt ${cards(e.cards)}` : "";
    case "board_dealt": return `Board: ${cards(e.cards)}${runWords(e)}`;
    case "action": return `${who(e.seat)} ${e.action}${e.amount ? " " + fmt(e.amount) : ""}${e.all_in ? " (all-in)" : ""}`;
    case "bet_returned": return `${fmt(e.amount)} returned to ${who(e.seat)}`;
    case "drew": return e.seat === you
      ? `${who(e.seat)} discards ${cards(e.discarded) || "nothing"}, draws ${cards(e.received) || "nothing"}`
      : `${who(e.seat)} draws ${e.received.length}`;
    case "discarded": return `${who(e.seat)} discards ${e.seat === you ? cards(e.cards) : e.cards.length}`;
    case "cards_shown": return `${who(e.seat)} shows ${cards(e.cards)}${e.description ? " (" + e.description + ")" : ""}`;
    case "mucked": return e.cards && e.cards.length ? `${who(e.seat)} mucks ${cards(e.cards)}` : `${who(e.seat)} mucks`;
    case "pot_awarded": return `${e.winners.map(who).join(", ")} wins ${fmt(e.amount)}${e.half ? " (" + e.half + ")" : ""}${e.description ? " with " + e.description : ""}${runWords(e)}`;
    case "run_twice_offered":
    case "run_twice_answered":
    case "run_twice_decided": return describeRunTwice(e, who);
    case "hand_ended": return "Hand over";
    default: return "";
  }
}

export { cardName };

export class PoolDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog("Join a Rush pool", "pool-dialog");
    this.el = el;
    this.body = body;
  }

  open(pool) {
    const { min } = pool.buy_in;
    const max = pool.buy_in.max || 0;
    const amount = h("input", { type: "number", name: "buy_in", min, max: max || undefined, step: 1,
      value: max || 2 * min, "aria-label": "Buy-in per entry" });
    const entries = h("input", { type: "number", name: "entries", min: 1, max: pool.max_entries || 4, value: 1,
      "aria-label": "Entries" });
    const err = h("p", { class: "error", role: "alert" });
    const form = h("form", { onsubmit: (ev) => {
      ev.preventDefault();
      const v = Math.round(Number(amount.value));
      const n = Math.round(Number(entries.value));
      if (!(v >= min && (!max || v <= max)) || !(n >= 1 && n <= (pool.max_entries || 4))) {
        err.textContent = "Check the buy-in and the number of entries.";
        return;
      }
      this.app.joinPool(pool, n, v);
      this.el.close();
    } },
    h("p", { text: `${pool.name}: every fold takes you to a new hand at once. Each entry is its own window.` }),
    h("label", {}, "Buy-in per entry ", amount),
    h("label", {}, "Entries ", entries),
    err,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary pool-confirm", text: "Join" })));
    clear(this.body).append(form);
    this.el.showModal();
  }
}
