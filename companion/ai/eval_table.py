"""Evaluation tables: how the computer judges a position in one game, as data.

A table lives in ``companion/ai/tables/<game>.toml`` (a new game needs only a table; a game
without one gets the defaults below, computed from its piece data alone)::

    [evaluation]
    inherit = "chess"      # start from another table, then override
    tempo = 10             # bonus for having the move (centipawns)
    mobility = 2           # per square a piece reaches from its square on the empty board
    ...
    [values]               # piece values overriding the roster's (code = centipawns)
    [pair]                 # bonus for owning two or more of a kind (B = 30: the bishop pair)
    [open_line]            # bonus for a kind on a line with no own pawn-like piece (R = 15)
    [far_rank_gain]        # a pawn that changes by a decision on the far rank (KoL's back-row
                           # trades), with what it gains there (GN = 900): pawn-like for the terms
    [state_penalty.fatigue]
    per_point = 0.12       # a piece loses this share of its value per point of that state
    max = 0.6
    [pst.N]                # piece-square table, rows from the owner's last rank to its home rank
    mg = "..."             # middlegame; eg = "..." endgame (defaults to mg)
    [counter.stones]       # a per-player count the game keeps in a variable (a tuple, one per
    values = [0, 100, ...] # player) is worth values[count] centipawns (the last for more);
                           # or per = 100: that many centipawns a unit (four-player chess's points)
    [phase]                # a kind's weight in the middlegame/endgame blend instead of its
    RQ = 300               # value (pieces that cannot threaten a King count less)
    [goal]                 # games won by a royal piece reaching a zone (rules.goal_zone): a
    entry = [0, 150, ...]  # royal next to it, by how many zone squares it could step to safely;
    approach = 60          # and per safe square next to it from which it could

A game may assemble its table from several files (Chess 2: the game's, then each army's): its
rules list them in ``evaluation_tables``; :func:`table_for` merges them in that order.

Every key is checked: an unknown key, a wrong type or a table of the wrong size is a
VariantError naming the file and the key (docs/ai.md lists each key with its meaning).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from ..bounds import MAX_DATA_FILE_BYTES, read_text_file
from ..errors import VariantError
from ..i18n import _
from ..toml_locations import parse_toml

TABLE_DIR = Path(__file__).resolve().parent / "tables"

#: [evaluation] keys with their defaults (numbers are centipawns unless said otherwise)
DEFAULTS: dict[str, object] = {
    "tempo": 10.0,
    "mobility": 3.0,             # per empty-board reachable square (terrain aware)
    "advance": 0.12,             # share of the promotion gain earned by a pawn-like piece at the far end
    "centre": 2.0,               # per step closer to the board's centre (pieces without a table)
    "shelter": 6.0,              # per own piece next to a royal piece (middlegame)
    "tropism": 2.0,              # per step an enemy piece stands within 4 squares of a royal (middlegame)
    "mop_up": 10.0,              # endgame: drive a lone royal to the edge when far ahead
    "hunt_lead": 200.0,          # material lead (pawn-like pieces included) from which the king hunt applies
    "king_hunt": 0.0,            # when ahead: per step each own piece (royal excepted) stands closer to the enemy royal
    "king_box": 0.0,             # when ahead: per square the enemy royal could step to safely (against a bare royal: per square taken of 8)
    "bare_trap": 0.0,            # against a bare royal: bare_trap / (1 + its safe squares): its last squares count most
    "hunt_paths": False,         # the hunt's distances are walks around water and void (king steps), not straight lines
    "box_moves": False,          # the hunt counts the enemy royal's own safe moves (its slides too, the royal lifted), not its safe neighbour squares
    "xp_value": 30.0,            # centipawns per XP point for pieces with a cost but no value
    "doubled": 10.0,             # per extra pawn-like piece on a line
    "isolated": 8.0,             # pawn-like piece with no own pawn-like neighbour line
    "passed": 15.0,              # pawn-like piece with no enemy pawn-like piece ahead (scaled by progress)
    "alive": 1500.0,             # 3-4 players: worth of still being in the game (knocking a player out pays)
    "contempt": 0.0,             # how much the computer dislikes a draw
    "draw_fade": 0.5,            # share of the draw clock (fifty-move, quiet-move rule) after which scores fade toward a draw (0: off)
    "win_value": 5000.0,         # what a won (lost) game counts when chance outcomes are averaged
    "risk_scale": 0.0,           # 0: average centipawns; N: average win chances (N centipawns = 10:1 odds)
    "gain_scale": 0.0,           # N: a lead of L counts N * tanh(L / N) when chance outcomes are averaged
    "loss_value": 0.0,           # what a lost game counts when averaged (0: the same as win_value)
    "phase_material": 0.0,       # material (without pawn-like and royal pieces) of a full middlegame; 0: from the start position
    "chance_key_ignore": [],     # details of a chance decision that do not change its odds (reuse them)
    "leaf_fights": False,        # dice fights: a search's leaf is the evaluation plus the best fight by the odds (no capture search)
    "threat": 0.0,               # dice fights: share of the best fights the side not to move could start (0: off)
    "chance_qply": -1.0,         # capture-search plies after which chance outcomes are judged statically (-1: the search's own, 2)
    "fight_order": False,        # dice fights: captures ordered by the fight's odds (P(win) x victim - P(loss) x attacker)
    "fight_see": False,          # dice fights: the capture search skips a capture whose fight is worth less than nothing by its odds
    "fight_see_depth": 0.0,      # with fight_see: main-search plies left at which a bad gamble is skipped too (0: never)
    "chance_static": 0.0,        # capture search: chance outcomes less likely than this are judged statically (0: off)
    "chance_probe": False,       # main search: Star2 probing at chance nodes (each outcome's first reply bounds it)
    "chance_reduce": 0.0,        # main search: chance outcomes less likely than this are searched one ply shallower (0: off)
    "repetition_is_draw": True,  # a repeated position scores as a draw inside the search
    "outcome_every_node": True,  # ask rules.outcome at every node (False: only when no move is legal)
    "piece_mobility": 0.0,       # per square a piece (not pawn-like, not royal) reaches now, above half its mean reach
    "king_attack": 0.0,          # attack on an enemy royal's zone: king_attack * units^2 / 10 (middlegame)
    "null_move": True,           # the search may pass to test a position (two players; off for games where passing helps)
    "null_move_clears": [],      # variables a pass clears: rights only the move just made gives (chess: ep)
    "goal_race": False,          # games won by reaching a zone (Chess 2's Midline Invasion): an ended game
                                 # (rules.is_over) is scored before any pruning, and in the capture search a
                                 # side to move with a move that wins at once (rules.wins_at_once) has won
    "cell_outcome": True,        # a duel's cells judged statically (capture search) ask rules.outcome (false: only
                                 # when the side to move is in check or the game is over, as the capture search does)
}
#: the largest count a linear counter (``per = N``) tells apart (four-player chess's points)
COUNTER_LIMIT = 1000
_SUBTABLES = ("values", "pair", "open_line", "state_penalty", "pst", "far_rank_gain", "counter", "goal", "phase")


@dataclass(frozen=True)
class StatePenalty:
    per_point: float
    max: float


@dataclass(frozen=True)
class EvalTable:
    """One game's evaluation settings (see the module docstring for each key)."""

    name: str
    source: str
    settings: dict
    values: dict = field(default_factory=dict)
    pair: dict = field(default_factory=dict)
    open_line: dict = field(default_factory=dict)
    state_penalty: dict = field(default_factory=dict)
    pst: dict = field(default_factory=dict)  # code -> (mg rows, eg rows); rows: tuple of tuples
    far_rank_gain: dict = field(default_factory=dict)  # code -> what reaching the far rank gains
    counter: dict = field(default_factory=dict)  # variable name -> tuple of centipawns by count
    goal: dict = field(default_factory=dict)  # "entry": tuple by safe entries, "approach": number
    phase: dict = field(default_factory=dict)  # code -> weight in the game phase (default: its value)

    def __getattr__(self, key: str):
        try:
            return self.settings[key]
        except KeyError:
            raise AttributeError(key) from None


def table_path(name: str, directory: Path = TABLE_DIR) -> Path:
    return directory / f"{name}.toml"


def load_table(name_or_path: str | Path, directory: Path = TABLE_DIR) -> EvalTable:
    """The table for a game name (``chess``, looked up in ``directory``) or a file; the defaults
    if the game has no file. A table's ``inherit`` names a table in its own folder."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = table_path(str(name_or_path), directory)
        if not path.exists():
            return EvalTable(str(name_or_path), "<defaults>", dict(DEFAULTS))
    try:
        text = read_text_file(path, MAX_DATA_FILE_BYTES, _("an evaluation table"), VariantError)
    except FileNotFoundError:
        raise VariantError(_("{path}: no such evaluation table").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(_("{path}: cannot read the evaluation table ({reason})").format(
                               path=path, reason=getattr(e, 'strerror', None) or e)) from None
    return table_from_dict(parse_toml(text, str(path), VariantError), str(path), path.stem, directory=path.parent)


def table_with(game: str, settings: dict, where: str = "", directory: Path = TABLE_DIR) -> EvalTable:
    """``game``'s table with some ``[evaluation]`` keys changed, checked like a table file (an
    unknown key or a wrong type is a VariantError naming ``where``); the game's own table, or
    the defaults for a game without one, when nothing is changed."""
    if not settings:
        return load_table(game, directory)
    evaluation = dict(settings)
    if table_path(game, directory).exists():
        evaluation["inherit"] = game
    return table_from_dict({"evaluation": evaluation}, where or _("changed table for {game}").format(game=game), game,
                           directory=directory)


def table_from_dict(data: dict, where: str, name: str = "custom", _seen: tuple = (),
                    directory: Path = TABLE_DIR) -> EvalTable:
    for key in data:
        if key not in ("evaluation",) + _SUBTABLES:
            raise VariantError(_("{where}: unknown table [{key}]; expected [evaluation], {tables}").format(
                where=where, key=key, tables=", ".join(f"[{k}]" for k in _SUBTABLES)))
    ev = data.get("evaluation", {})
    if not isinstance(ev, dict):
        raise VariantError(_("{where}: [evaluation] must be a table").format(where=where))
    parent = ev.get("inherit")
    if parent is not None:
        if not isinstance(parent, str) or not table_path(parent, directory).exists():
            raise VariantError(_("{where}: [evaluation] inherit = {parent!r} names no table in {table_dir}").format(
                                   where=where, parent=parent, table_dir=directory))
        if parent in _seen:
            raise VariantError(_("{where}: [evaluation] inherit = {parent!r} makes a cycle").format(
                                   where=where, parent=parent))
        ppath = table_path(parent, directory)
        base = table_from_dict(parse_toml(ppath.read_text(encoding="utf-8"), str(ppath), VariantError), str(ppath),
                               parent, _seen + (name,), directory)
    else:
        base = EvalTable(name, where, dict(DEFAULTS))
    settings = dict(base.settings)
    for key, value in ev.items():
        if key == "inherit":
            continue
        if key not in DEFAULTS:
            raise VariantError(_("{where}: [evaluation] unknown key {key!r}; allowed: inherit, {defaults}").format(
                                   where=where, key=key, defaults=', '.join(sorted(DEFAULTS))))
        want = type(DEFAULTS[key])
        if want is list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise VariantError(_("{where}: [evaluation] {key} must be a list of names, got {value!r}").format(
                                       where=where, key=key, value=value))
        elif want is bool:
            if not isinstance(value, bool):
                raise VariantError(_("{where}: [evaluation] {key} must be true or false, got {value!r}").format(
                                       where=where, key=key, value=value))
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise VariantError(_("{where}: [evaluation] {key} must be a number, got {value!r}").format(
                                   where=where, key=key, value=value))
        else:
            value = float(value)
        settings[key] = value
    if not 0 <= settings["draw_fade"] < 1:
        raise VariantError(_("{where}: [evaluation] draw_fade is the share of the draw clock after which scores "
                             "fade, from 0 (off) up to but not including 1, got {settings!r}").format(
                               where=where, settings=settings['draw_fade']))
    values = dict(base.values)
    values.update(_numbers(data.get("values", {}), where, "values"))
    pair = dict(base.pair)
    pair.update(_numbers(data.get("pair", {}), where, "pair"))
    open_line = dict(base.open_line)
    open_line.update(_numbers(data.get("open_line", {}), where, "open_line"))
    far = dict(base.far_rank_gain)
    far.update(_numbers(data.get("far_rank_gain", {}), where, "far_rank_gain"))
    penalties = dict(base.state_penalty)
    sp = data.get("state_penalty", {})
    if not isinstance(sp, dict):
        raise VariantError(_("{where}: [state_penalty] must hold tables like [state_penalty.fatigue]").format(
                               where=where))
    for key, t in sp.items():
        at = f"{where}: [state_penalty.{key}]"
        if not isinstance(t, dict) or set(t) - {"per_point", "max"} or "per_point" not in t:
            raise VariantError(_("{at} needs per_point = <share of value per point> and optionally max = <largest "
                                 "share>").format(at=at))
        nums = _numbers(t, where, f"state_penalty.{key}")
        per, most = nums["per_point"], nums.get("max", 1.0)
        if not (0 <= per <= 1 and 0 <= most <= 1):
            raise VariantError(_("{at}: per_point and max are shares of the piece's value, from 0 to 1").format(at=at))
        penalties[key] = StatePenalty(per, most)
    pst = dict(base.pst)
    ptab = data.get("pst", {})
    if not isinstance(ptab, dict):
        raise VariantError(_("{where}: [pst] must hold tables like [pst.N]").format(where=where))
    for code, t in ptab.items():
        at = f"[pst.{code}]"
        if not isinstance(t, dict) or set(t) - {"mg", "eg"} or "mg" not in t:
            raise VariantError(_("{where}: {at} needs mg = \"\"\"rows\"\"\" and optionally eg = \"\"\"rows\"\"\"").format(
                                   where=where, at=at))
        mg = _grid(t["mg"], where, f"{at} mg")
        eg = _grid(t["eg"], where, f"{at} eg") if "eg" in t else mg
        if (len(eg), len(eg[0])) != (len(mg), len(mg[0])):
            raise VariantError(_("{where}: {at} eg is {n}x{n2}, mg is {n3}x{n4}; they must match").format(
                                   where=where, at=at, n=len(eg[0]), n2=len(eg), n3=len(mg[0]), n4=len(mg)))
        pst[code] = (mg, eg)
    counters = dict(base.counter)
    ctab = data.get("counter", {})
    if not isinstance(ctab, dict):
        raise VariantError(_("{where}: [counter] must hold tables like [counter.stones]").format(where=where))
    for var, t in ctab.items():
        at = f"{where}: [counter.{var}]"
        if isinstance(t, dict) and set(t) == {"per"}:  # linear: per centipawns a unit (points)
            per = t["per"]
            if isinstance(per, bool) or not isinstance(per, (int, float)):
                raise VariantError(_("{at}: per must be a number of centipawns, got {per!r}").format(at=at, per=per))
            counters[var] = tuple(float(per) * n for n in range(COUNTER_LIMIT + 1))
            continue
        vals = t.get("values") if isinstance(t, dict) else None
        if not isinstance(t, dict) or set(t) != {"values"} or not isinstance(vals, list) or not vals:
            raise VariantError(_("{at} needs values = [centipawns for a count of 0, 1, 2, ...] or per = "
                                 "<centipawns>").format(at=at))
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in vals):
            raise VariantError(_("{at}: values must be numbers, got {vals!r}").format(at=at, vals=vals))
        counters[var] = tuple(float(v) for v in vals)
    goal = dict(base.goal)
    gtab = data.get("goal", {})
    if not isinstance(gtab, dict) or set(gtab) - {"entry", "approach"}:
        raise VariantError(_("{where}: [goal] takes entry = [centipawns by safe entry squares 0, 1, 2, ...] and "
                             "approach = <centipawns>").format(where=where))
    if "entry" in gtab:
        entry = gtab["entry"]
        if not isinstance(entry, list) or not entry or any(isinstance(v, bool) or not isinstance(v, (int, float))
                                                           for v in entry):
            raise VariantError(_("{where}: [goal] entry must be a list of numbers, got {entry!r}").format(
                                   where=where, entry=entry))
        goal["entry"] = tuple(float(v) for v in entry)
    if "approach" in gtab:
        goal["approach"] = _numbers({"approach": gtab["approach"]}, where, "goal")["approach"]
    phase = dict(base.phase)
    phase.update(_numbers(data.get("phase", {}), where, "phase"))
    return EvalTable(name, where, settings, values, pair, open_line, penalties, pst, far_rank_gain=far,
                     counter=counters, goal=goal, phase=phase)


def merge_tables(tables, name: str) -> EvalTable:
    """One table from several: the first's settings; values, pairs, open lines, state
    penalties, piece-square tables and counters of all, later ones adding to (and overriding)
    earlier ones."""
    first = tables[0]
    parts = {k: {} for k in ("values", "pair", "open_line", "state_penalty", "pst", "far_rank_gain", "counter",
                             "goal", "phase")}
    for t in tables:
        for k, d in parts.items():
            d.update(getattr(t, k))
    return EvalTable(name, " + ".join(t.source for t in tables), dict(first.settings), **parts)


def table_for(rules, settings: dict | None = None, where: str = "", directory: Path = TABLE_DIR) -> EvalTable:
    """The table a game's computer uses: ``rules.evaluation_tables`` merged when the game lists
    several (Chess 2: its own and each army's), else its own (:func:`load_table`); with
    ``[evaluation]`` keys changed by ``settings``, checked like a table file."""
    names = getattr(rules, "evaluation_tables", None)
    if not names:
        return table_with(rules.name, settings or {}, where, directory) if settings else load_table(rules.name, directory)
    table = merge_tables([load_table(n, directory) for n in names], rules.name)
    if settings:
        checked = table_from_dict({"evaluation": dict(settings)}, where or _("changed table for {game}").format(game=rules.name))
        merged = dict(table.settings)
        merged.update({k: checked.settings[k] for k in settings})
        table = dataclasses.replace(table, settings=merged)
    return table


def _numbers(t: object, where: str, key: str) -> dict:
    if not isinstance(t, dict):
        raise VariantError(_("{where}: [{key}] must be a table of numbers").format(where=where, key=key))
    out = {}
    for k, v in t.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise VariantError(_("{where}: [{key}] {k} must be a number, got {v!r}").format(
                                   where=where, key=key, k=k, v=v))
        out[k] = float(v)
    return out


def _grid(text: object, where: str, key: str) -> tuple[tuple[float, ...], ...]:
    if not isinstance(text, str):
        raise VariantError(_("{where}: {key} must be a multi-line string of numbers").format(where=where, key=key))
    rows = []
    for i, line in enumerate(filter(None, (ln.strip() for ln in text.splitlines()))):
        try:
            rows.append(tuple(float(v) for v in line.split()))
        except ValueError:
            raise VariantError(_("{where}: {key} row {i}: {line!r} holds something that is not a number").format(
                                   where=where, key=key, i=i + 1, line=line)) from None
    if not rows or len({len(r) for r in rows}) != 1:
        raise VariantError(_("{where}: {key} rows must all have the same number of values").format(
                               where=where, key=key))
    return tuple(rows)
