#!/usr/bin/env bash
# One script behind the README's two commands.
#   bash companion/install.sh run  [app options]   install everything, start the app (simulated board)
#   bash companion/install.sh test [pytest args]   install everything, run every test
# It installs the Debian packages it needs (apt-get, with sudo when not root), makes a virtual
# environment in .venv and installs companion into it with its test extra.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
[ $# -gt 0 ] && shift

say() { printf '[companion] %s\n' "$*" >&2; }

# --- system packages --------------------------------------------------------------------------
# OpenGL/EGL from Mesa and mtdev for Kivy's window, Xvfb for the window tests, venv for Python;
# for the tests only, Chromium and DejaVu fonts (the broadcast pages are opened in it, headless;
# DejaVu has the chess glyphs) and zbar-tools (zbarimg reads the Load / Save QR codes back).
apt_pkgs="python3 python3-venv python3-pip libgl1 libegl1 libgl1-mesa-dri libmtdev1 xvfb xauth stockfish"
[ "$mode" = "test" ] && apt_pkgs="$apt_pkgs chromium fonts-dejavu-core zbar-tools"
if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    missing=""
    for p in $apt_pkgs; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then
            if ! command -v sudo >/dev/null 2>&1; then
                say "these Debian packages are missing:$missing"
                say "run this script as root, or install them as root (apt-get install$missing), or install sudo"
                exit 1
            fi
            sudo="sudo"
        fi
        say "installing system packages:$missing"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq
        # shellcheck disable=SC2086
        $sudo apt-get install -y -qq $missing >/dev/null
    fi
else
    say "no apt-get here: make sure Python 3.11+, venv, Mesa OpenGL and Xvfb are installed"
fi

# --- Python -----------------------------------------------------------------------------------
py=""
for cand in python3.13 python3.12 python3.11 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        py="$cand"; break
    fi
done
[ -n "$py" ] || { say "Python 3.11 or newer is needed"; exit 1; }

# (a .venv made while python3-venv was missing has a python but no pip: make it again)
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    say "creating the virtual environment in .venv ($($py --version))"
    "$py" -m venv --clear .venv
fi
stamp=.venv/.companion-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    say "installing companion and its dependencies (first time: a few minutes)"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[test]"
    touch "$stamp"
fi

export KIVY_NO_ARGS=1
case "$mode" in
    run)
        if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ ! -e /dev/dri/card0 ]; then
            say "no display found: starting on a virtual screen (Xvfb); nothing will be visible"
            exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/companion "$@"
        fi
        exec .venv/bin/companion "$@"
        ;;
    test)
        exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -m pytest "$@"
        ;;
    *)
        say "unknown mode '$mode' (use: run | test)"; exit 2 ;;
esac
