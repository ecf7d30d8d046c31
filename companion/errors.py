"""One exception root for the whole product.

Every error also subclasses the matching builtin (the gpiozero pattern), so callers may catch
``ValueError`` where that reads better, and the CLI turns any ``CompanionError`` into one line
on stderr and exit status 2.

An error line quotes what it refused (``got 'x'``), and what it refused may be a 100,000
characters long line of a file or argument: :func:`cut_quotes` cuts every quoted piece longer
than :data:`MAX_QUOTE` to its start and says how long it was. Every ``CompanionError`` message
goes through it as the error is made, so no raise needs to think of it; :func:`error_line`
also folds line breaks and bounds the whole line, for messages that are not ours (argparse's).
"""

import re

#: Characters of a quoted piece of input an error line shows (longer ones are cut to
#: :data:`QUOTE_HEAD` and the count of characters), and the longest error line shown.
MAX_QUOTE = 60
QUOTE_HEAD = 40
MAX_LINE = 1000

# a quoted piece as ``repr`` writes it: it opens after a space or bracket (never inside a word,
# as an apostrophe does), holds no unescaped quote of its kind, and closes before one
_QUOTED = re.compile(r"""(?<![\w'"])('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?![\w])""")


def cut_quotes(message: str) -> str:
    """``message`` with every quoted piece longer than :data:`MAX_QUOTE` characters cut to
    its first :data:`QUOTE_HEAD`, e.g. ``'xxxx...' (100,002 characters)``."""
    if len(message) <= MAX_QUOTE:
        return message

    def cut(m: re.Match) -> str:
        quoted = m.group(1)
        if len(quoted) <= MAX_QUOTE:
            return quoted
        return f"{quoted[:QUOTE_HEAD]}...{quoted[0]} ({len(quoted) - 2:,} characters)"

    return _QUOTED.sub(cut, message)


def error_line(message: str) -> str:
    """``message`` as one line on a terminal: quotes cut, line breaks as spaces, at most
    :data:`MAX_LINE` characters."""
    line = " ".join(cut_quotes(message).splitlines())
    return line if len(line) <= MAX_LINE else line[:MAX_LINE - 3] + "..."


class CompanionError(Exception):
    """Root of every error raised on purpose by companion (its message's quotes cut)."""

    def __init__(self, *args) -> None:
        super().__init__(*(cut_quotes(a) if isinstance(a, str) else a for a in args))


class MapError(CompanionError, ValueError):
    """A map file is malformed or contradicts itself."""


class ProfileError(CompanionError, ValueError):
    """A board profile (hardware/profiles/*.toml) is malformed."""


class PositionError(CompanionError, ValueError):
    """A position text (FEN or the extended format) cannot be parsed or is impossible."""


class IllegalMoveError(CompanionError, ValueError):
    """A move or decision that the rules do not allow in the current position."""


class VariantError(CompanionError, ValueError):
    """An unknown game, or game data (pieces, rosters) that does not validate."""


class DraftError(VariantError):
    """An army or a deployment that breaks the setup rules (budget, King, Pawn, spawn zone)."""


class DiceError(CompanionError, ValueError):
    """A dice entry out of range, or a dice record that does not verify."""


class LevelError(CompanionError, ValueError):
    """A computer level that does not exist (the command line takes 1..N or max)."""


class RecordError(CompanionError, ValueError):
    """A journal, sensor log or game record is malformed."""


class ProtocolError(CompanionError, ValueError):
    """A serial frame is damaged or unknown."""


class HardwareError(CompanionError, RuntimeError):
    """A hardware adapter could not talk to its device."""


class ClockError(CompanionError, ValueError):
    """A time control that cannot be read, or a clock operation that is not possible now."""


class PairingError(CompanionError, ValueError):
    """A pairing file (TRF or CSV) that cannot be read; the message names the file and line."""


class BroadcastError(CompanionError, ValueError):
    """A broadcast address that cannot be used, or what a board sent a hall that is not a game."""


class OutputError(CompanionError, OSError):
    """A command's output could not be written (``> /dev/full``: no space left; an I/O error)."""


class LinkError(CompanionError, ValueError):
    """Two linked boards: a pairing code that cannot be read or did not match, a broker that
    cannot be reached, an action the link refuses (the other board's turn)."""


class OnlineError(CompanionError, ValueError):
    """Lichess (or a server that speaks its API) cannot be used: no token, a token others can
    read, a line on its stream that is not what the API describes, a time control it refuses."""
