"""companion/install.sh's Pi and arm64 modes, without installing anything: the model read from
the device tree (COMPANION_PI_MODEL stands in for it), the plan a dry run says, the unit it
writes, and the arm64 check refusing at once when its emulator is missing (a fake PATH)."""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(args, env=None, path=None):
    full = dict(os.environ, **(env or {}))
    if path is not None:
        full["PATH"] = path
    return subprocess.run(["bash", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("model, extra", [
    ("Raspberry Pi 4 Model B Rev 1.5", "pi"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi"),
    ("Raspberry Pi 5 Model B Rev 1.0", "pi5"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "pi5"),
])
def test_the_pi_mode_picks_the_extra_by_model_and_names_the_build_tools(model, extra):
    out = run(["companion/install.sh", "pi", "--dry-run"], {"COMPANION_PI_MODEL": model})
    assert out.returncode == 0, out.stderr
    assert f"on a {model}" in out.stderr
    assert f"companion[test,{extra}]" in out.stderr
    # rpi-ws281x and spidev compile on arm64: a trimmed image has no compiler unless named
    assert "build-essential" in out.stderr and "python3-dev" in out.stderr


def test_the_pi_mode_refuses_a_machine_that_is_not_a_pi():
    out = run(["companion/install.sh", "pi", "--dry-run"], {"COMPANION_PI_MODEL": "QEMU Virtual Machine"})
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == (
        "[companion] this is not a Raspberry Pi (its model is 'QEMU Virtual Machine'): use 'bash companion/install.sh run'")


def test_the_pi_mode_refuses_an_unknown_option():
    out = run(["companion/install.sh", "pi", "--servise"], {"COMPANION_PI_MODEL": "Raspberry Pi 4 Model B"})
    assert out.returncode == 2 and "unknown option '--servise'" in out.stderr


def test_the_unit_is_written_for_this_user_folder_and_board(tmp_path):
    """The unit part of 'pi --service', with the unit folder redirected (nothing enabled)."""
    script = ROOT / "companion" / "install.sh"
    text = script.read_text()
    start = text.index("pi_unit() {")
    end = text.index("\n}\n", start) + 3
    snippet = ("pi_options=(--profile gpio-8x8)\n" + text[start:end] + "pi_unit\n")
    out = subprocess.run(["bash", "-c", snippet], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert f"ExecStart={ROOT}/.venv/bin/companion --profile gpio-8x8" in lines
    assert f"WorkingDirectory={ROOT}" in lines
    assert f"User={os.environ.get('SUDO_USER') or getpass.getuser()}" in lines
    assert "WatchdogSec=30" in lines and "Type=notify" in lines


def fake_path(tmp_path: Path, *stubs: str) -> str:
    """A PATH with bash's basic tools and, of the emulation's tools, only ``stubs`` (scripts that
    do nothing: whether this machine has the real ones does not matter)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("bash", "dirname", "cat", "printf", "awk", "id", "env", "date", "rm", "mkdir", "uname"):
        real = shutil.which(name)
        if real:
            (bin_dir / name).symlink_to(real)
    for name in stubs:
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    return str(bin_dir)


def test_the_arm64_check_refuses_clearly_without_qemu_and_proot(tmp_path):
    out = run(["companion/install.sh", "arm64-check"], {"COMPANION_ARM64_NO_APT": "1"},
              path=fake_path(tmp_path, "debootstrap"))
    assert out.returncode == 2
    assert out.stderr.strip() == ("arm64-check: cannot emulate arm64 here: missing qemu-aarch64-static(qemu-user-static) "
                                  "proot(proot); install them as root: apt-get install qemu-user-static proot")


def test_the_arm64_check_refuses_without_proot_alone(tmp_path):
    path = fake_path(tmp_path, "debootstrap", "qemu-aarch64-static")
    out = run(["companion/arm64_check.sh", "root"], {"COMPANION_ARM64_NO_APT": "1"}, path=path)
    assert out.returncode == 2
    assert "missing proot(proot)" in out.stderr and "qemu" not in out.stderr.split("install them")[0]


def test_the_arm64_check_takes_the_archive_apt_uses(tmp_path):
    """deb822 .sources and one-line sources.list entries; the bookworm suite's archive."""
    apt = tmp_path / "apt"
    (apt / "sources.list.d").mkdir(parents=True)
    (apt / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\n# a comment\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\n\nTypes: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n")
    script = (ROOT / "companion" / "arm64_check.sh").read_text()
    start = script.index("mirror() {")
    end = script.index("\n}\n", start) + 3
    snippet = f"suite=bookworm; apt_etc={apt}\ndie() {{ echo \"$*\" >&2; exit 2; }}\n" + script[start:end] + "mirror\n"
    out = subprocess.run(["bash", "-c", snippet], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "http://mirror.example/debian", out.stderr
    (apt / "sources.list").write_text("deb [arch=amd64 signed-by=/k.gpg] http://old.example/debian bookworm main\n")
    out = subprocess.run(["bash", "-c", snippet], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "http://old.example/debian"
    (apt / "sources.list").unlink()
    (apt / "sources.list.d" / "debian.sources").unlink()
    out = subprocess.run(["bash", "-c", snippet], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "set COMPANION_ARM64_MIRROR" in out.stderr


def test_the_arm64_check_refuses_an_unknown_step(tmp_path):
    out = run(["companion/arm64_check.sh", "everything"], {"COMPANION_ARM64_NO_APT": "1"})
    assert out.returncode == 2 and "unknown step 'everything'" in out.stderr


def test_bench_emulated_without_the_arm64_root_is_one_line(tmp_path, capsys, monkeypatch):
    from companion.cli import main

    monkeypatch.setenv("COMPANION_ARM64_ROOT", str(tmp_path / "none"))
    assert main(["bench", "--emulated"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"companion: bench --emulated: no installed arm64 root at {tmp_path / 'none'}; build it first: "
                   "bash companion/install.sh arm64-check (about an hour)")
