"""The pairing screen of a game with a friend's board: the code shown large on one board, typed
on the other's number pad (no keyboard needed), and what the link is doing. (The room:
link_room.py; the screen: screens/link.kv.)"""

from __future__ import annotations

from dataclasses import dataclass

from ...link.code import DIGITS
from .. import link_texts as L
from .display import Display
from .link_room import LinkRoom

PAD = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "clear")
PAD_LABELS = {"back": "Back", "clear": "Clear"}


@dataclass(frozen=True)
class LinkView:
    title: str
    code: str          # the code, large (the host's; the guest's digits typed so far, with gaps)
    typing: bool       # the number pad is shown
    status: str
    problem: str
    keys: tuple[tuple[str, str], ...]  # (key, label) of the number pad
    banner: str


class LinkPresenter:
    def __init__(self, link: LinkRoom, display: Display) -> None:
        self.link, self.display = link, display

    def key(self, key: str) -> None:
        self.link.key(key)

    def cancel(self) -> None:
        self.link.cancel()

    def view(self) -> LinkView | None:
        p = self.link.pairing
        if p is None:
            return None
        typing = p.role == "guest" and p.code is None
        if p.role == "host":
            code = p.code.shown()
        else:
            digits = (p.typed if p.code is None else p.code.digits).ljust(DIGITS, "_")
            code = f"{digits[:2]} {digits[2:5]} {digits[5:]}"
        status = {"waiting": L.LINK_WAITING_FOR_BOARD if p.role == "host" else "",
                  "pairing": L.LINK_PAIRING, "paired": L.LINK_PAIRED, "failed": ""}[p.state]
        linked = self.link.linked
        if p.state == "paired" and linked is not None and linked.st.choices is not None and linked.session is None:
            status = L.LINK_SEALED_WAITING
        return LinkView(L.LINK_TITLE_HOST if p.role == "host" else L.LINK_TITLE_GUEST, code, typing, status,
                        p.problem, tuple((k, PAD_LABELS.get(k, k)) for k in PAD), self.display.banner)
