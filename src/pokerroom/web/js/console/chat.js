// Chat kept civil (issue 30): the chat log (searched by table, player and text), the word filter, and the
// staff's mutes (for a time, with a reason: audited). Administrators change; support reads.
import { api } from "./api.js";
import { h } from "../dom.js";

function row(...cells) {
  return h("tr", {}, cells.map((c) => (c instanceof Node ? h("td", {}, c) : h("td", { text: c ?? "" }))));
}

function logTable(lines) {
  return h(
    "table",
    { id: "chat-log" },
    h("tr", {}, ["When", "Table", "Player", "Typed", "Shown"].map((t) => h("th", { text: t }))),
    // The text is kept escaped (as the tables got it): shown as text, never as markup.
    lines.map((x) => row(x.at, x.table, x.player.name, x.text, x.shown)),
  );
}

export async function chatPage(ui) {
  const params = new URLSearchParams(location.search);
  const results = h("div", { id: "chat-results" });
  async function search(filter) {
    const found = await api.chatLog(filter);
    results.replaceChildren(logTable(found.lines));
  }
  const searchForm = h(
    "form",
    { id: "chat-search", onsubmit: async (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      const filter = {};
      for (const key of ["table", "player", "q"]) if (f[key].value.trim()) filter[key] = f[key].value.trim();
      await search(filter);
    } },
    h("label", {}, "Table ", h("input", { name: "table", maxlength: 128, value: params.get("table") || "" })),
    h("label", {}, "Player ", h("input", { name: "player", maxlength: 40 })),
    h("label", {}, "Text ", h("input", { name: "q", maxlength: 100 })),
    h("button", { type: "submit", text: "Search" }),
  );
  const words = await api.chatWords();
  const mutes = await api.roomMutes();
  const page = h(
    "div",
    {},
    h("h2", { text: "Chat log" }),
    searchForm,
    results,
    h("h2", { text: "Word filter" }),
    h("p", { text: "Each word (one a line) is masked with * in the lines the tables see; the log keeps what was typed." }),
  );
  const wordsBox = h("textarea", { name: "words", rows: 6, cols: 40, readonly: !ui.isAdmin() });
  wordsBox.value = words.words.join("\n");
  const wordsForm = h(
    "form",
    { id: "chat-words-form", onsubmit: (ev) => {
      ev.preventDefault();
      const list = wordsBox.value.split("\n").map((w) => w.trim()).filter(Boolean);
      ui.act("Word filter saved", () => api.setChatWords(list));
    } },
    wordsBox,
    ui.isAdmin() ? h("button", { type: "submit", text: "Save the filter" }) : "",
  );
  page.append(
    wordsForm,
    h("h2", { text: "Muted by the staff" }),
    h(
      "table",
      { id: "room-mutes" },
      h("tr", {}, ["Player", "Since", "Until", "Reason", "By", ""].map((t) => h("th", { text: t }))),
      mutes.mutes.map((m) =>
        row(
          m.player.name,
          m.at,
          m.until ?? "until lifted",
          m.reason,
          m.by,
          ui.isAdmin()
            ? h("button", { type: "button", class: "lift-mute", text: "Lift", onclick: () => ui.act(`${m.player.name} may chat again`, () => api.liftMute(m.player.id)) })
            : "",
        ),
      ),
    ),
  );
  if (ui.isAdmin()) {
    page.append(
      h(
        "form",
        { id: "mute-form", onsubmit: async (ev) => {
          ev.preventDefault();
          const f = ev.target.elements;
          const name = f.name.value.trim();
          await ui.act(`${name} muted`, async () => {
            const found = (await api.players(name)).players.find((p) => p.name.toLowerCase() === name.toLowerCase());
            if (!found) throw Object.assign(new Error(`no player named ${name}`), { code: "unknown_player" });
            const minutes = f.minutes.value ? Math.round(Number(f.minutes.value)) : null;
            return api.muteForAll({ player: Number(found.id), minutes, reason: f.reason.value });
          });
        } },
        h("label", {}, "Player ", h("input", { name: "name", required: true, maxlength: 40 })),
        h("label", {}, "Minutes (empty: until lifted) ", h("input", { name: "minutes", type: "number", min: 1 })),
        h("label", {}, "Reason ", h("input", { name: "reason", required: true, minlength: 3, maxlength: 500 })),
        h("button", { type: "submit", text: "Mute for everyone" }),
      ),
    );
  }
  await search(params.get("table") ? { table: params.get("table") } : {});
  return page;
}

// Players' reports of a chat line or a hand (a link to the replayer), newest first; administrators close them.
export async function playerReportsPage(ui) {
  const data = await api.playerReports();
  return h(
    "div",
    {},
    h("h2", { text: "Players' reports" }),
    h(
      "table",
      { id: "player-reports" },
      h("tr", {}, ["When", "From", "Of", "Table", "What", "Reason", "Status", ""].map((t) => h("th", { text: t }))),
      data.reports.map((r) =>
        h(
          "tr",
          { "data-status": r.status },
          ...[
            r.at,
            r.reporter.name,
            r.kind,
            r.table ?? "",
            // a reported hand opens in the console's replayer, every card shown (findings.js)
            r.kind === "chat" && r.line
              ? `${r.line.player.name}: ${r.line.text}`
              : r.hand ? h("a", { class: "hand-link", href: `#hand/${encodeURIComponent(r.hand)}`, text: r.hand }) : "",
            r.reason,
            r.status === "closed" ? `closed by ${r.closed_by}` : "open",
          ].map((t) => (t instanceof Node ? h("td", {}, t) : h("td", { text: t }))),
          h(
            "td",
            {},
            r.status === "open" && ui.isAdmin()
              ? h("button", { type: "button", class: "close-report", text: "Close", onclick: () => ui.act(`Report ${r.id} closed`, () => api.closeReport(r.id)) })
              : "",
          ),
        ),
      ),
    ),
  );
}
