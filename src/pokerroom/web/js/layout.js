// Multi-tabling: the lobby and the tables as two views, the open tables laid out to fit the window (1, 2, 4
// or 6 at a time, or stacked one over another), the table that needs a decision highlighted (and brought
// forward when stacked), and the one table the keyboard acts on: one that shows its decision on the screen.

import { t, tableName } from "./i18n.js";

const LAYOUT_KEY = "pokerroom.layout";
const VIEW_KEY = "pokerroom.view";
// Columns and rows of each fitted layout.
const GRID = { 1: [1, 1], 2: [2, 1], 4: [2, 2], 6: [3, 2] };
export const LAYOUTS = ["auto", "1", "2", "4", "6", "stack"];
const NARROW = 700; // px: below this width, "auto" stacks the tables (a phone)

export class Layout {
  constructor(app, host, strip) {
    this.app = app;
    this.host = host; // #tiles
    this.strip = strip; // the stacked tables' tabs
    this.front = null; // the tile in front when stacked
    this.waitingSince = new Map(); // tile -> when its decision came (the oldest decision goes first)
    this.mode = LAYOUTS.includes(localStorage.getItem(LAYOUT_KEY)) ? localStorage.getItem(LAYOUT_KEY) : "auto";
    this.view = sessionStorage.getItem(VIEW_KEY) || "lobby";
    window.addEventListener("resize", () => this.arrange());
  }

  setMode(mode) {
    if (!LAYOUTS.includes(mode)) return;
    this.mode = mode;
    localStorage.setItem(LAYOUT_KEY, mode);
    this.arrange();
  }

  setView(view) {
    this.view = view === "tables" && this.app.tiles.size ? "tables" : "lobby";
    sessionStorage.setItem(VIEW_KEY, this.view);
    this.arrange();
  }

  // The layout in force: "auto" picks the smallest fitted grid that holds every open table.
  effective() {
    if (this.mode !== "auto") return this.mode;
    const n = this.app.tiles.size;
    if (window.innerWidth < NARROW) return "stack";
    if (n <= 1) return "1";
    if (n === 2) return "2";
    return n <= 4 ? "4" : "6";
  }

  tiles() {
    return [...this.app.tiles.values()];
  }

  arrange() {
    const app = this.app;
    if (!app.tiles.size && this.view === "tables") this.view = "lobby";
    const root = app.$("#app");
    root.dataset.view = this.view;
    app.$("#lobby").hidden = this.view !== "lobby";
    this.host.hidden = this.view !== "tables";
    const toggle = app.$("#tables-toggle");
    toggle.textContent = t("hdr.tables", { n: app.tiles.size });
    toggle.disabled = app.tiles.size === 0;
    toggle.setAttribute("aria-pressed", this.view === "tables" ? "true" : "false");
    app.$("#lobby-toggle").setAttribute("aria-pressed", this.view === "lobby" ? "true" : "false");
    const layoutSel = app.$("#layout");
    if (layoutSel.value !== this.mode) layoutSel.value = this.mode;
    const mode = this.effective();
    this.host.dataset.layout = mode;
    if (mode === "stack") {
      this.host.style.removeProperty("--cols");
      this.host.style.removeProperty("--rows");
    } else {
      const [cols, rows] = GRID[mode];
      this.host.style.setProperty("--cols", String(cols));
      this.host.style.setProperty("--rows", String(rows));
    }
    this.update();
  }

  // After any table changed: who needs a decision, who is in front, whom the keys act on.
  update() {
    const tiles = this.tiles();
    for (const t of tiles) {
      const waiting = Boolean(t.model.decision);
      if (waiting && !this.waitingSince.has(t)) this.waitingSince.set(t, performance.now());
      if (!waiting) this.waitingSince.delete(t);
      t.el.classList.toggle("needs-action", waiting);
    }
    for (const t of [...this.waitingSince.keys()]) if (!this.app.tiles.has(t.id)) this.waitingSince.delete(t);
    const stacked = this.host.dataset.layout === "stack";
    if (stacked) {
      if (!this.front || !this.app.tiles.has(this.front.id)) this.front = this.app.focused || tiles[0] || null;
      // The table that needs a decision comes forward, unless the one in front needs one too.
      if (this.front && !this.front.model.decision) {
        const next = this.oldestWaiting(tiles);
        if (next) this.front = next;
      }
      for (const t of tiles) t.el.classList.toggle("behind", t !== this.front);
    } else {
      for (const t of tiles) t.el.classList.remove("behind");
      // A fitted grid with more tables than it shows at once (one table to a screen): the table that
      // needs a decision is scrolled into view, unless one on the screen needs one too (issue 31); each
      // decision once, so that the player may scroll away from it.
      const next = this.oldestWaiting(tiles);
      const d = next && next.model.decision;
      const key = d ? `${next.id}|${d.hand_id}|${d.action_no}` : "";
      if (d && key !== this.revealed && this.view === "tables" && !tiles.some((t) => t.model.decision && this.shows(t))) {
        this.revealed = key;
        this.reveal(next);
      }
    }
    // The lobby in view while a table waits for us: the Tables button says so, unmistakably.
    const waiting = tiles.filter((t) => t.model.decision).length;
    const toggle = this.app.$("#tables-toggle");
    if (toggle) {
      toggle.classList.toggle("needs-action", waiting > 0 && this.view !== "tables");
      toggle.dataset.waiting = String(waiting);
    }
    this.renderStrip(tiles, stacked);
    const target = this.keyTarget();
    for (const t of tiles) t.el.classList.toggle("keys-target", t === target);
    this.app.titleFlash.update(tiles.some((t) => t.model.decision));
  }

  oldestWaiting(tiles) {
    let best = null;
    for (const t of tiles) {
      const since = this.waitingSince.get(t);
      if (since !== undefined && (!best || since < this.waitingSince.get(best))) best = t;
    }
    return best;
  }

  // A table that starts its first hand for us (a sit-and-go or tournament that began, a new seat): brought
  // to view in every layout unless a table on the screen waits for our decision.
  attention(tile) {
    const tiles = this.tiles();
    if (tiles.some((t) => t !== tile && t.model.decision && this.shows(t))) return;
    if (this.host.dataset.layout === "stack") {
      if (!this.front || !this.front.model.decision) this.front = tile;
      this.update();
    } else {
      this.reveal(tile);
    }
  }

  // Scroll a table of a fitted grid wholly into view (when it is not).
  reveal(tile) {
    if (this.view !== "tables" || tile.el.classList.contains("behind")) return;
    const box = tile.el.getBoundingClientRect();
    const host = this.host.getBoundingClientRect();
    if (box.top >= host.top - 1 && box.bottom <= host.bottom + 1) return;
    tile.el.scrollIntoView({ block: "start" });
    tile.el.dataset.revealed = String(Number(tile.el.dataset.revealed || 0) + 1);
  }

  bringForward(tile) {
    this.front = tile;
    this.app.focusTile(tile);
    this.update();
  }

  renderStrip(tiles, stacked) {
    this.strip.hidden = !stacked || this.view !== "tables" || tiles.length < 2;
    const want = tiles.map((t) => `${t.id}|${(t.model.state && t.model.state.name) || t.id}|${Boolean(t.model.decision)}|${t === this.front}`).join(";");
    if (this.strip.dataset.sig === want) return;
    this.strip.dataset.sig = want;
    this.strip.replaceChildren(...tiles.map((t) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "strip-tab";
      b.dataset.table = t.id;
      const st = t.model.state;
      b.textContent = st && st.name ? tableName(st.name, st.variant, st.betting, st.variant_name) : t.id;
      b.classList.toggle("needs-action", Boolean(t.model.decision));
      b.setAttribute("aria-pressed", t === this.front ? "true" : "false");
      b.addEventListener("click", () => this.bringForward(t));
      return b;
    }));
  }

  // A table shows its decision when its action bar is wholly on the screen: not behind another table,
  // not scrolled out of view, not in the hidden view.
  shows(tile) {
    if (this.view !== "tables" || tile.el.classList.contains("behind")) return false;
    const bar = tile.barHost.getBoundingClientRect();
    if (bar.height === 0) return false;
    const box = this.host.getBoundingClientRect();
    const top = Math.max(0, box.top);
    const bottom = Math.min(window.innerHeight, box.bottom);
    return bar.top >= top - 1 && bar.bottom <= bottom + 1 && bar.left >= -1 && bar.right <= window.innerWidth + 1;
  }

  // The keys act on the focused table when it shows a decision, else on the shown table that has waited
  // longest; never on a table the player cannot see.
  keyTarget() {
    const shown = this.tiles().filter((t) => t.model.decision && this.shows(t));
    if (!shown.length) return null;
    if (this.app.focused && shown.includes(this.app.focused)) return this.app.focused;
    return this.oldestWaiting(shown) || shown[0];
  }
}

// The tab's title flashes while a decision waits (and a short beep sounds once per decision, when the
// player turned the sound on).
export class TitleFlash {
  constructor(base) {
    this.base = base;
    this.on = localStorage.getItem("pokerroom.title-flash") !== "0";
    this.sound = localStorage.getItem("pokerroom.sound") === "1";
    this.waiting = false;
    this.timer = null;
    this.beeps = 0;
    this.audio = null;
  }

  setOn(on) {
    this.on = on;
    localStorage.setItem("pokerroom.title-flash", on ? "1" : "0");
    this.update(this.waiting);
  }

  setSound(on) {
    this.sound = on;
    localStorage.setItem("pokerroom.sound", on ? "1" : "0");
  }

  update(waiting) {
    if (waiting && !this.waiting) this.beep();
    this.waiting = waiting;
    if (waiting && this.on) {
      if (!this.timer) {
        let lit = false;
        const flip = () => {
          lit = !lit;
          document.title = lit ? `\u25b6 ${t("title.your_turn")} \u00b7 pokerroom` : this.base;
          document.documentElement.dataset.turn = "yes";
        };
        flip();
        this.timer = setInterval(flip, 900);
      }
    } else if (this.timer || document.documentElement.dataset.turn) {
      clearInterval(this.timer);
      this.timer = null;
      document.title = this.base;
      delete document.documentElement.dataset.turn;
    }
  }

  beep() {
    if (!this.sound) return;
    this.beeps += 1;
    document.documentElement.dataset.beeps = String(this.beeps);
    try {
      this.audio = this.audio || new AudioContext();
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      gain.gain.value = 0.08;
      osc.frequency.value = 880;
      osc.connect(gain).connect(this.audio.destination);
      osc.start();
      osc.stop(this.audio.currentTime + 0.15);
    } catch {
      // no audio on this device: the title still flashes
    }
  }
}
