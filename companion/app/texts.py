"""Every word the touchscreen shows, in one place (ready for translation).

Presenters build sentences from these templates with ``str.format``; .kv files take their
fixed labels from here too (``T.UNDO``), so nothing the players read is spelled anywhere
else. Words for players, not programmers: short, plain, no notation they did not ask for.
"""

from __future__ import annotations

APP_TITLE = "Companion"

# --- games, players, pieces --------------------------------------------------------------------
GAME_TITLES = {"chess": "Chess", "combat": "Combat Chess", "dungeon": "Dungeon Chess", "kol": "KoL Chess",
               "chess2": "Chess 2", "chess4": "Four-player chess"}
GAME_HINTS = {
    "chess": "Classic chess. With dice fights on it is Human Combat Chess.",
    "combat": "Human Combat Chess: chess where every capture is a dice fight.",
    "chess4": "Four armies on a 14\u00d714 board with its corners cut.",
    "dungeon": "Armies of 75 XP on dungeon maps.",
    "kol": "Monsters, Legends and a Tower on a 12\u00d712 board. The board and set-up are our reconstruction.",
    "chess2": "Six armies, duels with secret bids of stones, and a King across the middle wins.",
}
COLOUR_NAMES = ("White", "Black")
#: Names a player can pick with one tap (no keyboard, ever).
NAME_PRESETS = ("White", "Black", "Player 1", "Player 2", "Player 3", "Player 4", "Guest", "Champion", "Computer")
PIECE_NAMES = {"pawn": "pawn", "knight": "knight", "bishop": "bishop", "rook": "rook", "queen": "queen", "king": "king"}
#: Filled chess symbols, drawn white-on-black-outline or black-on-white-outline.
PIECE_GLYPHS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d", "knight": "\u265e", "pawn": "\u265f"}
PIECE_CODES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
UNKNOWN_PIECE = "piece"

# --- start screen ---------------------------------------------------------------------------------
NEW_GAME = "New game"
GAME = "Game"
PLAYERS = "Players"
HUMAN = "Person"
COMPUTER = "Computer"
LEVEL = "Level {level}"
LEVEL_DOWN = "\u2212"
LEVEL_UP = "+"
NO_COMPUTER = "Computer players are not installed."
DICE = "Dice"
DICE_MODES = {"virtual": "App rolls", "seeded": "Checkable", "entered": "Real dice"}
DICE_HINTS = {
    "virtual": "The app rolls the dice.",
    "seeded": "The app rolls from a secret seed, shown at the end so anyone can check every roll.",
    "entered": "Roll your own dice and tap the numbers.",
}
D6_ONLY = "Only d6"
#: The game row's switch (off, on): every capture a dice fight, as in Combat Chess.
FIGHTS_SWITCH = {False: "Dice fights: off", True: "Dice fights: on"}
#: The line under the games while the switch is on (for a game that is not a game of its own with them).
FIGHTS_HINT = "Every capture is a dice fight, as in Human Combat Chess."
#: A game's own choices on the start screen ((option, value) -> words; companion.session.OPTION_VALUES).
OPTION_CHOICES = {("mode", "ffa"): "Free-for-all", ("mode", "teams"): "Teams"}
OPTION_HINTS = {
    ("mode", "ffa"): "Each for themselves: the most points wins.",
    ("mode", "teams"): "Partners sit opposite: Red with Yellow, Blue with Green.",
}
D6_ONLY_HINT = "Stronger pieces roll more six-sided dice and keep the highest."
START = "Start"
BOARD_CHECK = "Board check"
PICK_NAME = "Pick a name for {colour}"

# --- Dungeon Chess: map, seats ------------------------------------------------------------------
MAP = "Map"
MAP_SIZE = "{width}\u00d7{height}, {players} players"
CHOOSE_ARMIES = "Choose the armies"
SEAT_COMPUTER = "Computer {level}"
SEAT_COMPUTER_LEVEL = "Computer {level}: {words}"
SEAT_STOCKFISH = "Stockfish, Elo {elo}"
PICK_KIND = "Who plays {colour}?"
#: A seat the map may leave empty (three players on the four-player map), after the computer levels.
SEAT_EMPTY = "Nobody"
SEAT_PLAYER = "Player {n}"
DRAWS = "Draws"
DRAW_CHOICES = {False: "No draws", True: "Draw rules"}
DRAW_HINTS = {
    False: "As in the rulebook: it ends only when a King is taken.",
    True: "Draw: 3 repetitions, or 50 turns each with nothing taken.",
}

# --- Dungeon Chess: the draft ------------------------------------------------------------------------
DRAFT_TITLE = "{colour} army"
DRAFT_SEAT = "{name}, player {n} of {count}"
DRAFT_SEAT_PLAYER = "Player {n} of {count}"
FACTION_NAMES = {"human": "Human", "undead": "Undead", "redskin": "Redskin", "greenskin": "Greenskin"}
ROLE_NAMES = {"pawn": "Pawn", "castle": "Castle", "knight": "Knight", "bishop": "Bishop", "queen": "Queen",
              "king": "King", "monster": "Monster", "tower": "Tower", "legend": "Legend", "royal": "Royal"}
RULEBOOK_ARMIES = "The rulebook's armies"
UNIT_COST = "{cost} XP"
UNIT_LINE = "{role}, {cost} XP"
BUDGET_LEFT = "{left} XP left of {budget}"
BUDGET_OVER = "{over} XP over the {budget} XP budget"
ARMY_READY = "{units} units, {cost} XP: ready."
ABILITY_LINE = "{title}: {words}"
ABILITY_NAMES = "Abilities: {names}"
CLEAR_ARMY = "Clear"
NEXT_ARMY = "Next army"
WHO_STARTS_BUTTON = "Who starts?"
ADD = "+"
REMOVE = "\u2212"

# --- Dungeon Chess: turn order and deployment -------------------------------------------------------
WHO_STARTS = "Who moves first?"
STARTS_FIRST = "{name} first"
STARTS_RANDOM = "Random"
FIRST_DRAWN = "Drawn at random: {name} moves first."
FIRST_CHOSEN = "{name} moves first."
DEPLOY_TITLE = "Deploy the armies"
DEPLOY_NEXT = "Next: {colour} {unit}"
DEPLOY_PLAYER = "{name} {placed} of {total} placed"
DEPLOY_THEN = "Then: {units}"
DEPLOY_ALL_PLACED = "Every unit is placed."
DEPLOY_REST = "Place the rest for me"
DEPLOY_BACK = "Back to the armies"
DEPLOY_HELP = "A piece put on a lit square becomes the unit named here."

# --- Chess 2: bids, matches, armies ---------------------------------------------------------------
BIDS = "Bids"
BID_MODES = {"screen": "On screen", "stones": "Real stones"}
BID_HINTS = {
    "screen": "Each player taps a secret bid while the other looks away.",
    "stones": "Bid with stones (or coins) in closed fists, open together, tap what each showed.",
}
MATCH = "Games"
MATCH_CHOICES = {1: "1 game", 3: "Best of 3", 5: "Best of 5"}
MATCH_HINT = "In a match the loser of a game may switch army; the winner keeps theirs."
GAMES_LABEL = "Games"
ARMY_NAMES = {"classic": "Classic", "nemesis": "Nemesis", "empowered": "Empowered", "reaper": "Reaper",
              "two-kings": "Two Kings", "animals": "Animals"}
ARMY_HINTS = {
    "classic": "Regular chess; the only army that castles.",
    "nemesis": "A Nemesis queen only Kings can touch; pawns step toward the enemy King.",
    "empowered": "Knights, bishops and rooks side by side share their moves; the queen steps like a King.",
    "reaper": "The Reaper captures anywhere; Ghost rooks teleport and block.",
    "two-kings": "Two Warrior Kings with Whirlwind, and an extra king-turn after each turn.",
    "animals": "Wild Horse, Tiger, Elephant and Jungle Queen.",
}
ARMIES_TITLE = "Choose your armies"
ARMIES_MATCH_TITLE = "Game {n} of {length}: choose your armies"
ARMIES_CHOOSE = "{who}: choose your army. {other}, please look away."
ARMIES_CHOOSE_OPEN = "{who}: choose your army."
NAME_AND_COLOUR = "{name} ({colour})"
ARMIES_KEEPS = "{name} won the last game and keeps {army}."
ARMIES_MAY_SWITCH = "{name} lost the last game and may switch army."
ARMIES_BOTH_SWITCH = "The last game was a draw: both may switch army."
ARMIES_HIDDEN = "{name}'s choice is hidden."
ARMIES_COMPUTER = "{name} has chosen in secret."
ARMIES_HIDE = "Hide my choice"
ARMIES_REVEAL_NOW = "Both have chosen. Tap Reveal together."
ARMIES_REVEAL = "Reveal"
ARMIES_REVEALED = "{white} ({white_army}) against {black} ({black_army})."
ARMIES_START = "Start the game"
ARMIES_PICK = "Tap an army."
LEAVE_MATCH = "Leave the match"
MATCH_SCORE = "Match: {a} {sa} \u2013 {sb} {b}"
MATCH_GAME = "Game {n} of {length}"
MATCH_OVER = "{name} wins the match {sa} \u2013 {sb}."
MATCH_TIED = "The match is tied {sa} \u2013 {sb}."
NEXT_GAME = "Next game"
MATCH_DAMAGED = "The match in progress could not be read ({reason}); it was set aside. Its games are kept."
STONES = "Stones"
STONES_COUNT = {0: "no stones", 1: "1 stone"}
STONES_MANY = "{n} stones"
STONES_TITLE = "Stones: {a} {na}, {b} {nb}"
STONES_START = "Start: {a} {na}, {b} {nb}."
STONES_LINE = "{n}. {move}: {what}"
STONES_WHY = {
    "pawn": "{name} +1 (a pawn captured)",
    "bid": "{name} \u2212{n} (bid in a duel)",
    "fee": "{name} \u2212{n} (paid to start a duel)",
    "bluff": "{name} {sign}1 (bluff called)",
}
STONES_NONE_YET = "No stone has changed hands yet."
KING_TURN = "King-turn for {name}: a Warrior King may move or Whirlwind. Skip: lift and put back a Warrior King."
SKIP_KING_TURN = "Skip king-turn"
DUEL_PENDING = "A duel is on."
DUEL_MARK = {"attacker": "duel won", "defender": "duel lost", "bluff": "bluff called"}

# --- Chess 2: the duel screen ------------------------------------------------------------------------
DUEL_TITLE = "Duel on {square}"
DUEL_CAPTURE = "{attacker}'s {piece} takes {defender}'s {victim} on {square}."
DUEL_RAMPAGE = "{attacker}'s Elephant rampages: {defender}'s {victim} on {square} is in its path."
DUEL_OFFER = "{name} may start a duel to save the {victim}."
DUEL_FEE = "It costs 1 stone to start (the {piece} outranks the {victim}), then a bid."
DUEL_FEE_LAST = ("It costs your last stone (the {piece} outranks the {victim}); then {name} must bid 1 "
                 "and wins: a stone for a stone.")
DUEL_NO_FEE = "Starting it costs nothing; then both bid 0, 1 or 2 stones."
DUEL_HOW = "The higher bid wins, a tie goes to the attacker. Every stone bid is lost."
DUEL_YES = "Duel"
DUEL_YES_FEE = "Duel (pay 1)"
DUEL_NO = "No duel"
BID_SECRET = "{name} ({role}): choose your bid in secret. {other}, please look away."
BID_SECRET_ALONE = "{name} ({role}): choose your bid."
BID_SEALED = "{name}'s bid is sealed."
BID_COMPUTER_SEALED = "{name} has bid in secret."
BID_SEAL = "Seal my bid"
BID_CHOICE = {0: "0", 1: "1", 2: "2"}
BID_FISTS = "Both: put 0, 1 or 2 stones in a closed fist. Open your hands together, then tap what each showed."
BID_FIST_ONE = "{name}: put 0, 1 or 2 stones in a closed fist, open it, then tap what it showed."
BID_SHOWED = "{name} showed"
BID_USE = "Use these bids"
BID_TOO_MANY = "{name} has only {have}: a bid of {bid} is not possible. Check the fists and tap again."
THINKING_BID = "{name} is choosing a bid\u2026"
ATTACKER_ROLE = "attacker"
DEFENDER_ROLE = "defender"
DUEL_STONES = "{name}: {stones}"
DUEL_REVEAL = "{a} bid {ba}, {d} bid {bd}."
DUEL_ZERO = "{a} has no stones: {d} bids 1 and wins."
DUEL_ZERO_DEFENDER = "{d} paid the last stone: {a} bids 1 and wins."
DUEL_WINS_ATTACKER = "{name} wins the duel: the {piece} takes the {victim}."
DUEL_WINS_DEFENDER = "{name} wins the duel: {defender}'s {victim} and {attacker}'s {piece} both leave the board."
DUEL_PASSED = "No duel: the {piece} takes the {victim}."
BLUFF_CALLED = "Bluff called: both bid 0, so {name} wins. {name}, choose your reward:"
BLUFF_GAIN = "Gain a stone"
BLUFF_DESTROY = "{name} loses a stone"
BLUFF_GAINED = "Bluff called: {name} gains a stone."
BLUFF_DESTROYED = "Bluff called: {name} loses a stone."
DUEL_CONTINUE = "Continue"

# --- resume ----------------------------------------------------------------------------------------
RESUME_TITLE = "Unfinished game"
RESUME_SUMMARY = "{game}: {white} against {black}, {moves} moves played."
RESUME_SUMMARY_MANY = "{game} on {map}: {names}, {moves} moves played."
RESUME_LOADING = "Loading the last game\u2026 {percent}%"
RESUME = "Continue this game"
DISCARD = "Start a new game"
RESUME_LOSS = "Part of the record was damaged and is lost: {loss}"
CANNOT_SAVE = "Games cannot be saved here: {reason}"
#: The running clock's checkpoint (companion/tournament/checkpoint.py) failed; moves are still saved.
CLOCK_NOT_SAVED = "The clock's time between moves cannot be saved: {reason}"

# --- storage space and problems out of sight --------------------------------------------------------
SPACE_LOW = "Little space left for saved games: {free}. Tap here."
SPACE_FULL = "Storage almost full: {free} left. Tap here."
SPACE_LOW_HELP = ("Space for saved games is running low: {free} free. Games still save. To make room, copy the "
                  "finished games in {folder} to another computer, then delete them there.")
SPACE_FULL_HELP = ("The storage is almost full: {free} free. The next moves may not be saved: a move that cannot "
                   "be saved is refused (the board asks to take it back) and nothing played before is lost. Make "
                   "room by deleting finished games in {folder}, then play on.")
PROBLEM_TITLE = "Something went wrong"
PROBLEM_ADVICE = "Tap Continue to go on. If it happens again, restart the board."
PROBLEM_RESUME_TITLE = "The last game could not be loaded"
PROBLEM_RESUME_ADVICE = ("Its file was set aside as {where} in the data folder, so nothing is deleted. "
                         "Tap Continue to start a new game.")
PROBLEM_RESUME_KEPT = "It could not be moved aside and stays where it is. Tap Continue to start a new game."
PROBLEM_COMPUTER_TITLE = "{name} could not choose a move"
PROBLEM_COMPUTER_ADVICE = ("Tap Try again. Or tap Continue and make a move for {name} on the board, or take back "
                           "a move with Undo.")
COMPUTER_NO_MOVE = "The computer found no move to play."
TRY_AGAIN = "Try again"

# --- setting up the board --------------------------------------------------------------------------
SETUP_TITLE = "Set up the board"
SETUP_HELP = "Put a piece on every lit square. The game starts when the board is right."
SETUP_COUNTS = "{fill} squares to fill, {empty} to empty"
SETUP_DONE = "The board is ready."
FILL_FOR_ME = "Place every piece for me"
START_PLAYING = "Start playing"
SIMULATED_HELP = "Tap a square to put a piece there or take it off."

# --- the game screen ------------------------------------------------------------------------------
TO_MOVE = "{name} to move"
TO_MOVE_COLOUR = "{name} ({colour}) to move"
CHECK = "Check!"
THINKING = "{name} is thinking\u2026"
COMPUTER_MOVE = "{name} plays {frm}\u2013{to}"
FIGHT_PENDING = "A fight is on: roll the dice."
BOARD_DIFFERS = "The board does not match the game."
BOARD_DISCONNECTED = "The board is not connected. Check its cable."
UNDO = "Undo"
OFFER_DRAW = "Draw?"
RESIGN = "Resign"
MENU = "Menu"
PIECE_INFO = "Info"
PIECE_INFO_ON = "Info"
INFO_HINT = "Tap a piece on the screen to see what it is."
MOVES = "Moves"
CAPTURED = "Lost"
FATIGUE_LEGEND = "A number on a piece: its fatigue (it takes that much off the piece's fight rolls)."
COMMITMENT = "Dice seal {short}"
MOVE_REFUSED = "That move cannot be played now: {reason}"
DRAW_DECLINED = "{name} declines the draw."
PLAYER_RESIGNED = "{name} resigns; the others play on."
PLAYER_RESIGNED_LAST = "{name} resigns."
UNDONE = "Taken back: {moves}"
FIGHT_MARK = {"attacker": "won", "defender": "lost", "bounce": "bounced"}
#: A move of a game on a map with its fight's result (the side panel's last turn and history).
MOVE_FIGHT = "{move} (fight {result})"
BACK = "Back"
HEX_TITLE = "Hex which unit? It cannot move or attack for its owner's next 2 turns."
HEX_BUTTON = "Hex\u2026"
LOOK_AT_BOARD = "Look at the board"
OPEN_QUESTION = "Step?"
OUT = "out"
#: A player's points beside their name (four-player chess); a player out: the points and "out".
POINTS_SHORT = "{n} pts"
POINTS_OUT = "{n} \u00b7 out"
LAST_TURN = "{name}: {move}"
HISTORY_LINE = "{n}. {name}: {move}"
ZOOM_HINT = "Part of the map is shown: drag the board to see more, pinch it to see it all."
BADGE_LEGEND = {"wounded": "W: wounded (the next capture kills it)", "hex": "H2: hexed, 2 more turns",
                "fatigue": "1: fatigue (taken off its fight rolls)"}
UNITS_LEFT = "{n}"  # on the player's disc: units still on the board
CLOSE = "Close"
CANCEL = "Cancel"

# --- Dungeon Chess: what a turn did beyond the moved unit (from the game's effects) ----------------
EFFECTS = {
    "captured": "{owner}'s {unit} on {square} is captured.",
    "captured fragile": "{owner}'s {unit} on {square} is captured (fragile: any enemy next to it may take it).",
    "absorbed": "{owner}'s {unit} absorbs the blow and is pushed back from {square} to {to}; the attacking "
                "{attacker} does not take the square: it stays on {frm}.",
    "crushed": "{owner}'s {unit} on {square} cannot be pushed back ({why} behind it) and dies.",
    "explosion": "{owner}'s {unit} explodes on {square}!",
    "destroyed": "{owner}'s {unit} on {square} is destroyed by the explosion.",
    "hex": "{owner}'s {unit} on {square} is hexed: no move or attack for {turns} turns.",
    "hex_ends": "The hex on {owner}'s {unit} on {square} wears off.",
    "step": "{owner}'s {unit} steps on from {square} to {to} (hit-and-run).",
    "eliminated": "{owner}'s King has fallen: {owner} is out and all their units leave the board.",
    "king_falls": "{owner}'s King has fallen.",
    "pass": "{owner} has no legal move and passes.",
    "resigned": "{owner} resigns: all their units leave the board.",
    "resigned last": "{owner} resigns.",
    # KoL Chess
    "retreat": "{owner}'s King retreats into the Tower on {to} (retreat {n} of 3).",
    "exit": "{owner}'s King leaves the Tower on {square} for {to}.",
    "swap": "{owner}'s {unit} and {other} change places ({square} and {to}).",
    "charge": "{owner}'s Gnome captures on {square} and charges on to {to}.",
    "trade": "{owner}'s {unit} on {square} is traded for a {other}.",
}
ATTACKER_WORD = "piece"
WHY_BEHIND = {"the board edge": "the board edge", "void": "void", "water": "water", "a piece": "a piece"}

# --- KoL Chess: the back-row trade ------------------------------------------------------------------
TRADE_QUESTION = "Trade the {unit} on {square}?"
TRADE_KEEP = "Keep the {unit}"
TRADE_FOR = "{unit}"

# --- Load / Save: the game as text ------------------------------------------------------------------
LOAD_SAVE = "Load / Save"
TEXT_TITLE = "This game as text"
TEXT_NO_GAME = "No game is being played. Load one from a file or type it in."
QR_ONE = "Scan with a phone to keep the text."
QR_PAGE = "Part {n} of {of}: scan each part with a phone."
QR_NEXT = "Next part"
SAVE_STICK = "Save to USB stick"
SAVE_BOARD = "Save on the board"
LOAD_FILE = "Load a game\u2026"
TYPE_TEXT = "Type a game\u2026"
CORRECT = "Correct position\u2026"
TEXT_LOAD = "Load"
TEXT_APPLY = "Go on from here"
TEXT_CLEAR = "Clear"
TEXT_FILES_TITLE = "Load a saved game"
TEXT_NO_FILES = "No saved games found on a USB stick or on the board."
TEXT_TYPE_TITLE = "Type a game text"
TEXT_CORRECT_TITLE = "Correct the position (arbiter)"
TEXT_CORRECT_HINT = "Edit the position, then tap 'Go on from here'. Undo takes the correction back."
TEXT_CORRECTED = "The position was corrected. Set the pieces as the board shows."
TEXT_SAVED = "Saved {where} as {name}."
ON_STICK = "on the USB stick"
ON_BOARD = "on the board"
NO_STICK = "No USB stick found. Plug one in and try again."
CANNOT_WRITE = "Could not write {path}: {reason}"
CANNOT_READ = "Could not read {name}: {reason}"
NOT_TEXT = "{name} is not a text file."
POSITION_SET = "The arbiter corrected the position."

# --- piece info (tap a piece) ----------------------------------------------------------------------
PIECE_TITLE = "{colour} {piece} on {square}"
SHOWN_AS = "On the board: a {piece} of the set."
SEALED = "sealed"
FATIGUE = "Fatigue: {n}"
NO_FIGHTS = "No fights yet."
FIGHT_LINE_ATTACK = "Fight {number}: attacked the {opponent} \u2014 {outcome}"
FIGHT_LINE_DEFEND = "Fight {number}: attacked by the {opponent} \u2014 {outcome}"
OUTCOME_WON = "won"
OUTCOME_LOST = "lost"
OUTCOME_BOUNCED = "bounced"
EMPTY_SQUARE = "Square {square} is empty."
UNIT_TITLE = "{owner}'s {unit} on {square}"
UNIT_STATE_HEX = "Hexed: it cannot move or attack for {n} more turn(s) of its owner."
UNIT_STATE_WOUNDED = "Wounded: it has absorbed one capture; the next one kills it."
UNIT_STATE_HEX_SPENT = "It has used its hex."
UNIT_STATE_NONE = "{role}, {cost} XP."
UNIT_ROLE = "{role}."
UNIT_STATE_IN_TOWER = {1: "The King is inside: he may stay this turn, or leave.",
                       2: "The King is inside and must leave on this turn."}

# --- the fight screen ------------------------------------------------------------------------------
FIGHT_TITLE = "Fight {number}: {san}"
ATTACKER = "Attacker"
DEFENDER = "Defender"
DEFENDERS = "Defenders"
FIGHTER_NAME = "{colour} {piece}"
ROLLS = "rolls {dice}"
WEAPON_CHOICE = "+1 weapon choice"
FATIGUE_MOD = "\u2212{n} fatigue"
NO_MODIFIER = "no modifiers"
SUPPORTERS = "With the {first}: {others}. Their rolls add up."
SUPPORTER = "{name} on {square} ({dice}{mods}{faces})"
ODDS_WIN = "{name} wins"
#: Several defenders (King's Prerogative, a double capture) win together.
ODDS_WIN_TOGETHER = "{name} win"
ODDS_BOUNCE = "Three ties (bounce)"
ROLL = "Roll the dice"
ROLL_AGAIN = "Tie! Roll again"
ENTER_DICE = "Roll your dice, then tap the numbers"
CONTINUE = "Continue"
ROUND = "Round {n}"
ROUND_LINE = "{a} against {d}"
ROUND_TIE = "tie"
ROLLING = "Rolling\u2026"
TOTAL = "= {total}"
RESULT_ATTACKER = "{winner} wins, {a} beats {d}. It takes {square}."
RESULT_DEFENDER = "{winner} holds, {d} beats {a}. The {loser} is removed."
RESULT_DEFENDERS = "The defenders hold, {d} beats {a}. The {loser} is removed."
RESULT_BOUNCE = "Three ties: the fight bounces. Both go back to their squares and each gets a fatigue token."
RESULT_TOKEN = "The winner gets a fatigue token."
ENTRY_ASK = "{name}: roll {dice}, tap the number"
ENTRY_DIE = "die {i} of {n}"
ENTRY_FIX = "Fix"
ENTRY_USE = "Use these dice"
DICE_WORDS = {1: "a d{sides}", 2: "two d{sides}", 3: "three d{sides}"}
KEEP_HIGHEST = " (the highest counts)"

# --- prompts ---------------------------------------------------------------------------------------
PROMOTE = "Promote the pawn to:"
WHICH_MOVE = "Which move did you make?"
DRAW_OFFER = "{name}, {other} offers a draw."
ACCEPT = "Accept"
DECLINE = "Decline"
WHO_RESIGNS = "Who resigns?"
CONFIRM_RESIGN = "{name}, resign this game?"
YES_RESIGN = "Yes, resign"
CONFIRM_NEW = "Stop this game and start a new one?"
YES_NEW = "Yes, new game"

# --- the end ---------------------------------------------------------------------------------------
GAME_OVER = "Game over"
WINS = "{name} wins"
#: Several winners: a team, or players level on points (four-player chess).
WIN_TOGETHER = "{names} win"
DRAW = "Draw"
#: The points of a game that keeps them (four-player chess), on the game-over screen.
POINTS_LINE = "Points: {points}"
POINTS_OF = "{name} {n}"
RESULT_REASONS = {
    "checkmate": "by checkmate",
    "king lost a fight": "the king lost a fight",
    "resigned": "by resignation",
    "draw agreed": "by agreement",
    "stalemate": "stalemate",
    "insufficient material": "not enough pieces to win",
    "fifty-move rule": "fifty moves without a capture or pawn move",
    "seventy-five-move rule": "seventy-five moves without a capture or pawn move",
    "threefold repetition": "the same position three times",
    "fivefold repetition": "the same position five times",
    "the last King standing": "the last King standing",
    "three players out": "three players are out",
    "King captured": "the enemy King is taken",
    "King destroyed by an explosion": "the enemy King is destroyed by an explosion",
    "no King left": "no King is left",
    "Midline Invasion": "by Midline Invasion: across the middle of the board",
    "no legal move": "the other side had no legal move (in Chess 2 that loses)",
    "impossible checkmate": "neither side can checkmate or cross the middle",
    "time": "on time",
    "time, cannot win": "the flag fell, but the opponent cannot win",
    "illegal move": "a second illegal move",
    "illegal move, cannot win": "a second illegal move, but the opponent cannot win",
    "result agreed": "result agreed by both players",
    "set by the arbiter": "result set by the arbiter",
    "forfeit": "by forfeit",
    "ended by the arbiter": "ended by the arbiter",
    "opponent left": "the opponent left the game (lichess)",
    "ended on lichess": "ended on lichess",
}
GAME_ENDED = "Game ended without a result"
BOTH_LOSE = "0–0: both lose"
SEED_REVEALED = "Dice seed: {seed}"
SEAL_FULL = "Seal shown at the start: {commitment}"
SEED_CHECK = "Anyone can check every roll against the seal shown at the start: companion verify-dice."
GAME_SAVED = "Saved as {name} in {folder}. The Games screen has it."
GAME_SAVED_ON_LEAVING = ("Saved. Once you leave this screen it is {name} in {folder} (the Games screen has it); "
                         "until then Undo can take the last move back.")
GAME_NOT_SAVED = "The game is kept in the journal; it is filed under Games at the next start."

# --- start from a position ---------------------------------------------------------------------------
POSITION_BUTTON = "From a position"
POSITION_TITLE = "{game} from a position"
POSITION_HELP = "Set the pieces up on the board. Choose a piece here, then tap its squares on the screen."
POSITION_EMPTY = "Empty"
POSITION_STANDARD = "Start position"
POSITION_CLEAR = "Clear"
POSITION_START = "Play from here"
POSITION_TYPE = "Type\u2026"
POSITION_TYPE_TITLE = "Type the position"
POSITION_TYPE_HINT = "The position as FEN, e.g. 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1, then 'Go on from here'."
POSITION_TODO = "{unnamed} square(s) with a piece to name (?), {missing} piece(s) still to put on the board."
POSITION_READY = "The board and the screen agree."
POSITION_WRONG = "This position cannot be played: {reason}"

# --- the games this board has played -----------------------------------------------------------------
GAMES = "Games"
GAMES_TITLE = "Saved games"
GAMES_READING_START = "Reading the saved games\u2026"
GAMES_READING = "Reading the saved games\u2026 {read} of {total}"
GAMES_NONE = "No games are saved yet."
GAMES_COUNT = "{n} games, the newest first."
GAMES_UNREADABLE = "{n} could not be read (see games/ in the data folder)."
GAMES_UNFINISHED = "Unfinished"
GAMES_MOVES = "{n} moves"
GAMES_ONE_MOVE = "1 move"
GAMES_DETAIL_SEP = " \u00b7 "
PLAYERS_AGAINST = " against "
PLAYERS_AND = " and "
GAMES_REVIEW = "Review"
GAMES_TAKE_UP = "Play on"
GAMES_DELETE = "Delete"
GAMES_COPY = "Copy to USB"
GAMES_COPY_ALL = "Copy all"
GAMES_DELETE_ASK = "Delete this game for good? {game}"
GAMES_DELETE_YES = "Yes, delete it"
GAMES_DELETED = "The game is deleted."
GAMES_NO_STICK = "No USB stick is plugged in: plug one in and tap again."
GAMES_COPIED = "{n} game(s) copied to {where} ({files} files)."
GAMES_CANNOT_COPY = "The games could not be copied: {reason}"
GAMES_CANNOT_DELETE = "The game could not be deleted: {reason}"
GAMES_CANNOT_READ = "This game cannot be read: {reason}"
GAMES_CANNOT_TAKE_UP = "This game cannot be played on: {reason}"
REVIEW_START = "The start ({total} moves)"
REVIEW_MOVE = "Move {n} of {total}: {move}"
REVIEW_FIRST = "|<"
REVIEW_BACK = "<"
REVIEW_FORWARD = ">"
REVIEW_LAST = ">|"
REVIEW_HELP = "The board's lights show the move on screen."

# --- board check -----------------------------------------------------------------------------------
CHECK_TITLE = "Board check"
CHECK_HELP = "Lift and place pieces: each switch lights up here."
CHECK_SENSED = "Pieces sensed: {n}"
LED_WALK = "Light every LED in turn"
LED_STOP = "Stop the lights"
LED_AT = "Lit: {square} ({i} of {n})"
CHECK_SIMULATED = "This is the simulated board (no hardware)."


# --- the clock, the tournament table and the keyboard: companion/app/texts_table.py ---------------
from .texts_table import *  # noqa: E402,F401,F403  (every name is T.NAME as before)


def amount_of_bytes(n: int | None) -> str:
    """``12 MB``, ``640 KB``, ``0 KB``: free space in words."""
    if n is None:
        return "?"
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.0f} MB"
    return f"{n // 1024} KB"


def piece_name(kind: str) -> str:
    return PIECE_NAMES.get(kind, kind)


def fighter_name(colour: str, piece: str) -> str:
    """"White pawn", "Blue Iron Golem": a fighter by its side's colour and its piece's name."""
    return FIGHTER_NAME.format(colour=colour, piece=piece)


def names_list(names) -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + PLAYERS_AND + names[-1]


def winners_text(names) -> str:
    """Who won: "Ann wins", or several together (a team, equal points): "Ann and Cy win"."""
    names = list(names)
    return WINS.format(name=names[0]) if len(names) == 1 else WIN_TOGETHER.format(names=names_list(names))


def dice_words(sides: int, count: int, keep: str) -> str:
    text = DICE_WORDS.get(count, "{n} d{sides}").format(sides=sides, n=count)
    return text + (KEEP_HIGHEST if count > 1 and keep == "highest" else "")

# ----- a friend's board (the rest: companion/app/link_texts.py) --------------------------------------
SEAT_REMOTE = "Friend's board"
FRIEND = "Friend"
LINK_JOIN = "Join a friend"
LINK_DICE_WAIT = "The dice come from both boards' secrets"
BID_OTHER_BOARD = "Waiting for the other board's sealed bid."

from .coach_texts import *  # noqa: E402,F401,F403 - the coach's and the analysis's words, read as T.<NAME>
