// The browser client of pokerroom: log in, the lobby, several tables at once, cashier, last hands.
import { h, fmt } from "./dom.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";
import { Lobby } from "./lobby.js";
import { Tile } from "./tile.js";
import { Cashier, LastHands, PoolDialog, SitDialog } from "./dialogs.js";
import { drawWallets } from "./cashier.js";
import { RushTile } from "./rush.js";
import { TournamentDialog } from "./tournament.js";
import { GamingDialog, SessionReminder } from "./gaming.js";
import { Fairness } from "./fairness.js";
import { Layout, TitleFlash } from "./layout.js";
import { ReplayTile } from "./replay.js";
import { SessionStats } from "./stats.js";
import { LifetimeStats } from "./lifetime.js";
import { bindSwitch, errorText, named, t, translatePage } from "./i18n.js";
import { AccountDialog, ForgotPage, openFromLink } from "./account.js";
import { Reads } from "./notes.js";
import { Presets } from "./presets.js";
import { autoTopUpStopped } from "./autotopup.js";
import { Looks } from "./themes.js";

const OPEN_KEY = "pokerroom.open-tables";
const FOUR_KEY = "pokerroom.four-colour";

class App {
  constructor() {
    this.me = null;
    this.socket = new Socket();
    this.tiles = new Map();
    this.focused = null;
    this.$ = (sel) => document.querySelector(sel);
    translatePage();
    for (const sel of ["#lang", "#login-lang"]) bindSwitch(this.$(sel));
    this.lobby = new Lobby(this, this.$("#lobby"));
    this.sitDialog = new SitDialog(this);
    this.poolDialog = new PoolDialog(this);
    this.joining = new Map(); // ref of a pool_join -> pool summary
    this.poolQueue = []; // pool frames waiting for the lobby's list of pools
    this.cashier = new Cashier(this);
    // deck commitments seen, proofs revealed, our seed contributions (docs/fairness.md)
    this.fairness = new Fairness((m) => this.socket && this.socket.send(m));
    this.lastHands = new LastHands(this);
    this.tournamentDialog = new TournamentDialog(this);
    this.gaming = new GamingDialog(this); // responsible gaming: limits, breaks, the session reminder
    this.reminder = new SessionReminder(this);
    this.stats = new SessionStats(this);
    this.lifetime = new LifetimeStats(this); // lifetime statistics from the stored hands (issue 31)
    this.account = new AccountDialog(this); // password, e-mail (docs/accounts.md)
    this.forgot = new ForgotPage(this); // "Forgot password?" and the reset codes
    this.reads = new Reads(this); // notes and tags on other players (issue 31)
    this.presets = new Presets(this); // bet-sizing presets of the action bar (issue 31)
    this.looks = new Looks(this); // avatar, felt colour, card backs (issue 31)
    this.titleFlash = new TitleFlash(document.title);
    this.layout = new Layout(this, this.$("#tiles"), this.$("#strip"));
    this.socket.listeners.add((msg) => this.onMessage(msg));
    this.socket.onstatus = (s) => { this.$("#conn").textContent = s === "online" ? "" : t("conn.reconnecting"); };
    this.bindLogin();
    this.bindHeader();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    const four = localStorage.getItem(FOUR_KEY) === "1";
    this.$("#four-colour").checked = four;
    document.body.classList.toggle("four-colour", four);
  }

  async start() {
    if (await openFromLink(this)) return; // a link the room mailed: the reset page
    try {
      const acc = await api.account();
      this.loggedIn(acc.player, acc.balances);
    } catch {
      this.showLogin();
    }
  }

  // ------------------------------------------------------------------------------- login

  bindLogin() {
    const form = this.$("#login-form");
    const err = this.$("#login-error");
    const submit = async (register) => {
      err.textContent = "";
      const name = form.elements.name.value.trim();
      const password = form.elements.password.value;
      if (!name || !password) {
        err.textContent = t("login.missing");
        return;
      }
      try {
        const session = register ? await api.register(name, password) : await api.login(name, password);
        const acc = await api.account();
        this.loggedIn(session.player, acc.balances);
      } catch (e) {
        if (e.code === "password_reset_required") {
          this.forgot.open({ name, forced: true }); // the operator's forced reset: enter his code
          return;
        }
        err.textContent = e.code === "name_taken" ? t("login.name_taken") : errorText(e);
      }
    };
    this.$("#forgot-btn").addEventListener("click", () => this.forgot.open({ name: form.elements.name.value.trim() }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      submit(ev.submitter && ev.submitter.value === "register");
    });
  }

  // The session is over: no reconnect, no tables to reopen, and the reloaded page shows the login form.
  backToLogin() {
    this.socket.close();
    sessionStorage.removeItem(OPEN_KEY);
    location.reload();
  }

  showLogin() {
    this.$("#login").hidden = false;
    this.$("#app").hidden = true;
    this.$("#login-form").elements.name.focus();
    this.showDemo();
  }

  // A room with the demo account (its [room] demo_account) says so on the login page, never otherwise.
  async showDemo() {
    const el = this.$("#demo-hint");
    try {
      const demo = (await api.room()).demo_account;
      el.hidden = !demo;
      if (demo) el.textContent = t("login.demo", { name: demo.name, password: demo.password });
    } catch {
      el.hidden = true; // no answer: nothing said
    }
  }

  loggedIn(player, balances) {
    this.me = player;
    this.$("#login").hidden = true;
    this.$("#app").hidden = false;
    this.$("#me").textContent = player.name;
    this.$("#console-link").hidden = !["admin", "support"].includes(player.role); // the operator's console
    this.setBalance(balances.PLAY ?? 0);
    this.setWallets(balances);
    this.socket.connect();
    this.reminder.start();
    this.reads.load();
    this.presets.load();
    this.looks.load();
    this.lobby.refresh();
    this.lobbyTimer = setInterval(() => this.lobby.refresh(), 10000);
    let open = [];
    try {
      open = JSON.parse(sessionStorage.getItem(OPEN_KEY) || "[]");
    } catch {
      open = [];
    }
    const view = this.layout.view;
    for (const id of open) this.openTable(id);
    this.layout.setView(view); // a reload keeps the view it had (the tables, mid-hand)
  }

  bindHeader() {
    this.$("#cashier-btn").addEventListener("click", () => this.cashier.open());
    this.$("#account-btn").addEventListener("click", () => this.account.open());
    this.$("#gaming-btn").addEventListener("click", () => this.gaming.open());
    this.$("#last-hands-btn").addEventListener("click", () => this.lastHands.open());
    this.$("#stats-btn").addEventListener("click", () => this.stats.open());
    this.$("#lifetime-btn").addEventListener("click", () => this.lifetime.open());
    this.$("#logout-btn").addEventListener("click", async () => {
      await api.logout().catch(() => null);
      this.backToLogin();
    });
    this.$("#four-colour").addEventListener("change", (ev) => {
      document.body.classList.toggle("four-colour", ev.target.checked);
      localStorage.setItem(FOUR_KEY, ev.target.checked ? "1" : "0");
    });
    this.$("#lobby-toggle").addEventListener("click", () => this.layout.setView("lobby"));
    // On a phone the header's other controls are behind a Menu button (issue 31), on a wider screen in the row.
    this.$("#menu-btn").addEventListener("click", () => {
      const open = this.$(".top").classList.toggle("menu-open");
      this.$("#menu-btn").setAttribute("aria-expanded", open ? "true" : "false");
    });
    this.$("#tables-toggle").addEventListener("click", () => this.layout.setView("tables"));
    this.$("#layout").addEventListener("change", (ev) => this.layout.setMode(ev.target.value));
    this.$("#title-flash").checked = this.titleFlash.on;
    this.$("#title-flash").addEventListener("change", (ev) => this.titleFlash.setOn(ev.target.checked));
    this.$("#sound").checked = this.titleFlash.sound;
    this.$("#sound").addEventListener("change", (ev) => this.titleFlash.setSound(ev.target.checked));
  }

  // A hand of the "Last hands" window on a table of its own (made here: dialogs.js cannot import tiles).
  replayTile(msg) {
    return new ReplayTile(this, msg);
  }

  setBalance(amount) {
    const el = this.$("#balance");
    el.textContent = fmt(amount);
    el.dataset.amount = String(amount);
  }

  async refreshBalance() {
    const acc = await api.account().catch(() => null);
    if (acc) {
      this.setBalance(acc.balances.PLAY ?? 0);
      this.setWallets(acc.balances);
    }
  }

  // The balances of real money, after play money in the header (cashier.js).
  setWallets(balances) {
    let el = this.$("#wallets");
    if (!el) {
      el = document.createElement("span");
      el.id = "wallets";
      this.$("#balance").after(el);
    }
    drawWallets(el, balances);
  }

  // ------------------------------------------------------------------------------- tables

  openTable(id) {
    if (this.tiles.has(id)) {
      this.layout.setView("tables");
      this.focusTile(this.tiles.get(id));
      this.layout.bringForward(this.tiles.get(id));
      this.tiles.get(id).el.scrollIntoView({ block: "nearest" });
      return;
    }
    const tile = new Tile(this, id);
    this.tiles.set(id, tile);
    this.$("#tiles").append(tile.el);
    this.socket.watch(id, (msg) => tile.onMessage(msg));
    this.saveOpen();
    this.focusTile(tile);
    this.layout.front = tile;
    this.layout.setView("tables");
    this.lobby.renderList();
  }

  closeTable(id) {
    const tile = this.tiles.get(id);
    if (!tile) return;
    const st = tile.model.state;
    if (tile.pool) {
      if (tile.status !== "left") this.socket.send({ type: "pool_leave", pool: tile.pool.pool, entry: tile.entry });
    } else if (st && st.you !== null && st.you !== undefined && st.kind === "cash") {
      if (!confirm(t("tile.confirm_leave"))) return;
      this.socket.send({ type: "leave", table: id });
    }
    if (!tile.pool) this.socket.unwatch(id);
    tile.destroy();
    this.tiles.delete(id);
    if (this.focused === tile) this.focused = null;
    this.saveOpen();
    this.layout.arrange();
    this.lobby.renderList();
  }

  // The server closed a table we watch (broken up, tournament over, pool closed): close its tile, and
  // follow our player to the table he was moved to.
  tableClosed(tile, msg) {
    this.socket.handlers.delete(tile.id);
    this.socket.seq.delete(tile.id);
    tile.destroy();
    this.tiles.delete(tile.id);
    if (this.focused === tile) this.focused = null;
    const reason = ["broken", "finished", "closed"].includes(msg.reason) ? msg.reason : "closed";
    const name = (tile.model.state && tile.model.state.name) || tile.id;
    const dest = msg.moved_to;
    const why = t(`closed.${reason}`, { name });
    this.$("#conn").textContent = dest ? t("closed.moved", { why, table: dest.table }) : why;
    if (dest && !this.tiles.has(dest.table)) this.openTable(dest.table);
    this.saveOpen();
    this.layout.arrange();
    this.lobby.renderList();
  }

  saveOpen() {
    const ids = [...this.tiles.values()].filter((t) => !t.pool).map((t) => t.id);
    sessionStorage.setItem(OPEN_KEY, JSON.stringify(ids));
  }

  focusTile(tile) {
    if (this.focused && this.focused !== tile) this.focused.el.classList.remove("focused");
    this.focused = tile;
    tile.el.classList.add("focused");
    this.layout.update();
  }

  // ------------------------------------------------------------------------------- Rush pools

  joinPool(pool, entries, buyIn) {
    const ref = this.socket.send({ type: "pool_join", pool: pool.pool, entries, buy_in: buyIn });
    this.joining.set(ref, pool);
  }

  rushTile(pool, entry) {
    const key = `${pool.pool}#${entry}`;
    let tile = this.tiles.get(key);
    if (!tile) {
      tile = new RushTile(this, pool, entry);
      this.tiles.set(key, tile);
      this.$("#tiles").append(tile.el);
      this.focusTile(tile);
      this.layout.front = tile;
      this.layout.setView("tables");
    }
    return tile;
  }

  onPool(msg) {
    if (msg.type === "pool_joined") {
      const pool = this.joining.get(msg.ref) || (this.lobby.data.pools || []).find((p) => p.pool === msg.pool);
      this.joining.delete(msg.ref);
      if (pool) for (const n of msg.entries) this.rushTile(pool, n);
      return;
    }
    const key = `${msg.pool}#${msg.entry}`;
    let tile = this.tiles.get(key);
    if (!tile) {
      const pool = (this.lobby.data.pools || []).find((p) => p.pool === msg.pool);
      if (!pool) {
        // A Rush window given back on reconnecting, before the lobby has loaded: wait for it.
        this.poolQueue.push(msg);
        if (this.poolQueue.length === 1) {
          this.lobby.refresh().then(() => {
            const queued = this.poolQueue.splice(0);
            for (const m of queued) if ((this.lobby.data.pools || []).some((p) => p.pool === m.pool)) this.onPool(m);
          });
        }
        return;
      }
      tile = this.rushTile(pool, msg.entry);
    }
    tile.onMessage(msg);
  }

  onMessage(msg) {
    this.fairness.observe(msg);
    if ((msg.type && msg.type.startsWith("pool_")) || msg.pool !== undefined) {
      this.onPool(msg); // a Rush entry's window: pool_* frames, and its table's frames (with pool and entry)
      return;
    }
    if (msg.type === "tournament_seat") {
      this.openTable(msg.table);
      return;
    }
    if (msg.type === "tournament_chat") {
      this.tournamentDialog.onChat(msg); // a tournament's lobby chat (tournament.js)
      return;
    }
    if (msg.type === "tournament_deal") {
      this.tournamentDialog.deals.onFrame(msg); // a deal at the final table (deal.js)
      return;
    }
    if (msg.type === "tournament_status") {
      this.$("#conn").textContent = t("t.status_line", { name: msg.tournament, status: named("status", msg.status) });
      this.lobby.refresh();
      if (msg.status === "finished") {
        // Our place and prize, in the lobby's Tournaments tab and in the status line.
        this.lobby.loadResults(msg.tournament).then(() => {
          const you = this.lobby.list.querySelector(`tr[data-results-for="${CSS.escape(msg.tournament)}"] .t-you`);
          if (you) this.$("#conn").textContent = t("t.status_line", { name: msg.tournament, status: you.textContent });
        });
      }
      return;
    }
    if (msg.type === "balance" && msg.currency === "PLAY") this.setBalance(msg.amount);
    else if (msg.type === "balance" && msg.currency !== "PTS") this.refreshBalance();
    else if (msg.type === "last_hands" || msg.type === "last_hand" || msg.type === "hand_verified") {
      this.lastHands.onMessage(msg);
    }
    else if (msg.type === "error" && msg.code === "session_ended") {
      this.backToLogin(); // logged out (here or in another tab) or expired
    } else if (msg.type === "error" && msg.code === "stale_seed") {
      // our seed contribution came after its deal (docs/fairness.md): the next seed gets one, nothing to say
    } else if (msg.type === "error" && msg.code === "auto_top_up_stopped" && this.tiles.has((msg.details || {}).table)) {
      autoTopUpStopped(this.tiles.get(msg.details.table), msg); // the seat's setting is off now (autotopup.js)
    } else if (msg.type === "error") {
      const tile = [...this.tiles.values()].find((t) => t.refs.has(msg.ref));
      if (tile) tile.error(msg);
      else this.$("#conn").textContent = errorText(msg);
    } else if (msg.type === "welcome" && msg.player) {
      this.me = { ...this.me, ...msg.player };
    } else if (msg.type === "welcome" && this.me) {
      // The page is logged in but its socket is not: its session ended (a logout in another tab) before
      // the socket's handshake carried the cookie. The room is asked; a 401 means back to the login form.
      api.account().catch((e) => {
        if (e.status === 401) this.backToLogin(); // (anything else, the room unreachable: the page stays)
      });
    }
  }

  // Keyboard: f fold, c check/call, r bet/raise, b bring in, p stand pat, d draw/discard, s show, m muck,
  // y / n run it twice or once.
  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && !ev.target.classList.contains("raise-slider")) return;
    const map = { f: "fold", c: ["check", "call"], k: "check", r: "raise", b: "bring_in", p: "stand_pat",
      d: ["draw", "discard"], s: "show", m: "muck", y: "run_twice_yes", n: "run_twice_no" };
    const want = map[ev.key.toLowerCase()];
    if (!want) return;
    // Only a table that shows its decision on the screen (issue 20: a key never acts at a hidden table).
    const tile = this.layout.keyTarget();
    if (!tile) return;
    for (const name of [].concat(want)) {
      const btn = tile.barHost.querySelector(`.actionbar button[data-action="${name}"]`);
      if (btn && !btn.disabled) {
        ev.preventDefault();
        btn.click();
        return;
      }
    }
  }
}

const app = new App();
window.pokerroom = app;
app.start();
