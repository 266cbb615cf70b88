#!/usr/bin/env bash
# Runs a command with Debian's own Swift compiler: swiftlang 6.2.3 from Debian's unstable suite, in a
# Debian root made once per machine (scripts/debian-root.sh), with this checkout and the package mirrors
# (/opt/swift-packages, and git's url.insteadOf for them) at their own paths inside it. With --sdk arm64
# it also sets up, once, a Swift SDK for Debian 13 on arm64, for building the arm64 package natively
# (building under qemu-user is about 15 times slower):
#   - its sysroot is a Debian 13 arm64 root with the -dev libraries the C modules link, so the
#     executables need Debian 13's glibc at most (the unstable suite's own arm64 root would ask for more);
#   - the aarch64 Swift runtime of swiftlang:arm64, the same version as the compiler, is laid over it;
#   - lld 19 links (swiftlang's ld.lld 17 aborts on Sources/shaked/Linking/local-functions.ld).
#
#   scripts/debian-swift.sh swift --version
#   scripts/debian-swift.sh --sdk arm64 scripts/build-release.sh --product shaked \
#       --scratch-path .build/debian13-arm64 $(scripts/debian-swift.sh --sdk arm64 --print-sdk-flags)
#
# Everything is kept under $SHAKED_ROOTS (default /var/cache/shaked/roots) and reused, so that another
# checkout on the same machine (CI's fresh clone) skips the set-up; docs/packaging.md says how long it takes.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/debian-swift.sh [--sdk arm64] [--print-sdk-flags | COMMAND [ARG...]]

Runs COMMAND, from this checkout's directory, in a chroot whose Swift is Debian's swiftlang 6.2.3
(the unstable suite's), with lld 19. Makes that root once per machine.

  --sdk arm64        also make (once) the Swift SDK for Debian 13 arm64 and show it inside the
                     chroot at /opt/swift-sdks (its sysroot: a Debian 13 arm64 root)
  --print-sdk-flags  print the swift build flags that select that SDK (with --sdk), and run nothing
  --print-sysroot    print where the SDK's sysroot is inside the chroot, and run nothing
  --print-host-sysroot  print where that sysroot is kept on this machine, and run nothing
  -h, --help         show this help

Environment: SHAKED_ROOTS, where the roots and the SDK are kept (default /var/cache/shaked/roots).
Needs root (debootstrap, chroot, mounts).
EOF
}

sdk="" print_flags=0 print_sysroot=0
while (($#)); do
    case "$1" in
    --sdk) sdk=${2:?--sdk needs an architecture: arm64}; shift ;;
    --print-sdk-flags) print_flags=1 ;;
    --print-sysroot) print_sysroot=1 ;;
    --print-host-sysroot) print_sysroot=2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "error: unknown option '$1'; see scripts/debian-swift.sh --help" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
[ -z "$sdk" ] || [ "$sdk" = arm64 ] || { echo "error: --sdk $sdk: only arm64 is set up here" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "error: scripts/debian-swift.sh needs root (debootstrap, chroot and mounts)" >&2; exit 1; }
cd "$(dirname "$0")/.."
checkout=$(pwd)
roots=${SHAKED_ROOTS:-/var/cache/shaked/roots}
sdk_name=debian13-arm64
sdk_dir=/opt/swift-sdks                          # inside the build root
sdk_sysroot=$sdk_dir/$sdk_name.artifactbundle/$sdk_name/sysroot
host_sysroot=$roots/trixie-arm64-sysroot        # the same, on this machine
# Without --pkg-config-path into the sysroot, the build root's own -L/usr/lib/x86_64-linux-gnu leaks in.
sdk_flags=(--swift-sdks-path "$sdk_dir" --swift-sdk "$sdk_name"
    --pkg-config-path "$sdk_sysroot/usr/lib/aarch64-linux-gnu/pkgconfig" --pkg-config-path "$sdk_sysroot/usr/share/pkgconfig")
if ((print_flags || print_sysroot)); then
    [ -n "$sdk" ] || { echo "error: --print-sdk-flags and --print-sysroot need --sdk arm64" >&2; exit 2; }
    if ((print_flags)); then echo "${sdk_flags[*]}"; elif ((print_sysroot == 1)); then echo "$sdk_sysroot"
    else echo "$host_sysroot"; fi
    exit 0
fi
(($#)) || { echo "error: no command to run; see scripts/debian-swift.sh --help" >&2; exit 2; }

# One set-up at a time per machine: two checkouts (or CI and a session) may start together.
mkdir -p "$roots"
exec 9>"$roots/.debian-swift.lock"
flock 9

build_packages=(swiftlang lld-19 libc6-dev g++ git pkg-config libiio-dev libudev-dev libsystemd-dev libumockdev-dev)
sysroot_packages=(libc6-dev libgcc-14-dev libstdc++-14-dev libiio-dev libudev-dev libsystemd-dev systemd-dev)
# For packaging the arm64 build in the build root (scripts/package-deb.sh): arm64's binutils for dh_strip,
# and the arm64 libraries whose symbols files dpkg-shlibdeps reads.
packaging_packages=(debhelper dpkg-dev binutils-aarch64-linux-gnu libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64
    libudev1:arm64 libsystemd0:arm64)
build_root=$roots/sid-amd64
sysroot=""
[ -z "$sdk" ] || sysroot=$host_sysroot
bundle=$build_root$sdk_dir/$sdk_name.artifactbundle

# The build root: Debian's swiftlang from the unstable suite (its Release file may have expired in the
# archive reached here), lld 19, and what the package's C modules need.
set_up_build_root() {
    scripts/debian-root.sh --suite sid --arch amd64 --name sid-amd64 --no-valid-until "${build_packages[@]}" >/dev/null
}

# The sysroot, the arm64 runtime of the compiler's own version laid over it, the packaging tools, the bundle.
set_up_sdk() {
    local version start download=$build_root/tmp/swiftlang-arm64
    version=$(chroot "$build_root" dpkg-query -W -f='${Version}' swiftlang)
    scripts/debian-root.sh --suite trixie --arch arm64 --name trixie-arm64-sysroot "${sysroot_packages[@]}" >/dev/null
    chroot "$build_root" dpkg --print-foreign-architectures | grep -qx arm64 ||
        chroot "$build_root" dpkg --add-architecture arm64
    scripts/debian-root.sh --suite sid --arch amd64 --name sid-amd64 --no-valid-until "${packaging_packages[@]}" >/dev/null
    if [ "$(cat "$sysroot/.swift-runtime" 2>/dev/null)" != "$version" ]; then
        echo "debian-swift: laying swiftlang:arm64 $version's runtime over $sysroot" >&2
        start=$SECONDS
        rm -rf "$download" && mkdir -p "$download"
        chroot "$build_root" sh -c "cd /tmp/swiftlang-arm64 &&
            apt-get -o Acquire::Check-Valid-Until=false download -qq swiftlang:arm64=$version" >&2
        dpkg-deb -x "$download"/swiftlang_*_arm64.deb "$download/x"
        mkdir -p "$sysroot/usr/libexec/swift/lib"
        for part in swift swift_static clang; do
            rm -rf "$sysroot/usr/libexec/swift/lib/$part"
            cp -a "$download/x/usr/libexec/swift/lib/$part" "$sysroot/usr/libexec/swift/lib/"
        done
        # The 6.2 driver looks for swiftrt.o in the sysroot's usr/lib/swift_static.
        ln -sfn ../libexec/swift/lib/swift_static "$sysroot/usr/lib/swift_static"
        rm -rf "$download"
        echo "$version" >"$sysroot/.swift-runtime"
        echo "debian-swift: runtime laid over in $((SECONDS - start)) s" >&2
    fi
    mkdir -p "$bundle/$sdk_name/sysroot"
    cat >"$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$sdk_name": {
      "type": "swiftSDK",
      "version": "$version",
      "variants": [{ "path": "$sdk_name", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] }]
    }
  }
}
JSON
    cat >"$bundle/$sdk_name/swift-sdk.json" <<'JSON'
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
    cat >"$bundle/$sdk_name/toolset.json" <<'JSON'
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld", "-ld-path=/usr/bin/ld.lld-19"] },
  "linker": { "path": "/usr/bin/ld.lld-19" }
}
JSON
}

# When the stamp says this set-up was done for these packages, nothing is checked again (checking each
# package in the arm64 sysroot runs dpkg-query under qemu).
stamp=$roots/.debian-swift-${sdk:-amd64}
wanted="${build_packages[*]} / ${sysroot_packages[*]} / ${packaging_packages[*]}"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || [ ! -d "$build_root" ] || { [ -n "$sdk" ] && [ ! -f "$sysroot/.swift-runtime" ]; }; then
    set_up_build_root
    [ -z "$sdk" ] || set_up_sdk
    echo "$wanted" >"$stamp"
fi
flock -u 9

# git inside the root reads the package mirrors as this machine's git does.
git config --system --get-regexp '^url\.' | while read -r key value; do
    chroot "$build_root" git config --system --get-all "$key" | grep -qxF "$value" ||
        chroot "$build_root" git config --system --add "$key" "$value"
done

# The command runs in a mount namespace of its own, so every mount below goes when it ends.
exec unshare --mount --propagation private bash -euo pipefail -c '
    root=$1 checkout=$2 sysroot=$3 bundle=$4
    shift 4
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    for dir in "$checkout" /opt/swift-packages; do
        mkdir -p "$root$dir"
        mount --bind "$dir" "$root$dir"
    done
    # The checkout'"'"'s .build/static-libstdc++ (scripts/build-release.sh) is the host build'"'"'s: an empty one
    # of its own here, so that a build in this root neither uses nor removes the host'"'"'s while it links.
    mkdir -p "$checkout/.build/static-libstdc++"
    mount -t tmpfs -o size=1m static-libstdc++ "$root$checkout/.build/static-libstdc++"
    [ -z "$sysroot" ] || mount --bind "$sysroot" "$bundle/sysroot"
    cd "$checkout"
    environment=(HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM="${TERM:-dumb}")
    [ -z "${SOURCE_DATE_EPOCH:-}" ] || environment+=(SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH")
    [ -z "${SHAKED_BUILD_JOBS:-}" ] || environment+=(SHAKED_BUILD_JOBS="$SHAKED_BUILD_JOBS")
    exec chroot "$root" /usr/bin/env -i "${environment[@]}" bash -c "cd \"\$0\" && exec \"\$@\"" "$checkout" "$@"
' debian-swift "$build_root" "$checkout" "${sysroot:-}" "${bundle:-}/$sdk_name" "$@"
