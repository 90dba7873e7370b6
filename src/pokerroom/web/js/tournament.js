// The tournament page (a dialog: structure, entrants, prize pool and payouts, tables, standings, the level
// clock) and what a tournament table's tile shows of the tournament (level, next level, rebuy, add-on).
import { h, clear, fmt } from "./dom.js";
import { api } from "./api.js";
import { dialog } from "./dialogs.js";
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
    el.addEventListener("close", () => {
      clearInterval(this.timer);
      this.timer = null;
      this.id = null;
    });
  }

  async open(id) {
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
      ["lobby.col_game", `${gameName(s.variant, s.variant_name)} ${bettingShort(s.betting)}`],
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
    const parts = [h("dl", { class: "t-facts" }, ...facts.flatMap(([k, v]) => [h("dt", { text: t(k) }), h("dd", { text: v })]))];
    if (d.level && d.level.number) {
      const l = d.level;
      const blinds = s.betting === "FL" ? `${fmt(l.small_bet)}/${fmt(l.big_bet)}` : `${fmt(l.small_blind)}/${fmt(l.big_blind)}`;
      parts.push(h("p", { class: "t-level", "data-level": String(l.number),
        text: t("t.level_blinds", { n: l.number, blinds }) + (l.ante ? t("t.ante", { amount: fmt(l.ante) }) : "") }),
      h("p", { class: "t-clock", role: "timer", text: this.clock.text() }));
    }
    parts.push(this.actions(d, me));
    parts.push(h("h3", { text: t("t.prize_pool", { amount: fmt(s.prize_pool, cur) }) }));
    const payouts = d.payouts || [];
    if (d.seats_won) parts.push(h("p", { class: "t-seats", text: t("t.seats_won", { n: d.seats_won, name: s.satellite_to }) }));
    parts.push(payouts.length
      ? h("ol", { class: "t-payouts" }, ...payouts.map((p) => h("li", { "data-place": String(p.place),
        "data-amount": String(p.amount), text: `${ordinal(p.place)}: ${fmt(p.amount, cur)}` })))
      : h("p", { class: "hint", text: t("t.payouts_later") }));
    const standings = d.standings || [];
    if (standings.length) {
      parts.push(h("h3", { text: t("t.standings") }), h("table", { class: "t-standings-table" },
        h("thead", {}, h("tr", {}, ...["#", t("t.player"), t("t.chips"), t("lobby.col_table")].map((x) => h("th", { text: x })))),
        h("tbody", {}, ...standings.map((e, i) => h("tr", { class: String(e.player) === me ? "me" : "",
          "data-player": String(e.player) },
        h("td", { text: e.place ? ordinal(e.place) : fmt(i + 1) }), h("td", { text: e.name }),
        h("td", { text: e.place ? "" : fmt(e.stack) }), h("td", { text: e.table ?? "" }))))));
    }
    const tables = d.tables || [];
    if (tables.length) {
      parts.push(h("h3", { text: t("t.tables") }), h("ul", { class: "t-tables" }, ...tables.map((x) => h("li", {},
        `${t("t.table_line", { table: x.table, n: x.players, chips: x.stacks.map((c) => fmt(c)).join(", ") })} `,
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
      h("td", { text: String(l.level) }), h("td", { text: `${fmt(l.small_blind)}/${fmt(l.big_blind)}` }),
      h("td", { text: l.ante ? fmt(l.ante) : "" }), h("td", { text: String(l.minutes) }))))));
    clear(this.body).append(...parts);
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
    const mine = (d.standings || []).find((e) => String(e.player) === me && !e.place);
    if (mine) {
      const can = rebuyOptions(s, d.level, mine.stack, false, mine.add_on);
      if (can.rebuy) box.append(h("button", { type: "button", class: "t-rebuy", onclick: run(() => api.rebuy(s.tournament), t("t.rebought")), text: t("t.rebuy_for", { buy_in: buyInText(s) }) }));
      if (can.addOn) box.append(h("button", { type: "button", class: "t-add-on", onclick: run(() => api.rebuy(s.tournament, true), t("t.add_on_taken")), text: t("t.add_on_for", { buy_in: buyInText(s) }) }));
    }
    box.append(msg);
    return box;
  }
}
