#!/usr/bin/env bash
# The arm64 check: the product installed and tested as a Raspberry Pi owner would, on an
# emulated Debian arm64 (bookworm) root built on this machine. Called by install.sh:
#
#   bash companion/install.sh arm64-check          build the root (once), then in it: the README's
#                                                  install, the pi and pi5 extras (bash
#                                                  companion/install.sh pi), the budgets at Pi
#                                                  speed, the quick loop; prints what failed
#   bash companion/install.sh arm64-check root     only build the root
#   bash companion/install.sh arm64-check bench [companion bench options]
#                                                  the bench inside the root (companion bench --emulated)
#   bash companion/install.sh arm64-check shell [command ...]
#                                                  a command (default: bash) inside the root
#
# How: debootstrap downloads the arm64 packages from the archive this machine's apt uses
# (COMPANION_ARM64_MIRROR to choose another) and unpacks them; proot runs the root's programs
# through qemu-aarch64-static (user-mode emulation: no binfmt_misc, no privileges, no kernel
# module needed). The root skips recommended packages, as a trimmed Pi image does, so every
# package the product needs must be named by install.sh. The root lives outside the repository
# (COMPANION_ARM64_ROOT, default /var/tmp/companion-arm64) and is kept between runs; the
# repository's tracked files are copied into it (/home/pi/companion) before every step.
# Each step's output goes to the log beside the root; the summary names what failed.
#
# It takes about an hour on two shared cores (the quick loop is most of it): run it niced, in
# the background. Not run by CI.
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

say() { printf '[arm64-check] %s\n' "$*" >&2; }
die() { printf 'arm64-check: %s\n' "$*" >&2; exit 2; }

suite=bookworm
root="${COMPANION_ARM64_ROOT:-/var/tmp/companion-arm64}"
log="${COMPANION_ARM64_LOG:-$root.log}"
apt_etc="${COMPANION_APT_ETC:-/etc/apt}"
what="${1:-all}"
[ $# -gt 0 ] && shift

# --- the tools ----------------------------------------------------------------------------------
# command -> the Debian package that has it
tools="debootstrap:debootstrap qemu-aarch64-static:qemu-user-static proot:proot"

missing_tools() {
    local out="" t
    for t in $tools; do
        command -v "${t%%:*}" >/dev/null 2>&1 || out="$out ${t%%:*}(${t#*:})"
    done
    printf '%s' "$out"
}

need_tools() {
    local missing pkgs t
    missing="$(missing_tools)"
    [ -z "$missing" ] && return 0
    pkgs=""
    for t in $missing; do t="${t#*(}"; pkgs="$pkgs ${t%)}"; done
    if [ -z "${COMPANION_ARM64_NO_APT:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        say "installing:$pkgs"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null 2>&1; }
        missing="$(missing_tools)"
        [ -z "$missing" ] && return 0
    fi
    die "cannot emulate arm64 here: missing$missing; install them as root: apt-get install$pkgs"
}

# --- the archive --------------------------------------------------------------------------------
# The first archive apt is set up to take bookworm from (one-line sources.list entries, then
# deb822 .sources files), or COMPANION_ARM64_MIRROR.
mirror() {
    if [ -n "${COMPANION_ARM64_MIRROR:-}" ]; then printf '%s\n' "$COMPANION_ARM64_MIRROR"; return 0; fi
    local f url
    for f in "$apt_etc/sources.list" "$apt_etc"/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        url="$(awk -v s="$suite" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                                                if ($(i + 1) == s) { print $i; exit } }' "$f")"
        [ -n "$url" ] && { printf '%s\n' "$url"; return 0; }
    done
    for f in "$apt_etc"/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        url="$(awk -v s="$suite" '
            function flush() { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uris != "") { split(uris, u, " "); print u[1]; found = 1; exit } types = suites = uris = "" }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "types:" { $1 = ""; types = $0 }
            tolower($1) == "suites:" { $1 = ""; suites = $0 }
            tolower($1) == "uris:" { $1 = ""; uris = $0 }
            END { if (!found) flush() }' "$f")"
        url="${url# }"
        [ -n "$url" ] && { printf '%s\n' "$url"; return 0; }
    done
    die "no Debian $suite archive in $apt_etc/sources.list{,.d}: set COMPANION_ARM64_MIRROR=http://deb.debian.org/debian"
}

# --- inside the root ----------------------------------------------------------------------------
# A clean environment, as on a fresh Pi: nothing of this machine's pip set-up leaks in.
# Two ways in. As root with binfmt_misc (mounted and the qemu-aarch64 entry registered here, from
# qemu-user-static's own binfmt.d file, with its F flag), a plain chroot in a private mount
# namespace (unshare: /dev, /proc, /sys and resolv.conf are mounted for the command and gone
# after it). Otherwise proot -q qemu-aarch64-static, which needs no privilege but, in Debian
# bookworm's proot 5.1.0, does not translate faccessat2: access() then looks at this machine's
# files, so gcc cannot find its cc1 and the pi extras cannot be built (the summary says so).
binfmt_ready() {
    [ "$(id -u)" -eq 0 ] && [ -z "${COMPANION_ARM64_PROOT:-}" ] || return 1
    local dir=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf
    [ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null || return 1
    if [ ! -e "$dir/qemu-aarch64" ] && [ -f "$conf" ]; then
        grep -v '^#' "$conf" | head -1 > "$dir/register" 2>/dev/null
    fi
    [ -e "$dir/qemu-aarch64" ] && grep -q '^enabled' "$dir/qemu-aarch64"
}
way=""

# The certificates this machine trusts for the package registries go in with its resolv.conf
# (a network that inspects TLS has its own authority there), for pip only.
host_ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
in_root() {
    local ca=()
    if [ -f "$host_ca" ] && [ -d "$root/etc/ssl" ]; then
        cp "$host_ca" "$root/etc/ssl/companion-host-ca.crt" && ca=(PIP_CERT=/etc/ssl/companion-host-ca.crt)
    fi
    local env=(/usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb PIP_DEFAULT_TIMEOUT=180 PIP_DISABLE_PIP_VERSION_CHECK=1
               "${ca[@]}" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
    if [ -z "$way" ]; then
        if binfmt_ready; then way=chroot; else way=proot; fi
    fi
    if [ "$way" = chroot ]; then
        mkdir -p "$root/dev" "$root/proc" "$root/sys" "$root/home/pi/companion"
        [ -e "$root/etc/resolv.conf" ] || : > "$root/etc/resolv.conf"
        unshare --mount --propagation private /bin/sh -c '
            r="$1"; shift
            mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" \
                && mount --bind /etc/resolv.conf "$r/etc/resolv.conf" || exit 125
            exec chroot "$r" "$@"' sh "$root" "${env[@]}" /bin/sh -c 'cd /home/pi/companion && exec "$@"' sh "$@"
    else
        proot -q qemu-aarch64-static -0 -r "$root" -b /dev -b /proc -b /sys -b /etc/resolv.conf \
            -w /home/pi/companion "${env[@]}" "$@"
    fi
}

build_root() {
    if [ -f "$root/.companion-root" ]; then
        say "the arm64 root is there: $root"
        return 0
    fi
    local url
    url="$(mirror)" || exit 2
    say "building a Debian $suite arm64 root in $root from $url (first stage: download)"
    rm -rf "$root"
    mkdir -p "$root"
    debootstrap --arch=arm64 --foreign --variant=minbase --include=ca-certificates,git "$suite" "$root" "$url" \
        || { say "debootstrap failed (its log: $root/debootstrap/debootstrap.log)"; return 1; }
    # (in a container the first stage may leave /proc as a link to the host's)
    [ -L "$root/proc" ] && rm -f "$root/proc" && mkdir "$root/proc"
    mkdir -p "$root/home/pi/companion"
    say "second stage (under emulation: several minutes)"
    in_root env DEBOOTSTRAP_DIR=/debootstrap /debootstrap/debootstrap --second-stage || { say "the second stage failed"; return 1; }
    # a trimmed image: recommended packages are not installed, so install.sh must name them all
    printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$root/etc/apt/apt.conf.d/99companion-no-recommends"
    # (the binary keyring named: apt in the emulated root does not verify with the .asc keys)
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'deb [signed-by=%s] %s %s main\ndeb [signed-by=%s] %s %s-updates main\n' \
        "$keyring" "$url" "$suite" "$keyring" "$url" "$suite" > "$root/etc/apt/sources.list"
    # no init runs in the root: packages must not try to start their services (the usual chroot rule)
    printf '#!/bin/sh\n# no init in the emulated root: start no service (arm64 check)\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    # systemd's postinst aborts proot (path.c compare_paths2 assertion) and other packages pull
    # systemd in; a Pi has it configured already: install it here with that script left out
    in_root apt-get update -qq
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null 2>&1
    printf '#!/bin/sh\nexit 0\n' > "$root/var/lib/dpkg/info/systemd.postinst"
    in_root dpkg --configure -a || { say "configuring systemd in the root failed"; return 1; }
    touch "$root/.companion-root"
}

# The repository's tracked files (as they are in the work tree), copied to /home/pi/companion;
# the root's .venv there is kept.
sync_tree() {
    local dest="$root/home/pi/companion"
    mkdir -p "$dest"
    find "$dest" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
    if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$repo" ls-files -z --cached --others --exclude-standard | (cd "$repo" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$dest"
    else
        tar -C "$repo" --exclude=.venv --exclude=.git -cf - . | tar -xf - -C "$dest"
    fi
}

# --- steps --------------------------------------------------------------------------------------
results=()
step() {  # step NAME COMMAND...: run it inside the root, its output to the log, timed
    local name="$1"; shift
    local t0 t1 rc
    sync_tree
    say "$name ..."
    printf '\n===== %s: %s\n' "$(date -u '+%F %T UTC')" "$name" >> "$log"
    t0=$(date +%s)
    in_root "$@" >> "$log" 2>&1
    rc=$?
    t1=$(date +%s)
    results+=("$(printf '%-34s %-8s %4d min %02d s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" $(((t1 - t0) / 60)) $(((t1 - t0) % 60)))")
    say "$name: $([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in $((t1 - t0)) s"
    return $rc
}

summary() {
    local failed=0 r
    printf '\narm64 check, %s, Debian %s arm64 under qemu-user %s (%s), host %s\n' \
        "$(date -u '+%F')" "$suite" "$(qemu-aarch64-static --version | head -1 | awk '{print $3}')" \
        "$([ "$way" = chroot ] && echo "binfmt_misc, chroot" || echo proot)" "$(uname -m)"
    for r in "${results[@]}"; do
        printf '  %s\n' "$r"
        case "$r" in *FAILED*) failed=1 ;; esac
    done
    if [ $failed -ne 0 ]; then
        printf 'what failed (from %s):\n' "$log"
        grep -E '^(FAILED|ERROR) |^E   |error: |\[companion\].*(missing|failed|cannot)' "$log" | head -40 | sed 's/^/  /'
    fi
    printf 'log: %s\n' "$log"
    return $failed
}

case "$what" in
    all|root|bench|shell) ;;
    *) die "unknown step '$what' (use: all | root | bench | shell)" ;;
esac
need_tools
case "$what" in
    root)
        build_root
        ;;
    shell)
        [ -f "$root/.companion-root" ] || die "no arm64 root at $root: run bash companion/install.sh arm64-check first"
        sync_tree
        if [ $# -eq 0 ]; then in_root /bin/bash; else in_root "$@"; fi
        ;;
    bench)
        [ -x "$root/home/pi/companion/.venv/bin/companion" ] \
            || die "no installed arm64 root at $root: run bash companion/install.sh arm64-check first"
        sync_tree
        in_root bash companion/install.sh bench "$@"
        ;;
    all)
        : > "$log"
        say "log: $log"
        t_start=$(date +%s)
        build_root >> "$log" 2>&1 && results+=("$(printf '%-34s %-8s' 'arm64 root (debootstrap)' ok)") \
            || { results+=("arm64 root (debootstrap)           FAILED"); summary; exit 1; }
        # the quick loop last: it is the longest step (most of the half hour)
        step "README install (tests collected)" bash companion/install.sh test --collect-only -q -p no:cacheprovider
        step "pi extra (Pi 4 model)" env COMPANION_PI_MODEL="Raspberry Pi 4 Model B Rev 1.5" bash companion/install.sh pi
        step "pi5 extra (Pi 5 model)" env COMPANION_PI_MODEL="Raspberry Pi 5 Model B Rev 1.0" bash companion/install.sh pi
        step "budgets at Pi speed (bench)" bash companion/install.sh bench --only budgets
        step "quick loop (-m 'not slow')" bash companion/install.sh test -m "not slow" -q -p no:cacheprovider
        t_end=$(date +%s)
        results+=("$(printf '%-34s          %4d min %02d s' 'all' $(((t_end - t_start) / 60)) $(((t_end - t_start) % 60)))")
        summary
        ;;
esac
