"""The board speaks: what it says for each event of the game, and the voice that says it.

Pure rooms (no threads, no clock, no processes: events, timestamps and a language in,
announcements out):

* ``announcements``: the values: :class:`Announcement` (text, language, priority, kind) and the
  settings a board keeps (:class:`SpeechSettings`: on, volume, moves only);
* ``moves``: a move as a spoken value (:class:`SpokenMove`), from standard notation or from the
  rules and the position;
* ``words``: every sentence, in a :class:`companion.i18n.Language`;
* ``announcer``: :class:`Announcer`, the listener of the session's, the table's and the
  tracker's events (and of the clock and the sensors, for warnings and what a lifted piece can
  do) that turns them into announcements;
* ``schedule``: :class:`SpeechQueue`, which decides what is said next and when a newer
  announcement cuts a stale one short.

Edges: ``espeak`` (espeak-ng as a voice: a worker thread that never blocks the caller; WAV
files for tests and ``companion speak``), ``cli`` (``companion speak``), ``bench`` (the time to
the first sound). docs/speech.md. Import what you use from its module (this package imports
nothing, so the command line reads the words without loading the game).
"""
