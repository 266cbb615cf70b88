#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the parsers that read hostile bytes.
#
#   scripts/fuzz.sh TARGET SECONDS     # one target: varlink-framing, trace-parser, config-loader, sysfs-parsers
#   scripts/fuzz.sh all SECONDS        # each target in turn, SECONDS each
#   scripts/fuzz.sh TARGET 0 FILE...   # replay inputs (a crash file, say) through the target, no fuzzing
#
# SwiftPM's --sanitize=fuzzer cannot link an executable on Linux (swiftpm issue #4522: libFuzzer's
# main clashes with the one SwiftPM renames), so the package's modules are compiled by SwiftPM
# into .build-fuzz (release, with -sanitize=fuzzer,address for coverage and ASan, no link), and
# each target's entry point (Tests/Fuzz/TARGET/*.swift, which defines LLVMFuzzerTestOneInput)
# is compiled and linked by swiftc against those objects. The pure IIO parsers are compiled
# straight into their target: IIOSensors itself imports libiio and libudev.
#
# The seed corpus is Tests/Fuzz/TARGET/corpus (committed); what libFuzzer adds goes to
# .build-fuzz/corpus/TARGET. Prints executions per second, coverage and any crash file; exits
# non-zero when a target crashes, leaks or times out.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(varlink-framing trace-parser config-loader sysfs-parsers)
usage() { echo "usage: scripts/fuzz.sh {${targets[*]// /|}|all} SECONDS [FILE...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
target=$1
seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage

scratch=.build-fuzz
build=$scratch/release
flags=(-sanitize=fuzzer,address)

# The SwiftPM modules each target links, in its dependency closure, and extra sources.
spm_targets() {
    case $1 in
        varlink-framing) echo UndoProtocol NIOEmbedded ;;
        trace-parser) echo Traces ;;
        config-loader) echo ShakedConfiguration ;;
        sysfs-parsers) echo ShakeDetection TextSafety ;;
    esac
}
# UndoProtocol and what it needs of SwiftNIO (the configuration takes its default socket path from it).
undo_protocol_modules="UndoProtocol NIOCore NIOConcurrencyHelpers _NIODataStructures _NIOBase64 \
    CNIOLinux CNIODarwin CNIOWindows CNIOWASI CNIOFreeBSD CNIOOpenBSD CNIOAtomics \
    Atomics _AtomicsShims DequeModule InternalCollectionsUtilities ContainersPreview TextSafety"
modules() {
    case $1 in
        varlink-framing) echo "$undo_protocol_modules" NIOEmbedded ;;
        trace-parser) echo Traces ShakeLearning ShakeDetection MonotonicClock TextSafety SystemPackage CSystem ;;
        config-loader) echo ShakedConfiguration ShakeDetection SystemPackage CSystem "$undo_protocol_modules" ;;
        sysfs-parsers) echo ShakeDetection TextSafety ;;
    esac
}
extra_sources() {
    case $1 in
        sysfs-parsers)
            for f in AttributeParsing ChannelFormat MountMatrix ScanLayout ScanPlan SampleConverter TimestampGuard AccelerometerInfo; do
                echo "Sources/IIOSensors/$f.swift"
            done ;;
    esac
}
link_flags() {
    case $1 in
        *) ;;
    esac
}

build_target() {
    local t=$1 spm
    for spm in $(spm_targets "$t"); do
        swift build --scratch-path "$scratch" -c release --target "$spm" \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -g \
            -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address >&2
    done
    local includes=() objects=() m f
    for f in "$build"/*.build/module.modulemap "$scratch"/checkouts/*/Sources/*/include/module.modulemap; do
        [ -e "$f" ] && includes+=(-Xcc "-fmodule-map-file=$PWD/$f")
    done
    for f in "$scratch"/checkouts/*/Sources/*/include; do includes+=(-Xcc "-I$PWD/$f"); done
    for m in $(modules "$t"); do
        while IFS= read -r -d '' f; do
            # An object whose source is gone (a file deleted or renamed since the last fuzz build)
            # stays in the scratch folder; linking it would pull in what it referenced.
            if [ -d "Sources/$m" ] && [ -z "$(find "Sources/$m" -name "$(basename "$f" .o)" -print -quit)" ]; then
                continue
            fi
            objects+=("$f")
        done < <(find "$build/$m.build" -name '*.o' -print0)
    done
    mkdir -p "$scratch/fuzz"
    local sources=(Tests/Fuzz/"$t"/*.swift)
    # shellcheck disable=SC2046
    swiftc -parse-as-library -O -g "${flags[@]}" -use-ld=lld -module-name "Fuzz_${t//-/_}" \
        -I "$build/Modules" "${includes[@]}" "${sources[@]}" $(extra_sources "$t") "${objects[@]}" \
        $(link_flags "$t") -o "$scratch/fuzz/$t" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
    [ -x "$scratch/fuzz/$t" ] || { echo "$t: FAILED: could not build the fuzz target (the link errors are above)" >&2; return 1; }
}

run_target() {
    local t=$1 binary=$scratch/fuzz/$1 log
    shift
    rm -f "$binary"
    build_target "$t" || return 1
    # Swift's own crash reporter would hold the output pipe open; ASan and libFuzzer report instead.
    export SWIFT_BACKTRACE=enable=no
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:symbolize=1}
    # Leaks of dependencies and the toolchain are suppressed (see the file); any of ours fails the run.
    export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp"
    local options=(-rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
    if [ -f "Tests/Fuzz/$t/options" ]; then mapfile -t -O "${#options[@]}" options < <(grep -v '^#' "Tests/Fuzz/$t/options"); fi
    [ -f "Tests/Fuzz/$t/dictionary" ] && options+=("-dict=Tests/Fuzz/$t/dictionary")
    if [ "$seconds" = 0 ]; then
        "$binary" "${options[@]}" "$@"
        return
    fi
    local corpus=$scratch/corpus/$t artifacts=$scratch/artifacts/$t/
    mkdir -p "$corpus" "$artifacts"
    log=$(mktemp)
    local status=0 start elapsed
    echo "fuzzing $t for $seconds s" >&2
    start=$(date +%s)
    "$binary" "${options[@]}" -max_total_time="$seconds" -artifact_prefix="$artifacts" \
        "$corpus" "Tests/Fuzz/$t/corpus" >"$log" 2>&1 || status=$?
    elapsed=$(($(date +%s) - start))
    local execs rate cov
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 || true)
    echo "$t: ${execs:-?} executions in $elapsed s (${rate:-?} exec/s); $cov"
    if [ "$status" != 0 ]; then
        grep -E '^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*precondition failed|.*: error:)' "$log" | head -5 >&2 || true
        grep -Eo "Test unit written to [^ ]+" "$log" | sed "s/^/$t: /" >&2 || true
        echo "$t: FAILED (exit $status); the whole log: $log" >&2
        return 1
    fi
    rm -f "$log"
}

if [ "$target" = all ]; then
    [ $# -eq 0 ] || usage
    failed=0
    for t in "${targets[@]}"; do run_target "$t" || failed=1; done
    exit "$failed"
fi
[[ " ${targets[*]} " == *" $target "* ]] || usage
run_target "$target" "$@"
