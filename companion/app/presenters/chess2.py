"""Chess 2 at the table: the duel screen, the stones, the king-turn question (plain Python).

The duel screen answers the engine's three duel decisions (companion/games/chess2.py): the
defender's ``duel`` ("Duel" or "No duel", and what it costs), the joint ``bids`` (both bid at
once: on the screen, each in turn while the other looks away, every bid sealed until both are in;
or with real stones in closed fists, opened together and entered), and the called bluff's reward.
Then it shows what happened (the bids side by side, who won, what leaves the board) until
Continue; the board is guided by the tracker as for any capture.

A sealed bid is the session's (companion.session: ``PlayPart``, journaled): nothing here holds
or shows it, so a power cut with one bid in comes back to the same duel waiting for the other.
Against the computer its bid is sealed (and on the disk) before the person's pad is shown.

:data:`EXTRAS` tells the common screens what Chess 2 adds (companion/app/presenters/extras.py):
the duel screen for those decisions, the army choice before a game, the stones beside each
player with their history, the king-turn asked on the game screen, duel marks in the move list.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...games.chess2_abilities import BOX
from ...games.chess2_armies import KING_TURN, MAX_BID, SKIP, START_STONES
from ...i18n import _
from .. import texts as T
from .extras import Card, GameExtras, Question

DUEL_KINDS = ("duel", "bids", "bluff")


def stones_words(n: int) -> str:
    return T.STONES_COUNT.get(n) or T.STONES_MANY.format(n=n)


def piece_word(title: str) -> str:
    """A piece in a sentence: a plain piece as a noun ("the pawn"), a named one by its name
    ("the Elephant", "the Wild horse")."""
    return T.PIECE_NAMES.get(title.lower(), title)


def stones_of(session) -> tuple[int, int]:
    return session.rules.stones(session.pos)


class Chess2Extras(GameExtras):
    decision_screens = {kind: "duel" for kind in DUEL_KINDS}
    before_game = "armies"

    def question(self, session) -> Question | None:
        """The king-turn: move a Warrior King (on the board) or skip (a gesture, or this button)."""
        d = session.pos.pending
        if d is None or d.kind != KING_TURN or session.seats[d.player].computer:
            return None
        return Question(KING_TURN, T.KING_TURN.format(name=session.seats[d.player].name),
                        ((SKIP, T.SKIP_KING_TURN),))

    def counter(self, session, player: int) -> str:
        return stones_words(stones_of(session)[player])

    def move_mark(self, entry) -> str:
        marks = []
        for e in entry.effects:
            if e[0] == "bids":
                marks.append(T.DUEL_MARK[e[3]])
            elif e[0] == "stones" and e[3] == "bluff":
                marks[-1:] = [T.DUEL_MARK["bluff"]]
        return ", ".join(marks)

    def result_shown(self, session, start: int) -> bool:
        effects = session.moves[-1].effects[start:] if session.moves else ()
        return any(e[0] == "bids" for e in effects)

    def card(self, session) -> Card:
        return stones_card(session)

    def zone(self, session, square: int) -> frozenset[int]:
        """An Elephant's box: "Draw a 5x5 box ... the elephant cannot be captured by a piece
        more than 2 squares away": every square within 2 of it."""
        piece = session.pos.board[square] if 0 <= square < len(session.pos.board) else None
        if piece is None or "box" not in piece.kind.abilities:
            return frozenset()
        g = session.rules.geometry
        fx, fy = square % g.width, square // g.width
        return frozenset(y * g.width + x for y in range(max(0, fy - BOX), min(g.height, fy + BOX + 1))
                         for x in range(max(0, fx - BOX), min(g.width, fx + BOX + 1)))


EXTRAS = Chess2Extras()


def stones_card(session) -> Card:
    """Each side's stones now, and where every change came from, move by move."""
    names = tuple(seat.name for seat in session.seats)
    now = stones_of(session)
    start = _start_stones(session)
    lines = [T.STONES_START.format(a=names[0], na=start[0], b=names[1], nb=start[1])]
    number = 0
    for entry in session.moves:
        if entry.player == 0:
            number += 1
        changes = [_stone_change(names, e) for e in entry.effects if e[0] == "stones"]
        if changes:
            lines.append(T.STONES_LINE.format(n=max(number, 1), move=entry.san, what="; ".join(changes)))
    if len(lines) == 1:
        lines.append(T.STONES_NONE_YET)
    return Card(T.STONES, T.STONES_TITLE.format(a=names[0], na=now[0], b=names[1], nb=now[1]), tuple(lines))


def _start_stones(session) -> tuple[int, int]:
    if session.setup.start:
        return session.rules.stones(session.rules.position_from_text(session.setup.start))
    return START_STONES, START_STONES


def _stone_change(names, e) -> str:
    _, player, delta, why = e
    template = T.STONES_WHY.get(why, "{name} {sign}{n}")
    return template.format(name=names[player], n=abs(delta), sign="+" if delta > 0 else "\u2212")


# --- the duel screen ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DuelSide:
    role: str
    name: str
    owner: int
    piece: str
    glyph: str
    square: str
    stones: int
    stones_text: str
    bid: str  # shown once revealed ("" before)
    sealed: bool  # the bid is in, hidden


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    enabled: bool = True
    selected: bool = False


@dataclass(frozen=True)
class FistRow:
    """Real stones: what one player showed, to tap."""

    player: int
    label: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class DuelView:
    title: str
    capture: str
    attacker: DuelSide
    defender: DuelSide
    phase: str  # offer | bid | fists | bluff | result | wait
    ask: str
    detail: str
    choices: tuple[Choice, ...]  # the offer's, the bluff's, or a secret bid's buttons
    fists: tuple[FistRow, ...]  # real stones: one row per person to enter
    action: str  # the big button ("" when there is none)
    action_key: str  # seal | use | continue
    result: tuple[str, ...]
    thinking: str
    error: str
    banner: str = ""  # the board is gone, space is low


@dataclass(frozen=True)
class _Duel:
    """Who duels whom, as it was when the duel screen opened (the pieces may leave later)."""

    attacker: int
    defender: int
    piece: str
    victim: str
    glyph: str
    victim_glyph: str
    frm: str
    square: str
    rampage: bool
    attacker_stones: int  # when the duel screen opened (0: no bids are asked)
    last_stone: bool = False  # the fee takes the defender's last stone: the attacker bids 1 and wins


class DuelPresenter:
    """The duel screen; given the Play room (the decision and its answers), the GameRoom (the
    session), the ComputerTurns (a computer's bid being drawn) and the Display."""

    def __init__(self, play, game, ai, display) -> None:
        self.play = play
        self.game = game
        self.ai = ai
        self.display = display
        self.selected: int | None = None
        self.fists: dict[int, int] = {}
        self.error = ""
        self._key = None

    # ----- commands -------------------------------------------------------------------------------
    def choose(self, key: str) -> None:
        """A button of the offer (duel / pass), of the bluff (gain / destroy), or a secret bid."""
        v = self.view()
        if v is None:
            return
        if v.phase in ("offer", "bluff"):
            if any(c.key == key and c.enabled for c in v.choices):
                self.play.answer_decision(key)
        elif v.phase == "bid" and key.isdigit():
            self.selected = int(key)
            self.error = ""
            self.display.changed()

    def enter(self, player: int, bid: int) -> None:
        """Real stones: what ``player`` showed."""
        self.fists[player] = bid
        self.error = ""
        self.display.changed()

    def act(self) -> None:
        v = self.view()
        if v is None or not v.action_key:
            return
        if v.action_key == "seal":
            self._seal()
        elif v.action_key == "use":
            self._use_fists()
        elif v.action_key == "continue":
            self.play.decision_continue()

    def _seal(self) -> None:
        bidder = self._bidder()
        if bidder is None or self.selected is None:
            return
        bid, self.selected = self.selected, None
        if not self._possible(bidder, bid):
            self.display.changed()
            return
        self.play.seal_part(bidder, bid)  # the next bidder starts with nothing selected (a new key)

    def _use_fists(self) -> None:
        s = self.game.session
        people = self._people_to_bid()
        if any(p not in self.fists for p in people):
            return
        for p in people:
            if not self._possible(p, self.fists[p]):
                self.display.changed()
                return
        fists, self.fists = dict(self.fists), {}
        if not s.sealed_players and len(people) == 2:
            attacker, defender = s.joint_decision().get("players")
            self.play.answer_decision(f"{fists[attacker]}-{fists[defender]}")  # one action: both shown at once
            return
        for p in people:
            self.play.seal_part(p, fists[p])

    def _possible(self, player: int, bid: int) -> bool:
        """"0, 1, or 2 stones", and no more than the player owns."""
        s = self.game.session
        have = stones_of(s)[player]
        if not 0 <= bid <= min(MAX_BID, have):
            self.error = T.BID_TOO_MANY.format(name=s.seats[player].name, have=stones_words(have), bid=bid)
            return False
        return True

    # ----- who does what now ----------------------------------------------------------------------
    def _people_to_bid(self) -> tuple[int, ...]:
        s = self.game.session
        return tuple(p for p in s.parts_missing() if not s.seats[p].computer)

    def _bidder(self) -> int | None:
        """On-screen bids: the person bidding now (the attacker first)."""
        s = self.game.session
        if s.joint_decision() is None or any(s.seats[p].computer for p in s.parts_missing()):
            return None  # a computer's bid is sealed first
        missing = s.parts_missing()
        return missing[0] if missing else None

    # ----- the view ---------------------------------------------------------------------------------
    def view(self) -> DuelView | None:
        s, state = self.game.session, self.play.decision
        if s is None or state is None:
            return None
        duel = self._duel(state)
        if duel is None:
            return None
        key = (s.actions, state.start, state.done)
        if key != self._key:
            self._key, self.selected, self.fists = key, None, {}
            self.error = ""
        effects = s.moves[-1].effects[state.start:] if s.moves else ()
        bids = next((e for e in effects if e[0] == "bids"), None)
        revealed = bids is not None and state.done
        stones = stones_of(s)
        sealed = set(s.sealed_players)
        names = tuple(seat.name for seat in s.seats)

        def side(role: str, player: int, piece: str, glyph: str, square: str, bid_index: int) -> DuelSide:
            return DuelSide(role, names[player], player, piece, glyph, square, stones[player],
                            stones_words(stones[player]), str(bids[bid_index]) if revealed else "",
                            player in sealed)

        attacker = side(T.ATTACKER, duel.attacker, duel.piece, duel.glyph, duel.frm, 1)
        defender = side(T.DEFENDER, duel.defender, duel.victim, duel.victim_glyph, duel.square, 2)
        template = T.DUEL_RAMPAGE if duel.rampage else T.DUEL_CAPTURE
        capture = template.format(attacker=names[duel.attacker], defender=names[duel.defender],
                                  piece=piece_word(duel.piece), victim=piece_word(duel.victim), square=duel.square)
        title = T.DUEL_TITLE.format(square=duel.square)
        thinking = ""
        busy = self.ai.thinking
        if busy is not None:
            thinking = (T.THINKING_BID if busy.part else T.THINKING).format(name=names[busy.seat])
        d = s.pos.pending
        phase, ask, detail = "wait", "", ""
        choices: tuple[Choice, ...] = ()
        fists: tuple[FistRow, ...] = ()
        action, action_key = "", ""
        result: tuple[str, ...] = ()
        if state.done:
            phase, action, action_key = "result", T.DUEL_CONTINUE, "continue"
            result = self._result_lines(s, duel, effects, names)
        elif d is None or d.kind not in DUEL_KINDS:
            return None
        elif d.kind == "duel":
            fee = d.get("fee")
            ask = T.DUEL_OFFER.format(name=names[duel.defender], victim=piece_word(duel.victim))
            if duel.last_stone:
                detail = T.DUEL_FEE_LAST.format(piece=piece_word(duel.piece), victim=piece_word(duel.victim),
                                                name=names[duel.attacker])
            else:
                detail = (T.DUEL_FEE.format(piece=piece_word(duel.piece), victim=piece_word(duel.victim)) if fee
                          else T.DUEL_NO_FEE) + " " + T.DUEL_HOW
            if not s.seats[duel.defender].computer:
                phase = "offer"
                choices = (Choice("duel", T.DUEL_YES_FEE if fee else T.DUEL_YES), Choice("pass", T.DUEL_NO))
        elif d.kind == "bids":
            detail = T.DUEL_HOW
            people = self._people_to_bid()
            computer_missing = any(s.seats[p].computer for p in s.parts_missing())
            for p in sorted(sealed):
                ask += (T.BID_COMPUTER_SEALED if s.seats[p].computer else T.BID_SEALED).format(name=names[p]) + " "
            if computer_missing:
                phase = "wait"
            elif s.setup.bids == "stones":
                phase = "fists"
                ask += T.BID_FISTS if len(people) == 2 else T.BID_FIST_ONE.format(name=names[people[0]])
                fists = tuple(FistRow(p, T.BID_SHOWED.format(name=names[p]),
                                      tuple(Choice(str(b), T.BID_CHOICE[b], True, self.fists.get(p) == b)
                                            for b in range(MAX_BID + 1)))
                              for p in people)
                if all(p in self.fists for p in people):
                    action, action_key = T.BID_USE, "use"
            elif self._bidder() is None:  # a linked game: this board's bid is sealed, the other board's comes
                phase = "wait"
                ask += T.BID_OTHER_BOARD
            else:
                phase = "bid"
                bidder = self._bidder()
                role = T.ATTACKER_ROLE if bidder == duel.attacker else T.DEFENDER_ROLE
                other = next((names[p] for p in (duel.attacker, duel.defender)
                              if p != bidder and not s.seats[p].computer), "")
                ask += (T.BID_SECRET if other else T.BID_SECRET_ALONE).format(name=names[bidder], role=role,
                                                                               other=other)
                options = s.part_options(bidder)
                choices = tuple(Choice(str(b), T.BID_CHOICE[b], b in options, self.selected == b)
                                for b in range(MAX_BID + 1))
                if self.selected is not None:
                    action, action_key = T.BID_SEAL, "seal"
        elif d.kind == "bluff":
            ask = T.BLUFF_CALLED.format(name=names[duel.attacker])
            if not s.seats[duel.attacker].computer:
                phase = "bluff"
                labels = {"gain": T.BLUFF_GAIN, "destroy": T.BLUFF_DESTROY.format(name=names[duel.defender])}
                choices = tuple(Choice(o, labels[o]) for o in d.get("options"))
            if bids is not None:
                result = (T.DUEL_REVEAL.format(a=names[duel.attacker], ba=bids[1], d=names[duel.defender],
                                               bd=bids[2]),)
                attacker = _with_bid(attacker, bids[1])
                defender = _with_bid(defender, bids[2])
        return DuelView(title, capture, attacker, defender, phase, ask.strip(), detail, choices, fists, action,
                        action_key, result, thinking, self.error, self.display.banner)

    def _duel(self, state) -> _Duel | None:
        """The duel of this screen, read when it opened (and kept: the pieces may leave)."""
        known = state.memo.get("duel")
        if known is not None:
            return known
        s = self.game.session
        d = s.pos.pending
        if d is None or d.kind not in DUEL_KINDS:
            return None
        move = d.get("move")
        board, g = s.pos.board, s.rules.geometry
        att, vic = board[d.get("attacker")], board[d.get("victim")]
        if att is None or vic is None:
            return None
        duel = _Duel(att.owner, vic.owner, _(att.kind.title), _(vic.kind.title), T.PIECE_GLYPHS.get(att.kind.role, "?"),
                     T.PIECE_GLYPHS.get(vic.kind.role, "?"), g.name_of(move.frm), g.name_of(d.get("victim")),
                     move.special == "rampage", stones_of(s)[att.owner],
                     d.kind == "duel" and 0 < stones_of(s)[vic.owner] <= d.get("fee"))
        state.memo["duel"] = duel
        return duel

    def _result_lines(self, s, duel: _Duel, effects, names) -> tuple[str, ...]:
        lines = []
        for e in effects:
            if e[0] == "bids":
                _, a, b, winner = e
                if duel.attacker_stones == 0:
                    lines.append(T.DUEL_ZERO.format(a=names[duel.attacker], d=names[duel.defender]))
                elif duel.last_stone:
                    lines.append(T.DUEL_ZERO_DEFENDER.format(a=names[duel.attacker], d=names[duel.defender]))
                else:
                    lines.append(T.DUEL_REVEAL.format(a=names[duel.attacker], ba=a, d=names[duel.defender], bd=b))
                piece, victim = piece_word(duel.piece), piece_word(duel.victim)
                if winner == "attacker":
                    lines.append(T.DUEL_WINS_ATTACKER.format(name=names[duel.attacker], piece=piece, victim=victim))
                else:
                    lines.append(T.DUEL_WINS_DEFENDER.format(name=names[duel.defender], piece=piece, victim=victim,
                                                             attacker=names[duel.attacker], defender=names[duel.defender]))
            elif e[0] == "stones" and e[3] == "bluff":
                template = T.BLUFF_GAINED if e[2] > 0 else T.BLUFF_DESTROYED
                lines.append(template.format(name=names[e[1]]))
        return tuple(lines)


def _with_bid(side: DuelSide, bid: int) -> DuelSide:
    return replace(side, bid=str(bid), sealed=False)
