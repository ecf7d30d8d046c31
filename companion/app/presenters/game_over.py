"""The end: who won and why, and for seeded dice the seed that proves every roll."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .display import Display
from .game_room import GameRoom
from .match_room import MatchRoom
from .play import Play
from .records import Records
from .armies import match_score, points_text
from .game import move_rows, result_headline, winners_words


@dataclass(frozen=True)
class GameOverView:
    headline: str
    reason: str
    moves: tuple[tuple[str, str, str], ...]
    seed: str
    seal: str
    seed_help: str
    saved: str
    copy: str = ""  # the button that copies the records to a USB stick
    can_undo: bool = False  # casual play: the move that ended the game may be taken back
    match: str = ""  # a match's score after this game, or who won it
    next_game: bool = False  # the match goes on: its next game may be chosen
    link: str = ""  # a lichess game: its address on lichess
    points: str = ""  # the points of a game that keeps them (four-player chess), most first


class GameOverPresenter:
    def __init__(self, game: GameRoom, play: Play, matches: MatchRoom, records: Records, display: Display) -> None:
        self.game = game
        self.play = play  # the move that ended a casual game may be taken back
        self.matches = matches
        self.records = records
        self.display = display

    def new_game(self) -> None:
        self.game.leave()

    def next_game(self) -> None:
        """The match's next game (its army choice)."""
        self.matches.next_game()

    def copy_records(self) -> None:
        self.records.copy()

    def undo(self) -> None:
        """Take back the move that ended the game (and the computer's reply): play goes on."""
        self.play.undo()

    def view(self) -> GameOverView | None:
        s = self.game.session
        if s is None or s.result is None:
            return None
        result = s.result
        headline = T.DRAW if result.is_draw else winners_words(s, result)
        table = self.game.table
        if table is not None and table.unfinished:
            headline = T.GAME_ENDED
        elif table is not None and table.override == (0.0, 0.0):
            headline = T.BOTH_LOSE
        seed = s.setup.seed if s.setup.seed else ""
        names = tuple(seat.name for seat in s.seats)
        match, next_game = "", False
        m = self.matches.match
        if m is not None and m.games and m.games[-1].game_id == s.setup.game_id:
            match = match_line(m)
            next_game = not m.is_over
        link = ""
        if table is not None and table.setup.source.startswith("lichess:") and table.setup.site:
            from .. import online_texts as W

            link = W.LINK.format(url=table.setup.site)
        return GameOverView(headline, T.RESULT_REASONS.get(result.reason, result.reason), move_rows(s.moves, names),
                            T.SEED_REVEALED.format(seed=seed) if seed else "",
                            T.SEAL_FULL.format(commitment=s.setup.commitment) if seed else "", T.SEED_CHECK if seed else "",
                            saved_words(self.game, self.display), T.COPY_RECORDS, self.game.can_undo(), match,
                            next_game, link, points_line(s))


def points_line(s) -> str:
    """"Points: Ann 45, Cy 32, Ben 20 and Di 0" for a game that keeps points, else ""."""
    points = s.pos.var("points")
    if not points:
        return ""
    order = sorted(range(len(s.seats)), key=lambda i: -points[i] if i < len(points) else 0)
    return T.POINTS_LINE.format(points=T.names_list(T.POINTS_OF.format(name=s.seats[i].name, n=points[i])
                                                    for i in order if i < len(points)))


def match_line(m) -> str:
    """The match's score after a game, or how it ended."""
    a, b = m.score
    sa, sb = points_text(a), points_text(b)
    if m.is_over:
        if m.winner is None:
            return T.MATCH_TIED.format(sa=sa, sb=sb)
        winner, loser = (sa, sb) if m.winner == 0 else (sb, sa)
        return T.MATCH_OVER.format(name=m.players[m.winner].name, sa=winner, sb=loser)
    return match_score(m)


def saved_words(game: GameRoom, display: Display) -> str:
    """Where the finished game is kept, in words: its file in the games folder (a game still open
    for a takeback is filed there when the players leave this screen)."""
    path = game.saved_as
    s = game.session
    if path is not None:
        where = T.GAME_SAVED.format(name=path.name, folder=path.parent)
    elif game.journal is not None and not game.journal.closed and s is not None:
        where = T.GAME_SAVED_ON_LEAVING.format(name=f"{s.setup.game_id}.jsonl", folder=game.games_folder)
    else:
        return display.notice or T.GAME_NOT_SAVED
    return " ".join(filter(None, (display.notice, where)))  # what just happened (a record copied), then where


__all__ = ["GameOverPresenter", "GameOverView", "result_headline"]
