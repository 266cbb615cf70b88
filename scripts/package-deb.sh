#!/usr/bin/env bash
# Builds the Debian package shaked_VERSION_ARCH.deb (and shaked-dbgsym_VERSION_ARCH.deb with the
# debug information) from `scripts/install.sh --destdir` staging, with debhelper: dh_strip splits the
# debug information, dh_shlibdeps computes Depends: from the executables, dh_installsystemd and
# dh_installsysusers write the maintainer-script steps, dh_gencontrol and dh_builddeb do the rest.
# The packaging files are in scripts/debian/. The last line of output is the .deb's path.
#
#   scripts/package-deb.sh                          # release build (Swift runtime static), then package
#   scripts/package-deb.sh --arch arm64             # for Debian 13 on arm64, with Debian's Swift (below)
#   scripts/package-deb.sh --bin-dir DIR --arch arm64   # package executables built elsewhere
#
# --arch arm64 builds with Debian's own Swift compiler (swiftlang 6.2.3, the unstable suite's) through a
# Swift SDK whose sysroot is a Debian 13 arm64 root, and runs debhelper in that compiler's Debian root with
# the arm64 libraries (scripts/debian-swift.sh makes all of it once per machine; docs/packaging.md).
#
# Needs the Debian packages dpkg-dev and debhelper (scripts/ensure-packages.sh installs them).
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/package-deb.sh [OPTIONS]

  --bin-dir DIR     package the shaked and shakectl executables in DIR instead of building them
                    (scripts/build-release.sh: the release build that ships)
  --arch ARCH       Debian architecture of the package (default: dpkg --print-architecture);
                    arm64 without --bin-dir: build for Debian 13 on arm64 with Debian's Swift 6.2.3
                    and its cross SDK (scripts/debian-swift.sh; root needed; the first run sets
                    up and builds for about 45 minutes, later ones reuse it: docs/packaging.md)
  --version V       package version (default: shaked's own version from Sources/shaked/Shaked.swift,
                    Debian revision 1, e.g. 0.5.0-1)
  --output DIR      where the .deb files go (default: .build/deb)
  -h, --help        show this help

Environment: DEBFULLNAME and DEBEMAIL name the maintainer (default: shaked maintainers
<shaked@example.org>); SOURCE_DATE_EPOCH fixes the time stamps (default: the last commit's).
EOF
}

bin_dir=""
arch=""
version=""
output=""
while (($#)); do
    case "$1" in
    --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; shift ;;
    --bin-dir=*) bin_dir=${1#*=} ;;
    --arch) arch=${2:?--arch needs a Debian architecture}; shift ;;
    --arch=*) arch=${1#*=} ;;
    --version) version=${2:?--version needs a version}; shift ;;
    --version=*) version=${1#*=} ;;
    --output) output=${2:?--output needs a directory}; shift ;;
    --output=*) output=${1#*=} ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'; see scripts/package-deb.sh --help" >&2; exit 2 ;;
    esac
    shift
done

cd "$(dirname "$0")/.."
root=$(pwd)
arch=${arch:-$(dpkg --print-architecture)}
tools=(dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev dpkg-architecture:dpkg-dev dh:debhelper readelf:binutils)
# arm64 is packaged in Debian's Swift root (below), which has its own debhelper.
[ "$arch" != arm64 ] || [ "$arch" = "$(dpkg --print-architecture)" ] || tools=(readelf:binutils)
for tool in "${tools[@]}"; do
    command -v "${tool%%:*}" >/dev/null || {
        echo "error: ${tool%%:*} not found; install the Debian package ${tool#*:} (scripts/ensure-packages.sh ${tool#*:})" >&2
        exit 1
    }
done

if [ -z "$version" ]; then
    upstream=$(sed -n 's/^ *static let version = "\([^"]*\)".*/\1/p' Sources/shaked/Shaked.swift)
    [ -n "$upstream" ] || { echo "error: no 'static let version = \"...\"' in Sources/shaked/Shaked.swift; pass --version" >&2; exit 1; }
    version="$upstream-1"
fi
output=${output:-$root/.build/deb}
mkdir -p "$output"
output=$(cd "$output" && pwd)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# arm64: built in Debian's Swift root for the Debian 13 arm64 sysroot, and packaged in that root too.
cross=0
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
    [ "$arch" = arm64 ] || [ -n "$bin_dir" ] || {
        echo "error: --arch $arch: only arm64 is built here (scripts/debian-swift.sh); for another, build with a Swift SDK and pass --bin-dir" >&2
        exit 2
    }
    [ "$arch" != arm64 ] || cross=1
fi
if ((cross)); then
    [ "$(id -u)" = 0 ] || { echo "error: --arch arm64 needs root: it builds in a Debian root (chroot)" >&2; exit 1; }
    read -ra sdk_flags <<<"$(scripts/debian-swift.sh --sdk arm64 --print-sdk-flags)"
    scratch=.build/debian13-arm64
    if [ -z "$bin_dir" ]; then
        for product in shaked shakectl; do
            scripts/debian-swift.sh --sdk arm64 scripts/build-release.sh --scratch-path "$scratch" "${sdk_flags[@]}" \
                --product "$product" >&2
        done
        bin_dir=$scratch/aarch64-unknown-linux-gnu/release
    fi
elif [ -z "$bin_dir" ]; then
    build=(scripts/build-release.sh)
    "${build[@]}" --product shaked >&2
    "${build[@]}" --product shakectl >&2
    bin_dir=$("${build[@]}" --show-bin-path)
fi
[ -d "$bin_dir" ] || { echo "error: --bin-dir $bin_dir is not a directory" >&2; exit 1; }
bin_dir=$(cd "$bin_dir" && pwd)

# The executables must run without a Swift toolchain: no search path into one, and no Swift shared library.
for exe in shaked shakectl; do
    [ -x "$bin_dir/$exe" ] || { echo "error: $bin_dir/$exe is missing or not executable" >&2; exit 1; }
    dynamic=$(readelf -d "$bin_dir/$exe")
    if grep -E '\((RUNPATH|RPATH)\)' <<<"$dynamic" | grep -v '\[\$ORIGIN\]$' >&2; then
        echo "error: $bin_dir/$exe has the RUNPATH above, into a toolchain or build tree; build with --static-swift-stdlib" >&2
        exit 1
    fi
    if grep -E 'NEEDED.*\[lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime|MallocInterposer)' <<<"$dynamic" >&2; then
        echo "error: $bin_dir/$exe needs the Swift shared libraries above; build with --static-swift-stdlib --disable-default-traits" >&2
        exit 1
    fi
done

# In the checkout: for arm64, debhelper runs in the Debian root, which sees the checkout only.
mkdir -p .build
work=$(mktemp -d -p "$root/.build" package-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
upstream_version=${version#*:}
tree="$work/shaked-${upstream_version%-*}"
mkdir -p "$tree/debian"
cp scripts/debian/control scripts/debian/rules scripts/debian/copyright scripts/debian/postinst \
    scripts/debian/postrm "$tree/debian/"
maintainer="${DEBFULLNAME:-shaked maintainers} <${DEBEMAIL:-shaked@example.org}>"
sed -i "s|@MAINTAINER@|$maintainer|" "$tree/debian/control"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cat >"$tree/debian/changelog" <<EOF
shaked ($version) unstable; urgency=medium

  * Built by scripts/package-deb.sh at commit $commit.

 -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")
EOF

unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
userunitdir=$(pkg-config --variable=systemduserunitdir systemd 2>/dev/null || true)
# The agent's varlink client (PyPI `varlink`, Apache-2.0), which Debian 12 does not package: shipped with it.
# It comes from PyPI into the build's virtual environment (scripts/python-env.sh), never into the
# system's Python.
python=$(scripts/python-env.sh)
varlink=$("$python" -c 'import os, varlink; print(os.path.dirname(varlink.__file__))') || {
    echo "error: the Python varlink client to ship with the agent could not be found in .build/venv; rerun scripts/python-env.sh" >&2
    exit 1
}
udevdir=$(pkg-config --variable=udevdir udev 2>/dev/null || true)
if ((cross)); then
    # Debian 13's directories (its systemd.pc and udev.pc, in the sysroot), arm64's strip and libraries.
    scripts/debian-swift.sh --sdk arm64 bash -euo pipefail -c '
        cd "$1"
        export PKG_CONFIG_LIBDIR=$2/usr/share/pkgconfig SHAKED_SOURCE=$3 SHAKED_BIN_DIR=$4 SHAKED_VARLINK=$5
        SHAKED_UNITDIR=$(pkg-config --variable=systemdsystemunitdir systemd)
        SHAKED_USERUNITDIR=$(pkg-config --variable=systemduserunitdir systemd)
        SHAKED_UDEVDIR=$(pkg-config --variable=udevdir udev)
        export SHAKED_UNITDIR SHAKED_USERUNITDIR SHAKED_UDEVDIR
        unset PKG_CONFIG_LIBDIR
        dpkg-architecture --host-arch arm64 --force --command debian/rules binary
    ' package "$tree" "$(scripts/debian-swift.sh --sdk arm64 --print-sysroot)" "$root" "$bin_dir" "$varlink" >&2
else
    (
        cd "$tree"
        export SHAKED_SOURCE="$root" SHAKED_BIN_DIR="$bin_dir"
        export SHAKED_UNITDIR="${unitdir:-/lib/systemd/system}" SHAKED_UDEVDIR="${udevdir:-/lib/udev}"
        export SHAKED_USERUNITDIR="${userunitdir:-/usr/lib/systemd/user}" SHAKED_VARLINK="$varlink"
        dpkg-architecture --host-arch "$arch" --force --command debian/rules binary
    ) >&2
fi

deb="$output/shaked_${version#*:}_${arch}.deb"
for built in "$work"/*.deb; do mv -f "$built" "$output/"; done
[ -f "$deb" ] || { echo "error: debhelper made no $(basename "$deb"); see the output above" >&2; exit 1; }
echo "$deb"
