"""The words of the clock, the tournament table, the arbiter and the keyboard: part of
companion/app/texts.py's table (read them as ``T.NAME`` from there, in the current language;
this module only holds their English, marked for the catalog, docs/i18n.md)."""

from __future__ import annotations

from ..i18n import N_, P_

# --- the clock and the tournament table (companion.tournament) -------------------------------------
CLOCK_AND_TABLE = N_("Clock")
TABLE_TITLE = N_("Clock and tournament")
TABLE_SUMMARY_NONE = N_("Casual, no clock")
TABLE_SUMMARY = N_("{mode}, {clock}")
TABLE_PAIRED = N_("Round {round} · Board {board}")
MODE = N_("Mode")
MODE_NAMES = {"casual": N_("Casual"), "tournament": N_("Tournament")}
MODE_HINTS = {
    "casual": N_("The board lights the moves and helps."),
    "tournament": N_("No help from the board: the move counts when the clock is pressed (FIDE rules)."),
}
NO_CLOCK = N_("No clock")
MORE_CLOCKS = N_("More…")
CLOCK_PRESETS_TITLE = N_("Time control")
CLOCK_PRESETS = {
    "fide-standard": N_("90 min / 40 moves + 30 min, +30 s"),
    "classic": N_("2 h / 40 moves + 1 h"),
    "rapid": N_("Rapid 15 min + 10 s"),
    "blitz": N_("Blitz 3 min + 2 s"),
    "blitz-5": N_("Blitz 5 min"),
    "sudden-death": N_("60 min, sudden death"),
    "fischer": N_("25 min + 10 s (Fischer)"),
    "bronstein": N_("60 min, 10 s Bronstein delay"),
    "us-delay": N_("60 min, 5 s delay (US)"),
}
CLOCK_SHORT = {"fide-standard": N_("FIDE 90/40+30"), "rapid": "15+10", "blitz": "3+2"}
AUTO_PRESS = N_("Clock presses itself")
LAST_MOVE_LIGHTS = N_("Light the last move")
ROUND_LABEL = N_("Round")
BOARD_LABEL = N_("Board")
EVENT = N_("Event")
EVENT_NONE = N_("Event name…")
RATINGS = N_("Ratings")
RATING_NONE = "–"
PAIRING_FILE = N_("From a pairing file…")
PAIRING_CLEAR = N_("Forget the pairing")
DONE = N_("Done")
TOURNAMENT_NEEDS_CLOCK = N_("A tournament game needs a clock: the move counts when it is pressed.")
TOURNAMENT_NO_COMPUTER = N_("A tournament game has no computer player.")
TOURNAMENT_NO_BIDS = N_("Chess 2 is played casually (a clock may run): its duels need the screen and the board's help.")
EVENT_TITLE = N_("Name of the event")
RATING_TITLE = N_("{colour}'s rating")
RATING_RULE = N_("A rating is a number from 0 to 4000.")
NO_PAIRING_FILES = N_("No pairing file found: put the TRF or CSV file on a USB stick and plug it in.")
PAIRING_FILES_TITLE = N_("Which pairing file?")
DATA_FOLDER = N_("this board")
PAIRING_UNREADABLE = N_("{name} cannot be read: {reason}")
PAIRING_BOARDS_TITLE = N_("Round {round}: which board is this?")
PAIRING_LINE = N_("{board}. {white} – {black}")
PAIRING_CHOSEN = N_("Round {round}, board {board}: players and clock set.")
HEADER_PAIRED = N_("Round {round} – Board {board}")

# the clock screen
CLOCK_TAP_TO_START = N_("{name}: tap your side to start {other}'s clock")
CLOCK_TAP = N_("Tap your side after your move")
CLOCK_PAUSED = N_("Clock paused")
CLOCK_PAUSED_ARBITER = N_("Clock paused – the arbiter restarts it")
PAUSE = N_("Pause")
RESUME_CLOCK = N_("Restart clock")
SHOW_BOARD = N_("Board")
SHOW_CLOCK = N_("Clock")
OFFER = N_("Offer draw")
CLAIM = N_("Claim draw")
RESULT = N_("Result")
ILLEGAL_COUNT = N_("Illegal moves: {n}")
MOVES_MADE = N_("Move {n}")
PERIOD = N_("Period {n}")
DELAY = N_("delay {time}")
FLAG = N_("Flag!")
LAST_MOVES = N_("Last: {moves}")
CLAIM_TITLE = N_("{name} claims a draw by:")
CLAIM_THREEFOLD = N_("Threefold repetition")
CLAIM_FIFTY = N_("Fifty moves without a capture or a pawn move")
RESULT_TITLE = N_("{name}, which result? Both players tap the same one.")
RESULT_BUTTONS = {"1-0": N_("1–0 White wins"), "1/2-1/2": N_("½–½ Draw"), "0-1": N_("0–1 Black wins")}
RESULT_WITHDRAW = N_("Take my tap back")
ILLEGAL_CAUGHT = N_("Illegal move by {name}: put the position back. {other} gets {time} more.")
ILLEGAL_SECOND = N_("Second illegal move by {name}: the game is lost.")
CLAIM_RIGHT = N_("{name}'s claim is correct: the game is drawn.")
CLAIM_WRONG = N_("{name}'s claim is not correct: {other} gets {time} more. Play on.")
DRAW_OFFERED = N_("{name} offers a draw. {other}: tap Result → ½–½ to accept, or just move.")
RESULT_TAPPED = N_("{name} tapped {result}.")
OFFER_STANDING = N_("{name} offers a draw: {other}, tap Result \u2192 \u00bd\u2013\u00bd to accept, or just move.")
RESULT_TAKEN_BACK = N_("{name} took the result tap back.")
FLAG_FELL = N_("{name}'s flag fell.")
POWER_RESTORED = (N_("The board was switched off. The clocks stopped at {times}; "
                  "the time it was off counts against nobody."))
CLOCK_NOT_RESTORED = (N_("The board was switched off, and the clock could not be restored: its checkpoint is damaged "
                      "({reason}). The clocks show the times of the last move in the journal, {times}: the "
                      "player to move may have thought longer. The arbiter may set them (Menu, then Arbiter)."))
CLOCK_NOT_RESTORED_SHORT = (N_("The clock could not be restored after the power cut: these are the times of the last move "
                            "({times}). The arbiter may set them."))
SET_CLOCKS = N_("Arbiter: set the clocks")
SAVE_RECORD = N_("Save the game record (PGN)")
COPY_RECORDS = N_("Copy games to a USB stick")
SWAP_CLOCK = N_("Swap the clock's sides")
RECORD_SAVED = N_("Saved as {name}.")
WHICH_STICK = N_("Copy to which USB stick?")
COPIED = P_("{count} game copied to {name}.", "{count} games copied to {name}.", "count")
COPY_FAILED = N_("Could not copy to {name}: {reason}")

# the arbiter
ARBITER = N_("Arbiter")
ARBITER_TITLE = N_("Arbiter")
PIN_SET = N_("Choose an arbiter PIN (4 to 8 digits)")
PIN_AGAIN = N_("The same PIN again")
PIN_ENTER = N_("Arbiter PIN")
PIN_RULE = N_("A PIN is 4 to 8 digits.")
PIN_MISMATCH = N_("The two PINs differ: choose one again.")
PIN_WRONG = N_("Wrong PIN.")
PIN_DAMAGED = (N_("Arbiter mode is locked: the arbiter's PIN file is damaged ({reason}), and nobody can set a new "
               "PIN here. The arbiter resets it on the board's computer with the command "
               "companion arbiter --reset-pin (the damaged file is kept beside it)."))
CHANGE_PIN = N_("Change PIN")
SET_TIME = N_("{name}'s clock (type minutes and seconds)")
TIME_RULE = N_("Type a time, e.g. 1 3 0 0 for 13:00.")
SET_TIME_BUTTON = N_("Set time")
ADD_MINUTE = N_("+1 min")
TAKE_MINUTE = N_("−1 min")
MOVES_DOWN = N_("Moves −")
MOVES_UP = N_("Moves +")
PENALTY = N_("Penalty")
CANCEL_PENALTY = N_("Cancel last penalty")
TAKE_BACK = N_("Take back a move")
SET_RESULT = N_("Set result")
END_GAME = N_("End game")
ARBITER_RESULTS_TITLE = N_("Set the result")
ARBITER_RESULTS = {"1-0": "1–0", "1/2-1/2": "½–½", "0-1": "0–1", "+-": N_("+– forfeit"),
                   "-+": N_("–+ forfeit"), "--": N_("–– both forfeit"), "0-0": "0–0"}
ARBITER_DONE = {
    "set-time": N_("Clock set."), "add-time": N_("Time added."), "set-moves": N_("Move counter set."), "pause": N_("Clock paused."),
    "resume": N_("Clock restarted."), "penalty": N_("Penalty applied."), "cancel-penalty": N_("Penalty cancelled."),
    "result": N_("Result set."), "takeback": N_("Move taken back."), "end": N_("Game ended."),
}
ARBITER_LOG = N_("Record")
ARBITER_NOTHING = N_("Nothing recorded yet.")
ARBITER_CLOCK_LINE = N_("{name}: {time}  \u00b7  moves: {moves}")

# typing
ENTRY_KEYS = {"shift": N_("Shift"), "more": N_("\u00c4\u00d6\u00c9"), "space": N_("Space"), "back": N_("Delete"), "clear": N_("Clear"),
              "left": "\u25c0", "right": "\u25b6", "enter": N_("Enter")}
TEXT_ENTRY_KEYS = {"more": "#{}\u00c4"}  # the text layout's second page: symbols and accents
ENTRY_OK = N_("OK")
TYPE_NAME = N_("Type a name…")
TYPE_NAME_TITLE = N_("Name for {colour}")
