"""The board's voice (companion/speech/espeak.py, ``companion speak``): speech rendered to WAV
with espeak-ng and checked to be there and not silence; the worker thread that never blocks
its caller, cuts a stale announcement short, and goes silent in one line without espeak-ng or
a sound card. Nothing is played: the sink is a command that writes what it gets to a file."""

from __future__ import annotations

import array
import math
import subprocess
import sys
import time
import wave
from pathlib import Path

import pytest

from companion.speech import espeak
from companion.speech.announcements import Announcement, Kind, Priority, SpeechSettings
from companion.speech.espeak import Voice, espeak_argv, render_wav

#: RMS of 16-bit samples above which a file is speech, not silence (espeak-ng's speech is
#: about 3,000-5,000; silence 0).
NOT_SILENCE = 300

needs_espeak = pytest.mark.skipif(espeak.find_espeak() is None,
                                  reason="espeak-ng is missing: companion/install.sh installs it")


def rms(path: Path) -> tuple[float, float]:
    """(RMS of the samples, seconds) of a 16-bit mono WAV file."""
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        frames = w.readframes(w.getnframes())
        rate = w.getframerate()
    samples = array.array("h", frames)
    if sys.byteorder == "big":
        samples.byteswap()
    if not samples:
        return 0.0, 0.0
    return math.sqrt(sum(x * x for x in samples) / len(samples)), len(samples) / rate


@needs_espeak
@pytest.mark.parametrize("language, text", [("en", "Knight takes e5, check"), ("de", "Springer schlägt auf e5, Schach")])
def test_speech_renders_to_a_wav_file_that_is_not_silence(tmp_path, language, text):
    path = render_wav([text], language, tmp_path / "move.wav")
    level, seconds = rms(path)
    assert level > NOT_SILENCE
    assert 0.5 < seconds < 10


@needs_espeak
def test_volume_zero_is_silence(tmp_path):
    level, seconds = rms(render_wav(["Pawn e4"], "en", tmp_path / "quiet.wav", volume=0))
    assert level < NOT_SILENCE and seconds > 0.2


@pytest.fixture
def run(capsys):
    """``companion ARGS`` in this process: (exit status, stdout, stderr)."""
    from companion.cli import main

    def go(*args: str) -> subprocess.CompletedProcess:
        code = main(list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return go


@needs_espeak
def test_companion_speak_writes_what_the_board_would_say(tmp_path, run):
    out = tmp_path / "game.wav"
    done = run("speak", "--lang", "de", "--variant", "combat", "--moves", "e2e4", "d7d5", "e4d5", "-o", str(out),
               "--text")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Bauer schlägt auf d5" in lines
    assert any(line.startswith("Kampf auf d5:") for line in lines)
    assert any(line.startswith("Angreifer: ") for line in lines)
    level, seconds = rms(out)
    assert level > NOT_SILENCE and seconds > 5


@pytest.mark.parametrize("args, message", [
    (("--lang", "xx", "--text"), "no language 'xx'; the board speaks: de, en"),
    (("--moves", "e2e5", "--text"), "'e2e5' is not a legal move here"),
    (("--moves", "e2e4"), "give -o FILE.wav to write the sound, or --text to print the sentences"),
    (("--volume", "300", "--text"), "--volume is 0 to 100, got 300"),
])
def test_companion_speak_refuses_a_bad_input_in_one_line(run, args, message):
    done = run("speak", *args)
    assert done.returncode == 2
    assert done.stderr == f"companion: {message}\n"


@needs_espeak
def test_companion_speak_refuses_a_folder_as_its_output(tmp_path, run):
    done = run("speak", "--moves", "e2e4", "-o", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a regular file" in done.stderr


def test_the_voice_reads_square_names_letter_by_letter():
    argv = espeak_argv("Knight takes e5", "de", 50)
    assert argv[:5] == ["espeak-ng", "-v", "de", "-a", "100"]
    assert argv[-2:] == ["--", "Knight takes E 5"]
    assert "--stdout" in argv


# --- the worker --------------------------------------------------------------------------------------------
def move(text: str) -> Announcement:
    return Announcement(text, "en", Priority.MOVE, Kind.MOVE)


def sink_to(path: Path) -> list[str]:
    return ["sh", "-c", f"cat >> '{path}'"]


@needs_espeak
def test_the_voice_speaks_on_its_own_thread_and_measures_the_time_to_the_first_sound(tmp_path):
    heard = tmp_path / "heard.wav"
    voice = Voice(SpeechSettings(on=True), sink=sink_to(heard)).start()
    try:
        assert voice.available
        t = time.monotonic()
        voice.say([move("Knight takes e5, check")])
        assert time.monotonic() - t < 0.05  # the caller (the UI thread) never waits for speech
        assert voice.wait_idle(30)
    finally:
        voice.close()
    assert heard.stat().st_size > 10_000
    assert len(voice.latencies_ms) == 1 and 0 < voice.latencies_ms[0] < 5000
    assert [a.text for a in voice.spoken] == ["Knight takes e5, check"]


@needs_espeak
def test_a_newer_announcement_cuts_a_stale_one_short(tmp_path):
    heard = tmp_path / "heard.wav"
    voice = Voice(SpeechSettings(on=True), sink=["sh", "-c", f"sleep 0.3; cat >> '{heard}'"]).start()
    long = "Pawn e4. " * 40
    try:
        voice.say([move(long)])
        deadline = time.monotonic() + 10
        while not voice.spoken and time.monotonic() < deadline:
            time.sleep(0.01)
        voice.say([move("Knight f3")])
        assert voice.wait_idle(30)
    finally:
        voice.close()
    assert [a.text for a in voice.spoken] == [long, "Knight f3"]
    whole = render_wav([long], "en", tmp_path / "whole.wav")
    assert heard.stat().st_size < whole.stat().st_size  # the long one was cut short


def test_without_espeak_the_voice_says_so_in_one_line_and_stays_silent(monkeypatch):
    monkeypatch.setattr(espeak, "find_espeak", lambda: None)
    lines = []
    voice = Voice(SpeechSettings(on=True), log=lines.append).start()
    voice.say([move("Pawn e4")])
    assert not voice.available
    assert lines == ["speech: espeak-ng is not installed: the board stays silent"]
    voice.close()


@needs_espeak
def test_without_a_sound_card_the_voice_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(espeak, "sound_card_problem", lambda: "no sound card found (aplay -l lists none)")
    lines = []
    voice = Voice(SpeechSettings(on=True), log=lines.append).start()
    assert not voice.available
    assert lines == ["speech: no sound card found (aplay -l lists none): the board stays silent"]


def test_a_named_alsa_device_is_used_as_given(monkeypatch):
    monkeypatch.setenv("COMPANION_AUDIO", "hw:1")
    assert espeak.player_argv() == ["aplay", "-q", "-D", "hw:1", "-"]
    assert espeak.sound_card_problem("/bin/true") is None


@needs_espeak
@pytest.mark.slow
def test_the_speech_bench_gives_its_figures():
    from companion.speech.bench import bench_speech

    rows = {label: value for label, value, _unit in bench_speech(quick=True)}
    assert rows["speech: move to first sound median"] > 0
    assert rows["speech: event to LED frame p99, speech on"] > 0
    assert rows["speech: event to LED p99 ratio on/off"] > 0
