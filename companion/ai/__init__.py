"""Computer opponents for every game: one search over the engine's public API (docs/ai.md).

    from companion.ai.levels import ComputerPlayer, parse_level
    player = ComputerPlayer(rules, parse_level("max"), random.Random(seed))
    info = player.choose(pos, now=time.perf_counter, budget=1.0)   # info.best: the move

In the app, run it through companion.ai.worker.SearchWorker (a thread; events on a queue).
``companion.ai.players.computer_players(variant)`` lists what a seat may choose (our levels;
Stockfish by Elo for FIDE chess: companion.ai.stockfish); ``companion.ai.coach.Coach`` gives
hints, threats and a blunder check; ``companion.ai.analysis.review_game`` reviews a finished
game (``companion.ai.worker.ReviewWorker`` in the background).
"""
