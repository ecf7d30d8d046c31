"""Review findings: the README's install script on a Debian machine where it cannot install.

The script runs with a PATH of stubs only, so nothing is installed and no real sudo or apt-get
can be reached."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _stub(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


def test_without_root_and_without_sudo_the_script_says_what_to_install_and_stops(tmp_path):
    """A Debian installed with a root password has no sudo: say so in one line, do not fail
    with "sudo: command not found" halfway."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dirname", "grep", "cat"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    _stub(bin_dir, "id", 'echo 1000')
    _stub(bin_dir, "dpkg-query", 'exit 1')  # nothing installed
    _stub(bin_dir, "apt-get", f'echo called >> "{tmp_path}/apt-get-called"; exit 0')
    result = subprocess.run(["/bin/bash", str(ROOT / "companion" / "install.sh"), "test"],
                            env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1, result.stderr
    assert not (tmp_path / "apt-get-called").exists()
    assert "command not found" not in result.stderr
    assert "sudo" in result.stderr and "python3-venv" in result.stderr and "xvfb" in result.stderr
