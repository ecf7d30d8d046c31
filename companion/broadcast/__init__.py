"""Live broadcast: each board serves its game over HTTP, and ``companion hall`` gathers a round.

* :mod:`.picture` and :mod:`.svg` (pure): a position as a drawing made from the game's data
  (board size, terrain, pieces, seats' colours), for every game and map size.
* :mod:`.snapshot` (pure): what a board serves, frozen after every change on the UI thread.
* :mod:`.web` (the edge): the aiohttp pieces both servers share: request limits, read-only
  routes, pages held in memory, server-sent events.
* :mod:`.board_server`: the board's own server, in its own thread with its own asyncio loop.
* :mod:`.discovery`: zeroconf (mDNS/DNS-SD) announce and browse.
* :mod:`.hall`: the hall that follows many boards and serves the round.

docs/broadcast.md says why aiohttp and zeroconf, and what is served.
"""
