from __future__ import annotations

from typer.testing import CliRunner

from pokerroom.cards import parse_cards
from pokerroom.cli import app


def test_shuffle_prints_a_whole_deck() -> None:
    result = CliRunner().invoke(app, ["shuffle", "--deck", "32"])
    assert result.exit_code == 0
    cards = parse_cards(result.stdout)
    assert len(cards) == 32


def test_shuffle_rejects_an_unknown_deck() -> None:
    result = CliRunner().invoke(app, ["shuffle", "--deck", "40"])
    assert result.exit_code != 0


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and "pokerroom" in result.stdout
