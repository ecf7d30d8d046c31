"""Stream lines shaped as lichess's OpenAPI description has them (docs/online.md names the
schema files), with our own values: the tests' common samples."""

from __future__ import annotations


def player(user_id: str, rating: int = 1500, title=None) -> dict:
    return {"id": user_id, "name": user_id.capitalize(), "title": title, "rating": rating}


def state(moves: str = "", wtime: int = 600_000, btime: int = 600_000, inc: int = 5_000, status: str = "started",
          **extra) -> dict:
    s = {"type": "gameState", "moves": moves, "wtime": wtime, "btime": btime, "winc": inc, "binc": inc,
         "status": status}
    s.update(extra)
    return s


def game_full(game_id: str = "Gm8pQz2x", white: str = "bobby", black: str = "maia", moves: str = "",
              clock: tuple[int, int] | None = (600_000, 5_000), fen: str = "startpos", **state_extra) -> dict:
    full = {"type": "gameFull", "id": game_id, "variant": {"key": "standard", "name": "Standard", "short": "Std"},
            "speed": "rapid", "perf": {"name": "Rapid"}, "rated": False, "createdAt": 1_700_000_000_000,
            "white": player(white), "black": player(black), "initialFen": fen,
            "state": state(moves, **state_extra)}
    if clock is not None:
        full["clock"] = {"initial": clock[0], "increment": clock[1]}
    else:
        full["daysPerTurn"] = 3
    return full


def game_info(game_id: str = "Gm8pQz2x", color: str = "white", opponent: str = "maia", status: str = "started",
              **extra) -> dict:
    info = {"fullId": game_id + "wxyz", "gameId": game_id, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "color": color, "lastMove": "", "source": "lobby", "status": {"id": 20, "name": status},
            "variant": {"key": "standard", "name": "Standard"}, "speed": "rapid", "perf": "rapid", "rated": False,
            "hasMoved": False, "opponent": {"id": opponent, "username": opponent.capitalize(), "rating": 1620},
            "isMyTurn": color == "white", "secondsLeft": 600, "compat": {"bot": False, "board": True},
            "id": game_id}
    info.update(extra)
    return info


def challenge(challenge_id: str = "Ch4llng1", challenger: str = "kenneth", dest: str = "bobby",
              direction: str = "in", status: str = "created", **extra) -> dict:
    c = {"id": challenge_id, "url": f"https://lichess.org/{challenge_id}", "status": status,
         "challenger": {"id": challenger, "name": challenger.capitalize(), "rating": 1700, "online": True},
         "destUser": {"id": dest, "name": dest.capitalize(), "rating": 1500},
         "variant": {"key": "standard", "name": "Standard", "short": "Std"}, "rated": False, "speed": "rapid",
         "timeControl": {"type": "clock", "limit": 900, "increment": 10, "show": "15+10"}, "color": "random",
         "finalColor": "black", "perf": {"icon": "#", "name": "Rapid"}, "direction": direction}
    c.update(extra)
    return c
