"""``pokerroom verify HAND.phh`` (docs/fairness.md): OK for a sound history, else exactly what differs."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.history import HandContext, write_phh, write_phhs
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command


def _hand(seed: int) -> HandState:
    rng = random.Random(seed)
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(s, 1000, True) for s in (1, 3, 4)],
        deck=ListDeck.shuffled(VARIANTS["holdem"].deck, rng, reshuffle=False),
        button=3,
        hand_id=f"cli{seed}",
    )
    while not hand.is_over:
        hand.apply(random_command(hand, rng))
    return hand


def _file(tmp: Path, seed: int = 1, **change: str) -> tuple[Path, DeckSeal]:
    hand = _hand(seed)
    seal = DeckSeal(hand)
    text = write_phh(hand, viewer=4, context=HandContext(hand_id=hand.hand_id, proof=seal.proof()))
    for key, value in change.items():
        text = "\n".join(
            f"{key} = {json.dumps(value)}" if line.startswith(f"{key} = ") else line
            for line in text.splitlines()
        )
    path = tmp / f"hand{seed}.phh"
    path.write_text(text + "\n")
    return path, seal


def test_a_sound_hand_is_ok(tmp_path: Path) -> None:
    path, seal = _file(tmp_path)
    result = CliRunner().invoke(app, ["verify", str(path), "--commitment", seal.commitment])
    assert result.exit_code == 0, result.stdout
    assert f"hand cli1 OK: the proof hashes to its commitment {seal.commitment}" in result.stdout


def test_a_changed_salt_is_named(tmp_path: Path) -> None:
    path, _ = _file(tmp_path)
    text = path.read_text()
    line = next(x for x in text.splitlines() if x.startswith("_deck_proof = "))
    proof = json.loads(json.loads(line.removeprefix("_deck_proof = ")))
    i, card, _ = proof["deck"]["open"][0]
    proof["deck"]["open"][0][2] = "00" * 16
    forged = json.dumps(json.dumps(proof, sort_keys=True, separators=(",", ":")))
    path.write_text(text.replace(line, f"_deck_proof = {forged}"))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert f"differs: deck position {i}: the opening ({card}) does not hash to its leaf" in result.stdout


def test_another_commitment_than_the_published_one_is_named(tmp_path: Path) -> None:
    path, seal = _file(tmp_path)
    other = "ab" * 32
    result = CliRunner().invoke(app, ["verify", str(path), "--commitment", other, "--json"])
    assert result.exit_code == 1
    verdict = json.loads(result.stdout)
    assert verdict["ok"] is False
    assert verdict["problems"] == [
        f"the history's commitment {seal.commitment} is not the one published at the start ({other})"
    ]


def test_a_phhs_file_checks_every_hand_and_no_hand_exits_2(tmp_path: Path) -> None:
    hands = [_hand(s) for s in (1, 2)]
    docs = [write_phh(h, context=HandContext(hand_id=h.hand_id, proof=DeckSeal(h).proof())) for h in hands]
    path = tmp_path / "two.phhs"
    path.write_text(write_phhs(docs))
    result = CliRunner().invoke(app, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.stdout
    assert [json.loads(line)["ok"] for line in result.stdout.splitlines()] == [True, True]
    empty = tmp_path / "none.phhs"
    empty.write_text("")
    assert CliRunner().invoke(app, ["verify", str(empty)]).exit_code == 2
