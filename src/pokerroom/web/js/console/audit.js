// The audit log: every console action, who, when, on what, the values before and after. Read-only.
import { api } from "./api.js";
import { h } from "../dom.js";

const show = (v) => (v === null || v === undefined ? "" : JSON.stringify(v));

export async function auditPage() {
  const params = { limit: 200 };
  const filter = new URLSearchParams(location.search);
  for (const key of ["action", "target", "actor"]) if (filter.get(key)) params[key] = filter.get(key);
  const data = await api.audit(params);
  return h(
    "div",
    {},
    h("h2", { text: "Audit log" }),
    h("a", { href: "/api/console/audit/export.csv", download: "audit.csv", text: "Download CSV" }),
    h(
      "table",
      { id: "audit-log" },
      h("tr", {}, ["When", "Who", "Action", "On", "Before", "After", "Reason"].map((t) => h("th", { text: t }))),
      data.entries.map((e) =>
        h(
          "tr",
          { "data-action": e.action },
          h("td", { text: e.at }),
          h("td", { text: e.actor.name }),
          h("td", { text: e.action }),
          h("td", { text: e.target ?? "" }),
          h("td", { text: show(e.before) }),
          h("td", { text: show(e.after) }),
          h("td", { text: e.reason ?? "" }),
        ),
      ),
    ),
  );
}
