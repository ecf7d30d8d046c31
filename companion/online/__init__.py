"""Play on lichess from the board, and push a round to a lichess broadcast (docs/online.md).

The pure core (no I/O, no threads, no clock: every call takes the time), in the h11 manner:
``ndjson`` (stream bytes to lines), ``events`` (lines to values, as lichess's OpenAPI
description has them), ``game`` (one game's state machine: what to play on the board, what
to send, a move sent once and never twice), ``lobby`` (the event stream: games and
challenges), ``api`` (requests as values; the time controls the Board API allows),
``backoff`` (when to try again; 429 means a full minute), ``push`` (when the hall pushes its
round), ``connect`` (a token's page, OAuth2 PKCE).

The edge: ``token`` (the token file, 0600, never shown), ``client`` (aiohttp),
``link`` (the thread that keeps the streams open and only posts events), ``cli``
(``companion lichess check``).
"""
