#!/usr/bin/env bash
# One script behind the README's two commands.
#   bash companion/install.sh run  [app options]   install everything, start the app (simulated board)
#   bash companion/install.sh test [pytest args]   install everything, run every test
#   bash companion/install.sh pi [--dry-run] [--service [app options]]
#                                                  on a Raspberry Pi: also the build tools, python3-dev
#                                                  and the pi or pi5 extra (model from the device
#                                                  tree); --service also installs the systemd unit
#   bash companion/install.sh bench [bench options] install everything, run companion bench
#   bash companion/install.sh arm64-check [step]   the whole install and quick loop on an emulated
#                                                  Debian arm64 root (companion/arm64_check.sh)
# It installs the Debian packages it needs (apt-get, with sudo when not root), makes a virtual
# environment in .venv and installs companion into it with its test extra.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
[ $# -gt 0 ] && shift

say() { printf '[companion] %s\n' "$*" >&2; }

# --- the arm64 check: its own script, nothing to install here first -------------------------------
[ "$mode" = "arm64-check" ] && exec bash companion/arm64_check.sh "$@"

# --- a Raspberry Pi: which one, and what it needs ---------------------------------------------------
# rpi-ws281x and spidev (pi) and the Pi 5 NeoPixel backend (pi5) have no arm64 wheels: pip builds
# them, which needs a compiler and Python's headers. A Pi image that skips recommended packages
# has neither, so they are named here. COMPANION_PI_MODEL stands in for the device tree's model
# (tests, the arm64 check).
pi_extra="" pi_service=0 pi_dry=0 pi_options=()
if [ "$mode" = "pi" ]; then
    model="${COMPANION_PI_MODEL:-}"
    if [ -z "$model" ] && [ -r /proc/device-tree/model ]; then model="$(tr -d '\0' < /proc/device-tree/model)"; fi
    case "$model" in
        "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) pi_extra=pi5 ;;
        "Raspberry Pi"*) pi_extra=pi ;;
        "") say "this is not a Raspberry Pi (no /proc/device-tree/model): use 'bash companion/install.sh run'"; exit 2 ;;
        *) say "this is not a Raspberry Pi (its model is '$model'): use 'bash companion/install.sh run'"; exit 2 ;;
    esac
    while [ $# -gt 0 ]; do
        case "$1" in
            --dry-run) pi_dry=1 ;;
            --service) pi_service=1; shift; pi_options=("$@"); break ;;
            *) say "pi: unknown option '$1' (use: --dry-run, --service [app options])"; exit 2 ;;
        esac
        shift
    done
fi

# --- system packages --------------------------------------------------------------------------
# OpenGL/EGL from Mesa and mtdev for Kivy's window, Xvfb for the window tests, venv for Python;
# for the tests only, Chromium and DejaVu fonts (the broadcast pages are opened in it, headless;
# DejaVu has the chess glyphs), zbar-tools (zbarimg reads the Load / Save QR codes back) and
# mosquitto (the board-to-board link's tests start their own broker on a loopback port).
# espeak-ng and alsa-utils (aplay) for the board's voice (docs/speech.md); for the tests, gettext
# (msgfmt --statistics checks the catalogs).
apt_pkgs="python3 python3-venv python3-pip libgl1 libegl1 libgl1-mesa-dri libmtdev1 xvfb xauth stockfish espeak-ng alsa-utils"
[ "$mode" = "test" ] && apt_pkgs="$apt_pkgs chromium fonts-dejavu-core zbar-tools mosquitto gettext"
[ "$mode" = "pi" ] && apt_pkgs="$apt_pkgs build-essential python3-dev swig"
if [ "$pi_dry" = 1 ]; then
    say "on a $model: would install the system packages $apt_pkgs, then .venv with companion[test,$pi_extra]"
    [ "$pi_service" = 1 ] && say "and the systemd unit ${COMPANION_SYSTEMD_DIR:-/etc/systemd/system}/companion.service: companion ${pi_options[*]:-}"
    exit 0
fi
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

# the catalogs of the board's languages (companion/locale/*/LC_MESSAGES/companion.po -> .mo)
if [ -x .venv/bin/pybabel ]; then
    compiled=$(.venv/bin/pybabel compile -d companion/locale -D companion 2>&1) || { printf '%s\n' "$compiled" >&2; exit 1; }
else
    say "Babel is missing from .venv: the catalogs are not compiled and the app speaks English"
fi

# --- a Raspberry Pi: the NeoPixel extra, the systemd unit ------------------------------------------
pi_unit() {  # the shipped unit for this user, this folder and these app options
    local user options exec_line
    user="${SUDO_USER:-$(id -un)}"
    options="${pi_options[*]:-}"
    exec_line="ExecStart=$(pwd)/.venv/bin/companion${options:+ $options}"
    sed -e "s|^User=.*|User=$user|" -e "s|^Group=.*|Group=$(id -gn "$user")|" \
        -e "s|^WorkingDirectory=.*|WorkingDirectory=$(pwd)|" -e "s|/home/pi/.kivy|$(getent passwd "$user" | cut -d: -f6)/.kivy|" \
        -e "s|^ExecStart=.*|$exec_line|" hardware/companion.service
}
if [ "$mode" = "pi" ]; then
    pi_stamp=".venv/.companion-$pi_extra-installed"
    if [ ! -f "$pi_stamp" ] || [ pyproject.toml -nt "$pi_stamp" ]; then
        say "installing the $pi_extra extra (the NeoPixel driver; it compiles rpi-ws281x/spidev: a few minutes)"
        .venv/bin/python -m pip install -q -e ".[$pi_extra]"
        touch "$pi_stamp"
    fi
    done_list="system packages ($apt_pkgs), .venv with companion[test,$pi_extra]"
    if [ "$pi_service" = 1 ]; then
        unit_dir="${COMPANION_SYSTEMD_DIR:-/etc/systemd/system}"
        sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
        pi_unit | $sudo tee "$unit_dir/companion.service" >/dev/null
        done_list="$done_list, the unit $unit_dir/companion.service"
        if [ -z "${COMPANION_SYSTEMD_DIR:-}" ]; then  # the journal's cap, the backlight's permission
            $sudo mkdir -p /etc/systemd/journald.conf.d
            $sudo cp hardware/journald-companion.conf /etc/systemd/journald.conf.d/companion.conf
            $sudo cp hardware/99-companion-backlight.rules /etc/udev/rules.d/ 2>/dev/null || true
            done_list="$done_list, the journal capped at 64 MB, the backlight writable by the video group"
        fi
        user="${SUDO_USER:-$(id -un)}"
        groups=""
        for g in video render input gpio spi dialout; do getent group "$g" >/dev/null && groups="$groups${groups:+,}$g"; done
        if [ -n "$groups" ] && [ -z "${COMPANION_SYSTEMD_DIR:-}" ]; then
            $sudo usermod -aG "$groups" "$user" && done_list="$done_list, $user added to $groups"
        fi
        if [ -z "${COMPANION_SYSTEMD_DIR:-}" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
            $sudo systemctl daemon-reload && $sudo systemctl enable companion >/dev/null 2>&1 \
                && done_list="$done_list, enabled (starts at the next boot; now: sudo systemctl start companion)"
        else
            done_list="$done_list (not enabled: no systemd running here)"
        fi
    fi
    say "done on this $model: $done_list"
    say "start it: .venv/bin/companion --profile gpio-8x8 (or --serial auto); first power-on: .venv/bin/companion board-check --profile ... (hardware/README.md)"
    exit 0
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
        # On every core (pytest-xdist); each worker starts its own Xvfb for the window tests
        # (tests/conftest.py), which run first, one test handed out at a time so that they
        # spread over the workers. `-n 0` runs in one process, `-n 3` on three workers.
        # The whole suite: two workers a core (at most 6): many of its tests wait (a window's
        # frames, a subprocess, a socket), so one worker a core left the cores idle a third of
        # the time (116% of 200%). The quick loop (-m "not slow": no windows): one worker a core.
        # Each worker imports and collects the whole suite (3 s of processor time) and fills its
        # own caches (the rules' attack tables, the package's syntax trees, ...): on two cores
        # four workers took 111-144 s of processor time, two 99-106 s (README, the quick loop).
        cores=$(nproc 2>/dev/null || echo 1)
        workers=$(( cores * 2 )); [ "$workers" -gt 6 ] && workers=6
        for arg in "$@"; do
            case "$arg" in *"not slow"*) workers=$(( cores > 6 ? 6 : cores )) ;; esac
        done
        parallel=(-n "$workers" --dist loadgroup --maxschedchunk 1)
        # Compiled bytecode is kept under .venv (the tree stays clean), also where the environment
        # says not to write it: else each worker, and every process a test starts, compiles
        # companion and the tests anew (6 s of processor time per worker).
        unset PYTHONDONTWRITEBYTECODE
        export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
        for arg in "$@"; do
            case "$arg" in no:xdist|-pno:xdist) parallel=() ;; esac
        done
        exec .venv/bin/python -m pytest "${parallel[@]}" "$@"
        ;;
    bench)
        exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/companion bench "$@"
        ;;
    *)
        say "unknown mode '$mode' (use: run | test | pi | bench | arm64-check)"; exit 2 ;;
esac
