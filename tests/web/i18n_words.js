// Evaluated in the page by tests/web/test_i18n.py: the words a table says in games and moments the
// browser test does not meet (bars, streets, split pots, levels, pre-actions, Last hands lines).
(async () => {
  const { actionBar } = await import('/static/js/actionbar.js');
  const { streetLabel, resultText, stakesLabel } = await import('/static/js/tile.js');
  const { LevelClock } = await import('/static/js/tournament.js');
  const { PreActions } = await import('/static/js/preactions.js');
  const { describeHand } = await import('/static/js/dialogs.js');
  const out = [];
  const bar = (decision, extra = {}) => {
    const el = actionBar({ state: { decision: { decision, hand_id: 'h', action_no: 1 } }, currency: 'PLAY', unit: 1,
      selected: new Set(), send: () => {}, pot: 100, betting: 'NL', ...extra });
    out.push(...[...el.querySelectorAll('button, .hint')].map((b) => b.textContent));
  };
  bar({ kind: 'bet', fold: true, check: false, call: 20, bring_in: 0, raise: 'raise', min_to: 40, max_to: 1000,
    stack: 1000, bet: 0, to_call: 20 });
  bar({ kind: 'bet', fold: true, check: true, call: 0, bring_in: 5, raise: 'complete', choices: [20] });
  bar({ kind: 'bet', fold: false, check: true, call: 0, bring_in: 0, raise: 'bet', choices: [10] });
  bar({ kind: 'draw', max_discard: 3 });
  bar({ kind: 'discard', count: 2 });
  bar({ kind: 'show' });
  for (const street of ['preflop', 'flop', 'turn', 'river', 'third', 'seventh', 'predraw', 'first_draw',
    'third_draw', 'draw']) out.push(streetLabel({ street, variant: 'holdem', board: [] }));
  out.push(streetLabel({ street: 'turn', variant: 'irish', board: ['As', 'Kd', '2c'] }));
  const st = { currency: 'PLAY', players: { 1: { name: 'alice' }, 2: { name: 'bob' } }, betting: 'FL',
    stakes: { small_bet: 20, big_bet: 40, ante: 5 } };
  out.push(resultText({ winners: [1, 2], amount: 400, shares: [200, 200], half: 'low', description: 'Pair of fives' }, st));
  out.push(stakesLabel(st));
  out.push(stakesLabel({ ...st, tournament: { level: { number: 3, small_blind: 50, big_blind: 100, ante: 10 } },
    betting: 'NL' }));
  out.push(new LevelClock({ number: 2, next_level_in: 65, next_break_in: 300 }).text());
  out.push(new LevelClock({ number: 2, in_break: true, next_level_in: 65 }).text());
  const pre = new PreActions();
  const model = { hand: { hand_id: 'h', over: false, street: 'flop', players: {
    1: { bet: 0, stack: 100, folded: false, all_in: false, cards: ['As', 'Kd'] }, 2: { bet: 20, stack: 100 } } },
    you: 1, decision: null };
  out.push(...[...pre.render(model, 'PLAY', () => {}).querySelectorAll('button')].map((b) => b.textContent));
  const events = [
    { type: 'hand_started', variant: 'draw5', betting: 'FL', button: 1, seats: [1, 2], stacks: [100, 100] },
    { type: 'posted', seat: 1, what: 'small_blind', amount: 5 }, { type: 'posted', seat: 2, what: 'big_blind', amount: 10 },
    { type: 'action', seat: 1, action: 'raise', amount: 15, total: 20, all_in: false },
    { type: 'action', seat: 2, action: 'call', amount: 10, total: 20, all_in: true },
    { type: 'street_started', name: 'draw', index: 1 },
    { type: 'drew', seat: 1, discarded: ['2c'], received: ['Ah'] }, { type: 'drew', seat: 2, discarded: [], received: [] },
    { type: 'action', seat: 1, action: 'bet', amount: 20, total: 20, all_in: false },
    { type: 'action', seat: 2, action: 'fold', amount: 0, total: 0, all_in: false },
    { type: 'bet_returned', seat: 1, amount: 20 },
    { type: 'mucked', seat: 1, cards: [] },
    { type: 'pot_awarded', winners: [1], amount: 40, shares: [40], description: 'Two pair, aces and kings' },
    { type: 'hand_ended', seats: [1, 2], stacks: [120, 80] },
  ];
  out.push(...describeHand(events, (s) => `p${s}`, 1));
  return out;
})
