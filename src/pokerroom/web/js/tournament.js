// The tournament page (a dialog: structure, entrants, prize pool and payouts, tables, standings, the level
// clock) and what a tournament table's tile shows of the tournament (level, next level, rebuy, add-on).
import { h, clear, fmt, unescapeText } from "./dom.js";
import { api } from "./api.js";
import { dialog } from "./dialogs.js";
import { DealDialog, canPropose } from "./deal.js";
import { bettingShort, errorText, fmtDateTime, gameName, named, ordinal, t } from "./i18n.js";

// "4:05", "1:02:09": a countdown in seconds, for the level clock.
export function clockText(seconds) {
  const t = Math.max(0, Math.ceil(seconds));
  const hh = Math.floor(t / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

// The level of a tournament as the server last told it, counting down locally from when it arrived.
export class LevelClock {
  constructor(level) {
    this.level = level || null;
    this.at = Date.now();
  }

  left(key) {
    const l = this.level;
    if (!l || l[key] === null || l[key] === undefined) return null;
    return l[key] - (Date.now() - this.at) / 1000;
  }

  text() {
    const l = this.level;
    if (!l || !l.number) return "";
    if (l.in_break) return t("t.on_break", { n: l.number + 1, time: clockText(this.left("next_level_in")) });
    const next = t("t.next_level", { time: clockText(this.left("next_level_in")) });
    const brk = this.left("next_break_in");
    return brk !== null && brk > 0 ? `${next} \u00b7 ${t("t.break_in", { time: clockText(brk) })}` : next;
  }
}

// What the player may buy now (the server decides; this only shows the buttons in their period).
export function rebuyOptions(summary, level, stack, inHand, addOnTaken = false) {
  if (!summary || !level || summary.status !== "running" || inHand) return { rebuy: false, addOn: false };
  const n = level.number || 0;
  const period = summary.rebuy_levels || 0;
  return {
    rebuy: period > 0 && n <= period && stack <= summary.starting_stack,
    addOn: Boolean(summary.add_on) && !addOnTaken && period > 0 && (n === period || n === period + 1),
  };
}

// A standings row's name: with its entry's number in a re-entry tournament (R261).
export function entryName(e, s) {
  return s.max_entries > 1 && e.entry ? t("t.entry_name", { name: e.name, n: e.entry }) : e.name;
}

// May the player enter (again) now: a late registration, or a re-entry once his entries are all out and
// he has fewer than the tournament's max_entries (the server decides; this only shows the button).
export function entryOption(d, me) {
  const s = d.summary;
  if (!me || s.status !== "running" || !d.registration_open) return null;
  const rows = (d.standings || []).filter((e) => String(e.player) === me);
  if (!rows.length) return (d.entrants || []).some((e) => String(e.player) === me) ? null : "register";
  const live = rows.some((e) => !e.place && e.stack > 0);
  const entries = Math.max(...rows.map((e) => e.entry || 1));
  return !live && entries < (s.max_entries || 1) ? "reenter" : null;
}

function buyInText(s) {
  if (s.freeroll) return t("t.freeroll");
  return `${fmt(s.buy_in, s.currency)}${s.fee ? " + " + fmt(s.fee, s.currency) : ""}`;
}

export class TournamentDialog {
  constructor(app) {
    this.app = app;
    const { el, body } = dialog(t("tile.tournament"), "tournament-dialog");
    this.el = el;
    this.body = body;
    this.title = el.querySelector("h2");
    this.id = null;
    this.clock = null;
    this.timer = null;
    this.deals = new DealDialog(app); // deals at the final table (deal.js): tournament_deal frames go to it
    this.chatLines = new Map(); // tournament -> its lobby chat's last lines (docs/tournaments.md, "Lobby chat")
    this.chatBox = null;
    el.addEventListener("close", () => {
      if (this.id) this.follow(this.id, false);
      clearInterval(this.timer);
      this.timer = null;
      this.id = null;
    });
  }

  // Follow (or leave) a tournament's page: its lobby chat reaches this connection (tournament_follow).
  follow(id, on) {
    if (this.app.socket && this.app.socket.request) {
      this.app.socket.request({ type: "tournament_follow", tournament: id, follow: on }).catch(() => {});
    }
  }

  // A tournament_chat frame: kept (the last 50 of each tournament), shown when its page is open.
  onChat(msg) {
    if (msg.muted) return; // a line of a player this player muted (docs/integrity.md)
    const lines = this.chatLines.get(msg.tournament) || [];
    lines.push({ from: msg.from, text: unescapeText(msg.text), line: msg.line });
    this.chatLines.set(msg.tournament, lines.slice(-50));
    if (this.id === msg.tournament && this.chatBox) this.renderChatLines(msg.tournament);
  }

  renderChatLines(id) {
    const list = this.chatBox.querySelector(".t-chat-lines");
    clear(list).append(...(this.chatLines.get(id) || []).map((l) => h("li", { "data-line": l.line ?? "" },
      h("b", { text: `${l.from}: ` }), l.text,
      l.line ? h("button", { type: "button", class: "t-chat-report link", title: t("chat.report"), "aria-label": t("chat.report"),
        onclick: async () => {
          const reason = window.prompt(t("chat.report_reason"));
          if (!reason || reason.trim().length < 3) return;
          try {
            await api.reportLine(l.line, reason.trim());
            this.chatBox.querySelector(".t-chat-msg").textContent = t("chat.reported");
          } catch (err) {
            this.chatBox.querySelector(".t-chat-msg").textContent = errorText(err);
          }
        }, text: "⚑" }) : null)));
    list.scrollTop = list.scrollHeight;
  }

  // The lobby chat of the page: kept across the page's refreshes (the same element), with a line to write
  // in when the tournament's lobby_chat lets this player write (the server decides).
  chatSection(d, me) {
    const s = d.summary;
    if (!s.lobby_chat || s.lobby_chat === "off" || d.archived || ["finished", "cancelled"].includes(s.status)) return null;
    if (!this.chatBox || this.chatBox.dataset.tournament !== s.tournament) {
      const input = h("input", { type: "text", name: "t-chat", maxlength: 200, autocomplete: "off", placeholder: t("tile.say"), "aria-label": t("tile.chat_message") });
      const msg = h("span", { class: "hint t-chat-msg", role: "status" });
      const form = h("form", { class: "t-chat-form", onsubmit: async (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        try {
          await this.app.socket.request({ type: "tournament_chat", tournament: s.tournament, text });
          input.value = "";
          msg.textContent = "";
        } catch (err) {
          msg.textContent = errorText(err);
        }
      } }, input, h("button", { type: "submit", text: t("tile.send") }), msg);
      this.chatBox = h("section", { class: "t-chat", "data-tournament": s.tournament },
        h("h3", { text: t("t.lobby_chat") }), h("ul", { class: "t-chat-lines", "aria-live": "polite" }), form);
      this.renderChatLines(s.tournament);
    }
    const entered = (d.entrants || []).some((e) => String(e.player) === me);
    const may = Boolean(me) && (s.lobby_chat === "everyone" || entered);
    this.chatBox.querySelector(".t-chat-form").hidden = !may;
    this.chatBox.dataset.write = may ? "yes" : "no";
    return this.chatBox;
  }

  async open(id) {
    if (this.id && this.id !== id) this.follow(this.id, false);
    if (this.id !== id) this.follow(id, true);
    this.id = id;
    clear(this.body).append(h("p", { text: t("dlg.loading") }));
    if (!this.el.open) this.el.showModal();
    await this.load();
    clearInterval(this.timer);
    let ticks = 0;
    this.timer = setInterval(() => {
      ticks += 1;
      if (ticks % 5 === 0) this.load();
      else this.tick();
    }, 1000);
  }

  async load() {
    const id = this.id;
    if (!id) return;
    let d;
    try {
      d = await api.tournament(id);
    } catch (err) {
      clear(this.body).append(h("p", { class: "error", role: "alert", text: errorText(err) }));
      return;
    }
    if (id !== this.id) return;
    this.details = d;
    this.clock = new LevelClock(d.level);
    this.render(d);
  }

  tick() {
    const el = this.body.querySelector(".t-clock");
    if (el && this.clock) el.textContent = this.clock.text();
  }

  render(d) {
    const s = d.summary;
    const cur = s.currency;
    const me = this.app.me ? String(this.app.me.id) : "";
    this.title.textContent = s.name;
    this.el.dataset.tournament = s.tournament;
    this.el.dataset.status = s.status;
    const facts = [
      ["lobby.col_game", s.mix ? `${s.mix.name}: ${s.mix.games.join(", ")}` : `${gameName(s.variant, s.variant_name)} ${bettingShort(s.betting)}`],
      ["t.kind", `${named("kind", s.kind)}${s.satellite_to ? t("t.satellite_to", { name: s.satellite_to }) : ""}`],
      ["lobby.col_buy_in", buyInText(s)],
      ["t.starting_stack", fmt(s.starting_stack)],
      ["t.levels", t("t.minutes", { n: s.level_minutes })],
      ["lobby.col_players", `${fmt(s.entrants)}${s.max_players ? " / " + fmt(s.max_players) : ""}${s.status === "running" ? t("t.left", { n: s.remaining }) : ""}`],
      ["lobby.col_status", named("status", s.status)],
    ];
    if (s.start_time) facts.push(["t.starts", fmtDateTime(s.start_time)]);
    if (s.guarantee) facts.push(["t.guarantee", fmt(s.guarantee, cur)]);
    if (s.rebuy_levels) facts.push(["t.rebuys", t(s.add_on ? "t.rebuy_levels_add_on" : "t.rebuy_levels", { n: s.rebuy_levels })]);
    if (s.late_registration_levels) facts.push(["t.late_reg", t("t.rebuy_levels", { n: s.late_registration_levels })]);
    if (s.late_registration_minutes) facts.push(["t.late_reg", t("t.late_reg_minutes", { n: s.late_registration_minutes })]);
    if (s.max_entries > 1) facts.push(["t.reentry", t("t.max_entries", { n: s.max_entries })]);
    const parts = [h("dl", { class: "t-facts" }, ...facts.flatMap(([k, v]) => [h("dt", { text: t(k) }), h("dd", { text: v })]))];
    if (d.level && d.level.number) {
      const l = d.level;
      const blinds = s.betting === "FL" ? `${fmt(l.small_bet)}/${fmt(l.big_bet)}` : `${fmt(l.small_blind)}/${fmt(l.big_blind)}`;
      parts.push(h("p", { class: "t-level", "data-level": String(l.number),
        text: t("t.level_blinds", { n: l.number, blinds }) + (l.ante ? t("t.ante", { amount: fmt(l.ante) }) : "") }),
      h("p", { class: "t-clock", role: "timer", text: this.clock.text() }));
    }
    parts.push(this.actions(d, me));
    const chat = this.chatSection(d, me);
    if (chat) parts.push(chat);
    parts.push(h("h3", { text: t("t.prize_pool", { amount: fmt(s.prize_pool, cur) }) }));
    const payouts = d.payouts || [];
    if (d.seats_won) parts.push(h("p", { class: "t-seats", text: t("t.seats_won", { n: d.seats_won, name: s.satellite_to }) }));
    parts.push(payouts.length
      ? h("ol", { class: "t-payouts" }, ...payouts.map((p) => h("li", { "data-place": String(p.place),
        "data-amount": String(p.amount), text: `${ordinal(p.place)}: ${fmt(p.amount, cur)}` })))
      : h("p", { class: "hint", text: t("t.payouts_later") }));
    const standings = d.standings || [];
    const dealt = standings.some((e) => e.deal); // a deal was made at the final table: what each was paid
    if (dealt) parts.push(h("p", { class: "t-deal-made", text: t("deal.in_standings") }));
    const current = d.deal && d.deal.current;
    if (current) parts.push(h("p", { class: "t-deal-current", role: "status", text: t("deal.proposed", { name: current.player, method: t(current.method === "icm" ? "deal.icm" : "deal.chip_chop") }) }));
    if (standings.length) {
      const head = ["#", t("t.player"), t("t.chips"), t("lobby.col_table"), ...(dealt ? [t("deal.col")] : [])];
      parts.push(h("h3", { text: t("t.standings") }), h("table", { class: "t-standings-table" },
        h("thead", {}, h("tr", {}, ...head.map((x) => h("th", { text: x })))),
        h("tbody", {}, ...standings.map((e, i) => h("tr", { class: String(e.player) === me ? "me" : "",
          "data-player": String(e.player) },
        h("td", { text: e.place ? ordinal(e.place) : fmt(i + 1) }), h("td", { text: entryName(e, s) }),
        h("td", { text: e.place ? "" : fmt(e.stack) }), h("td", { text: e.table ?? "" }),
        dealt ? h("td", { class: "t-deal", "data-amount": String(e.deal || 0), text: e.deal ? fmt(e.deal, cur) : "" }) : null)))));
    }
    const tables = d.tables || [];
    if (tables.length) {
      // (a table by its number in the tournament, not its raw id: issue 31)
      parts.push(h("h3", { text: t("t.tables") }), h("ul", { class: "t-tables" }, ...tables.map((x, i) => h("li", { "data-table": x.table },
        `${t("t.table_line", { table: `${t("tile.table")} ${i + 1}`, n: x.players, chips: x.stacks.map((c) => fmt(c)).join(", ") })} `,
        h("button", { type: "button", class: "t-watch", "data-table": x.table,
          onclick: () => { this.el.close(); this.app.openTable(x.table); }, text: t("t.watch") })))));
    }
    const entrants = d.entrants || [];
    const wasOpen = Boolean(this.body.querySelector(".t-entrants[open]")); // a refresh keeps it open
    parts.push(h("details", { class: "t-entrants", open: wasOpen }, h("summary", { text: t("t.entrants", { n: entrants.length }) }),
      h("ul", {}, ...entrants.map((e) => h("li", { text: e.name })))));
    parts.push(h("h3", { text: t("t.structure") }), h("table", { class: "t-structure" },
      h("thead", {}, h("tr", {}, ...["t.level", "t.blinds", "t.ante_col", "t.minutes_col"].map((k) => h("th", { text: t(k) })))),
      h("tbody", {}, ...(d.structure || []).map((l) => h("tr", { "data-level": String(l.level),
        class: d.level && d.level.number === l.level ? "current" : "" },
      h("td", { text: l.game ? `${l.level} \u00b7 ${l.game}` : String(l.level) }), // a mix's game (R251)
      h("td", { text: `${fmt(l.small_blind)}/${fmt(l.big_blind)}` }),
      h("td", { text: l.ante ? fmt(l.ante) : "" }), h("td", { text: String(l.minutes) }))))));
    const typing = this.chatBox && this.chatBox.contains(document.activeElement); // (a refresh keeps the focus)
    clear(this.body).append(...parts);
    if (typing && this.chatBox.isConnected) this.chatBox.querySelector("input").focus();
  }

  actions(d, me) {
    const s = d.summary;
    const msg = h("span", { class: "hint", role: "status" });
    const run = (fn, done) => async () => {
      try {
        await fn();
        msg.textContent = done;
        this.app.refreshBalance();
        this.app.lobby.refresh();
        this.load();
      } catch (err) {
        msg.textContent = errorText(err);
      }
    };
    const box = h("div", { class: "buttons t-actions" });
    const entered = (d.entrants || []).some((e) => String(e.player) === me);
    if (s.status === "registering" || s.status === "announced") {
      box.append(entered
        ? h("button", { type: "button", class: "t-unregister", onclick: run(() => this.app.socket.request({ type: "tournament_unregister", tournament: s.tournament }), t("t.unregistered")), text: t("t.unregister") })
        : h("button", { type: "button", class: "primary t-register", onclick: run(() => this.app.socket.request({ type: "tournament_register", tournament: s.tournament }), t("t.registered")), text: t("t.register_for", { buy_in: buyInText(s) }) }));
    }
    const again = entryOption(d, me);
    const enter = () => this.app.socket.request({ type: "tournament_register", tournament: s.tournament });
    if (again === "register") box.append(h("button", { type: "button", class: "primary t-register", onclick: run(enter, t("t.registered")), text: t("t.register_for", { buy_in: buyInText(s) }) }));
    if (again === "reenter") box.append(h("button", { type: "button", class: "primary t-reenter", onclick: run(enter, t("t.reentered")), text: t("t.reenter_for", { buy_in: buyInText(s) }) }));
    const mine = (d.standings || []).find((e) => String(e.player) === me && !e.place);
    if (mine) {
      const can = rebuyOptions(s, d.level, mine.stack, false, mine.add_on);
      if (can.rebuy) box.append(h("button", { type: "button", class: "t-rebuy", onclick: run(() => api.rebuy(s.tournament), t("t.rebought")), text: t("t.rebuy_for", { buy_in: buyInText(s) }) }));
      if (can.addOn) box.append(h("button", { type: "button", class: "t-add-on", onclick: run(() => api.rebuy(s.tournament, true), t("t.add_on_taken")), text: t("t.add_on_for", { buy_in: buyInText(s) }) }));
    }
    if (canPropose(d, me)) box.append(h("button", { type: "button", class: "t-deal-propose", onclick: () => this.deals.propose(d), text: t("deal.propose") }));
    box.append(msg);
    return box;
  }
}
