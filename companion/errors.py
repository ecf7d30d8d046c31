"""One exception root for the whole product.

Every error also subclasses the matching builtin (the gpiozero pattern), so callers may catch
``ValueError`` where that reads better, and the CLI turns any ``CompanionError`` into one line
on stderr and exit status 2.
"""


class CompanionError(Exception):
    """Root of every error raised on purpose by companion."""


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
