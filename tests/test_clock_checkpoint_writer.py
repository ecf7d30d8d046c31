"""The running clock's checkpoint is written on a thread of its own (CheckpointWriter,
companion/tournament/checkpoint.py): the UI thread only hands the latest value over. The
latest value wins, one write at a time, each atomic (two slots with a CRC), a clear in order
with the writes, and a failing disk reported once in one line, with nothing lost."""

import threading

from companion.tournament.checkpoint import SLOT, CheckpointFile, CheckpointWriter, read_checkpoint


class GatedFile(CheckpointFile):
    """A checkpoint file whose writes wait at a gate (a slow SD card), counting overlaps."""

    def __init__(self, path):
        super().__init__(path, sync=False)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.active = 0
        self.most_at_once = 0
        self.values = []

    def write(self, entries, running, moves, spent):
        self.active += 1
        self.most_at_once = max(self.most_at_once, self.active)
        self.entered.set()
        self.gate.wait(10)
        try:
            cp = super().write(entries, running, moves, spent)
            self.values.append(spent)
            return cp
        finally:
            self.active -= 1


def test_the_latest_value_wins_and_never_two_writes_at_once(tmp_path):
    f = GatedFile(tmp_path / "clock.checkpoint")
    w = CheckpointWriter(f)
    w.put(3, 0, (1, 1), 100)
    assert f.entered.wait(10)  # the first write is on its way, held by the slow disk
    for spent in (600, 1100, 1600):  # the UI thread goes on; each value replaces the one before
        w.put(3, 0, (1, 1), spent)
    f.gate.set()
    assert w.flush()
    assert f.values == [100, 1600] and f.most_at_once == 1
    assert w.writes == 2 and w.replaced == 2
    cp = read_checkpoint(f.path)
    assert (cp.entries, cp.running, cp.moves, cp.spent) == (3, 0, (1, 1), 1600)
    w.close()


def test_put_does_not_wait_for_the_disk(tmp_path):
    f = GatedFile(tmp_path / "clock.checkpoint")
    w = CheckpointWriter(f)
    w.put(1, 0, (0, 0), 500)  # the disk is stuck (gate closed): put returns all the same
    w.put(1, 0, (0, 0), 1000)
    assert f.entered.wait(10) and not f.values
    f.gate.set()
    w.close()  # close writes what is pending: nothing is lost
    assert f.values[-1] == 1000 and read_checkpoint(f.path).spent == 1000


def test_a_clear_is_done_in_order_with_the_writes(tmp_path):
    f = GatedFile(tmp_path / "clock.checkpoint")
    f.gate.set()
    w = CheckpointWriter(f)
    w.put(5, 1, (4, 3), 700)
    w.flush()
    assert read_checkpoint(f.path).spent == 700
    f.gate.clear()
    w.put(5, 1, (4, 3), 900)
    assert f.entered.wait(10)
    w.put(5, 1, (4, 3), 1400)  # put before the clear: dropped by it
    w.clear()
    w.put(1, 0, (0, 0), 200)  # the next game's, after the clear: written after it
    f.gate.set()
    assert w.flush()
    cp = read_checkpoint(f.path)
    assert (cp.entries, cp.spent) == (1, 200) and 1400 not in f.values
    w.clear()
    w.flush()
    assert not f.path.exists() and read_checkpoint(f.path) is None
    w.close()


def test_each_write_is_atomic_in_its_slot(tmp_path):
    """A write cut off half way (a power cut) leaves the other slot's checkpoint readable."""
    w = CheckpointWriter(CheckpointFile(tmp_path / "clock.checkpoint", sync=False))
    w.put(2, 0, (1, 0), 300)
    w.put(2, 0, (1, 0), 300)
    w.flush()
    w.put(2, 0, (1, 0), 800)
    w.close()
    path = tmp_path / "clock.checkpoint"
    assert read_checkpoint(path).spent == 800
    data = bytearray(path.read_bytes())
    newest = read_checkpoint(path).counter % 2
    data[newest * SLOT + 10: newest * SLOT + 40] = b"\0" * 30  # the newest slot torn
    path.write_bytes(bytes(data))
    assert read_checkpoint(path).spent == 300


def test_a_failing_disk_is_reported_once_in_one_line_and_nothing_is_lost(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the games folder should be")
    w = CheckpointWriter(CheckpointFile(blocker / "clock.checkpoint", sync=False))
    for spent in (100, 600, 1100):
        w.put(1, 0, (0, 0), spent)
        w.flush()
    error = w.take_error()
    assert error is not None and "\n" not in error and str(blocker) in error
    assert w.take_error() is None  # once, not twice a second
    blocker.unlink()  # the disk is back: the next value is written, a new failure reported anew
    w.put(1, 0, (0, 0), 1600)
    w.flush()
    assert read_checkpoint(blocker / "clock.checkpoint").spent == 1600 and w.take_error() is None
    w.close()


def test_the_app_hands_the_checkpoint_to_the_writer_and_says_once_when_it_fails(tmp_path):
    """In the app: the running clock's checkpoint goes through the writer every CHECKPOINT_MS;
    a disk that refuses it is one notice on the screen, and the game goes on."""
    from companion.app import texts as T
    from companion.app.presenters.clock_room import CHECKPOINT_MS
    from tests.test_app_clock_pacing import clocked_app

    app = clocked_app(tmp_path)  # White's clock runs from t = 1000
    flow = app.flow
    writer = flow.clock.checkpoints
    flow.pump(2000)
    assert writer.flush()
    cp = read_checkpoint(writer.file.path)
    assert cp is not None and cp.running == 0 and cp.spent == 1000
    writer.file.close()
    (tmp_path / "gone").write_text("a file where the folder should be")
    writer.file.path = tmp_path / "gone" / "clock.checkpoint"
    flow.display.notice = ""
    flow.pump(2000 + CHECKPOINT_MS)
    writer.flush()
    flow.pump(2000 + CHECKPOINT_MS + 10)
    assert flow.display.notice.startswith(T.CLOCK_NOT_SAVED.split("{")[0]) and "\n" not in flow.display.notice
    flow.display.notice = ""
    flow.pump(2000 + 2 * CHECKPOINT_MS)
    writer.flush()
    flow.pump(2000 + 2 * CHECKPOINT_MS + 10)
    assert flow.display.notice == ""  # once, not twice a second
    assert flow.game.table.clock.running == 0 and not flow.game.table.is_over  # the game goes on
    flow.stop()


def test_a_clear_before_any_value_forgets_the_old_checkpoint_without_a_thread(tmp_path):
    path = tmp_path / "clock.checkpoint"
    CheckpointFile(path, sync=False).write(4, 1, (2, 2), 300)  # left by the last run
    w = CheckpointWriter(CheckpointFile(path, sync=False))
    w.clear()  # a new game without a clock
    assert not path.exists() and w._thread is None
    w.close()
