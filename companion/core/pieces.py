"""Piece kinds as data, pieces as small mutable records with state.

The movement vocabulary, written once and used by every game:

* ``leap dx,dy``   jump to the square at that offset (knight ``leap 1,2``, king ``leap 1,0`` +
  ``leap 1,1``); what lies between does not matter.
* ``ride dx,dy``   slide step by step in that direction until blocked (rook ``ride 1,0``);
  ``max=N`` limits the range.
* ``hop dx,dy``    XiangQi cannon: along the line, over exactly one piece (the screen, either
  side's), onto the first piece behind it. Capture only.

Each pattern is listed under ``move`` (to an empty square only), ``capture`` (onto an enemy
only) or ``both``. Offsets are in the piece's own frame: +dy is the owner's forward. Symmetry:
by default every rotation and reflection of the offset is included (``leap 1,2`` is all eight
knight jumps); ``forward`` keeps the given offset and its left-right mirror (a pawn's
``leap 1,1 forward`` is its two forward diagonals); ``exact`` keeps the offset alone.
``from_rank=N`` allows the pattern only from the owner's N-th rank counted from 0 at its home
edge; ``lame`` makes a straight leap need the squares it passes empty (the pawn's double step
is ``leap 0,2 exact from_rank=1 lame``).

Two ride options change what stops a slide:

* ``phase``: the ride passes through the mover's own pieces (it can neither stop on them nor
  is it blocked by them); any other piece stops it as usual (Dungeon Chess's Wraith).
* ``pierce`` / ``pierce=friend``: a capturing ride may pass over exactly one piece (of any
  side; with ``friend``, only one of the mover's own) and capture the next piece behind it, as
  well as the first piece met (Dungeon Chess's Archer, and the Tomb's phase fire). Moves to
  empty squares still stop at the first piece; not allowed under ``move``.

Options that tie a pattern to named square sets of the map (tags, docs/maps.md), and two
more ride options (KoL Chess's colour-bound pieces, the Knott Yeti, Jarlsberg's teleport):

* ``within=TAG`` (rides): the slide uses only squares of TAG, its starting square included; it
  ends before the first square outside (a piece that "stays on white/green"). A piece standing
  off the tag has no such slide.
* ``from=TAG`` (``move`` patterns): the pattern applies only while the piece stands on TAG.
* ``to=TAG`` (leaps and ``jump`` rides): the pattern ends only on squares of TAG.
* ``wrap`` (rides, ``move`` or ``both``): past the board edge the slide comes back on at the
  opposite edge (the board is a torus for it) and goes on, to empty squares only: it never
  captures after wrapping round, and never reaches its own square again.
* ``jump`` (rides, ``move`` only): the line is not blocked by anything: the piece lands on any
  square of it that it may stand on (a teleport along the line).

All five are resolved when the tables are compiled (companion.core.compiled), so they cost
nothing during move generation.

A kind may be immune to a pattern type: ``immune = ["hop"]`` means no cannon can capture it
(Dungeon Chess's Iron Golem). Only ``hop`` is supported.

Who may capture whom, by role (the ``role`` word of each kind): ``captured_only_by`` lists the
roles whose pieces may capture this kind (an empty list: nothing can capture it);
``cannot_capture`` lists the roles this kind may not capture. A kind with
``passable_by = "friends"`` lets its own side's slides and lame steps pass through it (KoL
Chess's Gnome: "Only friendly pieces can move through gnomes"); enemies are stopped as usual.
``shown_as = "T"`` says that on a physical board the kind is the piece of kind ``T`` (KoL's Tower
with its King inside is the Tower piece): the tracker sees no change when one becomes the other.

Terrain permissions per kind: ``water = "stop" | "cross" | "block"`` (stand on it, slide over
it without stopping, or be stopped by it). One ride may be stricter than its kind: a ride with
the option ``water=block`` stops before water even when the kind crosses it (Dungeon Chess's
"Water blocks diagonal slides for Fire Elemental, Troll, Demonics, and Shaman"). Void is never
entered or crossed by a slide; a leaper may jump over void and water but never lands on void.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..bounds import whole_number
from ..errors import VariantError
from .geometry import MAX_SIZE
from ..i18n import _

WATER_RULES = ("stop", "cross", "block")
PATTERN_TYPES = ("leap", "ride", "hop")
SYMMETRIES = ("all", "forward", "exact")
PIERCE_KINDS = ("any", "friend")
IMMUNITIES = ("hop",)
PASSABLE = ("friends",)
_TAG_OPTIONS = {"within=": "within", "from=": "origin", "to=": "onto"}


@dataclass(frozen=True)
class Pattern:
    type: str
    dx: int
    dy: int
    symmetry: str = "all"
    max_range: int = 0  # 0: unlimited (rides only)
    from_rank: int = -1  # -1: anywhere
    lame: bool = False  # a leap that needs the squares on its straight path empty
    phase: bool = False  # a ride that passes through the mover's own pieces
    pierce: str = ""  # "", "any" or "friend": a capturing ride may pass over one such piece
    within: str = ""  # a tag: the ride uses only squares of it
    origin: str = ""  # a tag: the pattern applies only from squares of it (``from=``)
    onto: str = ""  # a tag: the pattern ends only on squares of it (``to=``)
    wrap: bool = False  # a ride that comes back on at the opposite edge (to empty squares)
    jump: bool = False  # a ride that nothing blocks (a teleport along the line)
    water_block: bool = False  # a ride that stops before water whatever its kind's water rule

    def tags(self) -> tuple[str, ...]:
        """The map tags the pattern names."""
        return tuple(t for t in (self.within, self.origin, self.onto) if t)

    def offsets(self) -> tuple[tuple[int, int], ...]:
        dx, dy = self.dx, self.dy
        if self.symmetry == "exact":
            cands = [(dx, dy)]
        elif self.symmetry == "forward":
            cands = [(dx, dy), (-dx, dy)]
        else:
            cands = [(a * sx, b * sy) for a, b in ((dx, dy), (dy, dx)) for sx in (1, -1) for sy in (1, -1)]
        seen: list[tuple[int, int]] = []
        for c in cands:
            if c not in seen:
                seen.append(c)
        return tuple(seen)

    def text(self) -> str:
        out = f"{self.type} {self.dx},{self.dy}"
        if self.symmetry != "all":
            out += f" {self.symmetry}"
        if self.max_range:
            out += f" max={self.max_range}"
        if self.from_rank >= 0:
            out += f" from_rank={self.from_rank}"
        if self.lame:
            out += " lame"
        if self.phase:
            out += " phase"
        if self.pierce:
            out += " pierce" if self.pierce == "any" else f" pierce={self.pierce}"
        if self.wrap:
            out += " wrap"
        if self.jump:
            out += " jump"
        if self.water_block:
            out += " water=block"
        for word, attr in _TAG_OPTIONS.items():
            if getattr(self, attr):
                out += f" {word}{getattr(self, attr)}"
        return out


def parse_pattern(text: str, where: str = "pattern") -> Pattern:
    """Parse ``"ride 1,0 max=3"`` and friends; errors say what was expected."""
    words = str(text).split()
    if len(words) < 2 or words[0] not in PATTERN_TYPES:
        raise VariantError(
            _("{where}: {text!r} is not a movement pattern; expected e.g. 'leap 1,2', 'ride 1,0 max=3', 'hop 1,0'").format(
                where=where, text=text)
        )
    try:
        dx, dy = (int(v) for v in words[1].split(",") if len(v) <= 3)
    except ValueError:
        raise VariantError(_("{where}: offset {words!r} in {text!r} must be two integers like 1,2").format(
                               where=where, words=words[1], text=text)) from None
    if (dx, dy) == (0, 0) or max(abs(dx), abs(dy)) > 8:
        raise VariantError(_("{where}: offset {dx},{dy} in {text!r} must be non-zero and at most 8 squares").format(
                               where=where, dx=dx, dy=dy, text=text))
    symmetry, max_range, from_rank, lame, phase, pierce = "all", 0, -1, False, False, ""
    wrap = jump = water_block = False
    tags = {"within": "", "origin": "", "onto": ""}
    for w in words[2:]:
        prefix = next((p for p in _TAG_OPTIONS if w.startswith(p)), None)
        if prefix is not None:
            name = w[len(prefix):]
            if not (name[:1].isalpha() and all(c.isalnum() or c in "-_" for c in name)):
                raise VariantError(_("{where}: {w!r} in {text!r} must name a map tag, e.g. {prefix}light").format(
                                       where=where, w=w, text=text, prefix=prefix))
            tags[_TAG_OPTIONS[prefix]] = name
        elif w == "wrap":
            wrap = True
        elif w == "jump":
            jump = True
        elif w == "water=block":
            water_block = True
        elif w in SYMMETRIES:
            symmetry = w
        elif w == "lame":
            lame = True
        elif w == "phase":
            phase = True
        elif w == "pierce" or (w.startswith("pierce=") and w[7:] in PIERCE_KINDS):
            pierce = w[7:] or "any"
        elif w.startswith("max="):
            max_range = whole_number(w[4:], _("{where}: {w!r} in {text!r}").format(where=where, w=w, text=text),
                                     VariantError, 1, MAX_SIZE)
        elif w.startswith("from_rank="):
            from_rank = whole_number(w[10:], _("{where}: {w!r} in {text!r}").format(where=where, w=w, text=text),
                                     VariantError, 0, MAX_SIZE - 1)
        else:
            raise VariantError(
                _("{where}: unknown option {w!r} in {text!r}; expected all, forward, exact, max=N, from_rank=N, "
                  "lame, phase, pierce, pierce=friend, within=TAG, from=TAG, to=TAG, wrap, jump or water=block").format(
                    where=where, w=w, text=text)
            )
    if max_range and words[0] != "ride":
        raise VariantError(_("{where}: max=N only applies to 'ride' patterns ({text!r})").format(
                               where=where, text=text))
    if lame and (words[0] != "leap" or not (dx == 0 or dy == 0 or abs(dx) == abs(dy))):
        raise VariantError(_("{where}: 'lame' applies to straight-line leaps only ({text!r})").format(
                               where=where, text=text))
    if (phase or pierce) and words[0] != "ride":
        raise VariantError(_("{where}: 'phase' and 'pierce' only apply to 'ride' patterns ({text!r})").format(
                               where=where, text=text))
    if phase and pierce:
        raise VariantError(_("{where}: a ride is either 'phase' or 'pierce', not both ({text!r})").format(
                               where=where, text=text))
    if water_block and words[0] != "ride":
        raise VariantError(_("{where}: 'water=block' only applies to 'ride' patterns ({text!r})").format(
                               where=where, text=text))
    if (wrap or jump or tags["within"]) and words[0] != "ride":
        raise VariantError(_("{where}: 'wrap', 'jump' and 'within=' only apply to 'ride' patterns ({text!r})").format(
                               where=where, text=text))
    if tags["onto"] and not (words[0] == "leap" or jump):
        raise VariantError(_("{where}: 'to=' applies to leaps and 'jump' rides ({text!r})").format(
                               where=where, text=text))
    if jump and (phase or pierce or wrap or tags["within"]):
        raise VariantError(_("{where}: a 'jump' ride passes everything; 'phase', 'pierce', 'wrap' and 'within=' "
                             "mean nothing with it ({text!r})").format(where=where, text=text))
    if wrap and (phase or pierce):
        raise VariantError(_("{where}: a 'wrap' ride cannot also be 'phase' or 'pierce' ({text!r})").format(
                               where=where, text=text))
    return Pattern(words[0], dx, dy, symmetry, max_range, from_rank, lame, phase, pierce,
                   tags["within"], tags["origin"], tags["onto"], wrap, jump, water_block)


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece, as data. ``code`` is its letter(s) in position texts (upper case)."""

    name: str
    code: str
    move: tuple[Pattern, ...] = ()
    capture: tuple[Pattern, ...] = ()
    both: tuple[Pattern, ...] = ()
    water: str = "block"
    royal: bool = False
    value: int = 0
    promotes_to: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    role: str = ""
    title: str = ""
    cost: int = 0
    faction: str = ""
    immune: tuple[str, ...] = ()
    info: tuple = field(default=(), compare=False)
    passable_by: str = ""  # "friends": its own side's slides pass through it
    captured_only_by: tuple[str, ...] | None = None  # roles that may capture it (None: any)
    cannot_capture: tuple[str, ...] = ()  # roles it may not capture
    shown_as: str = ""  # the code of the kind whose piece stands for it on a physical board

    def __post_init__(self) -> None:
        if not self.code or not self.code.isalpha() or self.code != self.code.upper() or len(self.code) > 3:
            raise VariantError(_("piece {name!r}: code must be 1-3 upper-case letters, got {code!r}").format(
                                   name=self.name, code=self.code))
        if self.water not in WATER_RULES:
            raise VariantError(_("piece {name!r}: water must be one of {water_rules}, got {water!r}").format(
                                   name=self.name, water_rules=', '.join(WATER_RULES), water=self.water))
        for p in self.capture + self.both:
            if p.from_rank >= 0:
                raise VariantError(_("piece {name!r}: from_rank=N is only for 'move' patterns ({text})").format(
                                       name=self.name, text=p.text()))
        for p in self.move:
            if p.type == "hop":
                raise VariantError(_("piece {name!r}: 'hop' (cannon) patterns capture; list them under capture").format(
                                       name=self.name))
            if p.pierce:
                raise VariantError(_("piece {name!r}: 'pierce' is about captures; {text} is under move").format(
                                       name=self.name, text=p.text()))
        for p in self.capture + self.both:
            if p.origin:
                raise VariantError(_("piece {name!r}: from=TAG is only for 'move' patterns ({text})").format(
                                       name=self.name, text=p.text()))
            if p.jump:
                raise VariantError(_("piece {name!r}: a 'jump' ride only moves; list {text} under move").format(
                                       name=self.name, text=p.text()))
        for p in self.capture:
            if p.wrap:
                raise VariantError(_("piece {name!r}: captures never wrap round; list {text} under move or both").format(
                                       name=self.name, text=p.text()))
        if self.passable_by and self.passable_by not in PASSABLE:
            raise VariantError(_("piece {name!r}: passable_by must be one of {passable}, got {passable_by!r}").format(
                                   name=self.name, passable=', '.join(PASSABLE), passable_by=self.passable_by))
        for what in self.immune:
            if what not in IMMUNITIES:
                raise VariantError(
                    _("piece {name!r}: immune lists {what!r}; only {immunities} is supported").format(
                        name=self.name, what=what, immunities=', '.join(IMMUNITIES))
                )

    def all_patterns(self) -> Iterable[tuple[str, Pattern]]:
        for p in self.move:
            yield "move", p
        for p in self.capture:
            yield "capture", p
        for p in self.both:
            yield "both", p


class Piece:
    """One piece on the board: its kind, owner, and its own state (fatigue, wounds, timers).

    ``uid`` stays with the piece for the whole game (fight histories, hexes). State values are
    ints or strings; change them only through ``Position.set_state`` so undo and hashing see it.
    """

    __slots__ = ("kind", "kid", "owner", "uid", "state")

    def __init__(self, kind: PieceKind, kid: int, owner: int, uid: int, state: dict | None = None):
        self.kind = kind
        self.kid = kid
        self.owner = owner
        self.uid = uid
        self.state = dict(state) if state else {}

    def copy(self) -> "Piece":
        return Piece(self.kind, self.kid, self.owner, self.uid, self.state)

    def __repr__(self) -> str:
        st = f", {self.state!r}" if self.state else ""
        return f"<Piece {self.kind.name} p{self.owner} #{self.uid}{st}>"
