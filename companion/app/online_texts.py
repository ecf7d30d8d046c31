"""Every word of lichess play on the board's screens (docs/online.md)."""

from __future__ import annotations

from ..i18n import N_, read_in_language

LICHESS = N_("lichess")
TITLE = N_("Play on lichess")
MENU_ITEM = N_("Connect to lichess")
CONNECT_TITLE = N_("Connect this board to lichess")
CONNECT_STEPS = (N_("1. Scan the code with your phone (on the board's network).\n"
                 "2. Log in with lichess there, or paste a token.\n"
                 "The board connects by itself."))
CONNECT_NO_PAGE = N_("The board's page for your phone cannot open here: {reason}. Use a USB stick or type the token.")
FROM_STICK = N_("Token from USB stick")
TYPE_TOKEN = N_("Type the token")
TYPE_TOKEN_TITLE = N_("The lichess token (lip_...)")
NO_STICK = N_("No USB stick with a lichess.token file: put the token in a file named lichess.token on a stick.")
STICK_COPIED = N_("Token read from {stick}; the board keeps its own copy. Delete lichess.token from the stick.")
CHECKING = N_("Connecting to lichess…")
TRY_AGAIN = N_("Try again")
DISCONNECT = N_("Disconnect")
DISCONNECTED = N_("Disconnected: the token is deleted from this board.")
CONNECTED_AS = N_("Connected to lichess as {name}")
RECONNECTING = N_("Reconnecting to lichess in {seconds} s ({reason})")
RECONNECTING_NOW = N_("Reconnecting to lichess…")
HELD = N_("lichess asked the board to wait: {seconds} s")
LOST = N_("Not connected to lichess: {reason}")
NOT_CONNECTED = N_("Not connected to lichess")
TOKEN_REFUSED = N_("lichess refused the board's token (revoked or expired): connect again.")
CLOCK = N_("Clock")
SEEK = N_("Seek a game")
STOP_SEEKING = N_("Stop looking")
SEEKING = N_("Looking for an opponent ({clock})…")
SEEK_TAKEN = N_("An opponent was found.")
SEEK_EXPIRED = N_("No opponent was found; seek again.")
CHALLENGE = N_("Challenge a friend:")
ANOTHER_NAME = N_("Another name…")
FRIEND_TITLE = N_("Whom do you challenge? (a lichess name)")
CHALLENGED = N_("Challenge sent to {name} ({clock}); waiting for an answer.")
CHALLENGE_DECLINED = N_("{name} declined: {reason}")
CHALLENGE_WITHDRAWN = N_("{name} withdrew the challenge.")
INCOMING = N_("{name} ({rating}) challenges you: {clock}{rated}")
RATED = N_(", rated")
ACCEPT = N_("Accept")
DECLINE = N_("Decline")
NO_CHALLENGES = N_("No challenges. Friends can challenge {name} on lichess.")
GAMES_ON = N_("Your game with {name} goes on on lichess")
PLAY_HERE = N_("Play it on the board")
DAYS = N_("{days} days")
CORRESPONDENCE = N_("{days} days a move")
BACK = N_("Back")
REFUSED = N_("lichess refused: {reason}")
TOKEN_REFUSED_IN_GAME = N_("lichess refused the board's token: Menu, Connect to lichess")
NOT_SENT_WAIT = N_("Not sent: lichess asked the board to wait a minute. Tap again once it says connected.")

# the game
YOUR_MOVE = N_("Your move")
THEIR_MOVE = N_("{name} to move")
MAKE_THEIR_MOVE = N_("{name} played {frm}-{to}")
MOVE_WAITING_OFFLINE = N_("Your move {move} is sent when the board is back online")
MOVE_WAITING_HELD = N_("lichess asked the board to wait; your move {move} goes in {seconds} s")
MOVE_CHECKING = N_("Checking with lichess whether {move} arrived…")
MOVE_REFUSED = N_("lichess refused {move}: {reason}. Put the piece back as the lights show.")
NOT_YOUR_PIECE = N_("That was {name}'s move to make on lichess: put the piece back as the lights show.")
DRAW_OFFERED_BY = N_("{name} offers a draw")
TAKEBACK_BY = N_("{name} asks to take back a move")
DRAW_SENT = N_("Draw offered; waiting for {name}")
TAKEBACK_SENT = N_("Takeback asked; waiting for {name}")
CONFIRM_RESIGN = N_("Resign this game on lichess?")
YES_RESIGN = N_("Yes, resign")
OPPONENT_GONE = N_("{name} left the game; you may claim victory in {seconds} s")
OPPONENT_GONE_NOW = N_("{name} left the game: you may claim victory")
OPPONENT_BACK = N_("{name} is back")
ABORT = N_("Abort")
CLAIM = N_("Claim victory")
CLAIM_QUESTION = N_("{name} has left the game")
CLAIM_WIN = N_("Claim victory")
CLAIM_DRAW = N_("Claim a draw")
FIRST_MOVE = N_("Make your first move within {seconds} s or the game is aborted")
CHAT = N_("{name}: {text}")
ACTION_REFUSED = N_("lichess: {reason}")
NOT_TAKEN = N_("A lichess game was not taken by the board: {reason}")
BOARD_BUSY = N_("a game is being played on the board; the lichess screen offers it")
LINK = N_("On lichess: {url}")
CORRESPONDENCE_CLOCK = N_("{days} d a move")

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
ABORTED = N_("The game with {name} was aborted on lichess: it is kept with the unfinished games.")

_text = read_in_language(globals(), as_is=('STATUS_REASONS', 'NO_RESULT'))  # NAME reads in the language of the moment (docs/i18n.md)
