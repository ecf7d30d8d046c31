"""The words of a game with a friend's board (companion/app/presenters/link_room.py, link.py);
the start screen's few are in companion/app/texts.py."""

from ..i18n import N_, P_, read_in_language

LINK_TITLE_HOST = N_("Type this code on your friend's board")
LINK_TITLE_GUEST = N_("Type the code your friend's board shows")
LINK_WAITING_FOR_BOARD = N_("Waiting for the other board...")
LINK_PAIRING = N_("Pairing with the other board...")
LINK_PAIRED = N_("Paired. Agreeing on the game...")
LINK_CODES_DIFFER = N_("The codes did not match. Type it again, or show a new code.")
LINK_PROPOSAL = N_("{them} invites you to play {game}. You play: {you}.")
LINK_CHOOSE_ARMY = N_("Your army (kept secret until both are chosen)")
LINK_CHOOSE_DUNGEON_ARMY = N_("{name}'s army (kept secret until both boards' are in)")
LINK_DRAFT = N_("Draft unit by unit, place by hand")
LINK_DRAFT_PLACE = N_("Place on the board")
LINK_PLACE_YOURS = N_("Place your armies: the other board's stay secret until both are in.")
LINK_SEALED_WAITING = N_("Your armies are sealed. Waiting for the other board's...")
LINK_DRAFT_REFUSED = N_("Not taken up: {problem}. Choose the armies again; nothing else is lost.")
LINK_DRAFT_NOT_KEPT = N_("The draft cannot be kept on this board ({reason}); it goes on, but a power cut "
                         "would lose it.")
LINK_TAKEBACK_ASKED = P_("The other board asks to take back {turns} move.", "The other board asks to take back {turns} moves.",
                         "turns")
LINK_DECLINED = N_("The other board declined.")
LINK_REFUSED = N_("The other board refused: {why}")
LINK_ADJOURNED = N_("The other board adjourned the game: it stays unfinished on both boards.")
LINK_CLAIMED_AWAY = N_("The other board claimed the game while this one was away.")
LINK_PROBLEM = N_("Refused: {why}")
LINK_MISMATCH = (N_("The boards disagree after move {n}. This board: {mine}. The other board: {theirs}. "
                 "Compare with the pieces on the table and choose the same on both boards."))
LINK_KEEP_MINE = N_("This board's is right")
LINK_TAKE_THEIRS = N_("The other board's is right")
LINK_AWAY = N_("The other board is away{since}: tap for what to do")
LINK_AWAY_SINCE = N_(" ({minutes} min)")
LINK_AWAY_WHAT = N_("The other board is away. Wait for it, adjourn the game, or claim it (after the agreed time).")
LINK_WAIT = N_("Wait")
LINK_ADJOURN = N_("Adjourn")
LINK_CLAIM = N_("Claim the game")
LINK_CONNECTING = N_("Linked game: reconnecting to the other board...")
LINK_WAITING = N_("Linked game: waiting for {what}")
LINK_CONNECTED = N_("Linked game: connected")
LINK_ONE_SEAT_HERE = N_("One player at least plays at this board: choose another seat for the friend's board.")

_text = read_in_language(globals())  # NAME reads in the language of the moment (docs/i18n.md)
