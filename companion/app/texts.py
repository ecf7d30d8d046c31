"""Every word the touchscreen shows, in one place, in the board's language (docs/i18n.md).

Presenters build sentences from these templates with ``str.format``; .kv files take their
fixed labels from here too (``T.UNDO``), so nothing the players read is spelled anywhere
else. Words for players, not programmers: short, plain, no notation they did not ask for.

Each text is marked ``N_`` (a count: ``P_``, whose ``format`` picks the plural form) and read
through the module: ``T.UNDO`` is the text in the current language (companion.i18n.current()),
looked up on each read and kept per language, so a language chosen in the menu shows on every
screen built after it. Read them where they are shown, never into a module-level constant of
another module (that would keep the language of the import; tests/test_i18n_app.py checks).
"""

from __future__ import annotations

from ..i18n import N_, P_, read_in_language

APP_TITLE = N_("Companion")

# --- games, players, pieces --------------------------------------------------------------------
GAME_TITLES = {
    "chess": N_("Chess"),
    "combat": N_("Combat Chess"),
    "dungeon": N_("Dungeon Chess"),
    "kol": N_("KoL Chess"),
    "chess2": N_("Chess 2"),
    "chess4": N_("Four-player chess"),
}
GAME_HINTS = {
    "chess": N_("Classic chess. With dice fights on it is Human Combat Chess."),
    "combat": N_("Human Combat Chess: chess where every capture is a dice fight."),
    "chess4": N_("Four armies on a 14\u00d714 board with its corners cut."),
    "dungeon": N_("Armies of 75 XP on dungeon maps."),
    "kol": N_("Monsters, Legends and a Tower on a 12\u00d712 board. The board and set-up are our reconstruction."),
    "chess2": N_("Six armies, duels with secret bids of stones, and a King across the middle wins."),
}
COLOUR_NAMES = (N_("White"), N_("Black"))
#: Seat colours of the maps (companion/maps.py COLOURS), as names of players.
SEAT_COLOURS = {"white": N_("White"), "black": N_("Black"), "red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"),
                "yellow": N_("Yellow"), "orange": N_("Orange"), "purple": N_("Purple"), "cyan": N_("Cyan"),
                "magenta": N_("Magenta")}
#: Names a player can pick with one tap (no keyboard, ever).
NAME_PRESETS = (N_("White"), N_("Black"), N_("Player 1"), N_("Player 2"), N_("Player 3"), N_("Player 4"), N_("Guest"), N_("Champion"), N_("Computer"))
PIECE_NAMES = {"pawn": N_("pawn"), "knight": N_("knight"), "bishop": N_("bishop"), "rook": N_("rook"), "queen": N_("queen"), "king": N_("king")}
#: Filled chess symbols, drawn white-on-black-outline or black-on-white-outline.
PIECE_GLYPHS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d", "knight": "\u265e", "pawn": "\u265f"}
PIECE_CODES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}  # kinds, not words
UNKNOWN_PIECE = N_("piece")

# --- start screen ---------------------------------------------------------------------------------
NEW_GAME = N_("New game")
GAME = N_("Game")
PLAYERS = N_("Players")
HUMAN = N_("Person")
COMPUTER = N_("Computer")
LEVEL = N_("Level {level}")
LEVEL_DOWN = "\u2212"
LEVEL_UP = "+"
NO_COMPUTER = N_("Computer players are not installed.")
DICE = N_("Dice")
DICE_MODES = {"virtual": N_("App rolls"), "seeded": N_("Checkable"), "entered": N_("Real dice")}
DICE_HINTS = {
    "virtual": N_("The app rolls the dice."),
    "seeded": N_("The app rolls from a secret seed, shown at the end so anyone can check every roll."),
    "entered": N_("Roll your own dice and tap the numbers."),
}
D6_ONLY = N_("Only d6")
FIGHTS_SWITCH = {False: N_("Dice fights: off"), True: N_("Dice fights: on")}
FIGHTS_HINT = N_("Every capture is a dice fight, as in Human Combat Chess.")
OPTION_CHOICES = {("mode", "ffa"): N_("Free-for-all"), ("mode", "teams"): N_("Teams")}
OPTION_HINTS = {
    ("mode", "ffa"): N_("Each for themselves: the most points wins."),
    ("mode", "teams"): N_("Partners sit opposite: Red with Yellow, Blue with Green."),
}
D6_ONLY_HINT = N_("Stronger pieces roll more six-sided dice and keep the highest.")
START = N_("Start")
BOARD_CHECK = N_("Board check")
PICK_NAME = N_("Pick a name for {colour}")

# --- Dungeon Chess: map, seats ------------------------------------------------------------------
MAP = N_("Map")
MAP_SIZE = N_("{width}\u00d7{height}, {players} players")
CHOOSE_ARMIES = N_("Choose the armies")
SEAT_COMPUTER = N_("Computer {level}")
SEAT_COMPUTER_LEVEL = N_("Computer {level}: {words}")
SEAT_STOCKFISH = N_("Stockfish, Elo {elo}")
PICK_KIND = N_("Who plays {colour}?")
#: A seat the map may leave empty (three players on the four-player map), after the computer levels.
SEAT_EMPTY = N_("Nobody")
SEAT_PLAYER = N_("Player {n}")
DRAWS = N_("Draws")
DRAW_CHOICES = {False: N_("No draws"), True: N_("Draw rules")}
DRAW_HINTS = {
    False: N_("As in the rulebook: it ends only when a King is taken."),
    True: N_("Draw: 3 repetitions, or 50 turns each with nothing taken."),
}

# --- Dungeon Chess: the draft ------------------------------------------------------------------------
DRAFT_TITLE = N_("{colour} army")
DRAFT_SEAT = N_("{name}, player {n} of {count}")
DRAFT_SEAT_PLAYER = N_("Player {n} of {count}")
FACTION_NAMES = {"human": N_("Human"), "undead": N_("Undead"), "redskin": N_("Redskin"), "greenskin": N_("Greenskin")}
ROLE_NAMES = {"pawn": N_("Pawn"), "castle": N_("Castle"), "knight": N_("Knight"), "bishop": N_("Bishop"), "queen": N_("Queen"),
              "king": N_("King"), "monster": N_("Monster"), "tower": N_("Tower"), "legend": N_("Legend"), "royal": N_("Royal")}
RULEBOOK_ARMIES = N_("The rulebook's armies")
UNIT_COST = N_("{cost} XP")
UNIT_LINE = N_("{role}, {cost} XP")
BUDGET_LEFT = N_("{left} XP left of {budget}")
BUDGET_OVER = N_("{over} XP over the {budget} XP budget")
ARMY_READY = P_("{units} unit, {cost} XP: ready.", "{units} units, {cost} XP: ready.", "units")
ABILITY_LINE = N_("{title}: {words}")
ABILITY_NAMES = N_("Abilities: {names}")
CLEAR_ARMY = N_("Clear")
NEXT_ARMY = N_("Next army")
WHO_STARTS_BUTTON = N_("Who starts?")
ADD = "+"
REMOVE = "\u2212"

# --- Dungeon Chess: turn order and deployment -------------------------------------------------------
WHO_STARTS = N_("Who moves first?")
STARTS_FIRST = N_("{name} first")
STARTS_RANDOM = N_("Random")
FIRST_DRAWN = N_("Drawn at random: {name} moves first.")
FIRST_CHOSEN = N_("{name} moves first.")
DEPLOY_TITLE = N_("Deploy the armies")
DEPLOY_NEXT = N_("Next: {colour} {unit}")
DEPLOY_PLAYER = N_("{name} {placed} of {total} placed")
DEPLOY_THEN = N_("Then: {units}")
DEPLOY_ALL_PLACED = N_("Every unit is placed.")
DEPLOY_REST = N_("Place the rest for me")
DEPLOY_BACK = N_("Back to the armies")
DEPLOY_HELP = N_("A piece put on a lit square becomes the unit named here.")

# --- Chess 2: bids, matches, armies ---------------------------------------------------------------
BIDS = N_("Bids")
BID_MODES = {"screen": N_("On screen"), "stones": N_("Real stones")}
BID_HINTS = {
    "screen": N_("Each player taps a secret bid while the other looks away."),
    "stones": N_("Bid with stones (or coins) in closed fists, open together, tap what each showed."),
}
MATCH = N_("Games")
MATCH_CHOICES = {1: N_("1 game"), 3: N_("Best of 3"), 5: N_("Best of 5")}
MATCH_HINT = N_("In a match the loser of a game may switch army; the winner keeps theirs.")
GAMES_LABEL = N_("Games")
ARMY_NAMES = {"classic": N_("Classic"), "nemesis": N_("Nemesis"), "empowered": N_("Empowered"), "reaper": N_("Reaper"),
              "two-kings": N_("Two Kings"), "animals": N_("Animals")}
ARMY_HINTS = {
    "classic": N_("Regular chess; the only army that castles."),
    "nemesis": N_("A Nemesis queen only Kings can touch; pawns step toward the enemy King."),
    "empowered": N_("Knights, bishops and rooks side by side share their moves; the queen steps like a King."),
    "reaper": N_("The Reaper captures anywhere; Ghost rooks teleport and block."),
    "two-kings": N_("Two Warrior Kings with Whirlwind, and an extra king-turn after each turn."),
    "animals": N_("Wild Horse, Tiger, Elephant and Jungle Queen."),
}
ARMIES_TITLE = N_("Choose your armies")
ARMIES_MATCH_TITLE = N_("Game {n} of {length}: choose your armies")
ARMIES_CHOOSE = N_("{who}: choose your army. {other}, please look away.")
ARMIES_CHOOSE_OPEN = N_("{who}: choose your army.")
NAME_AND_COLOUR = N_("{name} ({colour})")
ARMIES_KEEPS = N_("{name} won the last game and keeps {army}.")
ARMIES_MAY_SWITCH = N_("{name} lost the last game and may switch army.")
ARMIES_BOTH_SWITCH = N_("The last game was a draw: both may switch army.")
ARMIES_HIDDEN = N_("{name}'s choice is hidden.")
ARMIES_COMPUTER = N_("{name} has chosen in secret.")
ARMIES_HIDE = N_("Hide my choice")
ARMIES_REVEAL_NOW = N_("Both have chosen. Tap Reveal together.")
ARMIES_REVEAL = N_("Reveal")
ARMIES_REVEALED = N_("{white} ({white_army}) against {black} ({black_army}).")
ARMIES_START = N_("Start the game")
ARMIES_PICK = N_("Tap an army.")
LEAVE_MATCH = N_("Leave the match")
MATCH_SCORE = N_("Match: {a} {sa} \u2013 {sb} {b}")
MATCH_GAME = N_("Game {n} of {length}")
MATCH_OVER = N_("{name} wins the match {sa} \u2013 {sb}.")
MATCH_TIED = N_("The match is tied {sa} \u2013 {sb}.")
NEXT_GAME = N_("Next game")
MATCH_DAMAGED = N_("The match in progress could not be read ({reason}); it was set aside. Its games are kept.")
STONES = N_("Stones")
STONES_COUNT = {0: N_("no stones")}
STONES_MANY = P_("{n} stone", "{n} stones")
STONES_TITLE = N_("Stones: {a} {na}, {b} {nb}")
STONES_START = N_("Start: {a} {na}, {b} {nb}.")
STONES_LINE = N_("{n}. {move}: {what}")
STONES_WHY = {
    "pawn": N_("{name} +1 (a pawn captured)"),
    "bid": N_("{name} \u2212{n} (bid in a duel)"),
    "fee": N_("{name} \u2212{n} (paid to start a duel)"),
    "bluff": N_("{name} {sign}1 (bluff called)"),
}
STONES_NONE_YET = N_("No stone has changed hands yet.")
KING_TURN = N_("King-turn for {name}: a Warrior King may move or Whirlwind. Skip: lift and put back a Warrior King.")
SKIP_KING_TURN = N_("Skip king-turn")
DUEL_PENDING = N_("A duel is on.")
DUEL_MARK = {"attacker": N_("duel won"), "defender": N_("duel lost"), "bluff": N_("bluff called")}

# --- Chess 2: the duel screen ------------------------------------------------------------------------
DUEL_TITLE = N_("Duel on {square}")
DUEL_CAPTURE = N_("{attacker}'s {piece} takes {defender}'s {victim} on {square}.")
DUEL_RAMPAGE = N_("{attacker}'s Elephant rampages: {defender}'s {victim} on {square} is in its path.")
DUEL_OFFER = N_("{name} may start a duel to save the {victim}.")
DUEL_FEE = N_("It costs 1 stone to start (the {piece} outranks the {victim}), then a bid.")
DUEL_FEE_LAST = (N_("It costs your last stone (the {piece} outranks the {victim}); then {name} must bid 1 "
                 "and wins: a stone for a stone."))
DUEL_NO_FEE = N_("Starting it costs nothing; then both bid 0, 1 or 2 stones.")
DUEL_HOW = N_("The higher bid wins, a tie goes to the attacker. Every stone bid is lost.")
DUEL_YES = N_("Duel")
DUEL_YES_FEE = N_("Duel (pay 1)")
DUEL_NO = N_("No duel")
BID_SECRET = N_("{name} ({role}): choose your bid in secret. {other}, please look away.")
BID_SECRET_ALONE = N_("{name} ({role}): choose your bid.")
BID_SEALED = N_("{name}'s bid is sealed.")
BID_COMPUTER_SEALED = N_("{name} has bid in secret.")
BID_SEAL = N_("Seal my bid")
BID_CHOICE = {0: "0", 1: "1", 2: "2"}
BID_FISTS = N_("Both: put 0, 1 or 2 stones in a closed fist. Open your hands together, then tap what each showed.")
BID_FIST_ONE = N_("{name}: put 0, 1 or 2 stones in a closed fist, open it, then tap what it showed.")
BID_SHOWED = N_("{name} showed")
BID_USE = N_("Use these bids")
BID_TOO_MANY = N_("{name} has only {have}: a bid of {bid} is not possible. Check the fists and tap again.")
THINKING_BID = N_("{name} is choosing a bid\u2026")
ATTACKER_ROLE = N_("attacker")
DEFENDER_ROLE = N_("defender")
DUEL_STONES = N_("{name}: {stones}")
DUEL_REVEAL = N_("{a} bid {ba}, {d} bid {bd}.")
DUEL_ZERO = N_("{a} has no stones: {d} bids 1 and wins.")
DUEL_ZERO_DEFENDER = N_("{d} paid the last stone: {a} bids 1 and wins.")
DUEL_WINS_ATTACKER = N_("{name} wins the duel: the {piece} takes the {victim}.")
DUEL_WINS_DEFENDER = N_("{name} wins the duel: {defender}'s {victim} and {attacker}'s {piece} both leave the board.")
DUEL_PASSED = N_("No duel: the {piece} takes the {victim}.")
BLUFF_CALLED = N_("Bluff called: both bid 0, so {name} wins. {name}, choose your reward:")
BLUFF_GAIN = N_("Gain a stone")
BLUFF_DESTROY = N_("{name} loses a stone")
BLUFF_GAINED = N_("Bluff called: {name} gains a stone.")
BLUFF_DESTROYED = N_("Bluff called: {name} loses a stone.")
DUEL_CONTINUE = N_("Continue")

# --- resume ----------------------------------------------------------------------------------------
RESUME_TITLE = N_("Unfinished game")
RESUME_SUMMARY = P_("{game}: {white} against {black}, {moves} move played.",
                    "{game}: {white} against {black}, {moves} moves played.", "moves")
RESUME_SUMMARY_MANY = P_("{game} on {map}: {names}, {moves} move played.", "{game} on {map}: {names}, {moves} moves played.",
                         "moves")
RESUME_LOADING = N_("Loading the last game\u2026 {percent}%")
RESUME = N_("Continue this game")
DISCARD = N_("Start a new game")
RESUME_LOSS = N_("Part of the record was damaged and is lost: {loss}")
CANNOT_SAVE = N_("Games cannot be saved here: {reason}")
#: The running clock's checkpoint (companion/tournament/checkpoint.py) failed; moves are still saved.
CLOCK_NOT_SAVED = N_("The clock's time between moves cannot be saved: {reason}")

# --- storage space and problems out of sight --------------------------------------------------------
SPACE_LOW = N_("Little space left for saved games: {free}. Tap here.")
SPACE_FULL = N_("Storage almost full: {free} left. Tap here.")
SPACE_LOW_HELP = (N_("Space for saved games is running low: {free} free. Games still save. To make room, copy the "
                  "finished games in {folder} to another computer, then delete them there."))
SPACE_FULL_HELP = (N_("The storage is almost full: {free} free. The next moves may not be saved: a move that cannot "
                   "be saved is refused (the board asks to take it back) and nothing played before is lost. Make "
                   "room by deleting finished games in {folder}, then play on."))
PROBLEM_TITLE = N_("Something went wrong")
PROBLEM_ADVICE = N_("Tap Continue to go on. If it happens again, restart the board.")
PROBLEM_RESUME_TITLE = N_("The last game could not be loaded")
PROBLEM_RESUME_ADVICE = (N_("Its file was set aside as {where} in the data folder, so nothing is deleted. "
                         "Tap Continue to start a new game."))
NOT_MOVED_ASIDE = N_("; it could not be moved aside ({reason})")
BOARD_TOO_SMALL = N_("This board plays {width}\u00d7{height} maps; the map is {map_width}\u00d7{map_height}.")
PROBLEM_RESUME_KEPT = N_("It could not be moved aside and stays where it is. Tap Continue to start a new game.")
PROBLEM_COMPUTER_TITLE = N_("{name} could not choose a move")
PROBLEM_COMPUTER_ADVICE = (N_("Tap Try again. Or tap Continue and make a move for {name} on the board, or take back "
                           "a move with Undo."))
COMPUTER_NO_MOVE = N_("The computer found no move to play.")
TRY_AGAIN = N_("Try again")

# --- setting up the board --------------------------------------------------------------------------
SETUP_TITLE = N_("Set up the board")
SETUP_HELP = N_("Put a piece on every lit square. The game starts when the board is right.")
SETUP_COUNTS = P_("{fill} square to fill, {empty} to empty", "{fill} squares to fill, {empty} to empty", "fill")
SETUP_DONE = N_("The board is ready.")
FILL_FOR_ME = N_("Place every piece for me")
START_PLAYING = N_("Start playing")
SIMULATED_HELP = N_("Tap a square to put a piece there or take it off.")

# --- the game screen ------------------------------------------------------------------------------
TO_MOVE = N_("{name} to move")
TO_MOVE_COLOUR = N_("{name} ({colour}) to move")
CHECK = N_("Check!")
THINKING = N_("{name} is thinking\u2026")
COMPUTER_MOVE = N_("{name} plays {frm}\u2013{to}")
FIGHT_PENDING = N_("A fight is on: roll the dice.")
BOARD_DIFFERS = N_("The board does not match the game.")
BOARD_DISCONNECTED = N_("The board is not connected. Check its cable.")
UNDO = N_("Undo")
OFFER_DRAW = N_("Draw?")
RESIGN = N_("Resign")
MENU = N_("Menu")
PIECE_INFO = N_("Info")
PIECE_INFO_ON = N_("Info")
INFO_HINT = N_("Tap a piece on the screen to see what it is.")
MOVES = N_("Moves")
CAPTURED = N_("Lost")
FATIGUE_LEGEND = N_("A number on a piece: its fatigue (it takes that much off the piece's fight rolls).")
COMMITMENT = N_("Dice seal {short}")
MOVE_REFUSED = N_("That move cannot be played now: {reason}")
DRAW_DECLINED = N_("{name} declines the draw.")
PLAYER_RESIGNED = N_("{name} resigns; the others play on.")
PLAYER_RESIGNED_LAST = N_("{name} resigns.")
UNDONE = N_("Taken back: {moves}")
FIGHT_MARK = {"attacker": N_("won"), "defender": N_("lost"), "bounce": N_("bounced")}
MOVE_FIGHT = N_("{move} (fight {result})")
BACK = N_("Back")
HEX_TITLE = N_("Hex which unit? It cannot move or attack for its owner's next 2 turns.")
HEX_BUTTON = N_("Hex\u2026")
LOOK_AT_BOARD = N_("Look at the board")
OPEN_QUESTION = N_("Step?")
OUT = N_("out")
POINTS_SHORT = N_("{n} pts")
POINTS_OUT = N_("{n} \u00b7 out")
LAST_TURN = N_("{name}: {move}")
HISTORY_LINE = N_("{n}. {name}: {move}")
ZOOM_HINT = N_("Part of the map is shown: drag the board to see more, pinch it to see it all.")
BADGE_LEGEND = {
    "wounded": N_("W: wounded (the next capture kills it)"),
    "hex": N_("H2: hexed, 2 more turns"),
    "fatigue": N_("1: fatigue (taken off its fight rolls)"),
}
UNITS_LEFT = "{n}"  # on the player's disc: units still on the board
CLOSE = N_("Close")
SPEECH_ON = N_("Speech: on")
SPEECH_OFF = N_("Speech: off")
SPEECH_VOLUME = N_("Volume: {percent}%")
SPEECH_MOVES_ONLY_ON = N_("Moves only: on")
SPEECH_MOVES_ONLY_OFF = N_("Moves only: off")
LANGUAGE_ITEM = N_("Language: {name}")
LANGUAGE_TITLE = N_("Language")
SETTINGS = N_("Settings\u2026")
SETTINGS_NOT_SAVED = N_("The settings could not be saved: {reason}")
CANCEL = N_("Cancel")

# --- Dungeon Chess: what a turn did beyond the moved unit (from the game's effects) ----------------
EFFECTS = {
    "captured": N_("{owner}'s {unit} on {square} is captured."),
    "captured fragile": N_("{owner}'s {unit} on {square} is captured (fragile: any enemy next to it may take it)."),
    "absorbed": N_("{owner}'s {unit} absorbs the blow and is pushed back from {square} to {to}; the attacking "
                "{attacker} does not take the square: it stays on {frm}."),
    "crushed": N_("{owner}'s {unit} on {square} cannot be pushed back ({why} behind it) and dies."),
    "explosion": N_("{owner}'s {unit} explodes on {square}!"),
    "destroyed": N_("{owner}'s {unit} on {square} is destroyed by the explosion."),
    "hex": N_("{owner}'s {unit} on {square} is hexed: no move or attack for {turns} turns."),
    "hex_ends": N_("The hex on {owner}'s {unit} on {square} wears off."),
    "step": N_("{owner}'s {unit} steps on from {square} to {to} (hit-and-run)."),
    "eliminated": N_("{owner}'s King has fallen: {owner} is out and all their units leave the board."),
    "king_falls": N_("{owner}'s King has fallen."),
    "pass": N_("{owner} has no legal move and passes."),
    "resigned": N_("{owner} resigns: all their units leave the board."),
    "resigned last": N_("{owner} resigns."),
    # KoL Chess
    "retreat": N_("{owner}'s King retreats into the Tower on {to} (retreat {n} of 3)."),
    "exit": N_("{owner}'s King leaves the Tower on {square} for {to}."),
    "swap": N_("{owner}'s {unit} and {other} change places ({square} and {to})."),
    "charge": N_("{owner}'s Gnome captures on {square} and charges on to {to}."),
    "trade": N_("{owner}'s {unit} on {square} is traded for a {other}."),
}
ATTACKER_WORD = N_("piece")
ITS_SQUARE = N_("its square")  # where an attacker sent back by a thick skin stood, when the square is not known
WHY_BEHIND = {"the board edge": N_("the board edge"), "void": N_("void"), "water": N_("water"), "a piece": N_("a piece")}

# --- KoL Chess: the back-row trade ------------------------------------------------------------------
TRADE_QUESTION = N_("Trade the {unit} on {square}?")
TRADE_KEEP = N_("Keep the {unit}")
TRADE_FOR = N_("{unit}")

# --- Load / Save: the game as text ------------------------------------------------------------------
LOAD_SAVE = N_("Load / Save")
TEXT_TITLE = N_("This game as text")
TEXT_NO_GAME = N_("No game is being played. Load one from a file or type it in.")
QR_ONE = N_("Scan with a phone to keep the text.")
QR_PAGE = N_("Part {n} of {of}: scan each part with a phone.")
QR_NEXT = N_("Next part")
SAVE_STICK = N_("Save to USB stick")
SAVE_BOARD = N_("Save on the board")
LOAD_FILE = N_("Load a game\u2026")
TYPE_TEXT = N_("Type a game\u2026")
CORRECT = N_("Correct position\u2026")
TEXT_LOAD = N_("Load")
TEXT_APPLY = N_("Go on from here")
TEXT_CLEAR = N_("Clear")
TEXT_FILES_TITLE = N_("Load a saved game")
TEXT_NO_FILES = N_("No saved games found on a USB stick or on the board.")
TEXT_TYPE_TITLE = N_("Type a game text")
TEXT_CORRECT_TITLE = N_("Correct the position (arbiter)")
TEXT_CORRECT_HINT = N_("Edit the position, then tap 'Go on from here'. Undo takes the correction back.")
TEXT_CORRECTED = N_("The position was corrected. Set the pieces as the board shows.")
TEXT_SAVED = N_("Saved {where} as {name}.")
ON_STICK = N_("on the USB stick")
ON_BOARD = N_("on the board")
NO_STICK = N_("No USB stick found. Plug one in and try again.")
CANNOT_WRITE = N_("Could not write {path}: {reason}")
CANNOT_READ = N_("Could not read {name}: {reason}")
NOT_TEXT = N_("{name} is not a text file.")
POSITION_SET = N_("The arbiter corrected the position.")

# --- piece info (tap a piece) ----------------------------------------------------------------------
PIECE_TITLE = N_("{colour} {piece} on {square}")
SHOWN_AS = N_("On the board: a {piece} of the set.")
SEALED = N_("sealed")
FATIGUE = N_("Fatigue: {n}")
NO_FIGHTS = N_("No fights yet.")
FIGHT_LINE_ATTACK = N_("Fight {number}: attacked the {opponent} \u2014 {outcome}")
FIGHT_LINE_DEFEND = N_("Fight {number}: attacked by the {opponent} \u2014 {outcome}")
OUTCOME_WON = N_("won")
OUTCOME_LOST = N_("lost")
OUTCOME_BOUNCED = N_("bounced")
EMPTY_SQUARE = N_("Square {square} is empty.")
UNIT_TITLE = N_("{owner}'s {unit} on {square}")
UNIT_STATE_HEX = P_("Hexed: it cannot move or attack for {n} more turn of its owner.",
                    "Hexed: it cannot move or attack for {n} more turns of its owner.")
UNIT_STATE_WOUNDED = N_("Wounded: it has absorbed one capture; the next one kills it.")
UNIT_STATE_HEX_SPENT = N_("It has used its hex.")
UNIT_STATE_NONE = N_("{role}, {cost} XP.")
UNIT_ROLE = N_("{role}.")
UNIT_STATE_IN_TOWER = {1: N_("The King is inside: he may stay this turn, or leave."),
                       2: N_("The King is inside and must leave on this turn.")}

# --- the fight screen ------------------------------------------------------------------------------
FIGHT_TITLE = N_("Fight {number}: {san}")
ATTACKER = N_("Attacker")
DEFENDER = N_("Defender")
DEFENDERS = N_("Defenders")
FIGHTER_NAME = N_("{colour} {piece}")
ROLLS = N_("rolls {dice}")
WEAPON_CHOICE = N_("+1 weapon choice")
FATIGUE_MOD = N_("\u2212{n} fatigue")
NO_MODIFIER = N_("no modifiers")
SUPPORTERS = N_("With the {first}: {others}. Their rolls add up.")
SUPPORTER = N_("{name} on {square} ({dice}{mods}{faces})")
ODDS_WIN = N_("{name} wins")
ODDS_WIN_TOGETHER = N_("{name} win")
ODDS_BOUNCE = N_("Three ties (bounce)")
ROLL = N_("Roll the dice")
ROLL_AGAIN = N_("Tie! Roll again")
ENTER_DICE = N_("Roll your dice, then tap the numbers")
CONTINUE = N_("Continue")
ROUND = N_("Round {n}")
ROUND_LINE = N_("{a} against {d}")
ROUND_TIE = N_("tie")
ROLLING = N_("Rolling\u2026")
TOTAL = N_("= {total}")
RESULT_ATTACKER = N_("{winner} wins, {a} beats {d}. It takes {square}.")
RESULT_DEFENDER = N_("{winner} holds, {d} beats {a}. The {loser} is removed.")
RESULT_DEFENDERS = N_("The defenders hold, {d} beats {a}. The {loser} is removed.")
RESULT_BOUNCE = N_("Three ties: the fight bounces. Both go back to their squares and each gets a fatigue token.")
RESULT_TOKEN = N_("The winner gets a fatigue token.")
ENTRY_ASK = N_("{name}: roll {dice}, tap the number")
ENTRY_DIE = N_("die {i} of {n}")
ENTRY_FIX = N_("Fix")
ENTRY_USE = N_("Use these dice")
DICE_WORDS = {1: N_("a d{sides}"), 2: N_("two d{sides}"), 3: N_("three d{sides}")}
KEEP_HIGHEST = N_(" (the highest counts)")
DICE_MANY = N_("{n} d{sides}")
PLAYER_N = N_("Player {n}")

# --- prompts ---------------------------------------------------------------------------------------
PROMOTE = N_("Promote the pawn to:")
WHICH_MOVE = N_("Which move did you make?")
DRAW_OFFER = N_("{name}, {other} offers a draw.")
ACCEPT = N_("Accept")
DECLINE = N_("Decline")
WHO_RESIGNS = N_("Who resigns?")
CONFIRM_RESIGN = N_("{name}, resign this game?")
YES_RESIGN = N_("Yes, resign")
CONFIRM_NEW = N_("Stop this game and start a new one?")
YES_NEW = N_("Yes, new game")

# --- the end ---------------------------------------------------------------------------------------
GAME_OVER = N_("Game over")
WINS = N_("{name} wins")
WIN_TOGETHER = N_("{names} win")
DRAW = N_("Draw")
POINTS_LINE = N_("Points: {points}")
POINTS_OF = N_("{name} {n}")
#: A result and why, in one line ("Black wins, by resignation"; German needs no comma).
RESULT_AND_REASON = N_("{result}, {reason}")
RESULT_REASONS = {
    "checkmate": N_("by checkmate"),
    "king lost a fight": N_("the king lost a fight"),
    "resigned": N_("by resignation"),
    "draw agreed": N_("by agreement"),
    "stalemate": N_("stalemate"),
    "insufficient material": N_("not enough pieces to win"),
    "fifty-move rule": N_("fifty moves without a capture or pawn move"),
    "seventy-five-move rule": N_("seventy-five moves without a capture or pawn move"),
    "threefold repetition": N_("the same position three times"),
    "fivefold repetition": N_("the same position five times"),
    "the last King standing": N_("the last King standing"),
    "three players out": N_("three players are out"),
    "King captured": N_("the enemy King is taken"),
    "King destroyed by an explosion": N_("the enemy King is destroyed by an explosion"),
    "no King left": N_("no King is left"),
    "Midline Invasion": N_("by Midline Invasion: across the middle of the board"),
    "no legal move": N_("the other side had no legal move (in Chess 2 that loses)"),
    "impossible checkmate": N_("neither side can checkmate or cross the middle"),
    "time": N_("on time"),
    "time, cannot win": N_("the flag fell, but the opponent cannot win"),
    "illegal move": N_("a second illegal move"),
    "illegal move, cannot win": N_("a second illegal move, but the opponent cannot win"),
    "result agreed": N_("result agreed by both players"),
    "set by the arbiter": N_("result set by the arbiter"),
    "forfeit": N_("by forfeit"),
    "ended by the arbiter": N_("ended by the arbiter"),
    "opponent left": N_("the opponent left the game (lichess)"),
    "ended on lichess": N_("ended on lichess"),
}
GAME_ENDED = N_("Game ended without a result")
BOTH_LOSE = N_("0–0: both lose")
SEED_REVEALED = N_("Dice seed: {seed}")
SEAL_FULL = N_("Seal shown at the start: {commitment}")
SEED_CHECK = N_("Anyone can check every roll against the seal shown at the start: companion verify-dice.")
GAME_SAVED = N_("Saved as {name} in {folder}. The Games screen has it.")
GAME_SAVED_ON_LEAVING = (N_("Saved. Once you leave this screen it is {name} in {folder} (the Games screen has it); "
                         "until then Undo can take the last move back."))
GAME_NOT_SAVED = N_("The game is kept in the journal; it is filed under Games at the next start.")

# --- start from a position ---------------------------------------------------------------------------
POSITION_BUTTON = N_("From a position")
POSITION_TITLE = N_("{game} from a position")
POSITION_HELP = N_("Set the pieces up on the board. Choose a piece here, then tap its squares on the screen.")
POSITION_EMPTY = N_("Empty")
POSITION_STANDARD = N_("Start position")
POSITION_CLEAR = N_("Clear")
POSITION_START = N_("Play from here")
POSITION_TYPE = N_("Type\u2026")
POSITION_TYPE_TITLE = N_("Type the position")
POSITION_TYPE_HINT = N_("The position as FEN, e.g. 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1, then 'Go on from here'.")
POSITION_TODO = N_("{unnamed} square(s) with a piece to name (?), {missing} piece(s) still to put on the board.")
POSITION_READY = N_("The board and the screen agree.")
POSITION_WRONG = N_("This position cannot be played: {reason}")

# --- the games this board has played -----------------------------------------------------------------
GAMES = N_("Games")
GAMES_TITLE = N_("Saved games")
GAMES_READING_START = N_("Reading the saved games\u2026")
GAMES_READING = N_("Reading the saved games\u2026 {read} of {total}")
GAMES_NONE = N_("No games are saved yet.")
GAMES_COUNT = P_("{n} game, the newest first.", "{n} games, the newest first.")
GAMES_UNREADABLE = P_("{n} could not be read (see games/ in the data folder).",
                      "{n} could not be read (see games/ in the data folder).")
GAMES_UNFINISHED = N_("Unfinished")
GAMES_MOVES = P_("{n} move", "{n} moves")
GAMES_DETAIL_SEP = " \u00b7 "
PLAYERS_AGAINST = N_(" against ")
PLAYERS_AND = N_(" and ")
GAMES_REVIEW = N_("Review")
GAMES_TAKE_UP = N_("Play on")
GAMES_DELETE = N_("Delete")
GAMES_COPY = N_("Copy to USB")
GAMES_COPY_ALL = N_("Copy all")
GAMES_DELETE_ASK = N_("Delete this game for good? {game}")
GAMES_DELETE_YES = N_("Yes, delete it")
GAMES_DELETED = N_("The game is deleted.")
GAMES_NO_STICK = N_("No USB stick is plugged in: plug one in and tap again.")
GAMES_COPIED = P_("{n} game copied to {where} (files: {files}).", "{n} games copied to {where} (files: {files}).")
GAMES_CANNOT_COPY = N_("The games could not be copied: {reason}")
GAMES_CANNOT_DELETE = N_("The game could not be deleted: {reason}")
GAMES_CANNOT_READ = N_("This game cannot be read: {reason}")
GAMES_CANNOT_TAKE_UP = N_("This game cannot be played on: {reason}")
REVIEW_START = P_("The start ({total} move)", "The start ({total} moves)", "total")
REVIEW_MOVE = N_("Move {n} of {total}: {move}")
REVIEW_FIRST = "|<"
REVIEW_BACK = "<"
REVIEW_FORWARD = ">"
REVIEW_LAST = ">|"
REVIEW_HELP = N_("The board's lights show the move on screen.")

# --- board check -----------------------------------------------------------------------------------
CHECK_TITLE = N_("Board check")
CHECK_HELP = N_("Lift and place pieces: each switch lights up here.")
CHECK_SENSED = N_("Pieces sensed: {n}")
LED_WALK = N_("Light every LED in turn")
LED_STOP = N_("Stop the lights")
LED_AT = N_("Lit: {square} ({i} of {n})")
CHECK_SIMULATED = N_("This is the simulated board (no hardware).")
SEAT_REMOTE = N_("Friend's board")
FRIEND = N_("Friend")
LINK_JOIN = N_("Join a friend")
LINK_DICE_WAIT = N_("The dice come from both boards' secrets")
BID_OTHER_BOARD = N_("Waiting for the other board's sealed bid.")


def amount_of_bytes(n: int | None) -> str:
    """``12 MB``, ``640 KB``, ``0 KB``: free space in words."""
    if n is None:
        return "?"
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.0f} MB"
    return f"{n // 1024} KB"


def seat_word(colour: str) -> str:
    """A map seat's colour (companion/maps.py's names: "blue") as the players read it ("Blue")."""
    words = _text("SEAT_COLOURS")
    return words.get(colour, colour.capitalize())


def english(name: str):
    """A table of words as it is marked (the English: the catalog's message ids), for a choice
    kept as its word and shown in the language of the moment (a seat's preset name)."""
    return _SOURCE[name]  # put there by read_in_language, at the end of this module


def piece_name(kind: str) -> str:
    return _text("PIECE_NAMES").get(kind, kind)


def fighter_name(colour: str, piece: str) -> str:
    """"White pawn", "Blue Iron Golem": a fighter by its side's colour and its piece's name."""
    return _text("FIGHTER_NAME").format(colour=colour, piece=piece)


def names_list(names) -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + _text("PLAYERS_AND") + names[-1]


def winners_text(names) -> str:
    """Who won: "Ann wins", or several together (a team, equal points): "Ann and Cy win"."""
    names = list(names)
    return _text("WINS").format(name=names[0]) if len(names) == 1 else _text("WIN_TOGETHER").format(
        names=names_list(names))


def dice_words(sides: int, count: int, keep: str) -> str:
    text = _text("DICE_WORDS").get(count, _text("DICE_MANY")).format(sides=sides, n=count)
    return text + (_text("KEEP_HIGHEST") if count > 1 and keep == "highest" else "")


# --- the language: every text above is read through the module's __getattr__ (companion.i18n) ----------
from .texts_table import *  # noqa: E402,F401,F403  (the clock's, the table's, the keyboard's words: T.NAME too)
from .coach_texts import *  # noqa: E402,F401,F403  (the coach's and the analysis's words: T.NAME too)

#: Constants that are no words (kinds, glyphs): read as they are.
_text = read_in_language(globals(), as_is=("PIECE_GLYPHS", "PIECE_CODES"))
