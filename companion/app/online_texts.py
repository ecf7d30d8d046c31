"""Every word of lichess play on the board's screens (docs/online.md)."""

from __future__ import annotations

LICHESS = "lichess"
TITLE = "Play on lichess"
CONNECT_TITLE = "Connect this board to lichess"
CONNECT_STEPS = ("1. Scan the code with your phone (on the board's network).\n"
                 "2. Log in with lichess there, or paste a token.\n"
                 "The board connects by itself.")
CONNECT_NO_PAGE = "The board's page for your phone cannot open here: {reason}. Use a USB stick or type the token."
FROM_STICK = "Token from USB stick"
TYPE_TOKEN = "Type the token"
TYPE_TOKEN_TITLE = "The lichess token (lip_...)"
NO_STICK = "No USB stick with a lichess.token file: put the token in a file named lichess.token on a stick."
STICK_COPIED = "Token read from {stick}; the board keeps its own copy. Delete lichess.token from the stick."
CHECKING = "Connecting to lichess…"
TRY_AGAIN = "Try again"
DISCONNECT = "Disconnect"
DISCONNECTED = "Disconnected: the token is deleted from this board."
CONNECTED_AS = "Connected to lichess as {name}"
RECONNECTING = "Reconnecting to lichess in {seconds} s ({reason})"
RECONNECTING_NOW = "Reconnecting to lichess…"
HELD = "lichess asked the board to wait: {seconds} s"
LOST = "Not connected to lichess: {reason}"
NOT_CONNECTED = "Not connected to lichess"
CLOCK = "Clock"
SEEK = "Seek a game"
STOP_SEEKING = "Stop looking"
SEEKING = "Looking for an opponent ({clock})…"
SEEK_TAKEN = "An opponent was found."
SEEK_EXPIRED = "No opponent was found; seek again."
CHALLENGE = "Challenge a friend:"
ANOTHER_NAME = "Another name…"
FRIEND_TITLE = "Whom do you challenge? (a lichess name)"
CHALLENGED = "Challenge sent to {name} ({clock}); waiting for an answer."
CHALLENGE_DECLINED = "{name} declined: {reason}"
CHALLENGE_WITHDRAWN = "{name} withdrew the challenge."
INCOMING = "{name} ({rating}) challenges you: {clock}{rated}"
RATED = ", rated"
ACCEPT = "Accept"
DECLINE = "Decline"
NO_CHALLENGES = "No challenges. Friends can challenge {name} on lichess."
GAMES_ON = "Your game with {name} goes on on lichess"
PLAY_HERE = "Play it on the board"
DAYS = "{days} days"
CORRESPONDENCE = "{days} days a move"
BACK = "Back"
REFUSED = "lichess refused: {reason}"

# the game
YOUR_MOVE = "Your move"
THEIR_MOVE = "{name} to move"
MAKE_THEIR_MOVE = "{name} played {frm}-{to}"
MOVE_WAITING_OFFLINE = "Your move {move} is sent when the board is back online"
MOVE_WAITING_HELD = "lichess asked the board to wait; your move {move} goes in {seconds} s"
MOVE_CHECKING = "Checking with lichess whether {move} arrived…"
MOVE_REFUSED = "lichess refused {move}: {reason}. Put the piece back as the lights show."
NOT_YOUR_PIECE = "That was {name}'s move to make on lichess: put the piece back as the lights show."
DRAW_OFFERED_BY = "{name} offers a draw"
TAKEBACK_BY = "{name} asks to take back a move"
DRAW_SENT = "Draw offered; waiting for {name}"
TAKEBACK_SENT = "Takeback asked; waiting for {name}"
CONFIRM_RESIGN = "Resign this game on lichess?"
YES_RESIGN = "Yes, resign"
OPPONENT_GONE = "{name} left the game; you may claim victory in {seconds} s"
OPPONENT_GONE_NOW = "{name} left the game: you may claim victory"
OPPONENT_BACK = "{name} is back"
ABORT = "Abort"
CLAIM = "Claim victory"
FIRST_MOVE = "Make your first move within {seconds} s or the game is aborted"
CHAT = "{name}: {text}"
ACTION_REFUSED = "lichess: {reason}"
NOT_TAKEN = "A lichess game was not taken by the board: {reason}"
BOARD_BUSY = "a game is being played on the board; the lichess screen offers it"
LINK = "On lichess: {url}"
CORRESPONDENCE_CLOCK = "{days} d a move"

#: lichess's game statuses (GameStatusName.yaml) as the board's result reasons
#: (companion.app.texts.RESULT_REASONS keys, or words of their own below)
STATUS_REASONS = {
    "mate": "checkmate", "resign": "resigned", "stalemate": "stalemate", "timeout": "opponent left",
    "draw": "draw agreed", "outoftime": "time", "aborted": "aborted", "noStart": "no start",
    "cheat": "ended on lichess", "unknownFinish": "ended on lichess", "variantEnd": "ended on lichess",
    "insufficientMaterialClaim": "insufficient material",
}
#: lichess's ends that leave no result: the game is kept as unfinished, not scored
NO_RESULT = ("aborted", "no start")
ABORTED = "The game with {name} was aborted on lichess: it is kept with the unfinished games."
