"""Issue 20, item 8: the client's dictionaries (src/pokerroom/web/js/i18n/*.js) have the same keys in
English, Russian and Bulgarian, the same {placeholders} in each string, the plural forms each language needs,
and a message for every error code of the protocol. No browser: each file is JSON after `export default`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.errors import PROTOCOL_CODES, SERVER_CODES

I18N = Path(__file__).resolve().parents[2] / "src" / "pokerroom" / "web" / "js" / "i18n"
LANGS = ("en", "ru", "bg")
# The plural categories of Intl.PluralRules (cardinal) for each language.
PLURALS = {"en": {"one", "other"}, "ru": {"one", "few", "many", "other"}, "bg": {"one", "other"}}
PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def load(lang: str) -> dict[str, Any]:
    text = (I18N / f"{lang}.js").read_text(encoding="utf-8")
    head, sep, body = text.partition("export default ")
    assert sep, f"{lang}.js has no `export default`"
    assert all(line.startswith("//") or not line.strip() for line in head.splitlines())
    data = json.loads(body.strip().removesuffix(";"))
    assert isinstance(data, dict)
    return data


def placeholders(value: Any) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {m for text in texts for m in re.findall(r"\{(\w+)\}", text)}


DICTS = {lang: load(lang) for lang in LANGS}


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_every_language_has_the_keys_of_english_and_no_others(lang: str) -> None:
    en, other = DICTS["en"], DICTS[lang]
    assert sorted(set(en) - set(other)) == []
    assert sorted(set(other) - set(en)) == []


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_every_string_has_the_placeholders_of_english(lang: str) -> None:
    en, other = DICTS["en"], DICTS[lang]
    wrong = {
        k: (placeholders(en[k]), placeholders(other[k]))
        for k in en
        if placeholders(en[k]) != placeholders(other[k])
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGS)
def test_plural_entries_have_the_forms_of_their_language(lang: str) -> None:
    plural = {k: v for k, v in DICTS[lang].items() if isinstance(v, dict)}
    assert plural, "some strings are counted (seats, cards, hands)"
    for key, forms in plural.items():
        assert set(forms) == PLURALS[lang], key
        assert all(isinstance(f, str) and f for f in forms.values()), key
        assert "n" in placeholders(DICTS["en"][key]), f"{key}: the form is chosen by {{n}}"
    for key, value in DICTS[lang].items():
        assert isinstance(value, dict | str) and value, key


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_the_strings_are_translated(lang: str) -> None:
    """A translated string is written in Cyrillic, but for a few shared marks (codes, abbreviations)."""
    same = sorted(k for k, v in DICTS[lang].items() if isinstance(v, str) and v == DICTS["en"][k])
    shared = {"lobby.tab_rush", "stats.vpip", "stats.pfr", "bar.half_pot"}
    assert [k for k in same if k not in shared and not re.fullmatch(r"[\W\d{}n]*", DICTS["en"][k])] == []
    for key, value in DICTS[lang].items():
        texts = value.values() if isinstance(value, dict) else [value]
        for text in texts:
            words = re.sub(r"\{\w+\}", "", text)
            latin = re.findall(r"[A-Za-z]{3,}", words)
            marks = {"Rush", "VPIP", "PFR", "SHA", "JSON", "ICM"}  # (ICM: the deal's method, issue 35)
            assert not [w for w in latin if w not in marks], (key, text)


def test_every_error_code_of_the_protocol_has_a_message() -> None:
    section = PROTOCOL_DOC.read_text(encoding="utf-8").split("## Error codes", 1)[1].split("\n## ", 1)[0]
    codes = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert len(codes) > 50
    codes |= set(SERVER_CODES) | set(PROTOCOL_CODES)
    for lang in LANGS:
        have = {k.removeprefix("err.") for k in DICTS[lang] if k.startswith("err.")}
        assert sorted(codes - have) == [], lang


def test_the_game_names_cover_every_game() -> None:
    from pokerroom.variants import VARIANTS

    for lang in LANGS:
        assert sorted(code for code in VARIANTS if f"game.{code}" not in DICTS[lang]) == [], lang
