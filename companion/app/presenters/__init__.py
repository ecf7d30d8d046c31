"""The app without Kivy: its rooms (each owns a part of the app's state: the game, the board,
the display, the clock, ...), built and wired in flow.py around a message bus (messages.py),
and one presenter per screen, handed only the rooms it uses (docs/architecture.md, "The app's
rooms")."""
