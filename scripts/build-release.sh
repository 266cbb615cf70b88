#!/usr/bin/env bash
# The release build that ships. Extra arguments go to `swift build` (--product shaked, --show-bin-path,
# --scratch-path DIR, --swift-sdk NAME, ...).
#
#   scripts/build-release.sh --product shaked && scripts/build-release.sh --product shakectl
#   bin=$(scripts/build-release.sh --show-bin-path)
#
# - The Swift runtime, Foundation and ICU static: the executables need only the distribution's libraries.
# - No default traits: the malloc interposer of `shakectl bench` is a Swift shared library.
# - Every Swift function in a section of its own, so that the linker can place the functions the daemon
#   runs side by side (Package.swift: shaked's linker settings, Sources/shaked/Linking/).
# - libstdc++ static in shaked too, when the C++ compiler has libstdc++.a (linked in .build/static-libstdc++
#   for Package.swift): the Swift runtime uses little of it, and the shared library, mapped whole, was 1.1 MiB
#   of the daemon's resident memory. Not for another target (--swift-sdk): the host's library is the host's.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --disable-default-traits -Xswiftc -Xfrontend -Xswiftc -function-sections)
case " $* " in
*" --swift-sdk"*)
    # The host's libstdc++.a is not for another target.
    rm -f .build/static-libstdc++/libstdc++.a
    ;;
*)
    # Package.swift links shaked against the archive here when it exists.
    static_cxx=$(c++ -print-file-name=libstdc++.a 2>/dev/null || true)
    if [ -f "$static_cxx" ]; then
        mkdir -p .build/static-libstdc++
        ln -sfn "$static_cxx" .build/static-libstdc++/libstdc++.a
    else
        rm -f .build/static-libstdc++/libstdc++.a
    fi
    ;;
esac
# SHAKED_BUILD_JOBS=N: at most N compile jobs (a build made beside other work, as scripts/test.sh does).
[ -z "${SHAKED_BUILD_JOBS:-}" ] || flags+=(--jobs "$SHAKED_BUILD_JOBS")
exec swift build "${flags[@]}" "$@"
