// One open table (a tile): the felt with seats, cards, bets, pots and board; the action bar; seat
// controls; chat. Everything is DOM and SVG so that tests and screen readers can read it.
import { h, clear, fmt, patch, unescapeText } from "./dom.js";
import { cardSvg } from "./cards.js";
import { actionBar } from "./actionbar.js";
import { TableState } from "./table-state.js";
import { api } from "./api.js";
import { LevelClock, rebuyOptions } from "./tournament.js";
import { canPropose } from "./deal.js";
import { PreActions } from "./preactions.js";
import { RunOut } from "./runout.js";
import { runWords, secondBoard } from "./runtwice.js";
import { Motion } from "./motion.js";
import { bettingShort, errorText, fmtNumber, gameLabel, lang, named, ordinal, t, tableName } from "./i18n.js";
import { handText, withHand } from "./handwords.js";
import { autoTopUpControl, forgetAutoTopUp } from "./autotopup.js";

// Stud games have antes and a bring-in, no blinds to post.
const ANTE_ONLY = new Set(["stud", "stud8", "razz", "stud5", "soko"]);

export class Tile {
  constructor(app, tableId) {
    this.app = app;
    this.id = tableId;
    this.model = new TableState(tableId, app.me && app.me.id);
    this.selected = new Set();
    this.decisionKey = "";
    this.pre = new PreActions();
    this.runout = new RunOut(this);
    this.motion = new Motion(this);
    this.refs = new Set();
    this.el = h("section", { class: "tile", "data-table": tableId, "aria-label": tableId, tabindex: "-1" });
    this.header = h("header", { class: "tile-head" });
    this.feltInner = h("div", { class: "felt-layer" });
    this.fx = h("div", { class: "fx", "aria-hidden": "true" });
    this.felt = h("div", { class: "felt", role: "region", "aria-label": t("tile.table") }, this.feltInner, this.fx);
    this.barHost = h("div", { class: "bar-host", "aria-live": "polite" });
    this.notice = h("div", { class: "notice", role: "status" });
    this.controls = h("div", { class: "controls" });
    this.chatLog = h("ol", { class: "chat-log", "aria-label": t("tile.chat"), "aria-live": "polite" });
    const chatInput = h("input", { type: "text", maxlength: 200, class: "chat-input", placeholder: t("tile.say"),
      "aria-label": t("tile.chat_message") });
    const chatForm = h("form", { class: "chat-form", onsubmit: (ev) => {
      ev.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      this.send({ type: "chat", table: this.id, text });
      chatInput.value = "";
    } }, chatInput, h("button", { type: "submit", text: t("tile.send") }));
    this.el.append(this.header, this.felt, this.notice, this.barHost, this.controls,
      h("div", { class: "chat" }, this.chatLog, chatForm));
    this.el.addEventListener("pointerdown", () => app.focusTile(this));
    for (const [from, text] of savedChat(tableId)) this.addChat(from, text, false);
    this.timer = setInterval(() => this.tickClocks(), 150);
  }

  destroy() {
    clearInterval(this.timer);
    this.runout.destroy();
    sessionStorage.removeItem(CHAT_KEY + this.id);
    this.el.remove();
  }

  send(msg) {
    const ref = this.app.socket.send(msg);
    this.refs.add(ref);
    return ref;
  }

  act(action) {
    const dec = this.model.decision;
    if (!dec) return;
    this.send({ type: "act", table: this.id, hand_id: dec.hand_id, action_no: dec.action_no, action });
    this.model.decision = null;
    this.selected.clear();
    this.render();
  }

  error(msg) {
    this.notice.textContent = errorText(msg);
    this.notice.dataset.code = msg.code;
  }

  // -------------------------------------------------------------------------------- messages

  onMessage(msg) {
    if (msg.type === "chat" || !this.runout.hold(msg)) this.apply(msg);
  }

  // One frame applied to the table (after the run-out's pacing, if any).
  apply(msg) {
    const m = this.model;
    if (msg.type === "event") {
      this.motion.before(msg.event);
      this.collect(msg.hand_id, msg.event);
    }
    switch (msg.type) {
      case "snapshot":
        m.snapshot(msg.state);
        this.selected.clear();
        if (msg.state.tournament) {
          this.levelClock = new LevelClock(msg.state.tournament.level);
          this.loadTournament();
        }
        break;
      case "event":
        m.event(msg.hand_id, msg.event);
        if (msg.event.type === "hand_started" || msg.event.type === "hand_ended") this.selected.clear();
        if (msg.event.type === "hand_started" && m.state && m.state.tournament) this.loadTournament();
        break;
      case "seat":
        m.seatMsg(msg);
        break;
      case "turn":
        m.turn(msg);
        break;
      case "chat":
        if (msg.muted) return; // a line of a player this player muted (docs/integrity.md)
        this.addChat(msg.from, unescapeText(msg.text), true, msg.line);
        return;
      case "prompt":
        m.prompt = msg;
        break;
      case "offer":
        m.offer = msg;
        break;
      case "table_status":
        // The table waits for the room's store, or for its staff after repeated errors: no seat is
        // offered meanwhile (the server refuses one anyway), and it says so.
        if (m.state) m.state.paused = msg.status === "paused";
        this.notice.textContent = msg.status === "paused" ? t("tile.paused") : "";
        break;
      case "table_closed":
        this.app.tableClosed(this, msg);
        return;
      default:
        return;
    }
    if (!m.state) return;
    this.render();
    // The first hand dealt to us here (a sit-and-go that started, a new seat): the table comes to view.
    const e = msg.type === "event" ? msg.event : null;
    if (e && e.type === "hand_started" && !this.dealtIn && m.state.you != null && (e.seats || []).includes(m.state.you)) {
      this.dealtIn = true;
      this.app.layout.attention(this);
    }
  }

  // The events of each hand we see from its start, for the session statistics (stats.js) at its end.
  collect(handId, e) {
    if (e.type === "hand_started") this.handLog = { id: handId, events: [] };
    if (!this.handLog || this.handLog.id !== handId) return;
    this.handLog.events.push(e);
    const st = this.model.state;
    if (e.type === "hand_ended" && st && st.you !== null && st.you !== undefined && this.app.stats) {
      // per game (RULES.md §11.1): at a mixed table, the hand's own game
      const mix = st.cash && st.cash.mix;
      const g = mix && mix.games ? mix.games[mix.index] : { name: st.variant_name || st.variant, variant: st.variant,
        betting: st.betting };
      this.app.stats.add(`${g.name} ${g.betting}`, st.currency, this.handLog.events, st.you,
        { variant: g.variant, betting: g.betting });
      this.handLog = null;
    }
  }

  // A tournament table: the level, the time to the next level and the rebuy period come from the tournament
  // (asked again at each new hand, at most every few seconds).
  async loadTournament() {
    const st = this.model.state;
    if (!st || !st.tournament || this.tournamentLoading || Date.now() - (this.tournamentAt || 0) < 3000) return;
    this.tournamentLoading = true;
    try {
      const d = await api.tournament(st.tournament.tournament);
      this.tournament = d.summary;
      this.tournamentDetails = d; // (deal.js: the Propose deal button at the final table)
      const me = this.app.me ? String(this.app.me.id) : "";
      this.standing = (d.standings || []).find((e) => String(e.player) === me) || null;
      const prize = (d.prizes || []).find((x) => String(x.player) === me);
      this.prize = prize ? prize.amount : 0;
      this.levelClock = new LevelClock(d.level);
      if (d.level && this.model.state && this.model.state.tournament) this.model.state.tournament.level = d.level;
      this.tournamentAt = Date.now();
      this.render();
    } catch {
      // the table goes on without the tournament's details; the next hand asks again
    } finally {
      this.tournamentLoading = false;
    }
  }

  async buy(addOn) {
    try {
      await api.rebuy(this.model.state.tournament.tournament, addOn);
      this.notice.textContent = addOn ? t("t.add_on_taken") : t("t.rebought");
      this.notice.dataset.code = "";
      this.tournamentAt = 0;
      this.app.refreshBalance();
      this.loadTournament();
    } catch (err) {
      this.notice.textContent = errorText(err);
      this.notice.dataset.code = err.code;
    }
  }

  addChat(from, text, save = true, line = null) {
    const li = h("li", { class: from === "dealer" ? "dealer" : "" },
      h("b", { text: from === "dealer" ? t("tile.dealer") : from }), ": ", h("span", { text: from === "dealer" ? dealerLine(text) : text }));
    const me = this.app.me && this.app.me.name;
    if (line && from !== "dealer" && from !== me) li.append(" ", ...this.chatTools(from, line));
    this.chatLog.append(li);
    while (this.chatLog.children.length > 100) this.chatLog.firstChild.remove();
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
    if (save) {
      // The last lines survive a reload of the page (sessionStorage: this tab only).
      const lines = [...savedChat(this.id), [from, text]].slice(-CHAT_KEEP);
      try {
        sessionStorage.setItem(CHAT_KEY + this.id, JSON.stringify(lines));
      } catch {
        // storage full or refused: the chat still shows
      }
    }
  }

  // Mute the speaker (for this player only) or report the line to the room's staff (issue 30).
  chatTools(from, line) {
    const said = async (fn, done) => {
      try {
        await fn();
        this.notice.textContent = done;
        this.notice.dataset.code = "";
      } catch (err) {
        this.notice.textContent = errorText(err);
        this.notice.dataset.code = err.code;
      }
    };
    return [
      h("button", { type: "button", class: "chat-mute", title: t("chat.mute", { name: from }), "aria-label": t("chat.mute", { name: from }), text: "🔇",
        onclick: () => said(() => api.muteChat(from), t("chat.muted", { name: from })) }),
      h("button", { type: "button", class: "chat-report", title: t("chat.report"), "aria-label": t("chat.report"), text: "⚑",
        onclick: () => {
          const reason = window.prompt(t("chat.report_reason"), "");
          if (reason && reason.trim().length >= 3) said(() => api.reportLine(line, reason.trim()), t("chat.reported"));
        } }),
    ];
  }

  // -------------------------------------------------------------------------------- drawing

  render() {
    const m = this.model;
    const st = m.state;
    if (!st) return;
    // The table's name in the page's language for screen readers too (issue 31), as in its heading.
    const shownName = tableName(st.name, st.variant, st.betting, st.variant_name);
    this.el.setAttribute("aria-label", shownName);
    this.shownName = shownName;
    this.el.dataset.variant = st.variant;
    this.el.dataset.betting = st.betting;
    this.el.dataset.handsPlayed = String(m.handsPlayed);
    this.el.dataset.seated = st.you !== null && st.you !== undefined ? "yes" : "no";
    const hand = st.hand;
    this.el.dataset.handId = hand ? hand.hand_id : "";
    this.el.dataset.handOver = hand && hand.over ? "yes" : "no";
    if (m.decision && this.pre.pre) {
      const action = this.pre.take(m.decision.decision);
      if (action) {
        this.act(action); // the pre-action the player chose: sent at once, drawn by act's render
        return;
      }
    } else {
      this.pre.check(m);
    }
    this.renderHeader();
    this.renderFelt();
    this.renderBar();
    this.renderControls();
    this.app.layout.update();
  }

  renderHeader() {
    const st = this.model.state;
    patch(this.header, [
      h("h2", { text: tableName(st.name, st.variant, st.betting, st.variant_name) }),
      h("span", { class: "stakes", text: stakesLabel(st) }),
      st.cash && st.cash.mix ? h("span", { class: "mix", role: "status", text: t(st.cash.mix.hands_left > 0 ? "tile.mix" : "tile.mix_last", {
        mix: st.cash.mix.name, game: gameLabel(st.cash.mix.game_label), next: gameLabel(st.cash.mix.next_label),
        n: st.cash.mix.hands_left }) }) : null,
      st.tournament && st.tournament.mix ? h("span", { class: "mix", role: "status", text: t("tile.level_mix", {
        mix: st.tournament.mix.name, game: gameLabel(st.tournament.mix.game_label),
        next: gameLabel(st.tournament.mix.next_label) }) }) : null,
      st.tournament ? h("span", { class: "next-level", role: "timer", text: this.levelClock ? this.levelClock.text() : "" }) : null,
      h("span", { class: "spacer" }),
      st.tournament ? h("button", { type: "button", class: "t-info-btn",
        onclick: () => this.app.tournamentDialog.open(st.tournament.tournament), text: t("tile.tournament") }) : null,
      h("button", { type: "button", class: "last-hand-btn", onclick: () => this.app.lastHands.open(),
        text: t("tile.last_hand") }),
      h("button", { type: "button", class: "close-btn", "aria-label": t("tile.close", { name: this.shownName || st.name }),
        onclick: () => this.app.closeTable(this.id), text: "\u00d7" }),
    ].filter(Boolean));
  }

  renderFelt() {
    const m = this.model;
    const st = m.state;
    const hand = st.hand;
    const n = st.seats;
    const anchor = st.you ?? 1;
    const parts = [];
    this.felt.dataset.seats = String(n);
    const center = h("div", { class: "center" });
    const board = h("div", { class: "board", "aria-label": t("tile.board") });
    if (hand) {
      hand.board.forEach((c, i) => {
        const svg = cardSvg(c);
        if (this.motion.fresh(hand.hand_id, "board", i, c)) svg.classList.add("deal-in");
        board.append(svg);
      });
    }
    center.append(board);
    const board2 = secondBoard(hand, cardSvg); // run it twice: the second board under the first
    if (board2) center.append(board2);
    const total = m.totalPot();
    const pots = h("div", { class: "pots" });
    if (hand && !hand.over) {
      pots.append(h("div", { class: "pot-total", "data-amount": total, text: t("tile.pot", { amount: fmt(total, st.currency) }) }));
      if (hand.pots && hand.pots.length > 1) {
        hand.pots.forEach((amount, i) => {
          pots.append(h("div", { class: "side-pot", "data-amount": amount,
            text: i === 0 ? t("tile.main_pot", { amount: fmt(amount, st.currency) })
              : t("tile.side_pot", { i, amount: fmt(amount, st.currency) }) }));
        });
      }
    }
    if (hand && hand.over) {
      const res = h("div", { class: "results" });
      for (const r of m.results) {
        res.append(h("div", { class: "result", text: resultText(r, st) }));
      }
      pots.append(res);
    }
    center.append(pots);
    if (hand && hand.street && !hand.over) {
      center.append(h("div", { class: "street", "data-street": hand.street, text: streetLabel(hand) }));
    }
    parts.push(center);
    for (let seat = 1; seat <= n; seat += 1) {
      const idx = (((seat - anchor) % n) + n) % n;
      const angle = Math.PI / 2 + (idx * 2 * Math.PI) / n;
      const seatEl = this.renderSeat(seat, angle);
      parts.push(seatEl);
      const hp = hand && hand.players[String(seat)];
      if (hp && hp.bet > 0 && !hand.over) {
        const bx = 50 + 27 * Math.cos(angle);
        const by = 45 + 21 * Math.sin(angle);
        const chip = h("div", { class: "bet", "data-seat": seat, "data-amount": hp.bet,
          "aria-label": t("tile.bet", { amount: fmt(hp.bet, st.currency) }), text: fmt(hp.bet, st.currency) });
        // Our own chips sit beside our cards, never over them (issue 31); the others' toward the pot.
        if (seat === st.you) {
          chip.classList.add("own-bet");
          (seatEl.querySelector(".own-side") || seatEl).prepend(chip);
        } else {
          chip.style.cssText = `left:${bx.toFixed(1)}%;top:${by.toFixed(1)}%`;
          parts.push(chip);
        }
      }
    }
    patch(this.feltInner, parts);
    this.motion.after(this.fx);
    this.tickClocks();
  }

  renderSeat(seat, angle) {
    const m = this.model;
    const st = m.state;
    const sp = st.players[String(seat)];
    const hand = st.hand;
    const hp = hand ? hand.players[String(seat)] : null;
    // (the others a little wider apart than the felt's edge, to leave the foot of the felt to our cards)
    const x = 50 + (seat === st.you ? 40 : 45) * Math.cos(angle);
    const y = 48 + 36 * Math.sin(angle);
    this.motion.seatPos.set(seat, [Number(x.toFixed(1)), Number(y.toFixed(1))]);
    const el = h("div", { class: "seat", "data-seat": seat, style: `left:${x.toFixed(1)}%;top:${y.toFixed(1)}%` });
    if (seat !== st.you && Math.sin(angle) > 0.1) el.dataset.low = "yes"; // below the centre: lifted on a short felt
    if (!sp) {
      el.classList.add("empty");
      el.setAttribute("aria-label", t("tile.seat_empty", { seat }));
      if ((st.you === null || st.you === undefined) && this.app.me && st.cash && !st.paused) {
        el.append(h("button", { type: "button", class: "sit-btn", "data-seat": seat,
          onclick: () => this.app.sitDialog.open(this, seat), text: t("tile.sit_here") }));
      } else {
        el.append(h("span", { class: "empty-label", text: t("tile.empty") }));
      }
      return el;
    }
    const mine = seat === st.you;
    if (mine) el.classList.add("mine");
    if (hp && hp.folded) el.classList.add("folded");
    if (hand && !hand.over && hand.to_act === seat) el.classList.add("acting");
    el.setAttribute("aria-label", t("tile.seat_name", { seat, name: sp.name }));
    const cards = h("div", { class: "cards", "aria-label": t("tile.cards_of", { name: sp.name }) });
    if (hp) {
      const dec = m.decision && m.decision.decision;
      const picking = mine && dec && (dec.kind === "draw" || (dec.kind === "discard" && (dec.seats || []).includes(seat)));
      const stud = hand && ["stud", "stud8", "razz", "stud5"].includes(hand.variant);
      hp.cards.forEach((c, i) => {
        const down = stud && mine && !hp.up[i] && c !== "??";
        const svg = cardSvg(c, { down, selected: picking && this.selected.has(c) });
        if (stud && hp.up[i]) svg.classList.add("up");
        if (this.motion.fresh(hand.hand_id, seat, i, c)) svg.classList.add("deal-in");
        if (picking) {
          svg.classList.add("selectable");
          svg.setAttribute("tabindex", "0");
          svg.setAttribute("aria-pressed", this.selected.has(c) ? "true" : "false");
          const toggle = () => {
            if (this.selected.has(c)) this.selected.delete(c);
            else this.selected.add(c);
            this.render();
          };
          svg.addEventListener("click", toggle);
          svg.addEventListener("keydown", (ev) => {
            if (ev.key === " " || ev.key === "Enter") {
              ev.preventDefault();
              toggle();
            }
          });
        }
        cards.append(svg);
      });
    }
    const stack = hp && hand && !hand.over ? hp.stack : sp.stack;
    const info = h("div", { class: "plate" },
      h("div", { class: "name", text: sp.name }),
      h("div", { class: "stack", "data-amount": stack, text: fmt(stack, st.currency) }),
    );
    const inHand = hp && hand && !hand.over;
    const status = inHand && hp.all_in ? t("tile.all_in") : inHand && hp.folded ? t("tile.folded") : inHand ? ""
      : sp.status && sp.status !== "playing" ? named("seat", sp.status) : "";
    const last = hp && !hand.over && hp.last && hp.last !== "fold" ? lastWord(hp.last) : "";
    if (status || last) info.append(h("div", { class: "status", text: status || last }));
    if (hp && hp.description && hand.over) info.append(h("div", { class: "hand-desc", text: handText(hp.description) }));
    const strength = mine && hp && !hp.folded && !hand.over && this.strengthFor(hand, hp);
    if (strength) info.append(h("div", { class: "hand-strength", text: strength }));
    const share = hand ? this.runout.shareOf(hand.hand_id, seat) : undefined; // during a run-out only
    if (share !== undefined && !hand.over && hp && !hp.folded) {
      info.append(h("div", { class: "equity", "data-share": share.toFixed(4), text: `${fmtPercent(share)}` }));
    }
    if (this.app.reads) this.app.reads.decorate(el, info, sp.name); // the player's reads on him (notes.js)
    if (this.app.looks) this.app.looks.decorate(info, sp.name); // his avatar (themes.js)
    const clock = h("div", { class: "clock", hidden: !m.clocks.has(seat) },
      h("div", { class: "clock-action" }), h("div", { class: "clock-bank" }));
    const count = h("div", { class: "countdown", role: "timer", "aria-label": t("tile.time_to_act"), hidden: !m.clocks.has(seat) });
    // Our own seat: the cards, and beside them the plate with its clock (readable at six tables, issue 31).
    if (mine) el.append(cards, h("div", { class: "own-side" }, info, clock, count));
    else el.append(cards, info, clock, count);
    if (hand && hand.button === seat) el.append(h("div", { class: "dealer-button", "aria-label": t("tile.dealer_button"), text: t("tile.dealer_mark") }));
    return el;
  }

  // Our own hand in words ("Two pair, kings and fives"), asked of the server when our cards or the board
  // change; null until there are enough cards for a hand.
  strengthFor(hand, hp) {
    const cards = hp.cards.filter((c) => c !== "??");
    const omaha = hand.variant.startsWith("omaha");
    const enough = omaha ? hand.board.length >= 3 : cards.length + hand.board.length >= (hand.variant === "badugi" ? 4 : 5);
    if (!enough || cards.length !== hp.cards.length) return null;
    const key = `${hand.hand_id}|${hand.variant}|${cards.join("")}|${hand.board.join("")}`;
    if (this.strength && this.strength.key === key) return this.strength.text;
    if (this.strengthAsked !== key) {
      this.strengthAsked = key;
      api.handValue(hand.variant, cards.join(""), hand.board.join("")).then((v) => {
        this.strength = { key, text: handText(v.low ? `${v.high} / ${v.low}` : v.high) };
        this.render();
      }).catch(() => null);
    }
    return null;
  }

  tickClocks() {
    const now = Date.now();
    if (this.levelClock) {
      const el = this.header.querySelector(".next-level");
      if (el) el.textContent = this.levelClock.text();
      const left = this.levelClock.left("next_level_in");
      if (left !== null && left <= 0) this.loadTournament(); // the level has changed: ask for the new one
    }
    for (const [seat, c] of this.model.clocks) {
      const el = this.felt.querySelector(`.seat[data-seat="${seat}"] .clock`);
      if (!el) continue;
      el.hidden = false;
      const actionLeft = Math.max(0, c.actionEnd - now);
      const bankLeft = Math.max(0, Math.min(c.bankTotal, c.bankEnd - Math.max(now, c.actionEnd)));
      el.querySelector(".clock-action").style.width = `${Math.min(100, (100 * actionLeft) / c.actionTotal)}%`;
      el.querySelector(".clock-bank").style.width = c.bankTotal ? `${(100 * bankLeft) / c.bankTotal}%` : "0%";
      el.title = t("tile.clock_title", { s: Math.ceil(actionLeft / 1000), bank: Math.ceil(bankLeft / 1000) });
      // The countdown in seconds; once the action time is gone, the time bank's.
      const count = el.parentElement.querySelector(".countdown");
      const inBank = actionLeft <= 0 && c.bankTotal > 0;
      const secs = Math.ceil((inBank ? bankLeft : actionLeft) / 1000);
      const text = inBank ? t("tile.time_bank", { s: secs }) : String(secs);
      count.hidden = false;
      count.classList.toggle("bank", inBank);
      count.classList.toggle("urgent", !inBank && secs <= 5 && c.bankTotal === 0);
      count.dataset.seconds = String(secs);
      if (count.textContent !== text) count.textContent = text;
    }
  }

  renderBar() {
    const m = this.model;
    const dec = m.decision;
    const key = dec ? `${dec.hand_id}:${dec.action_no}:${dec.decision.kind}:${this.selected.size}` : "";
    if (key === this.decisionKey && key && !dec.decision.kind.match(/draw|discard/)) return;
    this.decisionKey = key;
    const st = m.state;
    const bar = actionBar({
      state: m,
      currency: st.currency,
      unit: (st.stakes && st.stakes.chip_unit) || 1,
      betting: st.betting,
      pot: m.totalPot(),
      // the player's bet-sizing presets (presets.js); a replay has none
      sizes: this.app.presets && st.kind !== "replay" ? (at) => this.app.presets.sizes(at, st) : null,
      presetTools: this.app.presets && st.kind !== "replay" ? () => this.app.presets.editButton() : null,
      selected: this.selected,
      send: (action) => this.act(action),
    });
    if (dec) clear(this.barHost).append(bar);
    else {
      // Kept element by element while unchanged, so that a click on a pre-action is not lost to a redraw.
      const pre = this.pre.render(m, st.currency, () => { this.decisionKey = "x"; this.renderBar(); });
      patch(this.barHost, [bar, pre].filter(Boolean));
    }
    if (m.prompt) {
      const p = m.prompt;
      this.barHost.append(h("div", { class: "prompt" },
        h("span", { text: t("tile.post_prompt", { amount: fmt(p.amount, st.currency), what: named("post", p.what) }) }),
        h("button", { type: "button", onclick: () => this.answerPost(true), text: t("tile.post") }),
        h("button", { type: "button", onclick: () => this.answerPost(false), text: t("tile.sit_out") })));
    }
    if (m.offer && (st.you === null || st.you === undefined)) {
      const o = m.offer;
      this.barHost.append(h("div", { class: "offer" },
        h("span", { text: t("tile.offer", { seat: o.seat }) }),
        h("button", { type: "button", onclick: () => { m.offer = null; this.app.sitDialog.open(this, o.seat); },
          text: t("tile.take_seat") })));
    }
  }

  answerPost(accept) {
    this.send({ type: "answer_post", table: this.id, accept });
    this.model.prompt = null;
    this.decisionKey = "x";
    this.render();
  }

  renderControls() {
    const parts = this.controlParts();
    patch(this.controls, parts);
  }

  controlParts() {
    const st = this.model.state;
    if (!this.app.me) return [h("span", { class: "hint", text: t("tile.log_in") })];
    if (st.tournament) return this.tournamentControls(st);
    if (st.you === null || st.you === undefined) {
      forgetAutoTopUp(this, st); // the setting belongs to a seat: a new one starts without it
      const full = Object.keys(st.players).length >= st.seats;
      if (!full) return [];
      return [h("button", { type: "button", class: "waitlist-btn",
        onclick: () => this.send({ type: "waiting_list", table: this.id, join: true }),
        text: t("tile.waitlist", { n: st.cash ? st.cash.waiting_list : 0 }) })];
    }
    const me = st.players[String(st.you)] || {};
    const sittingOut = me.status === "sitting_out";
    const autoPost = h("input", { type: "checkbox", class: "auto-post", checked: this.autoPost !== false });
    autoPost.addEventListener("change", () => {
      this.autoPost = autoPost.checked;
      this.send({ type: "settings", table: this.id, auto_post: autoPost.checked });
    });
    const autoMuck = h("input", { type: "checkbox", class: "auto-muck", checked: this.autoMuck !== false });
    autoMuck.addEventListener("change", () => {
      this.autoMuck = autoMuck.checked;
      this.send({ type: "settings", table: this.id, auto_muck: autoMuck.checked });
    });
    const limits = st.cash.buy_in;
    const room = limits.max ? limits.max - (me.stack || 0) : 10 * limits.min; // max 0: no maximum
    // At the maximum already: the box is disabled and empty (it showed a meaningless 1, issue 31).
    const topUpBox = h("input", { type: "number", class: "top-up-amount", min: 1, max: Math.max(1, room),
      value: room > 0 ? Math.max(1, limits.max ? room : limits.min) : "", disabled: room <= 0,
      placeholder: room > 0 ? "" : "\u2014", "aria-label": t("tile.top_up_amount") });
    return [
      ...this.sitButtons(me, sittingOut),
      ANTE_ONLY.has(st.variant) ? null : h("label", { class: "check" }, autoPost, ` ${t("tile.auto_post")}`),
      h("label", { class: "check" }, autoMuck, ` ${t("tile.auto_muck")}`),
      h("span", { class: "top-up" }, topUpBox, h("button", { type: "button", class: "top-up-btn", disabled: room <= 0,
        onclick: () => {
          const amount = Math.min(room, Math.max(1, Math.round(Number(topUpBox.value))));
          this.send({ type: "top_up", table: this.id, amount });
        }, text: t("tile.top_up") })),
      autoTopUpControl(this, st), // top up to a chosen stack between hands (autotopup.js, issue 31)
      h("button", { type: "button", class: "leave-btn", onclick: () => this.send({ type: "leave", table: this.id }),
        text: t("tile.leave_seat") }),
    ].filter(Boolean);
  }

  // Sit out (from the next hand, or at our next big blind), or come back: a player who missed blinds is
  // asked whether to post them now or to wait for the big blind.
  sitButtons(me, sittingOut) {
    const say = (text) => {
      this.notice.textContent = text; // said at once: the seat changes only between hands
      this.notice.dataset.code = "";
    };
    const sitIn = (post, cls, text) => h("button", { type: "button", class: cls, text, onclick: () => {
      this.send({ type: "sit_in", table: this.id, post_missed: post });
      say(post ? t("tile.sitting_in_post") : t("tile.sitting_in"));
    } });
    if (sittingOut) {
      const missed = (me.markers || []).length > 0;
      if (!missed) return [sitIn(false, "sit-in-btn", t("tile.sit_in"))];
      return [sitIn(true, "sit-in-btn sit-in-post", t("tile.sit_in_post")),
        sitIn(false, "sit-in-wait", t("tile.sit_in_bb"))];
    }
    const out = (when, cls, text, said) => h("button", { type: "button", class: cls, text, onclick: () => {
      this.send({ type: "sit_out", table: this.id, when });
      say(said);
    } });
    return [out("next_hand", "sit-out-btn", t("tile.sit_out"), t("tile.sit_out_said")),
      ANTE_ONLY.has(this.model.state.variant) ? null
        : out("next_bb", "sit-out-bb-btn", t("tile.sit_out_bb"), t("tile.sit_out_bb_said"))].filter(Boolean);
  }

  tournamentControls(st) {
    if (st.you !== null && st.you !== undefined) this.wasSeated = true;
    if ((st.you === null || st.you === undefined) && this.wasSeated) {
      // Out of the tournament: our place and prize once the tournament has them.
      const place = this.standing && this.standing.place;
      if (!place) this.loadTournament();
      const text = place
        ? this.prize ? t("t.you_finished_prize", { place: ordinal(place), prize: fmt(this.prize, st.currency) })
          : t("t.you_finished", { place: ordinal(place) })
        : t("t.you_are_out");
      return [h("span", { class: "hint t-out", "data-place": place || "", text })];
    }
    if (st.you === null || st.you === undefined) return [h("span", { class: "hint", text: t("tile.watching") })];
    const me = st.players[String(st.you)] || {};
    const out = me.status === "sitting_out";
    const hand = st.hand;
    const inHand = Boolean(hand && !hand.over && hand.players[String(st.you)]);
    const can = rebuyOptions(this.tournament, st.tournament.level, me.stack ?? 0, inHand, Boolean(this.standing && this.standing.add_on));
    return [h("button", { type: "button", class: out ? "sit-in-btn" : "sit-out-btn",
      onclick: () => this.send(out ? { type: "sit_in", table: this.id, post_missed: false }
        : { type: "sit_out", table: this.id, when: "next_hand" }),
      text: out ? t("tile.sit_in") : t("tile.sit_out") }),
    can.rebuy ? h("button", { type: "button", class: "rebuy-btn", onclick: () => this.buy(false), text: t("t.rebuy") }) : null,
    can.addOn ? h("button", { type: "button", class: "add-on-btn", onclick: () => this.buy(true), text: t("t.add_on") }) : null,
    canPropose(this.tournamentDetails, String(this.app.me ? this.app.me.id : "")) ? h("button", { type: "button", class: "deal-btn",
      onclick: () => this.app.tournamentDialog.deals.propose(this.tournamentDetails), text: t("deal.propose") }) : null,
    ].filter(Boolean);
  }
}

// The street in words (the engine's names are identifiers: "first_draw", "sixth"; street.* in the dictionaries).

export function streetLabel(hand) {
  const name = String(hand.street || "").toLowerCase();
  // Irish: the turn opens with the discard, before its card is dealt.
  if (hand.variant === "irish" && name === "turn" && hand.board.length === 3) return t("street.discard");
  return named("street", name) || name;
}

const CHAT_KEY = "pokerroom.chat.";
const CHAT_KEEP = 20;

function savedChat(tableId) {
  try {
    const lines = JSON.parse(sessionStorage.getItem(CHAT_KEY + tableId) || "[]");
    return Array.isArray(lines) ? lines.filter((l) => Array.isArray(l) && l.length === 2).map((l) => l.map(String)) : [];
  } catch {
    return [];
  }
}

// "alice wins 400 with ..." for one winner; "alice and bob split 400 (200 each) with ..." for a split pot.
export function resultText(r, st) {
  const names = r.winners.map((s) => (st.players[String(s)] || {}).name || t("tile.seat_n", { seat: s }));
  const half = (r.half ? ` (${named("half", r.half)})` : "") + runWords(r); // run it twice: "(first run)", "(second run)"
  const what = withHand(r.description);
  const amount = fmt(r.amount, st.currency);
  if (names.length < 2) return t("log.wins", { who: names[0] || "", amount, half, what });
  const who = t("log.and", { list: names.slice(0, -1).join(", "), last: names[names.length - 1] });
  const even = (r.shares || []).every((x) => x === r.shares[0]);
  const each = even && r.shares && r.shares.length ? t("log.each", { amount: fmt(r.shares[0], st.currency) }) : "";
  return t("log.split", { who, amount, half, each, what });
}

// What a seat did last, under its name ("raise", "draws 2", "stands pat").
function lastWord(last) {
  const m = /^draws (\d+)$/.exec(last);
  if (m) return t("last.draws", { n: Number(m[1]) });
  return named("last", last.replace(/ /g, "_")) || last;
}

function fmtPercent(share) {
  return `${new Intl.NumberFormat(document.documentElement.lang || "en", { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .format(100 * share)}%`;
}

// A dealer line of the server (English: "alice wins 1,200 (high) with a flush", "Operator: ...") in the
// page's language; a line of another shape is shown as the server wrote it.
export function dealerLine(text) {
  if (lang === "en") return text;
  const op = /^Operator: (.*)$/s.exec(text);
  if (op) return t("log.operator", { text: op[1] });
  // a mixed table's round is over (RULES.md §11.1): "The FL Razz round is over; next: FL 7-Card Stud"
  const round = /^The (.+) round is over; next: (.+)$/s.exec(text);
  if (round) {
    const next = round[2] === "dealer's choice" ? t("log.dealers_choice") : gameLabel(round[2]);
    return t("log.round_over", { game: gameLabel(round[1]), next });
  }
  const m = /^(.+?) wins ([\d,.]+)(?: \((high|low)\))?(?: with (.+))?$/s.exec(text);
  if (!m) return text;
  const raw = m[2].replace(/,/g, "");
  const amount = raw.includes(".") ? raw : fmtNumber(Number(raw));
  const half = m[3] ? ` (${named("half", m[3])})` : "";
  const what = withHand(m[4]);
  return t("log.wins", { who: m[1], amount, half, what });
}

export function stakesLabel(st) {
  const level = st.tournament && st.tournament.level;
  if (level && level.number) {
    const l = level;
    const blinds = st.betting === "FL" ? `${fmt(l.small_bet)}/${fmt(l.big_bet)}` : `${fmt(l.small_blind)}/${fmt(l.big_blind)}`;
    return t("t.level_blinds", { n: l.number, blinds }) + (l.ante ? t("t.ante", { amount: fmt(l.ante) }) : "");
  }
  const s = st.stakes;
  if (!s) return st.betting || "";
  const cur = st.currency;
  const base = st.betting === "FL" ? `${fmt(s.small_bet, cur)}/${fmt(s.big_bet, cur)}` : `${fmt(s.small_blind, cur)}/${fmt(s.big_blind, cur)}`;
  const ante = s.ante ? t("t.ante", { amount: fmt(s.ante, cur) }) : "";
  return `${bettingShort(st.betting)} ${base}${ante}`;
}
