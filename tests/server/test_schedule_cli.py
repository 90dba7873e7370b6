"""``pokerroom serve --tournaments FILE``: a bad schedule stops the room before it starts, saying why."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pokerroom.cli import app


def test_serve_refuses_a_bad_tournament_schedule(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tournament]]\nid = "x"\nkind = "sng"\nmax_players = 99\n')
    result = CliRunner().invoke(app, ["serve", "--no-open", "--no-bots", "--tournaments", str(bad)])
    assert result.exit_code == 2
    assert "bad tournament schedule" in result.output and "x:" in result.output
    missing = CliRunner().invoke(app, ["serve", "--no-open", "--tournaments", str(tmp_path / "none.toml")])
    assert missing.exit_code == 2
