"""espeak-ng as the board's voice (the edge): WAV files, and a worker thread that speaks.

* :func:`render_wav` writes what is said to a WAV file (``espeak-ng -w``): ``companion speak``
  and the tests, which have nothing to play to.
* :class:`Voice` speaks through ALSA: ``espeak-ng --stdout`` read by its own thread and
  handed on to ``aplay``. :meth:`Voice.say` only puts the batch on a queue and returns, so the
  UI thread and the LED path never wait for speech; the thread asks the
  :class:`~companion.speech.schedule.SpeechQueue` what to say, starts espeak-ng, and stops it
  (both processes killed) when a newer announcement cuts it short. It measures the time from
  :meth:`Voice.say` to the first bytes of sound espeak-ng gives (:attr:`Voice.latencies_ms`,
  ``companion bench``).
* A missing espeak-ng, aplay or sound card is one line (:attr:`Voice.problem`, logged once),
  and the voice stays silent: the app goes on.
"""

from __future__ import annotations

import os
import queue
import select
import shutil
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import Callable, Sequence

from ..errors import CompanionError
from ..i18n import _
from .announcements import Announcement, SpeechSettings
from .schedule import Say, SpeechQueue, Stop
from .words import for_voice

#: espeak-ng's voice for each of the board's languages.
VOICES = {"en": "en", "de": "de"}
ESPEAK = "espeak-ng"


class SpeechError(CompanionError, OSError):
    """espeak-ng is missing or failed."""


def voice_for(language: str, voice: str | None = None) -> str:
    """The espeak-ng voice: ``voice`` as given (``de+f3``, a variant), else the language's."""
    return voice or VOICES.get(language, language)


def amplitude(volume: int) -> int:
    """The board's volume (0..100 %) as espeak-ng's amplitude (0..200, 100 its default)."""
    return max(0, min(200, round(volume * 2)))


def espeak_argv(text: str, language: str, volume: int = 80, *, voice: str | None = None,
                wav: Path | None = None, espeak: str = ESPEAK) -> list[str]:
    """The command that says ``text``: to a WAV file, else as WAV on standard output."""
    argv = [espeak, "-v", voice_for(language, voice), "-a", str(amplitude(volume))]
    argv += ["-w", str(wav)] if wav is not None else ["--stdout"]
    return argv + ["--", for_voice(text)]


def find_espeak() -> str | None:
    return shutil.which(ESPEAK)


def render_wav(texts: Sequence[str], language: str, path: Path, *, volume: int = 80,
               voice: str | None = None, espeak: str | None = None) -> Path:
    """Write ``texts``, said one after the other, to the WAV file ``path``."""
    exe = espeak or find_espeak()
    if exe is None:
        raise SpeechError(_("espeak-ng is not installed (Debian: apt-get install espeak-ng; companion/install.sh "
                            "installs it)"))
    text = "\n".join(t.rstrip() + ("" if t.rstrip().endswith((".", "!", "?")) else ".") for t in texts if t)
    try:
        done = subprocess.run(espeak_argv(text, language, volume, voice=voice, wav=path, espeak=exe),
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpeechError(_("espeak-ng failed: {reason}").format(reason=e)) from None
    if done.returncode != 0:
        raise SpeechError(_("espeak-ng failed: {reason}").format(
            reason=(done.stderr or '').strip().splitlines()[-1:] or done.returncode))
    return path


def sound_card_problem(aplay: str | None = None) -> str | None:
    """Why nothing can be played here (no aplay, no sound card), or None. ``COMPANION_AUDIO``
    names an ALSA device to use as it is (``default``, ``hw:1``): then it is not looked for."""
    exe = aplay or shutil.which("aplay")
    if exe is None:
        return _("aplay is missing (Debian: apt-get install alsa-utils)")
    if os.environ.get("COMPANION_AUDIO"):
        return None
    try:
        listed = subprocess.run([exe, "-l"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        return _("aplay does not run: {reason}").format(reason=e)
    if "card " not in listed.stdout:
        return _("no sound card found (aplay -l lists none)")
    return None


def player_argv(aplay: str = "aplay") -> list[str]:
    device = os.environ.get("COMPANION_AUDIO")
    return [aplay, "-q"] + (["-D", device] if device else []) + ["-"]


class Voice:
    """The board's voice. ``sink``: the command that plays WAV from its standard input
    (:func:`player_argv`; a test gives one that writes nowhere); ``log``: where the one line
    about a missing voice goes."""

    def __init__(self, settings: SpeechSettings, *, espeak: str | None = None,
                 sink: Sequence[str] | None = None, log: Callable[[str], None] = print,
                 clock: Callable[[], float] = time.monotonic, voice: str | None = None) -> None:
        self.settings = settings
        self.espeak = espeak
        self.sink = list(sink) if sink is not None else None
        self.log = log
        self.clock = clock
        self.voice = voice
        self.problem: str | None = None
        self.latencies_ms: deque[float] = deque(maxlen=2000)
        self.spoken: deque[Announcement] = deque(maxlen=200)
        self._inbox: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._schedule = SpeechQueue(settings)
        self._asked: dict[int, tuple[Announcement, float]] = {}  # id -> (the value, kept alive; when asked)

    # ----- the caller's side (any thread; never blocks) ----------------------------------------------
    def start(self) -> "Voice":
        """Find espeak-ng and a sound card; start the thread. A missing one: one line, silent."""
        exe = self.espeak or find_espeak()
        if exe is None:
            self.problem = "espeak-ng is not installed: the board stays silent"
        elif self.sink is None:
            card = sound_card_problem()
            self.problem = f"{card}: the board stays silent" if card else None
            self.sink = player_argv()
        if self.problem is not None:
            self.log(f"speech: {self.problem}")
            return self
        self.espeak = exe
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()
        return self

    @property
    def available(self) -> bool:
        return self._thread is not None and self.problem is None

    def say(self, batch: Sequence[Announcement]) -> None:
        if batch and self._thread is not None:
            self._inbox.put(("say", tuple(batch), self.clock()))

    def configure(self, settings: SpeechSettings) -> None:
        self.settings = settings
        if self._thread is not None:
            self._inbox.put(("settings", settings, self.clock()))

    def close(self, timeout: float = 2.0) -> None:
        if self._thread is not None:
            self._inbox.put(("close", None, self.clock()))
            self._thread.join(timeout)
            self._thread = None

    def wait_idle(self, timeout: float) -> bool:
        """For tests and the bench: wait until nothing is said or waits (True), or time out."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._inbox.empty() and self._schedule.playing is None and not self._schedule.waiting:
                return True
            time.sleep(0.01)
        return False

    # ----- the thread --------------------------------------------------------------------------------
    def _run(self) -> None:
        utterance: _Utterance | None = None
        while True:
            try:
                kind, value, t = self._inbox.get(timeout=0.01 if utterance is not None else 0.5)
            except queue.Empty:
                kind = None
            commands = []
            if kind == "close":
                if utterance is not None:
                    utterance.stop()
                return
            if kind == "say":
                for a in value:
                    self._asked[id(a)] = (a, t)
                commands = self._schedule.offer(value)
            elif kind == "settings":
                self._schedule.settings = value
                if not value.on:
                    commands = self._schedule.silence()
            if utterance is not None and utterance.pump():
                utterance = None
                commands += self._schedule.finished()
            for c in commands:
                if isinstance(c, Stop) and utterance is not None:
                    utterance.stop()
                    utterance = None
                elif isinstance(c, Say):
                    _, asked = self._asked.pop(id(c.announcement), (None, self.clock()))
                    utterance = self._start(c.announcement, asked)
            if len(self._asked) > 64:  # dropped announcements: forget when they were asked
                live = {id(a) for a in self._schedule.waiting}
                self._asked = {k: v for k, v in self._asked.items() if k in live}

    def _start(self, a: Announcement, asked: float) -> "_Utterance | None":
        argv = espeak_argv(a.text, a.language, self._schedule.settings.volume, voice=self.voice, espeak=self.espeak)
        try:
            u = _Utterance(argv, self.sink, asked, self.clock, self.latencies_ms)
        except OSError as e:
            self.problem = _("speech stopped: {reason}").format(reason=e)
            self.log(f"speech: {self.problem}")
            return None
        self.spoken.append(a)
        return u


class SilentVoice:
    """A voice that says nothing (the tests' app, a board without speech): the same face."""

    problem = None
    available = False

    def say(self, batch) -> None:
        pass

    def configure(self, settings) -> None:
        pass

    def close(self, timeout: float = 2.0) -> None:
        pass


class _Utterance:
    """espeak-ng writing WAV, the sink playing it, and the bytes handed between them."""

    def __init__(self, argv, sink, asked: float, clock, latencies) -> None:
        self.asked, self.clock, self.latencies = asked, clock, latencies
        self.first = True
        self.speaker = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            self.player = subprocess.Popen(sink, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
        except OSError:
            self.speaker.kill()
            self.speaker.wait()
            raise
        os.set_blocking(self.player.stdin.fileno(), False)
        self.pending = b""
        self.eof = False

    def pump(self) -> bool:
        """Move what is ready; True when the utterance is over."""
        if not self.eof:
            ready, _, _ = select.select([self.speaker.stdout], [], [], 0.005)
            if ready:
                data = os.read(self.speaker.stdout.fileno(), 65536)
                if data:
                    if self.first:
                        self.first = False
                        self.latencies.append((self.clock() - self.asked) * 1000)
                    self.pending += data
                else:
                    self.eof = True
        if self.pending:
            try:
                n = os.write(self.player.stdin.fileno(), self.pending)
                self.pending = self.pending[n:]
            except BlockingIOError:
                pass
            except OSError:  # the player went away (no device): this utterance is over
                self.stop()
                return True
        if self.eof and not self.pending:
            try:
                self.player.stdin.close()
            except OSError:
                pass
            if self.player.poll() is None:
                return False
            self.speaker.wait()
            return True
        return False

    def stop(self) -> None:
        for p in (self.speaker, self.player):
            if p.poll() is None:
                p.kill()
        for p in (self.speaker, self.player):
            try:
                p.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        try:
            self.player.stdin.close()
        except OSError:
            pass
