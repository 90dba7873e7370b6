"""The dealer's lines of a mixed table in Russian and Bulgarian (issue 36 item 4, RULES.md §11.1): the
server writes the end of a round in English ("The FL Razz round is over; next: FL 7-Card Stud", or
"next: dealer's choice"); the client says it again in the page's language from the dictionaries, each
game named as the lobby names it, and leaves a line of another shape as written."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Room, browser_page
from tests.web.test_i18n_dicts import DICTS

DEALER = "s => import('/static/js/tile.js').then(m => m.dealerLine(s))"


@pytest.fixture
def context_for(browser: Any) -> Iterator[Any]:
    with contextlib.ExitStack() as pages:

        def make(locale: str) -> Any:
            return pages.enter_context(
                browser_page(browser, viewport={"width": 1280, "height": 900}, locale=locale)
            )

        yield make


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_a_rounds_end_is_said_in_the_page_language(room: Room, context_for: Any, lang: str) -> None:
    page = context_for({"ru": "ru-RU", "bg": "bg-BG"}[lang])
    page.goto(room.url + "/")
    page.wait_for_selector("#login:not([hidden])")
    d = DICTS[lang]

    def game(code: str, betting: str) -> str:
        return f"{d[f'game.{code}']} {d[f'betting.{betting}']}"

    line = page.evaluate(DEALER, "The FL Texas Hold'em round is over; next: FL Omaha Hi/Lo")
    said = d["log.round_over"].format(game=game("holdem", "FL"), next=game("omaha8", "FL"))
    assert line == said and "round is over" not in line
    line = page.evaluate(DEALER, "The FL 2-7 Triple Draw round is over; next: dealer's choice")
    assert line == d["log.round_over"].format(game=game("deuce7_triple", "FL"), next=d["log.dealers_choice"])
    line = page.evaluate(
        DEALER, "The NL Hold'em Deluxe round is over; next: PL Omaha"
    )  # a game it does not know
    assert line == d["log.round_over"].format(game="NL Hold'em Deluxe", next=game("omaha", "PL"))
    assert page.evaluate(DEALER, "The table is merry") == "The table is merry"
    # the table's and the lobby's "game now / next" of a mix name the games the same way
    label = "s => import('/static/js/i18n.js').then(m => m.gameLabel(s))"
    assert page.evaluate(label, "FL 7-Card Stud Hi/Lo") == game("stud8", "FL")
    assert page.evaluate(label, "Something") == "Something"
