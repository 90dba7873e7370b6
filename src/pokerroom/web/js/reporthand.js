// "Report this hand" (issue 30): beside a hand the player played, in the replayer of the cashier's hand list
// and of the Last hands window. It asks why (at least 3 characters) and files the report with the room's
// staff (POST /api/reports, kind "hand"); the staff see it on the console's Players' reports page, with the
// hand in their replayer. The confirmation and the errors are in the player's language.
import { h, clear } from "./dom.js";
import { api } from "./api.js";
import { errorText, t } from "./i18n.js";

export function reportHandBox(handId) {
  const box = h("div", { class: "report-hand", "data-hand-id": handId });
  const start = () => {
    const reason = h("textarea", { name: "reason", rows: 2, maxlength: 500, required: true, "aria-label": t("report.reason") });
    const err = h("p", { class: "error", role: "alert" });
    const send = h("button", { type: "submit", class: "primary report-send", text: t("report.send") });
    const form = h("form", { class: "report-hand-form", onsubmit: async (ev) => {
      ev.preventDefault();
      const why = reason.value.trim();
      if (why.length < 3) {
        err.textContent = t("report.too_short");
        err.dataset.code = "too_short";
        return;
      }
      send.disabled = true;
      try {
        await api.reportHand(handId, why);
        clear(box).append(h("p", { class: "report-sent", role: "status", text: t("report.sent") }));
      } catch (e) {
        err.textContent = errorText(e);
        err.dataset.code = e.code || "";
        send.disabled = false;
      }
    } },
    h("label", {}, t("report.reason"), " ", reason),
    err,
    h("div", { class: "buttons" }, send,
      h("button", { type: "button", class: "report-cancel", onclick: () => draw(), text: t("report.cancel") })));
    clear(box).append(form);
    reason.focus();
  };
  const draw = () => clear(box).append(h("button", { type: "button", class: "link report-hand-btn", title: t("report.hand_title"),
    onclick: start, text: t("report.hand") }));
  draw();
  return box;
}
