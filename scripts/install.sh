#!/usr/bin/env bash
# Builds shaked and shakectl in release mode, with the Swift runtime linked in (so they run on
# machines without a Swift toolchain), and installs them with their units, udev rule,
# sysusers.d entry, default configuration and varlink interface files.
#
#   sudo scripts/install.sh                     # build, install under /usr, apply (sysusers, udev, systemd)
#   scripts/install.sh --destdir /tmp/pkg       # stage for a package: nothing is applied to the machine
#   scripts/install.sh uninstall [same options] # remove exactly what the install put there
#
# Run `scripts/install.sh --help` for every option. Environment: DESTDIR and PREFIX are read as
# defaults for --destdir and --prefix, as packagers expect.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/install.sh [install|uninstall] [OPTIONS]

Installs (default) or uninstalls shaked. Paths below are as on the target system; with
--destdir everything is written under DESTDIR instead (staging for a package).

  --destdir DIR      stage under DIR (default: $DESTDIR, else nothing)
  --prefix DIR       installation prefix (default: $PREFIX, else /usr)
  --sysconfdir DIR   where shaked/shaked.conf goes (default: /etc; shaked reads /etc/shaked)
  --unitdir DIR      where the systemd units go (default: PREFIX/lib/systemd/system; Debian 12's
                     own is `pkg-config --variable=systemdsystemunitdir systemd`: /lib/systemd/system)
  --udevdir DIR      udev's directory; the rule goes to DIR/rules.d (default: PREFIX/lib/udev;
                     `pkg-config --variable=udevdir udev`)
  --userunitdir DIR  where the agent's systemd user unit goes (default: PREFIX/lib/systemd/user;
                     `pkg-config --variable=systemduserunitdir systemd`)
  --varlink-from DIR ship the Python `varlink` package found in DIR with the agent (Debian 12 has
                     none; scripts/package-deb.sh passes the build machine's)
  --bin-dir DIR      install the shaked and shakectl executables found in DIR instead of
                     building them (scripts/build-release.sh, the release build that ships)
  --strip            split the debug information of both executables into
                     PREFIX/lib/debug/.build-id/NN/REST.debug and strip them, as distributions do
                     (packages leave this to dh_strip)
  --no-activate      do not run systemd-sysusers, udevadm and systemctl after installing
                     (never run with --destdir, or when not root)
  -h, --help         show this help

Installed, relative to PREFIX (a manifest at share/shaked/install-manifest lists each file,
and uninstall removes exactly those, then the directories the install created):
  sbin/shaked                          (the daemon, run by systemd, and by an administrator to
                                       check the configuration, as iio-sensor-proxy and sshd are)
  bin/shakectl
  lib/systemd/system/shaked.service    (ExecStart= points at PREFIX/sbin/shaked; see --unitdir)
  lib/systemd/system/shaked.socket
  lib/udev/rules.d/60-shaked.rules     (see --udevdir)
  lib/sysusers.d/shaked.conf           (the system user and group "shaked")
  share/varlink/io.shaked.Undo.varlink, share/varlink/io.shaked.Demo.varlink
  bin/shake-agent, share/shaked/agent/   the session's prompt agent (clients/shake-agent; docs/agent.md)
  lib/systemd/user/shake-agent.service  (its user unit; see --userunitdir)
  SYSCONFDIR/xdg/autostart/shake-agent.desktop  (for sessions without systemd)
  share/man/man1/shakectl.1, share/man/man5/shaked.conf.5, share/man/man8/shaked.8,
  share/man/man1/shake-agent.1
  lib/debug/.build-id/NN/REST.debug    (with --strip: the executables' debug information)
  SYSCONFDIR/shaked/shaked.conf        (never overwritten; kept on uninstall when edited)
EOF
}

action=install
destdir=${DESTDIR:-}
prefix=${PREFIX:-/usr}
sysconfdir=/etc
bindir_in=""
unitdir=""
userunitdir=""
varlink_from=""
udevdir=""
strip=0
activate=1
while (($#)); do
    case "$1" in
    install | uninstall) action=$1 ;;
    --destdir) destdir=${2:?--destdir needs a directory}; shift ;;
    --destdir=*) destdir=${1#*=} ;;
    --prefix) prefix=${2:?--prefix needs a directory}; shift ;;
    --prefix=*) prefix=${1#*=} ;;
    --sysconfdir) sysconfdir=${2:?--sysconfdir needs a directory}; shift ;;
    --sysconfdir=*) sysconfdir=${1#*=} ;;
    --bin-dir) bindir_in=${2:?--bin-dir needs a directory}; shift ;;
    --bin-dir=*) bindir_in=${1#*=} ;;
    --unitdir) unitdir=${2:?--unitdir needs a directory}; shift ;;
    --unitdir=*) unitdir=${1#*=} ;;
    --userunitdir) userunitdir=${2:?--userunitdir needs a directory}; shift ;;
    --userunitdir=*) userunitdir=${1#*=} ;;
    --varlink-from) varlink_from=${2:?--varlink-from needs a directory}; shift ;;
    --varlink-from=*) varlink_from=${1#*=} ;;
    --udevdir) udevdir=${2:?--udevdir needs a directory}; shift ;;
    --udevdir=*) udevdir=${1#*=} ;;
    --strip) strip=1 ;;
    --no-activate) activate=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'; see scripts/install.sh --help" >&2; exit 2 ;;
    esac
    shift
done
case "$prefix" in /*) ;; *) echo "error: --prefix must be absolute, not '$prefix'" >&2; exit 2 ;; esac
case "$sysconfdir" in /*) ;; *) echo "error: --sysconfdir must be absolute, not '$sysconfdir'" >&2; exit 2 ;; esac
prefix=${prefix%/}
unitdir=${unitdir:-$prefix/lib/systemd/system}
udevdir=${udevdir:-$prefix/lib/udev}
userunitdir=${userunitdir:-$prefix/lib/systemd/user}
for dir in "$unitdir" "$udevdir" "$userunitdir"; do
    case "$dir" in /*) ;; *) echo "error: --unitdir and --udevdir must be absolute, not '$dir'" >&2; exit 2 ;; esac
done
unitdir=${unitdir%/}
userunitdir=${userunitdir%/}
udevdir=${udevdir%/}
destdir=${destdir%/}

cd "$(dirname "$0")/.."
root=$(pwd)
manifest_rel="$prefix/share/shaked/install-manifest"
manifest="$destdir$manifest_rel"

# Runs the machine-wide steps after an install on the live system (not a staged one).
apply() {
    if [ -n "$destdir" ] || [ "$activate" = 0 ] || [ "$(id -u)" != 0 ]; then
        cat <<EOF
Installed. On the target system, as root:
  systemd-sysusers                 # creates the user and group shaked
  udevadm control --reload && udevadm trigger --subsystem-match=iio --action=add
  systemctl daemon-reload          # udev then starts shaked.service for each accelerometer
EOF
        return
    fi
    command -v systemd-sysusers >/dev/null && systemd-sysusers "$prefix/lib/sysusers.d/shaked.conf" || true
    if command -v udevadm >/dev/null && [ -d /run/udev ]; then
        udevadm control --reload || true
        udevadm trigger --subsystem-match=iio --action=add || true
    fi
    if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
    echo "Installed and applied. Check it with: systemctl status shaked; journalctl -u shaked"
}

if [ "$action" = uninstall ]; then
    [ -f "$manifest" ] || { echo "error: no install manifest at $manifest; nothing to uninstall" >&2; exit 1; }
    dirs=()
    while IFS=' ' read -r kind sum path; do
        case "$kind" in
        file) rm -f "$destdir$path" ;;
        config)
            if [ -f "$destdir$path" ] && [ "$(sha256sum <"$destdir$path" | cut -d' ' -f1)" != "$sum" ]; then
                echo "kept $destdir$path: it was edited since the install"
            else
                rm -f "$destdir$path"
            fi
            ;;
        dir) dirs+=("$path") ;;
        esac
    done <"$manifest"
    rm -f "$manifest"
    # Deepest first, and only when empty: a directory that holds anything else stays.
    for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do rmdir "$destdir${dirs[i]}" 2>/dev/null || true; done
    echo "Uninstalled shaked from ${destdir:-/}"
    exit 0
fi

if [ -z "$bindir_in" ]; then
    # The release build that ships (scripts/build-release.sh): the executables need only libraries
    # of the distribution (libc, libudev, libsystemd; `readelf -d` lists them), and libiio, which
    # IIOSensors loads with dlopen when it first opens a sensor's buffer.
    build=(scripts/build-release.sh)
    "${build[@]}" --product shaked
    "${build[@]}" --product shakectl
    bindir_in=$("${build[@]}" --show-bin-path)
fi
for exe in shaked shakectl; do
    [ -x "$bindir_in/$exe" ] || { echo "error: $bindir_in/$exe is missing or not executable" >&2; exit 1; }
done
if [ -f "$manifest" ]; then
    echo "error: shaked is already installed here ($manifest); run uninstall first" >&2
    exit 1
fi

# The staging root itself is not part of the install (uninstall leaves it).
if [ -n "$destdir" ]; then install -d -m 0755 "$destdir"; fi
entries=()
# Creates a directory (and its parents), noting each one this install created.
make_dir() {
    local dir=$1 missing=()
    while [ "$dir" != / ] && [ ! -d "$destdir$dir" ]; do missing=("$dir" "${missing[@]}"); dir=$(dirname "$dir"); done
    for dir in "${missing[@]}"; do
        install -d -m 0755 "$destdir$dir"
        entries+=("dir - $dir")
    done
}
# put MODE SOURCE TARGET: installs one file (TARGET as on the target system).
put() {
    make_dir "$(dirname "$3")"
    install -m "$1" "$2" "$destdir$3"
    entries+=("file - $3")
}

# split_debug TARGET: moves TARGET's debug information to lib/debug/.build-id/NN/REST.debug (where
# gdb and debuginfod look), keeps a link to it in TARGET, and strips TARGET.
split_debug() {
    local target=$destdir$1 id debug
    id=$(readelf -n "$target" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
    [ -n "$id" ] || { echo "error: $target has no GNU build ID; cannot name its debug file" >&2; exit 1; }
    debug="$prefix/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
    make_dir "$(dirname "$debug")"
    objcopy --only-keep-debug --compress-debug-sections "$target" "$destdir$debug"
    chmod 0644 "$destdir$debug"
    entries+=("file - $debug")
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$target"
    objcopy --add-gnu-debuglink="$destdir$debug" "$target"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e "s|^ExecStart=/usr/sbin/shaked|ExecStart=$prefix/sbin/shaked|" \
    -e "s|file:///usr/share/varlink/|file://$prefix/share/varlink/|" systemd/shaked.service >"$work/shaked.service"
grep -q "^ExecStart=$prefix/sbin/shaked\$" "$work/shaked.service" || {
    echo "error: systemd/shaked.service has no ExecStart=/usr/sbin/shaked line to point at $prefix/sbin" >&2
    exit 1
}

put 0755 "$bindir_in/shaked" "$prefix/sbin/shaked"
put 0755 "$bindir_in/shakectl" "$prefix/bin/shakectl"
if [ "$strip" = 1 ]; then
    split_debug "$prefix/sbin/shaked"
    split_debug "$prefix/bin/shakectl"
fi
put 0644 "$work/shaked.service" "$unitdir/shaked.service"
put 0644 systemd/shaked.socket "$unitdir/shaked.socket"
put 0644 systemd/60-shaked.rules "$udevdir/rules.d/60-shaked.rules"
put 0644 systemd/sysusers.conf "$prefix/lib/sysusers.d/shaked.conf"
put 0644 Sources/UndoProtocol/io.shaked.Undo.varlink "$prefix/share/varlink/io.shaked.Undo.varlink"
put 0644 Sources/UndoProtocol/io.shaked.Demo.varlink "$prefix/share/varlink/io.shaked.Demo.varlink"
# The man pages, as written (docs/man: mdoc, shakectl.1 made by scripts/generate-manual.sh); a
# package's dh_compress compresses them.
put 0644 docs/man/shakectl.1 "$prefix/share/man/man1/shakectl.1"
put 0644 docs/man/shaked.conf.5 "$prefix/share/man/man5/shaked.conf.5"
put 0644 docs/man/shaked.8 "$prefix/share/man/man8/shaked.8"
put 0644 docs/man/shake-agent.1 "$prefix/share/man/man1/shake-agent.1"

# The session's prompt agent: Python, run by Debian's python3 without writing bytecode beside itself.
agent="$prefix/share/shaked/agent"
put 0755 clients/shake-agent/shake-agent "$agent/shake-agent"
# Its modules, and the Kirigami prompt it draws on Plasma (plasma_prompt.qml).
for module in clients/shake-agent/shakeagent/*.py clients/shake-agent/shakeagent/*.qml; do
    put 0644 "$module" "$agent/shakeagent/$(basename "$module")"
done
if [ -n "$varlink_from" ]; then
    [ -f "$varlink_from/__init__.py" ] || { echo "error: --varlink-from $varlink_from holds no Python package" >&2; exit 1; }
    for file in __init__.py client.py error.py scanner.py server.py org.varlink.service.varlink; do
        put 0644 "$varlink_from/$file" "$agent/varlink/$file"
    done
fi
printf '#!/bin/sh\n# shaked'"'"'s prompt agent (docs/agent.md)\nexec /usr/bin/python3 -B %s "$@"\n' "$agent/shake-agent" >"$work/shake-agent"
put 0755 "$work/shake-agent" "$prefix/bin/shake-agent"
sed "s|^ExecStart=/usr/bin/shake-agent|ExecStart=$prefix/bin/shake-agent|" systemd/shake-agent.service >"$work/shake-agent.service"
put 0644 "$work/shake-agent.service" "$userunitdir/shake-agent.service"
put 0644 clients/shake-agent/shake-agent.desktop "$sysconfdir/xdg/autostart/shake-agent.desktop"

config="$sysconfdir/shaked/shaked.conf"
if [ -e "$destdir$config" ]; then
    echo "kept $destdir$config: it exists already (compare with $root/config/shaked.conf)"
else
    make_dir "$(dirname "$config")"
    install -m 0644 config/shaked.conf "$destdir$config"
    entries+=("config $(sha256sum <config/shaked.conf | cut -d' ' -f1) $config")
fi

make_dir "$(dirname "$manifest_rel")"
printf '%s\n' "${entries[@]}" >"$manifest"
echo "Installed shaked under ${destdir:-/} (prefix $prefix); manifest: $manifest"
apply
