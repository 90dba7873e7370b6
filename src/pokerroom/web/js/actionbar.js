// The action bar: fold / check / call / bet / raise with a slider and a box bounded by the legal min and
// max, pot-size buttons in pot and no limit, fixed sizes in fixed limit; draws, the Irish discard, show/muck.
import { h, fmt } from "./dom.js";
import { t } from "./i18n.js";
import { runTwiceControls } from "./runtwice.js";

const RAISE_WORD = { bet: "bar.bet", raise: "bar.raise_to", complete: "bar.complete_to" };

export function clampAmount(value, d, unit) {
  let v = Math.round(Number(value));
  if (!Number.isFinite(v)) v = d.min_to;
  if (v >= d.max_to) return d.max_to;
  if (v <= d.min_to) return d.min_to;
  return Math.floor(v / unit) * unit < d.min_to ? d.min_to : Math.floor(v / unit) * unit;
}

// Build the bar for a decision. ctx: {state, currency, unit, send(action), selected:Set, betting}
export function actionBar(ctx) {
  const dec = ctx.state.decision;
  const bar = h("div", { class: "actionbar", role: "group", "aria-label": t("bar.label") });
  if (!dec) return bar;
  const d = dec.decision;
  bar.dataset.kind = d.kind;
  bar.dataset.handId = dec.hand_id;
  bar.dataset.actionNo = String(dec.action_no);
  const cur = ctx.currency;
  if (d.kind === "bet") {
    if (d.fold && d.check) {
      // Folding when checking is free: the first click (or f) asks, the second folds.
      const fold = button(t("bar.fold"), "fold", () => {
        if (fold.dataset.armed === "yes") ctx.send({ type: "fold" });
        else {
          fold.dataset.armed = "yes";
          fold.textContent = t("bar.fold_free");
        }
      }, "f");
      fold.classList.add("fold-free");
      bar.append(fold);
    } else if (d.fold) bar.append(button(t("bar.fold"), "fold", () => ctx.send({ type: "fold" }), "f"));
    if (d.check) bar.append(button(t("bar.check"), "check", () => ctx.send({ type: "check" }), "c"));
    else if (d.call > 0) bar.append(button(t("bar.call", { amount: fmt(d.call, cur) }), "call", () => ctx.send({ type: "call" }), "c"));
    if (d.bring_in > 0) {
      bar.append(button(t("bar.bring_in", { amount: fmt(d.bring_in, cur) }), "bring_in", () => ctx.send({ type: "bring_in" }), "b"));
    }
    if (d.raise) {
      const word = RAISE_WORD[d.raise] || "bar.raise_to";
      if (d.choices && d.choices.length) {
        for (const amount of d.choices) {
          bar.append(button(t(word, { amount: fmt(amount, cur) }), "raise", () => ctx.send({ type: "raise_to", amount }), "r"));
        }
      } else {
        bar.append(sizer(ctx, d, word));
      }
    }
  } else if (d.kind === "draw") {
    const n = ctx.selected.size;
    bar.append(
      h("span", { class: "hint", text: t("bar.draw_hint", { n: d.max_discard }) }),
      button(t("bar.stand_pat"), "stand_pat", () => ctx.send({ type: "draw", cards: [] }), "p"),
    );
    const draw = button(t("bar.draw", { n }), "draw", () => ctx.send({ type: "draw", cards: [...ctx.selected] }), "d");
    draw.disabled = n === 0 || n > d.max_discard;
    bar.append(draw);
  } else if (d.kind === "discard") {
    const n = ctx.selected.size;
    bar.append(h("span", { class: "hint", text: t("bar.discard_hint", { n: d.count }) }));
    const go = button(t("bar.discard", { n: d.count }), "discard", () => ctx.send({ type: "discard", cards: [...ctx.selected] }), "d");
    go.disabled = n !== d.count;
    bar.append(go);
  } else if (d.kind === "run_twice") {
    bar.append(...runTwiceControls(d, ctx.send, button));
  } else if (d.kind === "show") {
    bar.append(
      button(t("bar.show"), "show", () => ctx.send({ type: "show" }), "s"),
      button(t("bar.muck"), "muck", () => ctx.send({ type: "muck" }), "m"),
    );
  }
  return bar;
}

function button(label, action, onclick, key) {
  return h("button", { type: "button", class: `act act-${action}`, "data-action": action,
    "aria-keyshortcuts": key, title: `${label} (${key})`, onclick, text: label });
}

function sizer(ctx, d, word) {
  const unit = ctx.unit || 1;
  const wrap = h("div", { class: "sizer" });
  const slider = h("input", { type: "range", class: "raise-slider", min: d.min_to, max: d.max_to, step: unit,
    value: d.min_to, "aria-label": t("bar.raise_amount") });
  const box = h("input", { type: "number", class: "raise-amount", min: d.min_to, max: d.max_to, step: unit,
    value: d.min_to, "aria-label": t("bar.raise_to_amount"), inputmode: "numeric" });
  const go = button(t(word, { amount: fmt(d.min_to, ctx.currency) }), "raise", () => {
    const amount = clampAmount(box.value, d, unit);
    ctx.send({ type: "raise_to", amount });
  }, "r");
  const set = (v) => {
    const amount = clampAmount(v, d, unit);
    slider.value = amount;
    box.value = amount;
    go.textContent = t(amount === d.max_to && d.max_to === d.stack + d.bet ? "bar.all_in_to" : word, { amount: fmt(amount, ctx.currency) });
  };
  slider.addEventListener("input", () => set(slider.value));
  box.addEventListener("change", () => set(box.value));
  box.addEventListener("blur", () => set(box.value));
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      set(box.value);
      go.click();
    }
  });
  const presets = h("div", { class: "presets" });
  const pot = ctx.pot;
  const level = d.bet + d.to_call;
  const after = pot + d.to_call;
  const sizes = [["\u00bd pot", level + Math.floor(after / 2), "bar.half_pot"], ["\u00be pot", level + Math.floor((3 * after) / 4), "bar.three_quarter_pot"],
    ["Pot", level + after, "bar.pot"]];
  // The player's own presets (presets.js) when the tile gives them: [data-preset, amount, label].
  const buttons = ctx.sizes ? ctx.sizes({ level, after }) : sizes.map(([label, amount, key]) => [label, amount, t(key)]);
  for (const [label, amount, text] of buttons) {
    presets.append(h("button", { type: "button", class: "preset", "data-preset": label,
      onclick: () => set(amount), text }));
  }
  if (ctx.betting === "NL") {
    presets.append(h("button", { type: "button", class: "preset", "data-preset": "max",
      onclick: () => set(d.max_to), text: t("bar.all_in") }));
  }
  if (ctx.presetTools) presets.append(ctx.presetTools());
  wrap.append(presets, h("div", { class: "sizer-row" }, slider, box, go));
  return wrap;
}
