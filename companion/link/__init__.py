"""Board to board: two boards play any game, each at its own board, across a room or the internet.

The pure core (no I/O, no threads, no clock; time and randomness come in as values):

================  ===========================================================================
``code.py``       the pairing code: eight digits shown on one board, typed on the other
``pairing.py``    SPAKE2 from the code: both boards derive one key, nobody else can
``channel.py``    the sealed channel: epochs, ChaCha20-Poly1305, counters; every fault refused
``state.py``      what a board knows of a linked game; the single writer; the position hash
``lobby.py``      the proposal, each board's sealed choices, the set-up both build alike
``sealing.py``    commitments (commit-reveal) of a board's secret choices
``fair.py``       sealed choices, a fight's dice from both boards' secrets, duel bids
``requests.py``   what a board asks the other to write; takebacks; a claim
``game.py``       :class:`LinkedGame`, the façade: messages in, events and messages out
``events.py``     what the screen is told
================  ===========================================================================

The edges: ``store.py`` (what a board keeps on disk), ``transport.py`` (TCP, MQTT, the port
a board's loop drains), ``discovery.py`` (zeroconf), ``board.py`` (a board without a screen),
``match.py`` (``companion link-match``), ``bench.py``. docs/link.md tells the whole story.
"""
