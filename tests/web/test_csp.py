"""Issue 19, defect 5, in a real browser: the client works under its Content-Security-Policy (script-src
'self', style-src 'self', no inline script or style): nothing it does is refused, and the seats it places
with inline positions are where they belong. And logging out in one tab ends the socket of another."""

from __future__ import annotations

from typing import Any

from .conftest import Room
from .player import Player


def test_the_client_runs_under_its_content_security_policy(room: Room, page: Any) -> None:
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " e => console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    p = Player(page, room.url)
    p.register()
    tile = p.open_and_sit("holdem-nl")
    seat = tile.locator(".seat").first
    seat.wait_for(state="visible")  # (placed once the table's first frame is drawn)
    style = seat.get_attribute("style") or ""
    assert "left:" in style.replace(" ", "") and "top:" in style.replace(" ", "")  # set via the CSSOM
    box = seat.bounding_box()
    assert box is not None and box["width"] > 0
    page.click("#cashier-btn")
    page.keyboard.press("Escape")
    assert refused == [] and p.errors == []


def test_logging_out_in_one_tab_sends_the_other_back_to_the_login_form(room: Room, page: Any) -> None:
    p = Player(page, room.url)
    p.register()
    other = page.context.new_page()
    other.goto(room.url)
    other.wait_for_selector("#app:not([hidden])")
    page.click("#logout-btn")
    other.wait_for_selector("#login:not([hidden])", timeout=20_000)
    other.close()


def test_a_socket_that_connects_after_the_logout_of_another_tab_sends_its_page_to_the_login_form(
    room: Room, page: Any
) -> None:
    """The race of the test above, made certain: the other tab shows the room, and its socket's handshake
    goes out only after the logout has cleared the cookie. The room can only see an anonymous socket (no
    token to recognise as ended); the page, told so by the welcome frame, asks the room and goes back to
    the login form rather than staying on a room it is no longer logged in to."""
    p = Player(page, room.url)
    p.register()
    other = page.context.new_page()
    other.goto(room.url)
    other.wait_for_selector("#app:not([hidden])")
    other.evaluate("window.pokerroom.socket.close()")  # (its socket, as if not yet connected)
    page.click("#logout-btn")
    page.wait_for_selector("#login:not([hidden])")
    assert not [c for c in page.context.cookies() if c["name"] == "pokerroom_token"]
    assert other.locator("#app:not([hidden])").count() == 1
    other.evaluate("window.pokerroom.socket.connect()")  # the handshake, with no cookie left
    other.wait_for_selector("#login:not([hidden])", timeout=20_000)
    other.close()
