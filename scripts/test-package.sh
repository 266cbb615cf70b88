#!/usr/bin/env bash
# The Debian package, checked as a packager's CI checks it, on this machine (root needed):
#  1. scripts/package-deb.sh builds it (one release build, reused by every step below);
#  2. the linker's order file (Sources/shaked/Linking/shaked.order) names only symbols the release daemon has;
#     the executables need only libraries that Debian packages provide (and not libiio, which shaked
#     loads with dlopen), and no RUNPATH into a toolchain; Depends names libiio0 all the same;
#  3. lintian reports no error and no missing manual page, and each warning it reports is explained
#     in docs/packaging.md; the package's man pages render with no warning from man, and
#     docs/man/shakectl.1 matches shakectl's help (scripts/generate-manual.sh --check);
#  4. dpkg -i installs it: the user, the enabled socket, the conffile; systemd-analyze verify passes
#     on the installed units;
#  5. with the Swift toolchain's directory hidden (a mount namespace with an empty directory over it),
#     the installed shaked checks its configuration and serves the --demo flow to the Python varlink
#     client and the installed shakectl, and shakectl sensors lists umockdev's fake accelerometer;
#  6. the installed shake-agent starts under Xvfb against the installed shaked and registers; its user
#     unit passes systemd-analyze --user verify;
#  7. dpkg -r keeps the configuration, dpkg --purge removes every file the package and its scripts
#     made (the file lists before and after are compared), and dpkg and apt still find the system sound.
#
#   scripts/test-package.sh          # as root; skipped otherwise (it installs and purges a package)
#
# Exits non-zero on any failure; the package is purged again whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ "$(id -u)" != 0 ]; then
    echo "test-package: skipped: it installs and purges the shaked package, so it needs root"
    exit 0
fi
if dpkg-query -W -f='${Status}' shaked 2>/dev/null | grep -q installed; then
    echo "error: a package shaked is installed on this machine already; remove it first (dpkg --purge shaked)" >&2
    exit 1
fi
if [ -e /usr/share/shaked/install-manifest ]; then
    echo "error: scripts/install.sh installed shaked here; run 'scripts/install.sh uninstall' first" >&2
    exit 1
fi

scripts/ensure-packages.sh dpkg-dev debhelper lintian binutils pkg-config systemd udev umockdev python3 util-linux man-db
python=$(scripts/python-env.sh)
# The agent's Recommends, and a display for starting it (Tests/package/agent_start.py).
scripts/ensure-packages.sh python3-gi gir1.2-gtk-4.0 gir1.2-adw-1 gir1.2-atspi-2.0 at-spi2-core xdotool wtype \
    xvfb openbox dbus python3-pyatspi

step() { echo "== test-package: $*"; }
fail() {
    echo "test-package: FAILED: $*" >&2
    exit 1
}
trap 'echo "test-package: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

work=$(mktemp -d)
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then dpkg --purge shaked >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
start=$SECONDS

step "building the package"
deb=$(scripts/package-deb.sh --output "$work/out" | tail -n 1)
[ -f "$deb" ] || fail "scripts/package-deb.sh printed '$deb', which is not a file"
arch=$(dpkg --print-architecture)
case "$(basename "$deb")" in shaked_*_"$arch".deb) ;; *) fail "$(basename "$deb") is not named shaked_VERSION_$arch.deb" ;; esac
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
echo "sizes: .deb $(stat -c %s "$deb") bytes; dbgsym $(stat -c %s "$work"/out/shaked-dbgsym_*.deb 2>/dev/null || echo none)"

step "the linker's order file names only symbols the release daemon has"
# Package.swift links the release daemon in the order of Sources/shaked/Linking/shaked.order; a name the
# daemon no longer has is a list gone stale (renamed or deleted code), which places the daemon's code badly.
order=Sources/shaked/Linking/shaked.order
release_shaked="$(scripts/build-release.sh --show-bin-path)/shaked"
stale=$(comm -23 <(sort -u "$order") <(nm --defined-only "$release_shaked" | awk '{ print $3 }' | sort -u))
[ -z "$stale" ] || fail "$order names $(wc -l <<<"$stale") symbols that $release_shaked lacks, such as" \
    "$(head -n 3 <<<"$stale" | tr '\n' ' ')(stale: run scripts/order-file to write the list again)"
echo "  all $(sort -u "$order" | wc -l) symbols of $order are in the release shaked"

step "the executables need only Debian's libraries"
dpkg-deb -x "$deb" "$work/root"
for exe in usr/sbin/shaked usr/bin/shakectl; do
    dynamic=$(readelf -d "$work/root/$exe")
    ! grep -E '\((RUNPATH|RPATH)\)' <<<"$dynamic" | grep -v '\[\$ORIGIN\]' || fail "$exe has a search path into a build tree"
    readelf -S "$work/root/$exe" | grep -q '\.debug_info' && fail "$exe still carries its debug information"
    grep -q '(NEEDED).*\[libiio\.so' <<<"$dynamic" &&
        fail "$exe links libiio, which IIOSensors loads with dlopen when a sensor is first opened (LibIIO.swift)"
    for lib in $(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic"); do
        path=$(ldconfig -p | awk -v l="$lib" '$1 == l && $NF ~ /^\// && !found { print $NF; found = 1 }')
        [ -n "$path" ] || fail "$exe needs $lib, which no library on this system provides"
        owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null) ||
            fail "$exe needs $lib ($path), which no Debian package owns"
        echo "  $exe: $lib from ${owner%%:*}"
    done
    echo "  $exe: $(stat -c %s "$work/root/$exe") bytes stripped"
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends (dpkg-shlibdeps', and scripts/debian/control's libiio0 and libc6): $depends"
grep -q "libudev1" <<<"$depends" || fail "Depends: lacks libudev1; dpkg-shlibdeps did not see the executables"
grep -q "libiio0 (>= 0.24)" <<<"$depends" ||
    fail "Depends: lacks libiio0 (>= 0.24), which scripts/debian/control names because shaked loads it with dlopen"
versions=$(readelf -V "$work/root/usr/sbin/shaked")
if grep -q GLIBC_ABI_DT_RELR <<<"$versions"; then
    grep -q "libc6 (>= 2.36)" <<<"$depends" ||
        fail "Depends: lacks libc6 (>= 2.36); shaked's packed relocations (DT_RELR) need it"
fi

step "lintian"
lintian --version
lintian_log="$work/lintian.txt"
lintian --fail-on error --tag-display-limit 0 "$deb" | tee "$lintian_log" || fail "lintian reports errors"
section=$(cat docs/packaging.md)
for tag in $(sed -n 's/^W: shaked[^:]*: \([a-z0-9-]*\).*/\1/p' "$lintian_log" | sort -u); do
    grep -q -- "\`$tag\`" <<<"$section" || fail "lintian warns $tag, which docs/packaging.md does not explain"
done
! grep -E '^[EW]: shaked[^:]*: (no-manual-page|binary-without-manpage)' "$lintian_log" ||
    fail "lintian finds an executable without a manual page; the pages are docs/man, installed by scripts/install.sh"

step "the man pages"
for page in man1/shakectl.1 man1/shake-agent.1 man5/shaked.conf.5 man8/shaked.8; do
    file="$work/root/usr/share/man/$page.gz"
    [ -f "$file" ] || fail "the package has no usr/share/man/$page.gz"
    warnings=$(man --warnings -l "$file" 2>&1 >"$work/page.txt") || fail "man -l $page failed: $warnings"
    [ -z "$warnings" ] || fail "man --warnings -l $page warns:
$warnings"
    [ -s "$work/page.txt" ] || fail "man -l $page rendered nothing"
    echo "  $page: renders with no warning ($(wc -l <"$work/page.txt") lines)"
done
scripts/generate-manual.sh --check || fail "docs/man/shakectl.1 does not match shakectl's help"

snapshot() {
    # Every file and directory of the system that a package or its scripts could leave behind; the
    # package manager's own records and logs change on every run and are left out.
    find /etc /usr /lib /var /opt -xdev \
        \( -path /var/lib/dpkg -o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /var/tmp \
        -o -name __pycache__ \) -prune -o -print | sort
}
# dpkg-shlibdeps' Depends, installed first so that dpkg -i needs nothing else (CI's machine is fresh).
needed=$(tr ',' '\n' <<<"$depends" | sed 's/|.*//; s/(.*//; s/ //g' | grep -v '^$')
scripts/ensure-packages.sh $needed
snapshot >"$work/before.txt"
dpkg-query -W -f='${Package}\n' | sort >"$work/packages-before.txt"

step "dpkg -i"
installed=1
dpkg -i "$deb"
[ "$(dpkg-query -W -f='${Status}' shaked)" = "install ok installed" ] || fail "dpkg does not list shaked as installed"
getent passwd shaked >/dev/null || fail "postinst did not create the user shaked (systemd-sysusers)"
getent group shaked >/dev/null || fail "postinst did not create the group shaked"
[ -L /etc/systemd/system/sockets.target.wants/shaked.socket ] || fail "shaked.socket is not enabled (deb-systemd-helper)"
dpkg-query -W -f='${Conffiles}\n' shaked | grep -q ' /etc/shaked/shaked.conf ' || fail "/etc/shaked/shaked.conf is no conffile"
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)
units=("$unitdir/shaked.service" "$unitdir/shaked.socket")
dpkg -L shaked | grep -qx "${units[0]}" || fail "the package does not hold ${units[0]}"
verify=$(systemd-analyze verify "${units[@]}" 2>&1) || fail "systemd-analyze verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify warns: $verify"
echo "systemd-analyze verify ${units[*]}: clean"

step "the installed executables with /opt/swift hidden"
mkdir -p "$work/empty"
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")  # /opt/swift/usr/bin/swift
case "$toolchain" in / | /usr | /usr/local) fail "the Swift toolchain is in $toolchain, which cannot be hidden" ;; esac
# Every command has a time limit, and says what it runs, so a hang ends with its name in the log.
SHAKED_BINARY=/usr/sbin/shaked timeout --kill-after=10 300 unshare --mount --propagation private bash -euo pipefail -c '
    limited() { echo "+ $*"; timeout --kill-after=5 "$@" || { echo "the command above failed with status $?" >&2; exit 1; }; }
    mount --bind "$1" "$2"
    [ -z "$(ls -A "$2")" ] || { echo "the toolchain at $2 is still visible" >&2; exit 1; }
    export PATH=/usr/sbin:/usr/bin:/sbin:/bin
    unset LD_LIBRARY_PATH LD_PRELOAD
    ! command -v swift >/dev/null || { echo "swift is still on PATH" >&2; exit 1; }
    limited 20 shaked --check-config
    limited 20 shaked --version
    limited 150 "$4" -u Tests/package/demo_flow.py /usr/bin/shakectl
    limited 60 umockdev-run -d Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev -- shakectl sensors >"$3"
    cat "$3"
' hide-toolchain "$work/empty" "$toolchain" "$work/sensors.txt" "$python" </dev/null || fail "the installed executables failed without the toolchain"
grep -q "fake_accel" "$work/sensors.txt" || fail "shakectl sensors did not list umockdev's fake accelerometer"

step "the installed agent starts and registers"
dpkg -L shaked | grep -qx /usr/bin/shake-agent || fail "the package does not hold /usr/bin/shake-agent"
userunit=$(pkg-config --variable=systemduserunitdir systemd)/shake-agent.service
dpkg -L shaked | grep -qx "$userunit" || fail "the package does not hold $userunit"
verify=$(XDG_RUNTIME_DIR=$(mktemp -d -p "$work") systemd-analyze --user verify "$userunit" 2>&1) ||
    fail "systemd-analyze --user verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze --user verify warns: $verify"
dpkg -L shaked | grep -qx /etc/xdg/autostart/shake-agent.desktop || fail "the package has no XDG autostart file"
timeout --kill-after=5 120 "$python" -B Tests/package/agent_start.py 2>&1 | grep -v "dbind-WARNING" ||
    fail "the installed shake-agent did not start and register"

step "dpkg -r keeps the configuration; dpkg --purge removes everything"
dpkg -r shaked
[ -f /etc/shaked/shaked.conf ] || fail "dpkg -r removed the conffile /etc/shaked/shaked.conf"
mkdir -p /var/lib/shaked && touch /var/lib/shaked/state
dpkg --purge shaked
installed=0
snapshot >"$work/after.txt"
# Files that appeared but belong to another package (installed meanwhile) are not ours to clean up.
left=$(comm -13 "$work/before.txt" "$work/after.txt" | while read -r path; do
    dpkg -S "$path" >/dev/null 2>&1 || echo "$path"
done)
[ -z "$left" ] || fail "files left behind after purge:
$left"
gone=$(comm -23 "$work/before.txt" "$work/after.txt")
[ -z "$gone" ] || fail "files that were there before the install are gone:
$gone"
dpkg --audit || fail "dpkg --audit finds problems"
apt-get check -qq || fail "apt-get check finds problems"
removed=$(comm -23 "$work/packages-before.txt" <(dpkg-query -W -f='${Package}\n' | sort))
[ -z "$removed" ] || fail "packages gone since before the install: $removed"
echo "purge left no file behind; no other package went; dpkg --audit and apt-get check are clean"

step "passed in $((SECONDS - start)) s"
