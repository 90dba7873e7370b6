"""Issue 20, item 8, in a real browser: the client in Russian and Bulgarian. The language switch in the header
(remembered; the browser's language by default) translates every visible string of the lobby, a table with
its action bar, and the dialogs; numbers are formatted for the locale; a protocol error is shown translated.

The check of "every visible string": each text node the player can see (and each visible placeholder and
option) is compared with the English dictionary; one that reads as an English string of the client (a
dictionary value, its {placeholders} standing for anything) and not as a string of the chosen language is
an untranslated string. Names, numbers, cards and the room's own data (table and tournament names) match
no English string of the client, so they pass."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Room, browser_page
from tests.web.player import PASSWORD, Player, Seen
from tests.web.test_i18n_dicts import DICTS

VISIBLE_TEXT = """() => {
  const out = [];
  const seen = (el) => el && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el) continue;
    if (el.tagName === "OPTION" ? seen(el.closest("select")) : seen(el)) out.push(text);
  }
  for (const el of document.querySelectorAll("[placeholder]")) if (seen(el)) out.push(el.placeholder);
  return out;
}"""


def _pattern(text: str) -> re.Pattern[str] | None:
    """A dictionary string as a regular expression ({x} stands for anything); None for one with no words."""
    literal = re.sub(r"\{\w+\}", "", text)
    if not re.search(r"[^\W\d_]{2,}", literal):
        return None
    parts = re.split(r"\{\w+\}", text.strip())
    return re.compile("^" + ".+".join(re.escape(p.strip()) for p in parts) + "$")


def _patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for key, value in DICTS[lang].items():
        for text in value.values() if isinstance(value, dict) else [value]:
            p = _pattern(text)
            if p is not None:
                out.append((key, p))
    return out


ENGLISH = _patterns("en")


def untranslated(texts: list[str], lang: str) -> list[tuple[str, str]]:
    """The texts that read as an English string of the client and as no string of ``lang``."""
    own = _patterns(lang)
    bad = []
    for text in set(texts):
        hits = [key for key, p in ENGLISH if p.match(text)]
        if hits and not any(p.match(text) for _, p in own):
            bad.append((text, hits[0]))
    return sorted(bad)


@pytest.fixture
def context_for(browser: Any) -> Iterator[Any]:
    with contextlib.ExitStack() as pages:

        def make(locale: str) -> Any:
            return pages.enter_context(
                browser_page(browser, viewport={"width": 1280, "height": 900}, locale=locale)
            )

        yield make


def switch(page: Any, lang: str) -> None:
    with page.expect_navigation():
        page.select_option("#lang", lang)
    page.wait_for_selector("#app:not([hidden])")
    page.wait_for_selector(".lobby-table tbody tr")
    assert page.get_attribute("html", "lang") == lang


def texts_of(page: Any) -> list[str]:
    return list(page.evaluate(VISIBLE_TEXT))


def check_lobby_and_dialogs(page: Any, lang: str) -> list[str]:
    seen = texts_of(page)
    for tab in ("rush", "tournaments", "cash"):
        page.click(f'.tab[data-tab="{tab}"]')
        page.wait_for_selector(f'.tab[data-tab="{tab}"][aria-selected="true"]')
        page.wait_for_selector(".lobby-table tbody tr")
        seen += texts_of(page)
        if tab == "tournaments":
            page.locator(".t-info").first.click()
            dialog = page.locator("dialog.tournament-dialog")
            dialog.locator(".t-facts").wait_for()
            seen += texts_of(page)
            dialog.locator(".dialog-close").click()
    page.click('.lobby-table tbody tr[data-table="holdem-nl"] td.t-name')
    page.locator('.lobby-preview[data-table="holdem-nl"]').wait_for()
    seen += texts_of(page)
    page.click("#cashier-btn")
    cashier = page.locator("dialog.cashier")
    cashier.locator(".balance-play").wait_for()
    seen += texts_of(page)
    cashier.locator(".dialog-close").click()
    page.click("#stats-btn")
    seen += texts_of(page)
    page.locator("dialog.stats-dialog .dialog-close").click()
    return seen


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_the_switch_translates_every_visible_string_of_the_lobby_and_a_table(
    room: Room, page: Any, lang: str
) -> None:
    p = Player(page, room.url)
    p.register()
    assert page.get_attribute("html", "lang") == "en"
    english = texts_of(page)
    assert untranslated(english, "en") == [] and "Lobby" in english  # the check itself sees English
    assert untranslated(english, lang), "the check finds the English strings of the lobby"
    switch(page, lang)
    seen = check_lobby_and_dialogs(page, lang)
    table = "holdem-nl"
    tile = p.open_and_sit(table)
    tile.locator(".actionbar[data-kind]").wait_for(timeout=60_000)
    seen += texts_of(page)
    # The title flashes in the chosen language while the decision waits.
    title = DICTS[lang]["title.your_turn"]
    page.wait_for_function("t => document.title.includes(t)", arg=title)
    assert untranslated(seen, lang) == []
    assert DICTS[lang]["bar.fold"] in seen
    # A hand played to its end, then the "Last hands" window: the hand as text and on the replayer's table.
    p.play(table, Seen(), until=lambda seen, t: int(t.get_attribute("data-hands-played") or 0) >= 1)
    page.click("#last-hands-btn")
    last = page.locator("dialog.last-hands")
    last.locator(".last-list button.link").first.click()
    last.locator(".hand-events li").first.wait_for()
    lines = last.locator(".hand-events li").all_inner_texts()
    seen = texts_of(page)
    assert untranslated(seen, lang) == []
    assert lines[0].startswith(DICTS[lang]["log.hand_started"].split(" (")[0]), lines[0]
    assert DICTS[lang]["last.as_text"] in seen
    assert p.errors == []


def test_the_choice_survives_a_reload_and_a_new_login(room: Room, page: Any) -> None:
    p = Player(page, room.url)
    p.register()
    switch(page, "ru")
    page.reload()
    page.wait_for_selector("#app:not([hidden])")
    assert page.get_attribute("html", "lang") == "ru"
    assert page.inner_text("#lobby-toggle") == DICTS["ru"]["hdr.lobby"]
    assert page.input_value("#lang") == "ru"
    page.click("#logout-btn")
    page.wait_for_selector("#login:not([hidden])")
    assert page.inner_text("#login-btn") == DICTS["ru"]["login.login"]
    # The login form has the switch too: back to English.
    with page.expect_navigation():
        page.select_option("#login-lang", "en")
    page.wait_for_selector("#login:not([hidden])")
    assert page.inner_text("#login-btn") == "Log in"


@pytest.mark.parametrize(
    ("locale", "lang"), [("ru-RU", "ru"), ("bg-BG", "bg"), ("de-DE", "en"), ("en-GB", "en")]
)
def test_the_default_follows_the_browser_language(
    room: Room, context_for: Any, locale: str, lang: str
) -> None:
    page = context_for(locale)
    page.goto(room.url + "/")
    page.wait_for_selector("#login:not([hidden])")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#login-btn") == DICTS[lang]["login.login"]
    assert page.input_value("#login-lang") == lang


def test_numbers_plurals_and_hand_words_follow_the_locale(room: Room, context_for: Any) -> None:
    page = context_for("ru-RU")
    p = Player(page, room.url)
    p.register()
    fmt = "n => import('/static/js/dom.js').then(m => m.fmt(n))"
    assert page.evaluate(fmt, 12345).replace("\u00a0", " ").replace("\u202f", " ") == "12 345"
    amount = int(page.get_attribute("#balance", "data-amount") or 0)
    assert amount >= 1000
    shown = page.inner_text("#balance").replace("\u00a0", " ").replace("\u202f", " ")
    assert shown == f"{amount:,}".replace(",", " ")
    # Plural forms: 1 место, 2 места, 5 мест.
    plural = "n => import('/static/js/i18n.js').then(m => m.t('lobby.n_seats', { n }))"
    assert [page.evaluate(plural, n) for n in (1, 2, 5, 21)] == ["1 место", "2 места", "5 мест", "21 место"]
    # The server's English hand descriptions and dealer lines, said again in Russian.
    hand = "s => import('/static/js/handwords.js').then(m => m.handText(s))"
    assert page.evaluate(hand, "Full house, kings full of sevens") == "Фулл-хаус, короли и семёрки"
    high_low = "Флеш, старшая карта — туз / 8-6-4-2-A лоу"
    assert page.evaluate(hand, "Flush, ace high / 8-6-4-2-A low") == high_low
    assert page.evaluate(hand, "Something new") == "Something new"  # a shape it does not know: as written
    dealer = "s => import('/static/js/tile.js').then(m => m.dealerLine(s))"
    line = page.evaluate(dealer, "alice wins 12,345 (high) with two pair, kings and fives")
    said = "alice выигрывает 12 345 (хай) с комбинацией две пары, короли и пятёрки"
    assert line.replace("\u00a0", " ") == said
    assert page.evaluate(dealer, "Operator: hello") == "Оператор: hello"


def test_a_protocol_error_is_shown_translated(room: Room, context_for: Any) -> None:
    page = context_for("bg-BG")
    # An HTTP refusal (bad_credentials) on the login form.
    page.goto(room.url + "/")
    page.wait_for_selector("#login:not([hidden])")
    page.fill("#login-form input[name=name]", "nobody-here")
    page.fill("#login-form input[name=password]", PASSWORD)
    page.click("#login-btn")
    page.wait_for_function("() => document.querySelector('#login-error').textContent !== ''")
    assert page.inner_text("#login-error") == DICTS["bg"]["err.bad_credentials"]
    # A refusal of the table over the socket, shown on the table: a seat the table does not have.
    p = Player(page, room.url)
    p.register()
    tile = p.open_and_sit("holdem-nl")
    send = "m => window.pokerroom.tiles.get(m.table).send(m)"
    page.evaluate(send, {"type": "sit_out", "table": "holdem-nl", "when": "never"})
    notice = tile.locator(".notice[data-code]:not([data-code=''])")
    notice.wait_for()
    code = notice.get_attribute("data-code") or ""
    error = next(f for f in reversed(p.frames) if f.get("type") == "error")
    assert error["code"] == code and f"err.{code}" in DICTS["bg"]
    assert notice.inner_text() == DICTS["bg"][f"err.{code}"]
    assert notice.inner_text() != error["message"]


WORDS_IN_PAGE = "\n".join(
    line
    for line in (Path(__file__).parent / "i18n_words.js").read_text(encoding="utf-8").splitlines()
    if not line.startswith("//")
).strip()[1:-1]  # the function inside the parentheses


@pytest.mark.parametrize(("locale", "lang"), [("ru-RU", "ru"), ("bg-BG", "bg")])
def test_every_bar_street_and_hand_line_is_translated(
    room: Room, context_for: Any, locale: str, lang: str
) -> None:
    """What the table shows in other games and moments than the test above meets: the bars of a stud
    completion, a draw and a discard and the showdown, the streets, a split pot, stakes and tournament
    levels, the level clock, the pre-actions and the "Last hands" lines of a draw hand."""
    page = context_for(locale)
    page.goto(room.url + "/")
    page.wait_for_selector("#login:not([hidden])")
    words = [w.strip() for w in page.evaluate(WORDS_IN_PAGE)]
    assert len(words) > 40
    assert untranslated(words, lang) == []
    english = context_for("en-US")
    english.goto(room.url + "/")
    english.wait_for_selector("#login:not([hidden])")
    same = [w.strip() for w in english.evaluate(WORDS_IN_PAGE)]
    assert len(untranslated(same, lang)) > 30, "in English the same words are the English strings"
    assert DICTS[lang]["street.discard"] in words and DICTS[lang]["bar.stand_pat"] in words
