"""The coach's words on the game screen and the review's analysis (companion/app/texts.py
reads them in, so screens use them as ``T.<NAME>``)."""

# the coach (a seat that asked for it; never in tournament mode)
COACH = "Coach"
COACH_MENU = "Coach on / off"
COACH_OFF = "Coach off"
HINT = "Hint"
COACH_THINKING = "Looking for a good move\u2026"
COACH_HINT = "Hint: {move} (lit on the board)"
COACH_NO_HINT = "No hint: nothing found"
COACH_THREATS = "{n} of your pieces can be taken for free (lit)"
COACH_DROPS = "That move drops material ({pawns} pawns). Better was {best}."
UNDO_IT = "Undo it"
COACH_FAILED = "The coach could not answer this time"

# the review's analysis
ANALYSE = "Analyse"
ANALYSING = "Analysing: {done} of {total} moves"
ANALYSIS_CANNOT = "This game cannot be analysed (a move could not be read back)"
ANALYSIS_FAILED = "The analysis stopped: {reason}"
ANALYSIS_KIND = {
    "blunder": "{move}?? a blunder (\u2212{drop}); best was {best} (lit)",
    "mistake": "{move}? a mistake (\u2212{drop}); best was {best} (lit)",
    "inaccuracy": "{move}?! an inaccuracy (\u2212{drop}); best was {best}",
}
ANALYSIS_GOOD = "{move}: a good move"
ANALYSIS_COUNT = {
    "blunder": ("{n} blunder", "{n} blunders"),
    "mistake": ("{n} mistake", "{n} mistakes"),
    "inaccuracy": ("{n} inaccuracy", "{n} inaccuracies"),
}
ANALYSIS_CLEAN = "no mistakes"
