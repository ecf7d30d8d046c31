"""Review findings: the README's install script on a Debian machine where it cannot install.

The script runs with a PATH of stubs only, so nothing is installed and no real sudo or apt-get
can be reached."""

from __future__ import annotations

import os
import re
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


def test_a_virtual_environment_left_without_pip_is_made_again(tmp_path):
    """A .venv made while python3-venv was missing has bin/python but no pip: every later run
    failed with "No module named pip". The script now makes it again (python -m venv --clear)."""
    repo = tmp_path / "repo"
    (repo / "companion").mkdir(parents=True)
    shutil.copy(ROOT / "companion" / "install.sh", repo / "companion" / "install.sh")
    (repo / "pyproject.toml").write_text("")
    log = tmp_path / "log"
    venv_python = (  # the venv's python: pip works once the venv was made again
        f'if [ "$1 $2" = "-m pip" ]; then [ -f "{repo}/.venv/remade" ] || exit 1; '
        f'fi; echo "venv-python $*" >> "{log}"; exit 0')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dirname", "grep", "cat", "touch", "mkdir", "chmod"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    _stub(bin_dir, "id", "echo 0")
    _stub(bin_dir, "dpkg-query", "echo 'install ok installed'")
    _stub(bin_dir, "apt-get", "exit 0")
    _stub(bin_dir, "xvfb-run", f'echo "xvfb-run $*" >> "{log}"')
    _stub(bin_dir, "python3", (
        f'echo "python3 $*" >> "{log}"\n'
        f'if [ "$1 $2" = "-m venv" ]; then mkdir -p "{repo}/.venv/bin"; touch "{repo}/.venv/remade"; '
        f"cat > \"{repo}/.venv/bin/python\" <<'X'\n#!/bin/sh\n{venv_python}\nX\n"
        f'chmod +x "{repo}/.venv/bin/python"; fi\n'
        'if [ "$1" = "--version" ]; then echo "Python 3.11.2"; fi\nexit 0'))
    (repo / ".venv" / "bin").mkdir(parents=True)
    broken = repo / ".venv" / "bin" / "python"
    broken.write_text(f"#!/bin/sh\n{venv_python}\n")
    broken.chmod(0o755)
    result = subprocess.run(["/bin/bash", str(repo / "companion" / "install.sh"), "test"],
                            env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    calls = log.read_text()
    assert "python3 -m venv --clear .venv" in calls
    assert "venv-python -m pip install -q -e .[test]" in calls
    # the tests on every core (pytest-xdist); each worker starts its own Xvfb (tests/conftest.py)
    assert re.search(r"venv-python -m pytest -n [0-9]+ --dist loadgroup --maxschedchunk 1", calls), calls
