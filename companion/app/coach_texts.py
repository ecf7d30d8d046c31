"""The coach's words on the game screen and the review's analysis (companion/app/texts.py
reads them in, so screens use them as ``T.<NAME>``)."""

from ..i18n import N_, P_

# the coach (a seat that asked for it; never in tournament mode)
COACH = N_("Coach")
COACH_MENU = N_("Coach on / off")
COACH_OFF = N_("Coach off")
HINT = N_("Hint")
COACH_THINKING = N_("Looking for a good move\u2026")
COACH_HINT = N_("Hint: {move} (lit on the board)")
COACH_NO_HINT = N_("No hint: nothing found")
COACH_THREATS = P_("{n} of your pieces can be taken for free (lit)", "{n} of your pieces can be taken for free (lit)")
COACH_DROPS = N_("That move drops material ({pawns} pawns). Better was {best}.")
UNDO_IT = N_("Undo it")
COACH_FAILED = N_("The coach could not answer this time")

# the review's analysis
ANALYSE = N_("Analyse")
ANALYSING = N_("Analysing: {done} of {total} moves")
ANALYSIS_CANNOT = N_("This game cannot be analysed (a move could not be read back)")
ANALYSIS_FAILED = N_("The analysis stopped: {reason}")
ANALYSIS_KIND = {
    "blunder": N_("{move}?? a blunder (\u2212{drop}); best was {best} (lit)"),
    "mistake": N_("{move}? a mistake (\u2212{drop}); best was {best} (lit)"),
    "inaccuracy": N_("{move}?! an inaccuracy (\u2212{drop}); best was {best}"),
}
ANALYSIS_GOOD = N_("{move}: a good move")
ANALYSIS_COUNT = {
    "blunder": P_("{n} blunder", "{n} blunders"),
    "mistake": P_("{n} mistake", "{n} mistakes"),
    "inaccuracy": P_("{n} inaccuracy", "{n} inaccuracies"),
}
ANALYSIS_CLEAN = N_("no mistakes")
