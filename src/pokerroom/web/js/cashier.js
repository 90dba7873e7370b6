// The player's money in the cashier dialog (issue 29): a balance in every currency of the room, what is
// held for withdrawals, a deposit request (with the reference the room's payment method needs), a
// withdrawal request (the amount leaves the balance at once until the operator pays or declines it), and
// the requests with the operator's decisions. GET/POST /api/cashier (src/pokerroom/server/http_cashier.py).
import { h, clear } from "./dom.js";
import { call } from "./api.js";
import { errorText, fmtDateTime, fmtMoney, t } from "./i18n.js";

// "50.00 EUR": an amount in cents with its currency code.
export function fmtWallet(cents, currency) {
  return `${fmtMoney(cents)} ${currency}`;
}

// "12.34" or "12,34" or "12" -> 1234 cents; anything else (more decimals, signs, letters) -> null.
export function toCents(text) {
  const m = /^(\d{1,11})(?:[.,](\d{1,2}))?$/.exec(String(text).trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

function newId(kind) {
  return `${kind}-${crypto.randomUUID()}`;
}

// The section of the cashier dialog; ``refresh`` redraws the dialog and the header after a request.
export async function moneySection(refresh) {
  const data = await call("GET", "/api/cashier");
  const section = h("section", { class: "money" }, h("h3", { text: t("cash.money") }));
  if (!data.currencies.length) return section; // a play-money room: nothing to deposit
  section.append(h("table", { class: "wallets" }, data.currencies.map((c) => h("tr", { "data-currency": c },
    h("th", { text: c }),
    h("td", { class: "num wallet-balance", text: fmtWallet(data.balances[c] ?? 0, c) }),
    h("td", { class: "num wallet-pending", text: data.pending[c] ? t("cash.held", { amount: fmtWallet(data.pending[c], c) }) : "" })))));
  section.append(requestForm("deposit", data, refresh), requestForm("withdrawal", data, refresh));
  const rows = data.requests.map((r) => h("tr", { "data-request": r.id, "data-state": r.state },
    h("td", { text: fmtDateTime(r.created_at) }),
    h("td", { text: t(`cash.kind_${r.kind}`) }),
    h("td", { class: "num", text: fmtWallet(r.amount, r.currency) }),
    h("td", { class: "state", text: t(`cash.state_${r.state}`) }),
    h("td", { text: r.reason })));
  section.append(h("h3", { text: t("cash.requests") }), rows.length
    ? h("table", { class: "cashier-requests" }, h("thead", {}, h("tr", {}, ...["cash.when", "cash.what", "cash.amount", "cash.state", "cash.reason"].map((k) => h("th", { text: t(k) })))), h("tbody", {}, rows))
    : h("p", { text: t("cash.no_requests") }));
  return section;
}

function requestForm(kind, data, refresh) {
  const deposit = kind === "deposit";
  let requestId = newId(deposit ? "dep" : "wd"); // kept while the same request is retried
  const currency = h("select", { name: "currency", "aria-label": t("cash.currency") }, data.currencies.map((c) => h("option", { value: c, text: c })));
  const amount = h("input", { name: "amount", inputmode: "decimal", required: true, autocomplete: "off", "aria-label": t("cash.amount"), placeholder: "0.00" });
  const extra = h("input", { name: deposit ? "reference" : "destination", maxlength: 200, required: deposit, autocomplete: "off",
    "aria-label": t(deposit ? "cash.reference" : "cash.destination"), placeholder: deposit ? data.provider.reference : "" });
  const note = h("p", { class: "form-note", role: "status" });
  const form = h("form", { class: `cashier-${kind}`, onsubmit: async (ev) => {
    ev.preventDefault();
    const cents = toCents(amount.value);
    if (cents === null || cents <= 0) {
      note.className = "error";
      note.textContent = t("cash.bad_amount");
      return;
    }
    const body = { currency: currency.value, amount: cents, request_id: requestId };
    body[deposit ? "reference" : "destination"] = extra.value;
    try {
      await call("POST", deposit ? "/api/cashier/deposits" : "/api/cashier/withdrawals", body);
    } catch (err) {
      note.className = "error";
      note.textContent = errorText(err);
      return;
    }
    requestId = newId(deposit ? "dep" : "wd");
    refresh();
  } },
  h("h4", { text: t(deposit ? "cash.deposit" : "cash.withdraw") }),
  h("label", {}, `${t("cash.currency")} `, currency),
  h("label", {}, `${t("cash.amount")} `, amount),
  h("label", {}, `${t(deposit ? "cash.reference" : "cash.destination")} `, extra),
  h("button", { type: "submit", class: "primary", text: t(deposit ? "cash.ask_deposit" : "cash.ask_withdrawal") }),
  note);
  return form;
}

// The header's balances of real money, after play money: "50.00 EUR · 10.00 USD".
export function drawWallets(el, balances) {
  clear(el);
  for (const [c, v] of Object.entries(balances)) {
    if (c === "PLAY" || c === "PTS") continue;
    el.append(h("b", { class: "wallet", "data-currency": c, "data-amount": String(v), title: t("hdr.balance"), text: fmtWallet(v, c) }));
  }
}
