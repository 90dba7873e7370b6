"""Issue 30: the room's ``[integrity]`` options in the configuration file (docs/configuration.md), and
what they give the room: off and 90 days unless the file says otherwise; a bad value is a problem on its
line, and the room keeps nothing of a file with problems. The chat log's retention (``chat_log_days``,
0: for ever) is checked by ``config check``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.cli.serve import room_settings
from pokerroom.server.config import DEFAULT_CONFIG
from pokerroom.server.config.parse import ConfigInvalid, parse_config
from pokerroom.server.integrity import IntegritySettings


def test_the_defaults_keep_linked_players_together_and_logins_90_days() -> None:
    config = parse_config("")
    assert config.integrity == IntegritySettings(separate_linked=False, login_history_days=90)
    assert room_settings(config).integrity.keep == timedelta(days=90)


def test_the_file_turns_the_rule_on_and_sets_the_retention() -> None:
    config = parse_config("[integrity]\nseparate_linked_players = true\nlogin_history_days = 30\n")
    assert room_settings(config).integrity == IntegritySettings(separate_linked=True, login_history_days=30)


def test_the_chat_log_is_kept_90_days_by_default_and_0_keeps_it_for_ever() -> None:
    assert parse_config("").integrity.chat_keep == timedelta(days=90)
    config = parse_config("[integrity]\nchat_log_days = 7\n")
    assert room_settings(config).integrity.chat_keep == timedelta(days=7)
    assert parse_config("[integrity]\nchat_log_days = 0\n").integrity.chat_keep is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("separate_linked_players = 1", "integrity.separate_linked_players"),
        ("login_history_days = 0", "integrity.login_history_days"),
        ('login_history_days = "90"', "integrity.login_history_days"),
        ("chat_log_days = -1", "integrity.chat_log_days"),
        ("chat_log_days = 1.5", "integrity.chat_log_days"),
        ("keep_apart = true", "integrity.keep_apart"),
    ],
)
def test_a_bad_value_is_a_problem_on_its_line(text: str, key: str) -> None:
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(f"[room]\nname = 'x'\n\n[integrity]\n{text}\n")
    (problem,) = caught.value.problems
    assert problem.path == key and problem.line == 5


def test_config_check_names_a_bad_chat_retention_on_its_line(tmp_path: Path) -> None:
    shipped = DEFAULT_CONFIG.read_text(encoding="utf-8")
    bad = tmp_path / "room.toml"
    bad.write_text(shipped + "\n[integrity]\nchat_log_days = -3\n", encoding="utf-8")
    line = len(bad.read_text(encoding="utf-8").splitlines())
    out = CliRunner().invoke(app, ["config", "check", str(bad)])
    assert out.exit_code == 1 and f"room.toml:{line}: integrity.chat_log_days" in out.output
    bad.write_text(shipped + "\n[integrity]\nchat_log_days = 0\n", encoding="utf-8")
    assert CliRunner().invoke(app, ["config", "check", str(bad)]).exit_code == 0
