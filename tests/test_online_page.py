"""The board's page where a phone connects a lichess account: OAuth2 PKCE against the fake
lichess's /oauth and /api/token, a pasted token, the page's one-time code."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request

import pytest

from companion.online.page import ConnectPage
from companion.online.token import Token

from fake_lichess import FakeLichess


@pytest.fixture
def fake():
    with FakeLichess() as f:
        f.add_token("lip_board0001", "bobby", "board:play")
        yield f


@pytest.fixture
def page(fake):
    got: list[tuple[Token, str]] = []
    p = ConnectPage(fake.url, lambda token, name: got.append((token, name)), host="127.0.0.1", address="127.0.0.1")
    p.start()
    p.got = got
    yield p
    p.stop()


def fetch(url: str, form: dict | None = None) -> tuple[int, str, str]:
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    try:
        with urllib.request.urlopen(url, data=data, timeout=10) as r:
            return r.status, r.read().decode(), r.url
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), url


def test_the_page_needs_the_code_of_the_screen(page):
    status, text, _ = fetch(page.url.split("?")[0])
    assert status == 403 and "scan the QR code" in text
    status, text, _ = fetch(page.url.split("?")[0] + "?k=guess")
    assert status == 403
    status, text, _ = fetch(page.url)
    assert status == 200 and "Log in with lichess" in text
    assert "account/oauth/token/create?scopes%5B%5D=board%3Aplay" in text


def test_a_pasted_token_connects_the_board(page):
    status, text, _ = fetch(f"{page.base}/lichess/token", {"k": page.code, "token": "  lip_board0001\n"})
    assert status == 200 and "connected to lichess as <b>Bobby</b>" in text and "lip_board0001" not in text
    assert page.got == [(Token("lip_board0001"), "Bobby")]
    assert fetch(page.url)[0] == 410  # used once


@pytest.mark.parametrize("token, words", [("not a token", "not a lichess token"),
                                          ("lip_revoked99", "did not take this token")])
def test_a_bad_pasted_token_is_said(page, token, words):
    status, text, _ = fetch(f"{page.base}/lichess/token", {"k": page.code, "token": token})
    assert status == 400 and words in text and not page.got


def test_a_post_without_the_code_is_refused(page):
    assert fetch(f"{page.base}/lichess/token", {"token": "lip_board0001"})[0] == 403 and not page.got


def test_log_in_with_lichess_pkce(fake, page):
    fake.oauth_user = "bobby"
    status, text, final = fetch(f"{page.base}/lichess/login?k={page.code}")
    assert status == 200 and "as <b>Bobby</b>" in text and final.startswith(page.base + "/lichess/callback?code=")
    [(token, name)] = page.got
    assert token.reveal().startswith("lio_") and fake.tokens[token.reveal()] == ("bobby", "board:play")
    assert token.reveal() not in text and token.reveal() not in final


def test_log_in_refused_on_lichess(fake, page):
    fake.oauth_user = None
    status, text, _ = fetch(f"{page.base}/lichess/login?k={page.code}")
    assert status == 400 and "lichess was not allowed to connect the board" in text and not page.got


def test_a_callback_not_started_here_is_refused(page):
    assert fetch(f"{page.base}/lichess/callback?code=liu_x&state=y")[0] == 403
