// Tables and pools: open one from the fields of the configuration file, pause, resume, close after the
// hand (players cashed out), message a table, watch one as an observer (no hole cards).
import { api } from "./api.js";
import { h, fmt } from "../dom.js";

const EXAMPLE = {
  id: "holdem-nl-new",
  name: "Hold'em NL 10/20",
  game: "holdem",
  betting: "NL",
  stakes: { small_blind: 10, big_blind: 20 },
  seats: 6,
};

function watchView(w) {
  const v = w.view;
  if (!v) return h("p", { text: `${w.id}: ${w.state}` });
  const seats = Object.entries(v.players || {});
  const hand = v.hand || null;
  return h(
    "div",
    { id: "watch-view" },
    h("h2", { text: `Watching ${w.id} (${w.state})` }),
    h("p", { text: hand ? `Hand ${hand.hand_id}, board: ${(hand.board || []).join(" ") || "none"}` : "Between hands" }),
    h(
      "table",
      {},
      h("tr", {}, h("th", { text: "Seat" }), h("th", { text: "Player" }), h("th", { class: "num", text: "Stack" }), h("th", { text: "Cards" })),
      seats.map(([seat, s]) => {
        const inHand = hand && hand.players ? hand.players[seat] : null;
        return h(
          "tr",
          {},
          h("td", { text: seat }),
          h("td", { text: s.name || s.player || "" }),
          h("td", { class: "num", text: fmt(s.stack) }),
          h("td", { class: "watch-cards", text: inHand ? (inHand.cards || []).join(" ") : "" }),
        );
      }),
    ),
  );
}

// A mixed table's figures per game (RULES.md §11.1): hands since it opened, and over its last hands the
// average pot and the players who saw the second street.
function gameFigures(games) {
  if (!games) return null;
  return h("ul", { class: "game-figures" }, Object.entries(games).map(([game, g]) => h("li", { "data-game-figures": game,
    text: `${game}: ${fmt(g.hands)} hands` + (g.avg_pot === null ? "" : `, avg pot ${fmt(g.avg_pot)}`)
      + (g.players_per_flop === null ? "" : `, ${g.players_per_flop}% see the 2nd street`) })));
}

export async function tablesPage(ui) {
  const data = await api.games();
  const admin = ui.isAdmin();
  const watchHost = h("div", { id: "watch-host" });
  // Watching: the observer's view, drawn again every two seconds while this page shows it.
  let timer = null;
  async function watch(id) {
    clearInterval(timer);
    const draw = async () => {
      if (!watchHost.isConnected && timer !== null) {
        clearInterval(timer);
        return;
      }
      try {
        watchHost.replaceChildren(watchView(await api.watch(id)));
      } catch (e) {
        clearInterval(timer);
        ui.status(`${id}: ${e.message}`, true);
      }
    };
    await draw();
    timer = setInterval(draw, 2000);
  }
  const rows = data.games.map((g) => {
    const s = g.summary || {};
    const actions = h("div", { class: "actions" });
    actions.append(h("button", { type: "button", text: "Watch", "data-watch": g.id, onclick: () => watch(g.id) }));
    if (admin && g.state === "suspended") {
      actions.append(h("button", { type: "button", text: "Resume", "data-resume": g.id, title: g.reason || "",
        onclick: () => ui.act(`${g.id} resumed`, () => api.gameAction(g.id, "resume")) }));
    }
    if (admin) {
      if (g.kind === "table" && g.state !== "suspended") {
        actions.append(
          g.state === "paused"
            ? h("button", { type: "button", text: "Resume", "data-resume": g.id, onclick: () => ui.act(`${g.id} resumed`, () => api.gameAction(g.id, "resume")) })
            : h("button", { type: "button", text: "Pause", "data-pause": g.id, onclick: () => ui.act(`${g.id} paused`, () => api.gameAction(g.id, "pause")) }),
          h("button", {
            type: "button",
            text: "Message",
            "data-message": g.id,
            onclick: () => {
              const text = window.prompt(`Message to ${g.id}`);
              if (text) ui.act(`message sent to ${g.id}`, () => api.gameAction(g.id, "message", { text }));
            },
          }),
        );
      }
      actions.append(
        h("button", {
          type: "button",
          text: "Close",
          "data-close": g.id,
          onclick: () => {
            if (window.confirm(`Close ${g.id} after its hand? Every player is cashed out.`)) ui.act(`${g.id} closes after its hand`, () => api.gameAction(g.id, "close"));
          },
        }),
      );
    }
    return h(
      "tr",
      { "data-game": g.id },
      h("td", { text: g.id }),
      h("td", { text: g.kind }),
      h("td", { text: s.name || "" }),
      h("td", {}, s.mix ? s.mix.name : `${s.variant || ""} ${s.betting || ""}`, gameFigures(s.games)),
      h("td", { text: s.stakes_label || "" }),
      h("td", { class: "num", text: s.players ?? s.entries ?? "" }),
      h("td", { class: "game-state", text: g.reason ? `${g.state}: ${g.reason}` : g.state }),
      h("td", {}, actions),
    );
  });
  const page = h("div", {}, h("h2", { text: "Tables and pools" }));
  if (admin) {
    page.append(
      h(
        "form",
        { id: "open-game-form", onsubmit: (ev) => {
          ev.preventDefault();
          const f = ev.target.elements;
          let fields;
          try {
            fields = JSON.parse(f.fields.value);
          } catch (e) {
            ui.status(`The fields are not JSON: ${e.message}`, true);
            return;
          }
          ui.act(`${fields.id} opened`, () => api.openGame(f.kind.value, fields));
        } },
        h("label", {}, "Kind", h("select", { name: "kind" }, h("option", { value: "table", text: "Cash table ([[table]])" }), h("option", { value: "pool", text: "Rush pool ([[pool]])" }))),
        h("label", {}, "Fields (the keys of the configuration file, as JSON)", h("textarea", { name: "fields", text: JSON.stringify(EXAMPLE, null, 2) })),
        h("button", { type: "submit", class: "primary", text: "Open" }),
      ),
    );
  }
  page.append(
    h(
      "table",
      { id: "games-list" },
      h("tr", {}, ["Id", "Kind", "Name", "Game", "Stakes", "Players", "State", ""].map((t) => h("th", { text: t }))),
      rows,
    ),
    data.closed.length ? h("p", { text: `Closed from the console (stay closed after a restart): ${data.closed.join(", ")}` }) : null,
    watchHost,
  );
  return page;
}
