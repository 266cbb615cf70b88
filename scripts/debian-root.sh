#!/usr/bin/env bash
# Makes (once per machine) and prints the path of a Debian root: a real Debian of another release
# or architecture, made with debootstrap from the Debian archive this machine reaches, for the tests
# that must run against that release's own packages (Debian 13's iio-sensor-proxy 3.7, the arm64
# package under qemu-user) and for the arm64 build's sysroot.
#
#   root=$(scripts/debian-root.sh --suite trixie --arch arm64 umockdev libiio0)
#   chroot "$root" ...                          # (arm64 runs through qemu-user's binfmt entry)
#
# A root is kept under $SHAKED_ROOTS (default /var/cache/shaked/roots), named SUITE-ARCH unless
# --name says otherwise, and reused: a later call with more packages installs only the missing
# ones. Progress goes to stderr, the root's path is the last line on stdout.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/debian-root.sh [OPTIONS] [PACKAGE...]

Makes a Debian root with debootstrap (once; later calls reuse it) and installs the PACKAGEs in it
that it lacks. Prints the root's path on the last line.

  --suite SUITE     Debian suite or codename (default: trixie, Debian 13)
  --arch ARCH       Debian architecture (default: this machine's); a foreign one runs through
                    qemu-user-static's binfmt entry, which this script registers
  --name NAME       folder name under $SHAKED_ROOTS (default: SUITE-ARCH)
  --mirror URL      Debian archive (default: the one apt uses here, from its sources:
                    scripts/apt-mirror.sh; with none there, this option is needed)
  --no-valid-until  accept a Release file whose Valid-Until has passed (the unstable suite's
                    can be expired in this archive)
  -h, --help        show this help

Environment: SHAKED_ROOTS, where roots are kept (default /var/cache/shaked/roots). Needs root.
EOF
}

suite=trixie arch="" name="" mirror="" no_valid_until=0 packages=()
while (($#)); do
    case "$1" in
    --suite) suite=${2:?--suite needs a suite}; shift ;;
    --arch) arch=${2:?--arch needs a Debian architecture}; shift ;;
    --name) name=${2:?--name needs a folder name}; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift ;;
    --no-valid-until) no_valid_until=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "error: unknown option '$1'; see scripts/debian-root.sh --help" >&2; exit 2 ;;
    *) packages+=("$1") ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "error: scripts/debian-root.sh needs root (debootstrap and chroot)" >&2; exit 1; }
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh debootstrap qemu-user-static binfmt-support debian-archive-keyring >&2

host_arch=$(dpkg --print-architecture)
arch=${arch:-$host_arch}
name=${name:-$suite-$arch}
roots=${SHAKED_ROOTS:-/var/cache/shaked/roots}
root=$roots/$name
# One maker of a root at a time: scripts/test.sh prepares roots beside the steps that use them.
mkdir -p "$roots"
exec 8>"$roots/.$name.lock"
flock 8
# The archive apt uses here: no host is named in this tree (scripts/apt-mirror.sh says what to do without one).
[ -n "$mirror" ] || mirror=$(scripts/apt-mirror.sh)

# A foreign architecture runs its programs through qemu-user: the binfmt entry must be there.
if [ "$arch" != "$host_arch" ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable >/dev/null 2>&1 || true
    qemu=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_CPU 2>/dev/null)
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ] || {
        echo "error: no binfmt entry for qemu-$qemu in /proc/sys/fs/binfmt_misc after update-binfmts --enable;" \
            "reinstall qemu-user-static and binfmt-support" >&2
        exit 1
    }
fi

# The root's kernel file systems, mounted while a command runs in it (umount_root undoes it).
mount_root() {
    mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
    mountpoint -q "$root/dev" || mount --rbind /dev "$root/dev"
    mountpoint -q "$root/sys" || mount --rbind /sys "$root/sys"
}
umount_root() {
    for m in sys dev proc; do mountpoint -q "$root/$m" && umount -R "$root/$m" 2>/dev/null || true; done
}

apt_options=()
((no_valid_until)) && apt_options=(-o Acquire::Check-Valid-Until=false)
if [ ! -e "$root/.debootstrap-done" ]; then
    echo "debian-root: making $root ($suite, $arch) with debootstrap from $mirror (a few minutes, once)" >&2
    rm -rf "$root"
    mkdir -p "$roots"
    start=$SECONDS
    debootstrap --arch="$arch" --variant=minbase "$suite" "$root" "$mirror" >"$roots/$name.log" 2>&1 || {
        echo "error: debootstrap of $suite/$arch failed; its log: $roots/$name.log" >&2
        tail -5 "$roots/$name.log" >&2
        exit 1
    }
    ((no_valid_until)) && echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99no-valid-until"
    # No services start inside the root when packages are installed.
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    # The base system's packages, before any other is installed: a test that installs a package in a copy
    # of this root tells what the package pulled in from what the root already held.
    chroot "$root" dpkg-query -W -f='${Package}\n' | sort >"$root/.base-packages"
    touch "$root/.debootstrap-done"
    echo "debian-root: $name made in $((SECONDS - start)) s" >&2
fi

missing=()
for p in "${packages[@]}"; do
    chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "debian-root: installing in $name: ${missing[*]}" >&2
    start=$SECONDS
    trap umount_root EXIT
    mount_root
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    # An install cut short (a step's time limit ended it) leaves packages unpacked but not configured,
    # and apt refuses to go on until they are.
    DEBIAN_FRONTEND=noninteractive chroot "$root" dpkg --configure -a >&2
    chroot "$root" apt-get "${apt_options[@]}" update -qq >&2
    DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get "${apt_options[@]}" install -y -qq \
        --no-install-recommends "${missing[@]}" >"$roots/$name.install.log" 2>&1 || {
        echo "error: installing ${missing[*]} in $root failed; its log: $roots/$name.install.log" >&2
        tail -5 "$roots/$name.install.log" >&2
        exit 1
    }
    chroot "$root" apt-get clean
    umount_root
    trap - EXIT
    echo "debian-root: installed in $((SECONDS - start)) s" >&2
fi
echo "$root"
