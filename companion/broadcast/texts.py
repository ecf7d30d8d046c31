"""Every word the broadcast pages show (the spectator page, the hall page, the results table).

The pages' scripts read them from ``/texts.js``, which :func:`texts_js` writes from this module,
so the words live here only (the touchscreen's are in companion.app.texts).
"""

from __future__ import annotations

import json

RESULTS_TITLE = "Round results"
RESULT_COLUMNS = ("Round", "Board", "Players", "Result", "Moves", "Status")
RESULTS_FILE = "Results file (CSV)"
ROUND_PGN = "All games (PGN)"
HALL_LINK = "The hall"

PAGE = {
    "boardTitle": "Companion board",
    "hallTitle": "Companion hall",
    "noGame": "No game on this board yet.",
    "noBoards": "Looking for boards…",
    "round": "Round {round}",
    "board": "Board {board}",
    "moves": "Moves",
    "toMove": "{name} to move",
    "paused": "Clock paused",
    "over": "Game over: {result}",
    "waitingFor": "Waiting for {what}",
    "fight": "a fight's dice",
    "decision": "a decision",
    "connectionLost": "Connection lost: trying again…",
    "live": "Live",
    "stale": "Silent: no news for a few seconds",
    "off": "Off the network",
    "waiting": "Connecting…",
    "noGameYet": "No game yet",
    "refused": "Refused: {reason}",
    "unnamed": "A board at {address}",
    "fightWon": "fight won",
    "fightLost": "fight lost",
    "fightBounced": "both go back",
    "points": "{n} pts",
    "out": "out",
    "flag": "flag",
    "pgn": "Game (PGN)",
    "json": "Game (JSON)",
    "roundPgn": ROUND_PGN,
    "results": RESULTS_TITLE,
    "boardsCount": "{n} boards",
}

#: A result code as words for the page (the PGN code is shown beside it).
RESULT_WORDS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "*": "playing"}


def texts_js() -> bytes:
    """The page texts as a script defining ``TEXTS`` (served as /texts.js)."""
    data = dict(PAGE, resultWords=RESULT_WORDS)
    return f"window.TEXTS = {json.dumps(data, ensure_ascii=False)};\n".encode()
