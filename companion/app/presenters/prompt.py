"""Questions with big buttons (promotion, which move, a draw offer, resigning, the menu) and
the piece info card (fatigue and fight history of a tapped piece)."""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import _
from .. import texts as T
from .. import theme
from ...games.abilities import ABILITIES
from .board import chess_glyph
from .display import Display
from .game_room import GameRoom
from .names import fighter_words
from .questions import Prompt
from .storage import Storage


@dataclass(frozen=True)
class PieceInfoView:
    title: str
    glyph: str
    owner: int
    fatigue: str
    fights: tuple[str, ...]
    colours: tuple = ()  # (fill, outline) of the glyph when not a chess piece's (a unit's seat colour)


class PromptPresenter:
    def __init__(self, display: Display, storage: Storage) -> None:
        self.display = display
        self.storage = storage  # a tap on the space warning explains it

    def view(self) -> Prompt | None:
        return self.display.prompt

    def answer(self, key: str | None) -> None:
        self.display.answer_prompt(key)

    def explain_warning(self) -> None:
        """A warning strip was tapped: the whole story in a popup (free space: what to do; the
        other board away: wait, adjourn or claim)."""
        self.storage.explain_space()
        for tap in self.display.banner_taps:
            tap()


class PieceInfoPresenter:
    def __init__(self, game: GameRoom, display: Display) -> None:
        self.game = game
        self.display = display

    def close(self) -> None:
        if self.display.card is not None:
            self.display.show_card(None)
        else:
            self.display.show_piece_info(None)

    def view(self) -> PieceInfoView | None:
        s, sq = self.game.session, self.display.info_square
        if self.display.card is not None:  # a game's card (Chess 2's stones and their history)
            card = self.display.card
            return PieceInfoView(card.title, "", -1, card.lines[0] if card.lines else "", tuple(card.lines[1:]))
        if sq is None:
            return None
        name = s.rules.geometry.name_of(sq) if s is not None else str(sq)
        piece = s.pos.board[sq] if s is not None else None
        if piece is None:
            return PieceInfoView(T.EMPTY_SQUARE.format(square=name), "", -1, "", ())
        if getattr(getattr(s.rules, "board_map", None), "seats", None):
            return unit_info(s, piece, name)
        if piece.kind.name not in T.PIECE_NAMES:  # a piece of the standard set with a name of its own (Chess 2)
            return named_piece_info(s, piece, name)
        lines = fight_lines(s, piece)
        colour = T.COLOUR_NAMES[piece.owner]
        return PieceInfoView(T.PIECE_TITLE.format(colour=colour, piece=T.piece_name(piece.kind.name), square=name),
                             T.PIECE_GLYPHS.get(piece.kind.name, "?"), piece.owner,
                             T.FATIGUE.format(n=piece.state.get("fatigue", 0)), tuple(lines) or (T.NO_FIGHTS,))


def fight_lines(session, piece) -> list[str]:
    """A piece's fights so far, one line each (a game with dice fights)."""
    lines = []
    for f in session.fight_history(piece.uid):
        opponents = ", ".join(fighter_words(session.rules, owner, kind).lower() if owner >= 0 else T.UNKNOWN_PIECE
                              for kind, owner in f["opponents"])
        outcome = T.OUTCOME_BOUNCED if f["won"] is None else (T.OUTCOME_WON if f["won"] else T.OUTCOME_LOST)
        template = T.FIGHT_LINE_ATTACK if f["role"] == "attacker" else T.FIGHT_LINE_DEFEND
        lines.append(template.format(number=f["number"], opponent=opponents, outcome=outcome))
    return lines


def unit_info(session, piece, square: str) -> PieceInfoView:
    """A Dungeon Chess unit: whose, what it does in words, its state (hexed, wounded)."""
    kind = piece.kind
    seat_word = session.rules.board_map.seats[piece.owner].colour
    owner = session.seats[piece.owner].name
    state = piece.state or {}
    lines = []
    if state.get("hex"):
        lines.append(T.UNIT_STATE_HEX.format(n=state["hex"]))
    if state.get("wounded"):
        lines.append(T.UNIT_STATE_WOUNDED)
    if state.get("hex_spent"):
        lines.append(T.UNIT_STATE_HEX_SPENT)
    if state.get("turns") in T.UNIT_STATE_IN_TOWER:  # KoL Chess: the Tower with its King
        lines.append(T.UNIT_STATE_IN_TOWER[state["turns"]])
    if session.setup.has_dice:  # a game with dice fights: the fatigue, and every fight in the card
        lines.append(T.FATIGUE.format(n=state.get("fatigue", 0)) + ".")
    role = T.ROLE_NAMES.get(kind.role, kind.role)
    first = " ".join(lines) or (T.UNIT_STATE_NONE.format(role=role, cost=kind.cost) if kind.cost
                                else T.UNIT_ROLE.format(role=role))
    fill = theme.seat_colour(seat_word)
    card = unit_card_lines(kind) + (tuple(fight_lines(session, piece)) if session.setup.has_dice else ())
    return PieceInfoView(T.UNIT_TITLE.format(owner=owner, unit=_(kind.title), square=square), kind.code, piece.owner,
                         first, card, (fill, theme.text_on(fill)))


def unit_card_lines(kind, registry=None) -> tuple[str, ...]:
    """What a unit does on its card in a game: the roster's plain words (which already say
    what each ability does), then the abilities by name only, so nothing is said twice. The
    draft screen, where units are studied, has each ability's full words. ``registry``: the
    game's abilities (Dungeon Chess's by default; Chess 2's rules name theirs)."""
    abilities = ABILITIES if registry is None else registry
    notes = dict(kind.info).get("notes", "")
    lines = [_(notes) if notes else ""]
    titles = [_(abilities[name].title) for name in kind.abilities if name in abilities]
    if titles:
        lines.append(T.ABILITY_NAMES.format(names=", ".join(titles)))
    return tuple(line for line in lines if line)


def named_piece_info(session, piece, square: str) -> PieceInfoView:
    """A Chess 2 piece: whose, what it is (an Elephant stands as a rook), what it does."""
    kind = piece.kind
    registry = getattr(session.rules, "ability_registry", None)
    words = unit_card_lines(kind, registry)
    title = T.PIECE_TITLE.format(colour=T.COLOUR_NAMES[piece.owner], piece=_(kind.title), square=square)
    shown = T.SHOWN_AS.format(piece=T.piece_name(kind.role)) if kind.role in T.PIECE_NAMES else ""
    return PieceInfoView(title, chess_glyph(kind), piece.owner, shown, words)
