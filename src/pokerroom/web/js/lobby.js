// The lobby: tabs (cash tables; Rush pools and tournaments when the server lists them) and filters.
import { h, clear, fmt } from "./dom.js";
import { api } from "./api.js";
import { bettingShort, errorText, fmtDateTime, gameLabel, gameName, named, ordinal, t, tableName } from "./i18n.js";

const FILTERS = ["game", "betting", "stakes", "seats"];

export class Lobby {
  constructor(app, root) {
    this.app = app;
    this.root = root;
    this.data = { tables: [] };
    this.tab = "cash";
    this.results = new Map(); // finished tournament id -> its details (standings and prizes), once asked for
    this.filters = { game: "", betting: "", stakes: "", seats: "" };
    this.tFilters = { status: "", kind: "", game: "" }; // the Tournaments tab's own filters
    this.sort = { key: "game", dir: 1 }; // hold'em first
    this.previewed = null;
    this.previewBox = root.querySelector(".lobby-preview");
    this.tabs = root.querySelector(".lobby-tabs");
    this.filterBar = root.querySelector(".lobby-filters");
    this.list = root.querySelector(".lobby-list");
    for (const name of FILTERS) {
      const sel = this.filterBar.querySelector(`select[name=${name}]`);
      sel.addEventListener("change", () => {
        this.filters[name] = sel.value;
        this.renderList();
      });
    }
    root.querySelector(".lobby-refresh").addEventListener("click", () => this.refresh());
  }

  async refresh() {
    try {
      this.data = await api.lobby();
    } catch (err) {
      this.list.textContent = t("lobby.load_failed", { error: errorText(err) });
      return;
    }
    this.renderTabs();
    this.renderFilters();
    this.renderList();
  }

  renderTabs() {
    const tabs = [["cash", t("lobby.tab_cash")]];
    if (Array.isArray(this.data.pools)) tabs.push(["rush", t("lobby.tab_rush")]);
    if (this.data.tournaments) tabs.push(["tournaments", t("lobby.tab_tournaments")]);
    clear(this.tabs);
    for (const [key, label] of tabs) {
      const b = h("button", { type: "button", role: "tab", class: "tab", "data-tab": key,
        "aria-selected": this.tab === key ? "true" : "false", text: label,
        onclick: () => { this.tab = key; this.renderTabs(); this.renderList(); } });
      this.tabs.append(b);
    }
    this.filterBar.hidden = this.tab === "tournaments";
    // The preview is of a cash table: beside the cash list only (issue 31).
    this.previewBox.hidden = this.tab !== "cash" || !this.previewBox.dataset.table;
  }

  rows() {
    if (this.tab === "rush") return (this.data.pools || []).map((r) => ({ ...r, seats: r.seats ?? r.table_size }));
    if (this.tab === "tournaments") return this.tournamentRows();
    return this.data.tables || [];
  }

  // Our registration changed: the rows say so at once (the next refresh of the lobby confirms it).
  setRegistered(id, registered) {
    const t = this.data.tournaments || {};
    for (const rows of Array.isArray(t) ? [t] : Object.values(t)) {
      for (const r of rows || []) if ((r.tournament || r.id) === id) r.registered = registered;
    }
  }

  tournamentRows() {
    const all = this.data.tournaments || {};
    if (Array.isArray(all)) return all.map((r) => ({ ...r, group: r.status === "finished" ? "finished" : r.status === "running" ? "running" : "upcoming" }));
    return ["running", "upcoming", "finished"].flatMap((group) => (all[group] || []).map((r) => ({ ...r, group })));
  }

  // Upcoming / running / finished, sit-and-go or scheduled, and the game.
  tournamentFilters() {
    const rows = this.tournamentRows();
    const choices = {
      status: [["upcoming", t("lobby.upcoming")], ["running", t("status.running")], ["finished", t("status.finished")]],
      kind: [["sng", t("kind.sng")], ["mtt", t("kind.mtt")]],
      game: uniq(rows.map((r) => [r.variant, gameName(r.variant, r.variant_name)])),
    };
    const all = { status: t("lobby.any_status"), kind: t("lobby.any_kind"), game: t("lobby.any_game") };
    return h("div", { class: "t-filters", role: "group", "aria-label": t("lobby.t_filters") },
      ...Object.entries(choices).map(([name, opts]) => {
        const sel = h("select", { name: `t-${name}`, "aria-label": all[name],
          onchange: () => { this.tFilters[name] = sel.value; this.renderList(); } },
        h("option", { value: "", text: all[name] }), ...opts.map(([value, label]) => h("option", { value, text: label })));
        sel.value = this.tFilters[name];
        return sel;
      }));
  }

  // A finished tournament's places and prizes; the player's own place first when he played it.
  async loadResults(id) {
    try {
      this.results.set(id, await api.tournament(id));
    } catch (err) {
      this.app.$("#conn").textContent = t("lobby.results_failed", { error: errorText(err) });
      return null;
    }
    this.renderList();
    return this.results.get(id);
  }

  resultsView(d, currency) {
    const prizes = new Map((d.prizes || []).map((p) => [String(p.player), p.amount]));
    const me = this.app.me ? String(this.app.me.id) : "";
    const places = (d.standings || []).filter((s) => s.place !== null && s.place !== undefined)
      .sort((a, b) => a.place - b.place);
    const mine = places.find((s) => String(s.player) === me);
    const parts = [];
    if (mine) {
      const prize = prizes.get(me) || 0;
      parts.push(h("p", { class: "t-you", "data-place": String(mine.place), "data-prize": String(prize),
        text: prize ? t("t.you_finished_won", { place: ordinal(mine.place), n: places.length, prize: fmt(prize, currency) })
          : t("t.you_finished_of", { place: ordinal(mine.place), n: places.length }) }));
    }
    parts.push(h("ol", { class: "t-standings" }, ...places.map((s) => h("li", {
      "data-place": String(s.place), "data-player": String(s.player), class: String(s.player) === me ? "me" : "",
      text: `${ordinal(s.place)} ${s.name}${prizes.get(String(s.player)) ? " \u2014 " + fmt(prizes.get(String(s.player)), currency) : ""}`,
    }))));
    return h("div", {}, ...parts);
  }

  // A game's name ("Texas Hold'em", not "holdem"): the tournament rows have only the code; the cash tables
  // and pools have the names.
  gameName(r) {
    if (r.variant_name || !r.variant) return gameName(r.variant, r.variant_name);
    const rows = [...(this.data.tables || []), ...(this.data.pools || [])];
    const named = rows.find((x) => x.variant === r.variant && x.variant_name);
    return gameName(r.variant, named ? named.variant_name : r.variant);
  }

  renderFilters() {
    const rows = [...(this.data.tables || []), ...(this.data.pools || []).map((r) => ({ ...r, seats: r.table_size }))];
    const options = {
      game: uniq(rows.map((r) => [r.variant, gameName(r.variant, r.variant_name)])),
      betting: uniq(rows.map((r) => [r.betting, named("betting_long", r.betting)])),
      stakes: uniq(rows.map((r) => [String(bigOf(r)), t("lobby.up_to", { amount: fmt(bigOf(r), r.currency) })]))
        .sort((a, b) => Number(a[0]) - Number(b[0])),
      seats: uniq(rows.map((r) => [String(r.seats), t("lobby.n_seats", { n: r.seats })])),
    };
    for (const name of FILTERS) {
      const sel = this.filterBar.querySelector(`select[name=${name}]`);
      const keep = sel.value;
      clear(sel).append(h("option", { value: "", text: t(ALL_KEYS[name]) }));
      for (const [value, label] of options[name]) sel.append(h("option", { value, text: label }));
      sel.value = keep;
    }
  }

  // The selected table beside the list: its seats and stacks, as an observer sees them.
  async preview(r) {
    const id = r.table;
    this.previewed = id;
    this.renderList();
    const box = this.previewBox;
    let view;
    try {
      view = (await api.table(id)).state; // {summary, state}: the state as an observer sees it
    } catch (err) {
      box.textContent = errorText(err);
      return;
    }
    if (this.previewed !== id) return;
    const seats = [];
    for (let seat = 1; seat <= (view.seats || r.seats); seat += 1) {
      const p = (view.players || {})[String(seat)];
      seats.push(h("li", { "data-seat": seat, class: p ? "" : "empty" },
        h("span", { text: p ? p.name : t("tile.empty") }), p ? h("b", { text: fmt(p.stack, r.currency) }) : null));
    }
    clear(box).append(
      h("h3", { text: nameText(r) }),
      h("p", { class: "hint", text: `${gameText(r)} \u00b7 ${stakesText(r)}` }),
      h("ol", { class: "preview-seats", "aria-label": t("lobby.seats") }, ...seats),
      h("button", { type: "button", class: "primary preview-open", onclick: () => this.app.openTable(id),
        text: this.app.tiles.has(id) ? t("lobby.show") : t("lobby.open") }));
    box.hidden = false;
    box.dataset.table = id;
  }

  renderList() {
    const f = this.filters;
    const tf = this.tFilters;
    const rows = this.tab === "tournaments"
      ? this.rows().filter((r) => (!tf.status || r.group === tf.status) && (!tf.kind || r.kind === tf.kind)
        && (!tf.game || r.variant === tf.game))
      : this.rows().filter((r) =>
        (!f.game || r.variant === f.game) &&
        (!f.betting || r.betting === f.betting) &&
        (!f.stakes || bigOf(r) <= Number(f.stakes)) &&
        (!f.seats || String(r.seats) === f.seats));
    clear(this.list);
    if (this.tab === "tournaments") this.list.append(this.tournamentFilters());
    if (!rows.length) {
      this.list.append(h("p", { class: "empty", text: t("lobby.nothing") }));
      return;
    }
    const table = h("table", { class: this.tab === "tournaments" ? "lobby-table t-list" : "lobby-table" });
    if (this.tab === "tournaments") {
      table.append(h("thead", {}, h("tr", {}, ...["lobby.col_tournament", "lobby.col_game", "lobby.col_buy_in", "lobby.col_players", "lobby.col_status", ""].map((k) => h("th", { text: k ? t(k) : "" })))));
      const body = h("tbody");
      for (const r of rows) {
        const id = r.tournament || r.id;
        const buyIn = r.freeroll ? t("t.freeroll") : `${fmt(r.buy_in, r.currency)}${r.fee ? " + " + fmt(r.fee, r.currency) : ""}`;
        const action = h("td", {}, h("button", { type: "button", class: "t-info", "data-tournament": id,
          "aria-label": t("lobby.about", { name: r.name || id }), onclick: () => this.app.tournamentDialog.open(id), text: t("lobby.info") }));
        if ((r.status === "registering" || r.status === "announced") && r.state && r.state !== "playing") {
          action.append(h("span", { class: "paused-label", "data-state": r.state, text: t("lobby.paused") }));
        } else if (r.status === "registering" || r.status === "announced") {
          // The row says whether we are registered (GET /api/lobby for a logged-in player): only the button
          // that applies, and the other one once it has worked.
          const msg = h("span", { class: "hint" });
          const request = (type, done, registered) => async () => {
            try {
              await this.app.socket.request({ type, tournament: id });
              this.setRegistered(id, registered);
              this.renderList();
              this.app.refreshBalance();
              const hint = this.list.querySelector(`tr[data-tournament="${CSS.escape(id)}"] .hint`);
              if (hint) hint.textContent = ` ${done}`;
            } catch (err) {
              msg.textContent = ` ${errorText(err)}`;
            }
          };
          action.append(r.registered
            ? h("button", { type: "button", class: "t-unregister", "data-tournament": id,
              onclick: request("tournament_unregister", t("t.unregistered"), false), text: t("t.unregister") })
            : h("button", { type: "button", class: "t-register", "data-tournament": id,
              onclick: request("tournament_register", t("t.registered"), true), text: t("t.register") }),
          msg);
        }
        if (r.status === "finished") {
          action.append(h("button", { type: "button", class: "t-results-btn", "data-tournament": id,
            onclick: () => this.loadResults(id), text: t("lobby.results") }));
        }
        body.append(h("tr", { "data-tournament": id, "data-registered": r.registered ? "yes" : "no" },
          h("td", { text: r.name || id }), h("td", { text: r.mix ? r.mix.name : `${this.gameName(r)} ${bettingShort(r.betting)}` }), // §11.1: a mix
          h("td", { text: buyIn }),
          h("td", { text: `${r.entrants ?? r.players ?? ""}${r.max_players ? "/" + r.max_players : ""}` }),
          h("td", { class: "t-status", "data-status": r.status || "" }, named("status", r.status || ""),
            // an upcoming tournament's start in the viewer's own time zone (issue 35: recurring series)
            ...(r.start_time && (r.status === "registering" || r.status === "announced")
              ? [" ", h("time", { class: "t-start", datetime: r.start_time, text: fmtDateTime(r.start_time) })]
              // a sit-and-go has no clock time: it starts when full (issue 31: the list had no start at all)
              : !r.start_time && r.kind === "sng" && (r.status === "registering" || r.status === "announced")
                ? [" ", h("span", { class: "t-start t-when-full", text: t("lobby.starts_when_full", { n: r.max_players }) })] : [])),
          action));
        const details = this.results.get(id);
        if (details) body.append(h("tr", { class: "t-results", "data-results-for": id }, h("td", { colspan: "6" }, this.resultsView(details, r.currency))));
      }
      table.append(body);
      this.list.append(table);
      return;
    }
    const cash = this.tab === "cash";
    const columns = cash ? CASH_COLUMNS : RUSH_COLUMNS;
    const sort = this.sort;
    const col = columns.find((c) => c.key === sort.key) || columns[0];
    rows.sort((a, b) => sort.dir * compare(col.value(a), col.value(b)) || compare(GAME_ORDER(a), GAME_ORDER(b)) || compare(bigOf(a), bigOf(b)));
    table.append(h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", {
      "aria-sort": c.key === sort.key ? (sort.dir > 0 ? "ascending" : "descending") : "none", class: c.num ? "num" : "" },
    h("button", { type: "button", class: "sort", "data-sort": c.key, text: t(c.label),
      onclick: () => {
        this.sort = { key: c.key, dir: c.key === sort.key ? -sort.dir : c.first || 1 };
        this.renderList();
      } }))), h("th"))));
    const body = h("tbody");
    for (const r of rows) {
      const id = r.table || r.pool || r.id;
      const open = this.app.tiles.has(id);
      body.append(h("tr", { "data-table": id, class: this.previewed === id ? "selected" : "",
        onclick: (ev) => { if (cash && !ev.target.closest("button")) this.preview(r); } },
        ...columns.map((c) => h("td", { class: `${c.cls || ""}${c.num ? " num" : ""}`.trim(), text: c.text(r) })),
        h("td", {}, this.tab === "cash"
          ? h("button", { type: "button", class: "open-table", "data-table": id, "aria-label": t("lobby.open_name", { name: nameText(r) }),
            onclick: () => this.app.openTable(id), text: open ? t("lobby.show") : t("lobby.open") })
          : r.state && r.state !== "playing"
            ? h("span", { class: "paused-label", "data-state": r.state, text: t("lobby.paused") })
            : h("button", { type: "button", class: "join-pool", "data-pool": id, "aria-label": t("lobby.join_name", { name: nameText(r) }),
              onclick: () => this.app.poolDialog.open(r), text: t("lobby.join") }),
          cash && r.state && r.state !== "playing"
            ? h("span", { class: "paused-label", "data-state": r.state, text: ` ${t("lobby.paused")}` }) : null)));
    }
    table.append(body);
    this.list.append(table);
  }
}

// Hold'em first, then the other flop games, stud, draw (the lobby's default order), then by stakes.
const GAMES = ["holdem", "shortdeck", "omaha", "omaha5", "omaha6", "omaha8", "omaha8_5", "irish", "stud", "stud8",
  "razz", "stud5", "soko", "draw", "deuce7", "deuce7_triple", "draw7a", "badugi"];
const GAME_ORDER = (r) => {
  const i = GAMES.indexOf(r.variant);
  return i < 0 ? GAMES.length : i;
};
const num = (v) => (v === null || v === undefined ? "\u2013" : fmt(v));
const CASH_COLUMNS = [
  { key: "name", label: "lobby.col_table", cls: "t-name", value: (r) => r.name, text: tableText },
  { key: "game", label: "lobby.col_game", value: GAME_ORDER, text: gameOnly },
  { key: "stakes", label: "lobby.col_stakes", value: (r) => bigOf(r), text: (r) => `${bettingShort(r.betting)} ${stakesText(r)}` },
  { key: "players", label: "lobby.col_players", num: true, first: -1, value: (r) => r.players, text: (r) => `${r.players}/${r.seats}` },
  { key: "waiting", label: "lobby.col_wait", num: true, first: -1, value: (r) => r.waiting ?? 0, text: (r) => String(r.waiting ?? 0) },
  { key: "avg_pot", label: "lobby.col_avg_pot", num: true, first: -1, value: (r) => r.avg_pot ?? -1, text: (r) => num(r.avg_pot) },
  { key: "players_per_flop", label: "lobby.col_per_flop", num: true, first: -1, value: (r) => sampled(r, "players_per_flop") ?? -1,
    text: (r) => (sampled(r, "players_per_flop") === null ? "\u2013" : `${r.players_per_flop}%`) },
  { key: "hands_per_hour", label: "lobby.col_hands_h", num: true, first: -1, value: (r) => sampled(r, "hands_per_hour") ?? -1,
    text: (r) => num(sampled(r, "hands_per_hour")) },
];
const RUSH_COLUMNS = [
  { key: "name", label: "lobby.col_pool", cls: "t-name", value: (r) => r.name, text: (r) => r.name },
  { key: "game", label: "lobby.col_game", value: GAME_ORDER, text: gameText },
  { key: "stakes", label: "lobby.col_stakes", value: (r) => bigOf(r), text: stakesText },
  { key: "players", label: "lobby.col_players", num: true, first: -1, value: (r) => r.players,
    text: (r) => t("lobby.pool_players", { players: r.players, n: r.entries, seats: r.seats }) },
];

// Players per flop and hands per hour mean something over a few hands only: shown once the table has dealt
// MIN_SAMPLE hands (its "hands"), "–" before (issue 31: "Hands/h 1", "Plrs/flop 0 %" after one hand).
export const MIN_SAMPLE = 10;
function sampled(r, key) {
  const v = r[key];
  return v === null || v === undefined || (r.hands ?? 0) < MIN_SAMPLE ? null : v;
}

function compare(a, b) {
  if (typeof a === "string" || typeof b === "string") return String(a).localeCompare(String(b));
  return a - b;
}


function bigOf(r) {
  const s = r.stakes || {};
  return s.big_blind || s.small_bet || 0;
}

function uniq(pairs) {
  const seen = new Map();
  for (const [k, v] of pairs) if (k !== undefined && k !== null && k !== "" && !seen.has(k)) seen.set(k, v);
  return [...seen.entries()];
}

const ALL_KEYS = { game: "lobby.all_games", betting: "lobby.all_structures", stakes: "lobby.all_stakes",
  seats: "lobby.all_sizes" };

function nameText(r) {
  return tableName(r.name, r.variant, r.betting, r.variant_name);
}

// The cash list's Table, Game and Stakes columns say different things (issue 31: Table and Game said the same
// in every row): a table named after its game and structure, as the shipped room's are, is shown by its
// size ("6 seats"); the game without the structure, which the Stakes column has ("NL 10/20").
function tableText(r) {
  const auto = r.variant_name && r.name === `${r.variant_name} ${r.betting}`;
  if (!auto || r.mix) return nameText(r);
  return t("lobby.n_seats", { n: r.seats });
}

function gameOnly(r) {
  return r.mix ? gameText(r) : gameName(r.variant, r.variant_name);
}

function gameText(r) {
  if (r.mix) return t("lobby.mix", { mix: r.mix.name, game: gameLabel(r.mix.game_label), next: gameLabel(r.mix.next_label) }); // §11.1
  return `${gameName(r.variant, r.variant_name)} ${bettingShort(r.betting)}`;
}

// The stakes in the page's number format ("1 000/2 000" in Russian), as the server's label words them.
function stakesText(r) {
  const s = r.stakes || {};
  const pair = r.betting === "FL" ? [s.small_bet, s.big_bet] : [s.small_blind, s.big_blind];
  if (pair.every((x) => typeof x === "number")) return pair.map((x) => fmt(x, r.currency)).join("/");
  return r.stakes_label || fmt(bigOf(r), r.currency);
}
