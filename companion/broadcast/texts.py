"""Every word the broadcast pages show (the spectator page, the hall page, the results table).

The pages' scripts read them from ``/texts.js``, which :func:`texts_js` writes from this module
in the spectator's language (the browser's ``Accept-Language``, :func:`language_for`; else the
board's), so the words live here only (the touchscreen's are in companion.app.texts). Every
one is marked with ``N_`` and translated through the catalog (docs/i18n.md).
"""

from __future__ import annotations

import json

from ..i18n import LANGUAGES, N_, Language, current, normalise

RESULTS_TITLE = N_("Round results")
RESULT_COLUMNS = (N_("Round"), N_("Board"), N_("Players"), N_("Result"), N_("Moves"), N_("Status"))
RESULTS_FILE = N_("Results file (CSV)")
ROUND_PGN = N_("All games (PGN)")
HALL_LINK = N_("The hall")

PAGE = {
    "boardTitle": N_("Companion board"),
    "hallTitle": N_("Companion hall"),
    "noGame": N_("No game on this board yet."),
    "noBoards": N_("Looking for boards…"),
    "round": N_("Round {round}"),
    "board": N_("Board {board}"),
    "moves": N_("Moves"),
    "toMove": N_("{name} to move"),
    "paused": N_("Clock paused"),
    "over": N_("Game over: {result}"),
    "waitingFor": N_("Waiting for {what}"),
    "fight": N_("a fight's dice"),
    "decision": N_("a decision"),
    "connectionLost": N_("Connection lost: trying again…"),
    "live": N_("Live"),
    "stale": N_("Silent: no news for a few seconds"),
    "off": N_("Off the network"),
    "waiting": N_("Connecting…"),
    "noGameYet": N_("No game yet"),
    "refused": N_("Refused: {reason}"),
    "unnamed": N_("A board at {address}"),
    "fightWon": N_("fight won"),
    "fightLost": N_("fight lost"),
    "fightBounced": N_("both go back"),
    "points": N_("{n} pts"),
    "out": N_("out"),
    "flag": N_("flag"),
    "pgn": N_("Game (PGN)"),
    "json": N_("Game (JSON)"),
    "roundPgn": ROUND_PGN,
    "results": RESULTS_TITLE,
    "boardsCount": N_("Boards: {n}"),
}

#: A result code as words for the page (the PGN code is shown beside it).
RESULT_WORDS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "*": N_("playing")}


def language_for(accept_language: str | None, fallback: Language | None = None) -> Language:
    """The first of the browser's languages (``de-DE,de;q=0.9,en;q=0.8``) the board has, else
    ``fallback`` (the board's own language)."""
    ranked = []
    for i, part in enumerate((accept_language or "").split(",")):
        code, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        ranked.append((-weight, i, normalise(code)))
    for _w, _i, code in sorted(ranked):
        if code in LANGUAGES:
            return _load(code)
    return fallback if fallback is not None else current()


_loaded: dict[str, Language] = {}


def _load(code: str) -> Language:
    if code not in _loaded:
        _loaded[code] = Language.load(code)
    return _loaded[code]


def texts_js(language: Language | None = None) -> bytes:
    """The page texts as a script defining ``TEXTS`` (served as /texts.js), in ``language``."""
    L = language or current()
    data = {k: L.gettext(v) for k, v in PAGE.items()}
    data["resultWords"] = {k: L.gettext(v) for k, v in RESULT_WORDS.items()}
    data["lang"] = L.code
    return f"window.TEXTS = {json.dumps(data, ensure_ascii=False)};\n".encode()


def results_words(language: Language | None = None) -> dict:
    """The results page's words in ``language``."""
    L = language or current()
    return {"title": L.gettext(RESULTS_TITLE), "columns": [L.gettext(c) for c in RESULT_COLUMNS],
            "file": L.gettext(RESULTS_FILE), "round_pgn": L.gettext(ROUND_PGN), "hall": L.gettext(HALL_LINK),
            "lang": L.code}
