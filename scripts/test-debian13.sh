#!/usr/bin/env bash
# The Debian packages on Debian 13, each in a fresh Debian 13 root of its architecture: amd64 natively,
# arm64 under qemu-user (the phones' architecture; scripts/debian-root.sh registers qemu's binfmt entry).
# For each architecture (root needed):
#  1. scripts/package-deb.sh makes the package (arm64: with Debian's Swift and the Debian 13 arm64 SDK);
#  2. a copy of a cached Debian 13 root that holds only the base system (debootstrap's minbase) and
#     umockdev, the test's own tool, takes it with apt-get install: what the package needs comes from its
#     control file alone (none of the packages it depends on may be in the root beforehand, unless the
#     base system has it), so a dependency missing there fails the steps below; dpkg lists it installed,
#     the user and group made;
#  3. the installed shaked checks its configuration; started as shaked.service and shaked.socket say, it
#     answers the Python varlink client on this machine through its socket in the root; with --replay, a
#     recorded shake reaches a subscribed app (Tests/package/root_flow.py); shake-agent starts (python3)
#     and, without the packages it only recommends, names them;
#  4. the IIO reader reads umockdev's fake accelerometer (the root's own umockdev): shakectl record,
#     polled and buffered through libiio, writes the values the fake device holds;
#  5. shakectl evaluate on ../shared/traces prints, byte for byte, what amd64's package does (when amd64
#     is not tested or ended before its evaluation: what this checkout's release shakectl, built then,
#     prints on this machine; it says so);
#  6. dpkg --purge leaves no file of the package behind (the lists before and after are compared).
#
#   scripts/test-debian13.sh                 # amd64 and arm64, side by side
#   scripts/test-debian13.sh --arch arm64    # one architecture
#   scripts/test-debian13.sh --prepare       # only make or bring up to date what is kept (the roots,
#                                            # the SDK, the arm64 build on one core); scripts/test.sh
#                                            # runs this beside its other steps
#
# The roots and the arm64 SDK are kept under $SHAKED_ROOTS and reused; each run works on copies.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$(pwd)

arches=(amd64 arm64)
prepare=0
while (($#)); do
    case "$1" in
    --arch) arches=("${2:?--arch needs amd64 or arm64}"); shift ;;
    --prepare) prepare=1 ;;
    -h | --help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1'; see scripts/test-debian13.sh --help" >&2; exit 2 ;;
    esac
    shift
done
if [ "$(id -u)" != 0 ]; then
    echo "test-debian13: skipped: it makes Debian roots and installs the package in them, so it needs root"
    exit 0
fi
traces=$(cd ../shared/traces 2>/dev/null && pwd) || {
    echo "error: the trace corpus must be at ../shared/traces, beside this checkout" >&2
    exit 1
}
scripts/ensure-packages.sh systemd util-linux >&2
python=$(scripts/python-env.sh)

step() { echo "== test-debian13 ($arch): $*"; }
fail() {
    echo "test-debian13 ($arch): FAILED: $*" >&2
    exit 1
}

work=$(mktemp -d -p /var/tmp shaked-debian13.XXXXXX)
# The roots' copies are removed from outside the mount namespaces they were used in; --one-file-system
# keeps rm out of anything still mounted.
trap 'rm -rf --one-file-system "$work"' EXIT

# What shakectl evaluate prints for the corpus on amd64: the amd64 package's, or (host_reference) this
# checkout's release build's.
reference=$work/evaluate-amd64.txt

# host_reference WHY: when no amd64 package is evaluated in this run, the reference is this checkout's
# release shakectl (what the amd64 package ships), built now so that it is this checkout's, run here.
host_reference() {
    echo "== test-debian13: $1: arm64 is compared with this checkout's release shakectl, built now and run on this machine"
    scripts/build-release.sh --product shakectl >"$work/reference-build.log" 2>&1 || {
        tail -n 15 "$work/reference-build.log"
        echo "test-debian13: the release build of shakectl failed (above): nothing to compare arm64's evaluation with"
        return 0
    }
    echo "this checkout's release shakectl, run on this machine" >"$reference.what"
    .build/release/shakectl evaluate "$traces" >"$reference.part" && mv "$reference.part" "$reference" ||
        echo "test-debian13: this machine's release shakectl evaluate failed: nothing to compare arm64's evaluation with"
}

# install_root ARCH: the cached root a copy of which takes the package (made or brought up to date): the
# base system and umockdev, the test's own tool, nothing else (debootstrap's list is its .base-packages).
install_root() {
    scripts/debian-root.sh --suite trixie --arch "$1" --name "trixie-$1-base" umockdev | tail -n 1
}

# test_in_root ARCH DEB: steps 2 to 6 in a copy of the cached root, in a mount namespace of its own.
test_in_root() {
    local arch=$1 deb=$2 base root
    base=$(install_root "$arch")
    root=$work/root-$arch
    step "a fresh Debian 13 root: a copy of $base"
    [ -s "$base/.base-packages" ] || fail "$base has no .base-packages (debootstrap's list, written since): remove it to have it made again"
    mkdir "$root"
    tar -C "$base" -cf - . | tar -C "$root" -xpf -
    mkdir -p "$root/var/tmp/shaked-test"
    cp "$deb" "$root/var/tmp/shaked-test/"
    unshare --mount --propagation private bash -euo pipefail -c "$(declare -f step fail in_root); in_root \"\$@\"" \
        in-root "$arch" "$root" "$(basename "$deb")" "$traces" "$python" "$reference" "$checkout"
}

# Runs inside the mount namespace: the root's kernel file systems, this machine's /tmp as the root's (the
# harness's sockets and files are there), and the traces at their own path. The test's own files are in
# the root's /var/tmp/shaked-test (T), which the file lists leave out.
in_root() {
    local arch=$1 root=$2 deb=$3 traces=$4 python=$5 reference=$6 checkout=$7
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    mkdir -p "$root$traces"
    mount --bind -o ro "$traces" "$root$traces"
    mount --bind /tmp "$root/tmp"
    local T=/var/tmp/shaked-test
    cp "$checkout/Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev" "$root$T/"
    inroot() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
    snapshot() {
        chroot "$root" find /etc /usr /var /opt -xdev \( -path /var/lib/dpkg -o -path /var/log -o -path /var/cache \
            -o -path /var/lib/apt -o -path /var/tmp \
            -o -name __pycache__ \) -prune -o -print | sort
    }

    step "apt-get install ./$deb, into the base system and umockdev"
    # None of what the package depends on may be there already, unless the base system has it: each must
    # come from the package's own control file.
    local depends held
    depends=$(dpkg-deb -f "$root$T/$deb" Pre-Depends Depends | sed 's/^[A-Za-z-]*://' | tr ',|' '\n\n' |
        sed 's/([^)]*)//; s/:[a-z0-9]*//; s/[[:space:]]//g' | grep . | sort -u)
    held=$(comm -12 <(echo "$depends") <(inroot dpkg-query -W -f='${Package} ${db:Status-Status}\n' |
        awk '$2 == "installed" { print $1 }' | sort) | comm -23 - "$root/.base-packages")
    [ -z "$held" ] || fail "the root already holds $(echo $held), which the package depends on but the base system lacks:
the install root must hold only the base system and umockdev (install_root)"
    # What apt fetches for the package is installed first, so that the lists before and after the package
    # (dpkg --purge, below) differ only by what the package itself did. The cached lists may be older than
    # the archive: then they are brought up to date once.
    inroot apt-get install -qq --download-only --no-install-recommends "$T/$deb" >"$root$T/download.log" 2>&1 || {
        inroot apt-get update -qq >/dev/null &&
            inroot apt-get install -qq --download-only --no-install-recommends "$T/$deb" >"$root$T/download.log" 2>&1
    } || { cat "$root$T/download.log"; fail "apt-get could not fetch what $deb depends on"; }
    local pulled=("$root"/var/cache/apt/archives/*.deb)
    if [ -e "${pulled[0]}" ]; then
        echo "the package pulls in ${#pulled[@]} packages: $(for p in "${pulled[@]}"; do basename "${p%%_*}"; done | tr '\n' ' ')"
        inroot apt-get install -y -qq --no-install-recommends "${pulled[@]#"$root"}" >/dev/null ||
            fail "installing what $deb depends on failed in the root"
        inroot apt-get clean
    fi
    snapshot >"$root$T/before.txt"
    inroot apt-get install -y -qq --no-install-recommends "$T/$deb" >/dev/null ||
        fail "apt-get install $T/$deb failed in the root"
    [ "$(inroot dpkg-query -W -f='${Status} ${Architecture}' shaked)" = "install ok installed $arch" ] ||
        fail "dpkg does not list shaked:$arch as installed"
    inroot getent passwd shaked >/dev/null || fail "postinst did not create the user shaked (systemd-sysusers)"
    inroot getent group shaked >/dev/null || fail "postinst did not create the group shaked"
    machine=$(readelf -h "$root/usr/sbin/shaked" | sed -n 's/^ *Machine: *//p')
    [ "$machine" = "$([ "$arch" = arm64 ] && echo AArch64 || echo "Advanced Micro Devices X86-64")" ] ||
        fail "/usr/sbin/shaked is for $machine, not $arch"
    echo "installed: $(inroot dpkg-query -W -f='${Package} ${Version} ${Architecture}' shaked); glibc $(inroot dpkg-query -W -f='${Version}' libc6)"

    step "the installed shaked and shakectl"
    inroot shaked --version
    inroot shaked --check-config || fail "shaked --check-config failed on the installed configuration"
    # python3 is named in the control file by hand; the agent's GTK packages are only recommended.
    local agent
    agent=$(inroot shake-agent 2>&1) && fail "shake-agent started without python3-gi (a Recommends) installed"
    [[ $agent == *"it needs python3-gi"* ]] || fail "shake-agent did not name what it lacks: $agent"
    echo "shake-agent: ${agent%%;*}"
    cd "$checkout"
    SHAKED_BINARY=/usr/sbin/shaked timeout --kill-after=10 600 "$python" -u Tests/package/root_flow.py "$root" \
        "$traces/qt_shake_left.csv" </dev/null || fail "the daemon did not serve as installed (Tests/package/root_flow.py)"

    step "the IIO reader on umockdev's fake accelerometer"
    # Polled: in_accel_{x,y,z}_raw 100, -200 and 16384 at scale 0.000598550 m/s² in the fixture, whose udev
    # property ACCEL_MOUNT_MATRIX swaps x and y; the trace has five decimals.
    timeout 300 chroot "$root" umockdev-run -d $T/fake-accel.umockdev -- \
        shakectl record --mode polled --duration 1 -o $T/polled.csv || fail "shakectl record --mode polled failed"
    "$python" - "$root$T/polled.csv" <<'PY' || fail "the polled samples are not the fake device's values"
import sys
rows = [line.split(",") for line in open(sys.argv[1]) if line[:1].isdigit()]
assert len(rows) >= 5, "only %d samples in a second" % len(rows)
for t, x, y, z in rows:
    assert abs(float(x) + 200 * 0.000598550) < 6e-6 and abs(float(y) - 100 * 0.000598550) < 6e-6 \
        and abs(float(z) - 16384 * 0.000598550) < 6e-6, (t, x, y, z)
print("polled: %d samples, each x %s y %s z %s" % (len(rows), rows[0][1], rows[0][2], rows[0][3].strip()))
PY
    # Buffered through libiio (loaded with dlopen): scans the test writes to /dev/iio:device0.
    "$python" - "$root$T/accel.script" <<'PY'
import struct, sys
def escape(data):
    return b"".join(bytes([94, b + 64]) if b < 32 else (b"^`" if b == 94 else bytes([b])) for b in data)
with open(sys.argv[1], "wb") as f:
    for wake in range(40):
        # x odd: a line of umockdev's script whose data began with a space (0x20) would lose it.
        scans = b"".join(struct.pack("<hhhxxq", 10 * n + 1, -5 * n, 16384, 1_000_000_000 + n * 10_000_000)
                         for n in range(wake * 10, wake * 10 + 10))
        f.write(b"r 100 " + escape(scans) + b"\n")
PY
    timeout 300 chroot "$root" umockdev-run -d $T/fake-accel.umockdev -s /dev/iio:device0=$T/accel.script -- \
        shakectl record --mode buffered --duration 1 -o $T/buffered.csv || fail "shakectl record --mode buffered failed"
    "$python" - "$root$T/buffered.csv" <<'PY' || fail "the buffered samples are not the scans written"
import sys
rows = [line.split(",") for line in open(sys.argv[1]) if line[:1].isdigit()]
assert len(rows) >= 20, "only %d samples" % len(rows)
first = round((float(rows[0][2]) / 0.000598550 - 1) / 10)
for i, (t, x, y, z) in enumerate(rows):
    n = first + i
    assert abs(float(x) + 5 * n * 0.000598550) < 6e-6 and abs(float(y) - (10 * n + 1) * 0.000598550) < 6e-6 \
        and abs(float(z) - 16384 * 0.000598550) < 6e-6, (n, t, x, y, z)
    assert abs(float(t) - (n - first) * 0.01) < 1e-6, ("the scans' timestamps", n, t)
print("buffered: %d samples, scans %d to %d as written" % (len(rows), first, first + len(rows) - 1))
PY

    step "shakectl evaluate on the corpus"
    local start=$SECONDS
    inroot shakectl evaluate "$traces" >"$root$T/evaluate.txt" || fail "shakectl evaluate failed"
    echo "shakectl evaluate: $(wc -l <"$root$T/evaluate.txt") lines in $((SECONDS - start)) s; $(tail -n 1 "$root$T/evaluate.txt")"
    if [ "$arch" = amd64 ]; then
        cp "$root$T/evaluate.txt" "$reference.part" && mv "$reference.part" "$reference"
    else
        # amd64's, when it runs beside this one: wait for it, or for host_reference's when amd64 ended
        # without one or is not tested (the run's log says which, above).
        while [ ! -s "$reference" ] && [ ! -e "$reference.ended" ]; do sleep 2; done
        [ -s "$reference" ] || fail "nothing to compare arm64's evaluation with: neither amd64's package nor this
checkout's release shakectl gave one (the log above says why)"
        local what
        what=$(cat "$reference.what" 2>/dev/null || echo "amd64's package")
        cmp "$reference" "$root$T/evaluate.txt" || {
            diff "$reference" "$root$T/evaluate.txt" | head -20
            fail "shakectl evaluate on $arch differs from what $what prints (above)"
        }
        echo "the same, byte for byte, as what $what prints"
    fi

    step "dpkg --purge"
    inroot dpkg --purge shaked >/dev/null || fail "dpkg --purge shaked failed"
    snapshot >"$root$T/after.txt"
    left=$(comm -13 "$root$T/before.txt" "$root$T/after.txt")
    [ -z "$left" ] || fail "files left behind after purge:
$left"
    gone=$(comm -23 "$root$T/before.txt" "$root$T/after.txt")
    [ -z "$gone" ] || fail "files that were there before the install are gone:
$gone"
    inroot dpkg --audit || fail "dpkg --audit finds problems"
    echo "purge left no file behind"
}

if ((prepare)); then
    # First the root the IIO tests take Debian 13's iio-sensor-proxy from (scripts/test-iio.sh, which
    # waits for it here if it comes to it first).
    start=$SECONDS arch=amd64
    scripts/debian-root.sh --suite trixie --arch amd64 iio-sensor-proxy umockdev libumockdev0 >/dev/null
    step "the root for iio-sensor-proxy 3.7 ready in $((SECONDS - start)) s"
    for arch in "${arches[@]}"; do
        start=$SECONDS
        step "preparing the install root"
        base=$(install_root "$arch")
        step "$base ready in $((SECONDS - start)) s"
        # arm64's build (cross, in Debian's Swift root with the Debian 13 arm64 SDK, to .build/debian13-arm64)
        # is this step's longest part and needs nothing the other steps make: done here, on one core, it is
        # incremental later.
        if [ "$arch" = arm64 ]; then
            start=$SECONDS
            SHAKED_BUILD_JOBS=${SHAKED_BUILD_JOBS:-1} scripts/package-deb.sh --arch arm64 --output "$work/prepared" |
                tail -n 1 >/dev/null
            step "Debian's Swift, the arm64 SDK and the arm64 build ready in $((SECONDS - start)) s"
        fi
    done
    exit 0
fi

# test_arch ARCH: build ARCH's package and test it in a fresh root.
test_arch() {
    local arch=$1 start=$SECONDS output deb
    step "building the package"
    output=$work/deb-$arch
    if [ "$arch" = "$(dpkg --print-architecture)" ]; then
        deb=$(scripts/package-deb.sh --output "$output" | tail -n 1)
    else
        deb=$(scripts/package-deb.sh --arch "$arch" --output "$output" | tail -n 1)
    fi
    [ -f "$deb" ] || fail "scripts/package-deb.sh printed '$deb', which is not a file"
    echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes; Depends: $(dpkg-deb -f "$deb" Depends)"
    test_in_root "$arch" "$deb"
    rm -rf --one-file-system "$work/root-$arch"
    step "passed in $((SECONDS - start)) s"
}

for arch in "${arches[@]}"; do
    case $arch in amd64 | arm64) ;; *) fail "--arch $arch: amd64 or arm64" ;; esac
done
scripts/ensure-packages.sh dpkg-dev debhelper binutils pkg-config >&2
# Without amd64 in this run, arm64 compares with this checkout's release shakectl.
if [[ " ${arches[*]} " != *" amd64 "* ]]; then
    host_reference "no amd64 package in this run"
    touch "$reference.ended"
fi
# The architectures side by side: arm64 runs under qemu on one core, amd64 natively; each into a log of
# its own, printed whole in order as each ends. arm64 waits for amd64's evaluation to compare with.
pids=()
for arch in "${arches[@]}"; do
    (test_arch "$arch") >"$work/log-$arch" 2>&1 &
    pids+=($!)
done
failed=()
for i in "${!arches[@]}"; do
    wait "${pids[$i]}" || failed+=("${arches[$i]}")
    cat "$work/log-${arches[$i]}"
    if [ "${arches[$i]}" = amd64 ]; then
        # amd64 failed before its evaluation: arm64 is still compared with something honest, and the step fails.
        [ -s "$reference" ] || [[ " ${arches[*]} " != *" arm64 "* ]] || host_reference "amd64 ended without an evaluation"
        touch "$reference.ended"
    fi
done
((${#failed[@]} == 0)) || { arch=${failed[*]}; fail "see the log above"; }
echo "test-debian13: ${arches[*]} passed"
