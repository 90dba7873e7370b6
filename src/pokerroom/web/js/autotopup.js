// Auto top-up at a cash table (issue 31; docs/client.md, "Auto top-up"): the seat's setting "Top up to N
// between hands" (the protocol's `settings` option `auto_top_up`: the stack, 0 for off). The server tops
// the player up from his balance after each hand he ends below N (a busted stack too), within the table's
// buy-in limits, and turns it off with `auto_top_up_stopped` when his balance or a limit he set refuses.
import { h, fmt } from "./dom.js";
import { t } from "./i18n.js";

// The control among the seat's controls (tile.js). ``tile.autoTopUp``: what this page last asked for (the
// snapshot's value until then).
export function autoTopUpControl(tile, st) {
  const limits = st.cash.buy_in;
  const unit = (st.stakes && st.stakes.chip_unit) || 1;
  const target = tile.autoTopUp !== undefined ? tile.autoTopUp : st.cash.auto_top_up || 0;
  const check = h("input", { type: "checkbox", class: "auto-top-up", checked: target > 0 });
  const box = h("input", { type: "number", class: "auto-top-up-amount", min: limits.min, max: limits.max || undefined,
    step: unit, value: target || limits.max || 2 * limits.min, "aria-label": t("auto.amount"), inputmode: "numeric" });
  const send = () => {
    const v = Math.round(Number(box.value));
    if (check.checked && !(v >= limits.min && (!limits.max || v <= limits.max) && v % unit === 0)) {
      check.checked = false;
      const range = limits.max ? t("sit.between", { min: fmt(limits.min, st.currency), max: fmt(limits.max, st.currency) })
        : t("sit.at_least", { min: fmt(limits.min, st.currency) });
      tile.notice.textContent = t("auto.bad", { range });
      tile.notice.dataset.code = "buy_in_out_of_range";
    }
    tile.autoTopUp = check.checked ? v : 0;
    tile.send({ type: "settings", table: tile.id, auto_top_up: tile.autoTopUp });
  };
  check.addEventListener("change", send);
  box.addEventListener("change", () => {
    if (check.checked) send();
  });
  return h("label", { class: "check auto-top-up-setting", title: t("auto.title") }, check, ` ${t("auto.label")} `, box);
}

// No seat (left, or never taken): a seat taken later starts with the setting off, as on the server.
export function forgetAutoTopUp(tile, st) {
  tile.autoTopUp = undefined;
  if (st.cash) st.cash.auto_top_up = 0;
}

// The server stopped it (docs/protocol.md, `auto_top_up_stopped`): the box is unticked, the reason shown.
export function autoTopUpStopped(tile, msg) {
  tile.autoTopUp = 0;
  tile.error(msg);
  if (tile.model.state) tile.renderControls();
}
