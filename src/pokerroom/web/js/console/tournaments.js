// Tournaments: schedule every kind (the fields of a [[tournament]] of the schedule file), edit one
// before anybody registers, cancel one that has not started (every buy-in and fee refunded), and each
// one's entrants, standings and payouts.
import { api } from "./api.js";
import { h, fmt } from "../dom.js";

const COMMON = { variant: "holdem", betting: "NL", buy_in: 100, fee: 10, currency: "PLAY" };

function exampleFor(kind, preset) {
  const { rush, ...fields } = preset;
  const out = { id: `${kind}-${Date.now().toString(36)}`, name: `New ${kind}`, ...COMMON, ...fields };
  if (rush) out.rush = true;
  return out;
}

// The deal at the final table: the one proposed or offered now, what a deal paid (the standings' deal),
// and the operator's switch to allow or forbid deals in this tournament (docs/console.md).
function dealSection(ui, d) {
  const s = d.summary;
  const deal = d.deal || {};
  const paid = (d.standings || []).filter((e) => e.deal);
  const box = h("div", { id: "tournament-deal" }, h("h2", { text: "Deal at the final table" }));
  box.append(h("p", { class: "deal-setting", text: `Deals ${s.deals ? "allowed" : "off"} in this tournament.` }));
  const cur = deal.current;
  if (cur) {
    const line = cur.state === "offered"
      ? `${cur.method} deal offered by ${cur.player}: ${cur.players.map((n, i) => `${n} ${fmt(cur.amounts[i])}`).join(", ")}${cur.keep ? `; ${fmt(cur.keep)} left to play for` : ""}; accepted by ${cur.accepted.length} of ${cur.players.length}`
      : `${cur.method} deal proposed by ${cur.player}: the tournament pauses at the end of the hand`;
    box.append(h("p", { class: "deal-current", text: line }));
  }
  if (paid.length) {
    box.append(h("table", { class: "deal-paid" }, h("tr", {}, h("th", { text: "Player" }), h("th", { text: "Paid by the deal" })),
      paid.map((e) => h("tr", { "data-player": String(e.player) }, h("td", { text: e.name }), h("td", { class: "num", text: fmt(e.deal) })))));
  }
  if (ui.isAdmin() && ["announced", "registering", "running"].includes(s.status)) {
    box.append(h("button", { type: "button", class: "deal-switch", "data-deals": s.deals ? "on" : "off",
      text: s.deals ? "Forbid deals" : "Allow deals",
      onclick: () => ui.act(`${s.name}: deals ${s.deals ? "forbidden" : "allowed"}`, () => api.setTournamentDeals(s.tournament, !s.deals)) }));
  }
  return box;
}

// The recurring series ([[recurring]] of the configuration file, and those added here) with their next
// occurrences; an admin adds one from the fields of a [[recurring]] (checked as the file's: docs/console.md),
// and edits or removes one added here (a file's series is edited in the file). An edit or a removal keeps
// the occurrences open with registrations as announced and withdraws those nobody registered for.
const RECURRING_EXAMPLE = { id: "nightly", name: "Nightly Hold'em", kind: "mtt", ...COMMON, repeat: "daily", at: "20:00",
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" };

function recurringSection(ui, rows, admin) {
  const box = h("section", { id: "recurring" }, h("h2", { text: `Recurring series (${rows.length})` }));
  const when = (r) => r.repeat === "weekly" ? `weekly on ${r.days.join(", ")}` : r.repeat;
  const area = h("textarea", { name: "recurring-fields" });
  const submit = h("button", { type: "submit", class: "primary", text: "Add series" });
  let editing = null; // the series being edited (PUT), or null (a new one: POST)
  const controls = (r) => {
    if (!admin) return null;
    if (r.source !== "console") return h("span", { class: "muted", text: "edit the configuration file" });
    return h("div", { class: "actions" },
      h("button", { type: "button", text: "Edit", "data-edit-series": r.series, onclick: () => {
        editing = r.series;
        area.value = JSON.stringify(r.fields || {}, null, 2);
        submit.textContent = `Save ${r.series}`;
        area.focus();
      } }),
      h("button", { type: "button", text: "Remove", "data-remove-series": r.series, onclick: () => {
        if (!window.confirm(`Remove the series ${r.series}? No new occurrence is announced; those with registrations stay.`)) return;
        ui.act(`Series ${r.series} removed`, () => api.removeRecurring(r.series));
      } }));
  };
  box.append(h("table", { id: "recurring-series" },
    h("tr", {}, ["Series", "Name", "When", "Buy-in", "Next occurrences", "From", ""].map((x) => h("th", { text: x }))),
    rows.map((r) => h("tr", { "data-series": r.series },
      h("td", { text: r.series }), h("td", { text: r.name }),
      h("td", { text: `${when(r)} at ${r.at} (${r.timezone})` }),
      h("td", { class: "num", text: `${fmt(r.buy_in)} + ${fmt(r.fee)}` }),
      h("td", {}, h("ul", { class: "next" }, r.next.map((n) => h("li", { "data-tournament": n.tournament },
        h("time", { datetime: n.start, text: new Date(n.start).toLocaleString() }), ` (${n.tournament})`)))),
      h("td", { text: r.source }),
      h("td", {}, controls(r))))));
  if (admin) {
    area.value = JSON.stringify(RECURRING_EXAMPLE, null, 2);
    box.append(h("form", { id: "recurring-form", onsubmit: (ev) => {
      ev.preventDefault();
      let fields;
      try {
        fields = JSON.parse(area.value);
      } catch (e) {
        ui.status(`The fields are not JSON: ${e.message}`, true);
        return;
      }
      if (editing) ui.act(`Series ${editing} edited`, () => api.editRecurring(editing, fields));
      else ui.act(`Series ${fields.id} added`, () => api.addRecurring(fields));
    } }, h("label", {}, "Fields of a [[recurring]] (a [[tournament]]'s, with repeat, at, timezone, days), as JSON", area),
    submit));
  }
  return box;
}

function details(ui, d) {
  return h(
    "div",
    { id: "tournament-detail" },
    h("h2", { text: `${d.summary.name} (${d.summary.status})` }),
    h("h2", { text: "Entrants" }),
    h("ul", { id: "tournament-entrants" }, d.entrants.map((e) => h("li", { text: e.name }))),
    h("h2", { text: "Payouts" }),
    h("table", {}, d.payouts.map((p) => h("tr", {}, h("td", { text: p.place }), h("td", { class: "num", text: fmt(p.amount) })))),
    h("h2", { text: "Standings" }),
    h("table", {}, (d.standings || []).map((s) => h("tr", {}, h("td", { text: s.place ?? "" }), h("td", { text: s.name ?? s.player ?? "" }), h("td", { class: "num", text: fmt(s.stack ?? 0) })))),
    h("h2", { text: "Prizes" }),
    h("table", {}, (d.prizes || []).map((p) => h("tr", {}, h("td", { text: p.player }), h("td", { class: "num", text: fmt(p.amount) })))),
    dealSection(ui, d), // (an archived tournament's too: its deals come from the store after a restart)
  );
}

export async function tournamentsPage(ui, args) {
  const data = await api.tournaments();
  const admin = ui.isAdmin();
  const page = h("div", {}, h("h2", { text: "Tournaments" }));
  if (admin) {
    const kindSel = h("select", { name: "preset" }, Object.keys(data.kinds).map((k) => h("option", { value: k, text: k })));
    const area = h("textarea", { name: "fields" });
    const submit = h("button", { type: "submit", class: "primary", text: "Schedule" });
    let editing = null; // the id being edited (PUT), or null (a new tournament: POST)
    const fill = () => {
      area.value = JSON.stringify(exampleFor(kindSel.value, data.kinds[kindSel.value]), null, 2);
    };
    kindSel.addEventListener("change", fill);
    fill();
    page.append(
      h(
        "form",
        { id: "schedule-form", onsubmit: (ev) => {
          ev.preventDefault();
          let fields;
          try {
            fields = JSON.parse(area.value);
          } catch (e) {
            ui.status(`The fields are not JSON: ${e.message}`, true);
            return;
          }
          if (editing) ui.act(`${editing} edited`, () => api.editTournament(editing, fields));
          else ui.act(`${fields.id} scheduled`, () => api.schedule(fields));
        } },
        h("label", {}, "Kind", kindSel),
        h("label", {}, "Fields (the keys of a [[tournament]], as JSON)", area),
        submit,
      ),
    );
    page.editTournament = (t) => {
      editing = t.tournament;
      const fields = { name: t.name, kind: t.kind, variant: t.variant, betting: t.betting, buy_in: t.buy_in, fee: t.fee,
        starting_stack: t.starting_stack, table_size: t.table_size, level_minutes: t.level_minutes,
        min_players: t.min_players, currency: t.currency };
      if (t.kind === "sng") fields.max_players = t.max_players;
      if (t.start_time) fields.start = t.start_time;
      if (t.guarantee) fields.guarantee = t.guarantee;
      if (t.rebuy_levels) Object.assign(fields, { rebuy_levels: t.rebuy_levels, add_on: t.add_on });
      area.value = JSON.stringify(fields, null, 2);
      submit.textContent = `Save ${t.tournament}`;
      area.focus();
    };
  }
  page.append(recurringSection(ui, data.recurring || [], admin));
  for (const group of ["upcoming", "running", "finished"]) {
    const rows = data[group] || [];
    page.append(
      h("h2", { text: `${group[0].toUpperCase()}${group.slice(1)} (${rows.length})` }),
      h(
        "table",
        { id: `tournaments-${group}` },
        h("tr", {}, ["Id", "Name", "Kind", "Status", "Entrants", "Buy-in", ""].map((t) => h("th", { text: t }))),
        rows.map((t) => {
          const actions = h("div", { class: "actions" }, h("a", { href: `#tournaments/${t.tournament}`, text: "Details" }));
          if (admin && t.state === "suspended") {
            actions.append(h("button", { type: "button", text: "Resume", "data-resume": t.tournament, title: t.suspended || "",
              onclick: () => ui.act(`${t.name} resumed`, () => api.resumeTournament(t.tournament)) }));
          }
          if (admin && ["announced", "registering"].includes(t.status)) {
            if (!t.entrants && t.kind !== "sng") actions.append(h("button", { type: "button", text: "Edit", "data-edit": t.tournament, onclick: () => page.editTournament(t) }));
            actions.append(
              h("button", {
                type: "button",
                text: "Cancel",
                "data-cancel": t.tournament,
                onclick: () => {
                  if (window.confirm(`Cancel ${t.name}? Every buy-in and fee is refunded.`)) {
                    ui.act(`${t.name} cancelled: buy-ins and fees refunded`, () => api.cancelTournament(t.tournament));
                  }
                },
              }),
            );
          }
          return h(
            "tr",
            { "data-tournament": t.tournament },
            h("td", { text: t.tournament }),
            h("td", { text: t.name }),
            h("td", { text: t.kind }),
            h("td", { class: "t-status", text: t.suspended ? `${t.status} (suspended: ${t.suspended})` : t.status }),
            h("td", { class: "num", text: t.entrants ?? "" }),
            h("td", { class: "num", text: t.buy_in !== undefined ? `${fmt(t.buy_in)} + ${fmt(t.fee)}` : "" }),
            h("td", {}, actions),
          );
        }),
      ),
    );
  }
  if (args[0]) page.prepend(details(ui, await api.tournament(args[0])));
  return page;
}
