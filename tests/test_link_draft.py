"""Dungeon Chess across two boards, each drafting its armies unit by unit and placing them by hand
(docs/link.md, "Drafting across two boards"): sealed until both boards' are in, checked by both.

The rule text (../shared/seeds, Dungeon Chess, "SETUP"): "1. Choose your faction 2. Draft your
army (75 XP) 3. Choose turn order ... 4. Deploy units in your spawn zone"; "ARMY DRAFTING":
"Budget: 75 XP", "Must include exactly 1 King", "Must include at least 1 Pawn".
"""

from __future__ import annotations

import json

import pytest

from companion.errors import LinkError
from companion.games.draft import Army, Deployment, build_position
from companion.link import lobby
from companion.link.events import GameReady, Refused
from companion.link.lobby import LinkSeat, Proposal, drafted_choice, rules_of
from companion.link.sealing import nonce_for
from tests.link_helpers import Pair

#: Board 1's draft (Ann, seat 0): no shipped army has a Stronghold, so it shows if it leaks.
ANN = Army("human", ("princess", "stronghold", "stronghold", "knight") + ("hero",) * 10)  # 15+20+12+20 = 67 XP
#: Board 2's (Bo, seat 1): an Ogre and a Warlord, not in the seat's default army either.
BO = Army("greenskin", ("warlord", "ogre", "shaman", "goblin", "goblin", "goblin", "goblin"))  # 15+14+20+20 = 69


def _proposal(players: int = 2) -> Proposal:
    seats = tuple(LinkSeat(name, i % 2) for i, name in enumerate(("Ann", "Bo", "Cy", "Di")[:players]))
    return Proposal("dungeon", seats, "t-draft", "dungeon-four-player" if players > 2 else None, first=0,
                    claim_after_s=60)


def _by_hand(proposal: Proposal, seat: int, army: Army) -> list[tuple[str, int]]:
    """Placed as a player would on the deployment screen, one unit at a time: each on the free
    square furthest forward and to the right (not where the automatic deployment puts it)."""
    rules = rules_of(proposal)
    armies = list(rules.armies())
    armies[seat] = army
    dep = Deployment(rules, armies, players=(seat,))
    while not dep.done:
        dep.place(max(dep.free_squares()))
    return [(unit, sq) for _, unit, sq in dep.placed]


def _agreed(pair: Pair, proposal: Proposal) -> None:
    pair.feed(pair.a, pair.a.game.propose(proposal))
    pair.pump()
    pair.feed(pair.b, pair.b.game.accept())
    pair.pump()


def _seen_by(board) -> str:
    """Everything a board has received or written, as text."""
    return json.dumps(board.records) + json.dumps(board.journal)


def test_both_boards_draft_and_place_by_hand_and_neither_sees_the_others_before_both_are_in():
    """"Draft your army (75 XP)", "Deploy units in your spawn zone": each board drafts its own
    seat's army and places it; the other board learns nothing of it until its own is sealed."""
    proposal = _proposal()
    pair = Pair(seed="draft")
    _agreed(pair, proposal)
    ann_squares = _by_hand(proposal, 0, ANN)
    pair.feed(pair.a, pair.a.game.choose({"0": drafted_choice(proposal, 0, ANN, ann_squares)}))
    pair.pump()
    assert pair.b.session is None and "stronghold" not in _seen_by(pair.b)  # only a commitment came
    assert ("setup", 0) in pair.b.game.st.commits and ("setup", 0) not in pair.b.game.st.opened
    bo_squares = _by_hand(proposal, 1, BO)
    pair.feed(pair.b, pair.b.game.choose({"1": drafted_choice(proposal, 1, BO, bo_squares)}))
    assert "ogre" not in _seen_by(pair.a)  # b opens only once both commitments are in: not yet sent
    pair.pump()
    assert any(isinstance(e, GameReady) for e in pair.a.events) and any(isinstance(e, GameReady) for e in pair.b.events)
    assert pair.a.game.st.hash() == pair.b.game.st.hash()
    rules = rules_of(proposal)
    placed = [(seat, unit, sq) for seat, squares in ((0, ann_squares), (1, bo_squares)) for unit, sq in squares]
    assert pair.a.session.rules.position_text(pair.a.session.pos) == rules.position_text(build_position(rules, placed))


def test_a_board_refuses_its_own_over_budget_or_misplaced_draft_in_one_line_and_seals_nothing():
    """"Budget: 75 XP" and "Deploy units in your spawn zone", checked before anything is sealed."""
    proposal = _proposal()
    pair = Pair(seed="draft-own")
    _agreed(pair, proposal)
    rich = Army("human", ("princess", "wizard", "wizard", "wizard", "hero"))  # 15 + 60 + 2 = 77 XP
    with pytest.raises(LinkError) as e:
        drafted_choice(proposal, 0, rich, _by_hand(proposal, 0, ANN)[:5])
    assert str(e.value) == ("Ann's army cannot be played: human army: the army costs 77 XP, over the 75 XP "
                            "budget by 2") and "\n" not in str(e.value)
    choice = drafted_choice(proposal, 0, ANN, _by_hand(proposal, 0, ANN))
    choice["placements"][0][1] = "e9"  # Bo's spawn zone
    with pytest.raises(LinkError, match=r"^Ann's army cannot be played: cannot place .* on e9: it is not in "
                                        r"player 1's spawn zone$"):
        pair.a.game.choose({"0": choice})
    with pytest.raises(LinkError, match=r"this board chooses the armies of seats \['0'\], not \['1'\]"):
        pair.a.game.choose({"1": choice})
    assert pair.a.game.st.choices is None and not pair.a.game.data_to_send()
    assert ("setup", 0) not in pair.b.game.st.commits


@pytest.mark.parametrize("cheat", ["over budget", "two kings", "a unit in the other's zone", "a unit left out"])
def test_a_cheating_board_that_seals_a_draft_the_rules_refuse_is_refused_by_the_other_when_opened(cheat, monkeypatch):
    """A board whose own check is bypassed (a modified program) can seal anything; the other board
    checks the opening against the same rules and the game does not start, said in one line."""
    proposal = _proposal()
    pair = Pair(seed=f"draft-cheat-{cheat}")
    _agreed(pair, proposal)
    rules = rules_of(proposal)
    army, squares = ANN, _by_hand(proposal, 0, ANN)
    name = rules.geometry.name_of
    if cheat == "over budget":
        army = Army("human", ANN.units + ("wizard",))  # 87 XP
        squares = squares + [("wizard", rules.geometry.parse_square("j2"))]
        squares = [(u, sq) for u, sq in squares]
    elif cheat == "two kings":
        army = Army("human", ANN.units[:-1] + ("princess",))
        squares = squares[:-1] + [("princess", squares[-1][1])]
    elif cheat == "a unit in the other's zone":
        squares = squares[:-1] + [(squares[-1][0], rules.geometry.parse_square("e8"))]
    else:
        squares = squares[:-1]
    value = {"army": {"faction": army.faction, "units": list(army.units)},
             "placements": [[u, name(sq)] for u, sq in squares]}
    monkeypatch.setattr(lobby, "check_choice", lambda *a, **k: None)  # the cheat: board 1 checks nothing
    pair.feed(pair.a, pair.a.game.choose({"0": value}))
    monkeypatch.undo()
    pair.pump()
    pair.feed(pair.b, pair.b.game.choose({"1": drafted_choice(proposal, 1, BO, _by_hand(proposal, 1, BO))}))
    pair.pump()
    refused = [e.why for e in pair.b.events if isinstance(e, Refused)]
    assert len(refused) == 1 and refused[0].startswith("the game cannot start: ") and "\n" not in refused[0]
    assert "board 1's sealed choice: Ann's army cannot be played" in refused[0]
    why = {"over budget": "over the 75 XP budget by 12", "two kings": "exactly 1 King, this one has 2",
           "a unit in the other's zone": "on e8: it is not in player 1's spawn zone",
           "a unit left out": "placements do not match the armies: missing player 1 hero x1"}[cheat]
    assert why in refused[0], refused[0]
    assert pair.b.session is None and pair.b.game.st.phase == "failed"
    assert pair.a.session is None  # the cheat's own board refuses it too, with the honest check
    assert [e.why for e in pair.a.events if isinstance(e, Refused)] == refused


def test_a_draft_changed_after_it_was_sealed_is_refused():
    """Commit-reveal: an opening that is not the army committed to (one more Stronghold) is
    refused, and the game does not start on the board that was shown it (the note's number is
    spent: the sender is not believed again for it)."""
    proposal = _proposal()
    pair = Pair(seed="draft-tamper")
    _agreed(pair, proposal)
    choice = drafted_choice(proposal, 0, ANN, _by_hand(proposal, 0, ANN))
    pair.feed(pair.a, pair.a.game.choose({"0": choice}))
    pair.pump()
    pair.feed(pair.b, pair.b.game.choose({"1": drafted_choice(proposal, 1, BO, _by_hand(proposal, 1, BO))}))
    st = pair.b.game.st
    _, k = pair.a.game.st.commits[("setup", 0)]
    sealed = json.loads(json.dumps(pair.a.game.st.sealed["setup"]))
    sealed["seats"]["0"]["army"]["units"].append("stronghold")
    forged = {"t": "note", "k": st.theirs + 1, "g": 1, "at": len(st.log), "h": st.hash(),
              "v": {"kind": "open", "label": "setup", "value": sealed, "nonce": nonce_for(pair.a.root, k)}}
    events = pair.b.game.receive(json.dumps(forged).encode(), 0)
    assert [e.why for e in events if isinstance(e, Refused)] == [
        "the opening for setup is not what the other board committed to"]
    assert pair.b.session is None
    pair.pump()
    assert pair.b.session is None and "stronghold" not in json.dumps(pair.b.journal)


def test_four_players_two_seats_at_each_board_each_drafted_and_placed_by_hand():
    """Three or four players: each board drafts and places every one of its own seats."""
    proposal = _proposal(4)
    pair = Pair(seed="draft-4")
    _agreed(pair, proposal)
    rules = rules_of(proposal)
    for board in (pair.a, pair.b):
        choices = {}
        for seat in proposal.seats_of(board.me):
            army = Army(rules.armies()[seat].faction, rules.armies()[seat].units[:1] + rules.armies()[seat].units[-1:])
            choices[str(seat)] = drafted_choice(proposal, seat, army, _by_hand(proposal, seat, army))
        pair.feed(board, board.game.choose(choices))
    pair.pump()
    assert pair.a.session is not None and pair.a.game.st.hash() == pair.b.game.st.hash()
    assert sum(1 for p in pair.a.session.pos.board if p is not None) == 8


def test_a_draft_journaled_as_sealed_but_not_yet_committed_when_the_power_went_is_committed_as_it_was():
    """The power goes between the two lines of a seal (the sealed value, then its commitment):
    nothing of it was sent; the board comes back and commits the same draft, never another."""
    from tests.test_link_game import _restart

    proposal = _proposal()
    pair = Pair(seed="draft-torn")
    _agreed(pair, proposal)
    squares = _by_hand(proposal, 1, BO)
    b = pair.b
    b.game.choose({"1": drafted_choice(proposal, 1, BO, squares)})
    b.game.data_to_send()  # never sent
    b.records[:] = [r for r in b.records if not (r.get("type") == "mine" and r["note"].get("kind") == "commit")]
    b = _restart(pair, b)
    assert b.game.st.choices == {"1": drafted_choice(proposal, 1, BO, squares)}
    with pytest.raises(LinkError, match="the choices are made"):  # no second draft
        b.game.choose({"1": drafted_choice(proposal, 1, BO, _by_hand(proposal, 1, BO)[::-1])})
    assert ("setup", 1) in pair.a.game.st.commits  # the commitment reached the other board
    pair.feed(pair.a, pair.a.game.choose({"0": drafted_choice(proposal, 0, ANN, _by_hand(proposal, 0, ANN))}))
    pair.pump()
    rules = rules_of(proposal)
    assert pair.a.session is not None and pair.a.game.st.hash() == b.game.st.hash()
    for unit, sq in squares:
        piece = pair.a.session.pos.board[sq]
        assert (piece.owner, piece.kind.code) == (1, rules.roster_kind(unit).code)


def test_link_match_boards_play_the_dungeon_armies_given_one_per_seat():
    """``companion link-match --variant dungeon --armies redskin-elite,human-balanced``: each
    board's computer seats play the preset given for the seat (not only the defaults)."""
    from companion.games.draft import presets
    from companion.link.lobby import computer_choices

    proposal = Proposal("dungeon", (LinkSeat("A 1", 0, True, 1), LinkSeat("B 2", 1, True, 1)), "t-presets")
    pair = Pair(seed="presets")
    _agreed(pair, proposal)
    armies = ["redskin-elite", "human-balanced"]  # the defaults the other way round
    for board in (pair.a, pair.b):
        pair.feed(board, board.game.choose(computer_choices(proposal, board.me, armies)))
        pair.pump()
    session = pair.a.session
    assert session is not None and pair.a.game.st.hash() == pair.b.game.st.hash()
    for seat, name in enumerate(armies):
        codes = {p.kind.code for p in session.pos.board if p is not None and p.owner == seat}
        assert codes == {session.rules.roster_kind(u).code for u in presets()[name].units}, (seat, name)
    with pytest.raises(LinkError, match=r"give one army per player \(2\), got redskin-elite"):
        computer_choices(proposal, 0, ["redskin-elite"])
