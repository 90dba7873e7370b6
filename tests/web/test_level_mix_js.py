"""A mixed tournament's table header (issue 36, RULES.md §11.1, R251): ``advanceLevelMix`` keeps the
snapshot's ``tournament.mix`` on the game of the hand just started and names the next level's game, run in
node (skipped where node is missing)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).parents[2] / "src" / "pokerroom" / "web" / "js" / "table-state.js"


def test_r251_a_hand_of_the_next_level_moves_the_header_to_its_game() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = f"""
import {{ advanceLevelMix }} from {json.dumps(JS.as_uri())};
const g = (variant, betting, label) => ({{ variant, betting, label }});
const mix = {{ index: 0, game_label: "FL Hold'em", next_label: "FL NL",
  games: [g("holdem", "FL", "FL Hold'em"), g("omaha8", "FL", "FL Omaha Hi/Lo"),
          g("holdem", "NL", "NL Hold'em")] }};
const seen = [];
for (const [variant, betting] of [["holdem", "FL"], ["holdem", "NL"], ["nope", "FL"]]) {{
  advanceLevelMix(mix, {{ variant, betting }});
  seen.push([mix.index, mix.game_label, mix.next_label]);
}}
advanceLevelMix(null, {{ variant: "holdem", betting: "FL" }});
console.log(JSON.stringify(seen));
"""
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [
        [0, "FL Hold'em", "FL Omaha Hi/Lo"],
        [2, "NL Hold'em", "FL Hold'em"],  # the same variant in another structure is another game
        [2, "NL Hold'em", "FL Hold'em"],  # a game not in the mix changes nothing
    ]
