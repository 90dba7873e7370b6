// Promotions: the Game of the Week calendar, happy hours and points per unit of tournament fee (the
// configuration file's [promotions]), shown, and replaced by administrators (audited; kept over the file).
import { api } from "./api.js";
import { h } from "../dom.js";

export async function promotionsPage(ui) {
  const data = await api.promotions();
  const p = data.promotions;
  const page = h("div", {}, h("h2", { text: "Promotions" }));
  const now = data.game_of_the_week_now;
  page.append(
    h("p", { id: "gotw-now", text: now ? `Game of the Week now: ${now.game} ${now.betting} (${now.mode})` : "No Game of the Week this week." }),
    h("p", { text: data.from_console ? "Set in the console (wins over the configuration file)." : "From the configuration file." }),
  );
  if (p) {
    page.append(
      h("h2", { text: `Game of the Week calendar (${p.timezone})` }),
      h(
        "table",
        { id: "gotw-calendar" },
        h("tr", {}, ["Week of", "Game", "Structure", "Mode"].map((t) => h("th", { text: t }))),
        p.game_of_the_week.map((g) => h("tr", {}, h("td", { text: g.week }), h("td", { text: g.game }), h("td", { text: g.betting }), h("td", { text: g.mode }))),
      ),
      h("h2", { text: "Happy hours (cash games)" }),
      h(
        "table",
        { id: "happy-hours" },
        h("tr", {}, ["Days", "From", "To", "Points multiplier"].map((t) => h("th", { text: t }))),
        p.happy_hour.map((x) => h("tr", {}, h("td", { text: x.days.join(", ") }), h("td", { text: x.start }), h("td", { text: x.end }), h("td", { class: "num", text: `x${x.multiplier}` }))),
      ),
      h("p", { text: `Tournament points per unit of fee: ${p.tournament_points_per_unit}` }),
    );
  }
  if (ui.isAdmin()) {
    const area = h("textarea", { name: "fields", text: JSON.stringify(p || { timezone: "UTC", game_of_the_week: [], happy_hour: [] }, null, 2) });
    page.append(
      h("h2", { text: "Replace the promotions" }),
      h(
        "form",
        { id: "promotions-form", onsubmit: (ev) => {
          ev.preventDefault();
          let fields;
          try {
            fields = JSON.parse(area.value);
          } catch (e) {
            ui.status(`The fields are not JSON: ${e.message}`, true);
            return;
          }
          ui.act("promotions replaced", () => api.setPromotions(fields));
        } },
        h("label", {}, "Fields (the keys of [promotions], as JSON; a week is this, next or a date)", area),
        h("button", { type: "submit", class: "primary", text: "Replace" }),
      ),
    );
  }
  return page;
}
