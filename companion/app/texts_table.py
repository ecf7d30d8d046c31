"""The touchscreen's words for the clock, the tournament table and the on-screen keyboard
(companion.app.texts re-exports every one: presenters and .kv files read them as ``T.NAME``).
Split from companion/app/texts.py to keep modules under 700 lines (tests/test_bounds.py)."""

from __future__ import annotations

# --- the clock and the tournament table (companion.tournament) -------------------------------------
CLOCK_AND_TABLE = "Clock"
TABLE_TITLE = "Clock and tournament"
TABLE_SUMMARY_NONE = "Casual, no clock"
TABLE_SUMMARY = "{mode}, {clock}"
TABLE_PAIRED = "Round {round} · Board {board}"
MODE = "Mode"
MODE_NAMES = {"casual": "Casual", "tournament": "Tournament"}
MODE_HINTS = {
    "casual": "The board lights the moves and helps.",
    "tournament": "No help from the board: the move counts when the clock is pressed (FIDE rules).",
}
NO_CLOCK = "No clock"
MORE_CLOCKS = "More…"
CLOCK_PRESETS_TITLE = "Time control"
CLOCK_PRESETS = {
    "fide-standard": "90 min / 40 moves + 30 min, +30 s",
    "classic": "2 h / 40 moves + 1 h",
    "rapid": "Rapid 15 min + 10 s",
    "blitz": "Blitz 3 min + 2 s",
    "blitz-5": "Blitz 5 min",
    "sudden-death": "60 min, sudden death",
    "fischer": "25 min + 10 s (Fischer)",
    "bronstein": "60 min, 10 s Bronstein delay",
    "us-delay": "60 min, 5 s delay (US)",
}
CLOCK_SHORT = {"fide-standard": "FIDE 90/40+30", "rapid": "15+10", "blitz": "3+2"}
AUTO_PRESS = "Clock presses itself"
LAST_MOVE_LIGHTS = "Light the last move"
ROUND_LABEL = "Round"
BOARD_LABEL = "Board"
EVENT = "Event"
EVENT_NONE = "Event name…"
RATINGS = "Ratings"
RATING_NONE = "–"
PAIRING_FILE = "From a pairing file…"
PAIRING_CLEAR = "Forget the pairing"
DONE = "Done"
TOURNAMENT_NEEDS_CLOCK = "A tournament game needs a clock: the move counts when it is pressed."
TOURNAMENT_NO_COMPUTER = "A tournament game has no computer player."
TOURNAMENT_NO_BIDS = "Chess 2 is played casually (a clock may run): its duels need the screen and the board's help."
EVENT_TITLE = "Name of the event"
RATING_TITLE = "{colour}'s rating"
RATING_RULE = "A rating is a number from 0 to 4000."
NO_PAIRING_FILES = "No pairing file found: put the TRF or CSV file on a USB stick and plug it in."
PAIRING_FILES_TITLE = "Which pairing file?"
DATA_FOLDER = "this board"
PAIRING_UNREADABLE = "{name} cannot be read: {reason}"
PAIRING_BOARDS_TITLE = "Round {round}: which board is this?"
PAIRING_LINE = "{board}. {white} – {black}"
PAIRING_CHOSEN = "Round {round}, board {board}: players and clock set."
HEADER_PAIRED = "Round {round} – Board {board}"

# the clock screen
CLOCK_TAP_TO_START = "{name}: tap your side to start {other}'s clock"
CLOCK_TAP = "Tap your side after your move"
CLOCK_PAUSED = "Clock paused"
CLOCK_PAUSED_ARBITER = "Clock paused – the arbiter restarts it"
PAUSE = "Pause"
RESUME_CLOCK = "Restart clock"
SHOW_BOARD = "Board"
SHOW_CLOCK = "Clock"
OFFER = "Offer draw"
CLAIM = "Claim draw"
RESULT = "Result"
ILLEGAL_COUNT = "Illegal moves: {n}"
MOVES_MADE = "Move {n}"
PERIOD = "Period {n}"
DELAY = "delay {time}"
FLAG = "Flag!"
LAST_MOVES = "Last: {moves}"
CLAIM_TITLE = "{name} claims a draw by:"
CLAIM_THREEFOLD = "Threefold repetition"
CLAIM_FIFTY = "Fifty moves without a capture or a pawn move"
RESULT_TITLE = "{name}, which result? Both players tap the same one."
RESULT_BUTTONS = {"1-0": "1–0 White wins", "1/2-1/2": "½–½ Draw", "0-1": "0–1 Black wins"}
RESULT_WITHDRAW = "Take my tap back"
ILLEGAL_CAUGHT = "Illegal move by {name}: put the position back. {other} gets {time} more."
ILLEGAL_SECOND = "Second illegal move by {name}: the game is lost."
CLAIM_RIGHT = "{name}'s claim is correct: the game is drawn."
CLAIM_WRONG = "{name}'s claim is not correct: {other} gets {time} more. Play on."
DRAW_OFFERED = "{name} offers a draw. {other}: tap Result → ½–½ to accept, or just move."
RESULT_TAPPED = "{name} tapped {result}."
OFFER_STANDING = "{name} offers a draw: {other}, tap Result \u2192 \u00bd\u2013\u00bd to accept, or just move."
RESULT_TAKEN_BACK = "{name} took the result tap back."
FLAG_FELL = "{name}'s flag fell."
POWER_RESTORED = ("The board was switched off. The clocks stopped at {times}; "
                  "the time it was off counts against nobody.")
CLOCK_NOT_RESTORED = ("The board was switched off, and the clock could not be restored: its checkpoint is damaged "
                      "({reason}). The clocks show the times of the last move in the journal, {times}: the "
                      "player to move may have thought longer. The arbiter may set them (Menu, then Arbiter).")
CLOCK_NOT_RESTORED_SHORT = ("The clock could not be restored after the power cut: these are the times of the last move "
                            "({times}). The arbiter may set them.")
SET_CLOCKS = "Arbiter: set the clocks"
SAVE_RECORD = "Save the game record (PGN)"
COPY_RECORDS = "Copy games to a USB stick"
SWAP_CLOCK = "Swap the clock's sides"
RECORD_SAVED = "Saved as {name}."
WHICH_STICK = "Copy to which USB stick?"
COPIED = "{count} game(s) copied to {name}."
COPY_FAILED = "Could not copy to {name}: {reason}"

# the arbiter
ARBITER = "Arbiter"
ARBITER_TITLE = "Arbiter"
PIN_SET = "Choose an arbiter PIN (4 to 8 digits)"
PIN_AGAIN = "The same PIN again"
PIN_ENTER = "Arbiter PIN"
PIN_RULE = "A PIN is 4 to 8 digits."
PIN_MISMATCH = "The two PINs differ: choose one again."
PIN_WRONG = "Wrong PIN."
PIN_DAMAGED = ("Arbiter mode is locked: the arbiter's PIN file is damaged ({reason}), and nobody can set a new "
               "PIN here. The arbiter resets it on the board's computer with the command "
               "companion arbiter --reset-pin (the damaged file is kept beside it).")
CHANGE_PIN = "Change PIN"
SET_TIME = "{name}'s clock (type minutes and seconds)"
TIME_RULE = "Type a time, e.g. 1 3 0 0 for 13:00."
SET_TIME_BUTTON = "Set time"
ADD_MINUTE = "+1 min"
TAKE_MINUTE = "−1 min"
MOVES_DOWN = "Moves −"
MOVES_UP = "Moves +"
PENALTY = "Penalty"
CANCEL_PENALTY = "Cancel last penalty"
TAKE_BACK = "Take back a move"
SET_RESULT = "Set result"
END_GAME = "End game"
ARBITER_RESULTS_TITLE = "Set the result"
ARBITER_RESULTS = {"1-0": "1–0", "1/2-1/2": "½–½", "0-1": "0–1", "+-": "+– forfeit",
                   "-+": "–+ forfeit", "--": "–– both forfeit", "0-0": "0–0"}
ARBITER_DONE = {
    "set-time": "Clock set.", "add-time": "Time added.", "set-moves": "Move counter set.", "pause": "Clock paused.",
    "resume": "Clock restarted.", "penalty": "Penalty applied.", "cancel-penalty": "Penalty cancelled.",
    "result": "Result set.", "takeback": "Move taken back.", "end": "Game ended.",
}
ARBITER_LOG = "Record"
ARBITER_NOTHING = "Nothing recorded yet."
ARBITER_CLOCK_LINE = "{name}: {time}  \u00b7  moves: {moves}"

# typing
ENTRY_KEYS = {"shift": "Shift", "more": "\u00c4\u00d6\u00c9", "space": "Space", "back": "Delete", "clear": "Clear",
              "left": "\u25c0", "right": "\u25b6", "enter": "Enter"}
TEXT_ENTRY_KEYS = {"more": "#{}\u00c4"}  # the text layout's second page: symbols and accents
ENTRY_OK = "OK"
TYPE_NAME = "Type a name…"
TYPE_NAME_TITLE = "Name for {colour}"
