import Foundation
import TestSupport
import Testing

/// Whether this machine can run ``UdevRuleTests``: root (for mount namespaces) and the three tools.
let canRunUdevTests =
    geteuid() == 0
    && ["/usr/bin/unshare", "/usr/bin/umockdev-run", "/usr/bin/udevadm"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

/// systemd/60-shaked.rules, run by the real `udevadm test` against fake IIO devices made by umockdev,
/// and its RUN command run against a fake sysfs tree.
///
/// Everything happens in a private mount namespace (`unshare -m`, so root only): the rule goes to
/// /run/udev/rules.d on a private /run, /etc/group gains a `shaked` group, /dev is a private copy
/// (udevadm writes /dev/char links) and, for the RUN command, a temporary tree stands in for /sys.
/// Nothing outside the test's temporary folder changes.
@Suite(.enabled(if: canRunUdevTests, "needs root, unshare, umockdev-run and udevadm"))
struct UdevRuleTests {
    static let rule = TestPaths.packageRoot.appendingPathComponent("systemd/60-shaked.rules").path

    /// Three IIO devices: a buffered accelerometer, a polled one, and a light sensor the rule must ignore.
    static let devices = """
        P: /devices/platform/fake-accel.0/iio:device0
        N: iio:device0
        E: DEVNAME=/dev/iio:device0
        E: MAJOR=239
        E: MINOR=0
        E: SUBSYSTEM=iio
        A: dev=239:0\\n
        A: name=fake_accel\\n
        A: in_accel_x_raw=100\\n
        A: sampling_frequency=100\\n
        A: buffer/enable=0\\n
        A: scan_elements/in_accel_x_en=0\\n

        P: /devices/platform/fake-accel.1/iio:device1
        N: iio:device1
        E: DEVNAME=/dev/iio:device1
        E: MAJOR=239
        E: MINOR=1
        E: SUBSYSTEM=iio
        A: dev=239:1\\n
        A: name=polled_accel\\n
        A: in_accel_x_raw=100\\n

        P: /devices/platform/fake-light.0/iio:device2
        N: iio:device2
        E: DEVNAME=/dev/iio:device2
        E: MAJOR=239
        E: MINOR=2
        E: SUBSYSTEM=iio
        A: dev=239:2\\n
        A: name=fake_light\\n
        A: in_illuminance_raw=100\\n

        """

    /// Runs `udevadm test` on one fake device in a private namespace; returns its output.
    static func udevTest(device: String) throws -> String {
        let dir = try TestPaths.temporaryDirectory()
        try devices.write(to: dir.appendingPathComponent("devices.umockdev"), atomically: false, encoding: .utf8)
        let script = """
            set -eu
            work=$1; rule=$2; device=$3
            grep -v '^shaked:' /etc/group > "$work/group"; echo 'shaked:x:987:' >> "$work/group"
            mount --bind "$work/group" /etc/group
            mount -t tmpfs tmpfs /run
            mkdir -p /run/udev/rules.d; cp "$rule" /run/udev/rules.d/
            mkdir "$work/dev"; mount -t tmpfs tmpfs "$work/dev"
            for n in null zero full random urandom tty; do touch "$work/dev/$n"; mount --bind "/dev/$n" "$work/dev/$n"; done
            mkdir "$work/dev/pts"; mount --bind /dev/pts "$work/dev/pts"; ln -s pts/ptmx "$work/dev/ptmx"
            mount --rbind "$work/dev" /dev
            SYSTEMD_LOG_LEVEL=debug umockdev-run -d "$work/devices.umockdev" -- udevadm test "/sys$device" 2>&1
            """
        let result = try runProcess("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", dir.path, rule, device])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return result.stdout
    }

    @Test(arguments: [
        ("/devices/platform/fake-accel.0/iio:device0", "buffered"),
        ("/devices/platform/fake-accel.1/iio:device1", "polled"),
    ])
    func accelerometerIsTaggedAndOpened(device: String, kind: String) throws {
        let output = try Self.udevTest(device: device)
        let lines = output.split(separator: "\n").map(String.init)
        let ruleLines = try String(contentsOfFile: Self.rule, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let groupLine = try #require(ruleLines.firstIndex { $0.hasPrefix("GROUP=\"shaked\"") }) + 1
        #expect(lines.contains("SHAKED_ACCELEROMETER=\(kind)"), "\(output)")
        #expect(lines.contains("SYSTEMD_WANTS=shaked.service"))
        #expect(lines.contains { $0.hasPrefix("TAGS=") && $0.contains(":systemd:") })
        #expect(lines.contains { $0.hasSuffix("60-shaked.rules:\(groupLine) GROUP 987") }, "\(output)")
        #expect(lines.contains { $0.hasSuffix("60-shaked.rules:\(groupLine) MODE 0660") })
        #expect(lines.contains { $0.hasPrefix("run: '/bin/sh -c ") && $0.hasSuffix(" shaked-iio-access \(device)'") })
        #expect(!output.contains("Unknown group"))
        #expect(!output.lowercased().contains("invalid"), "\(output)")
    }

    @Test("an IIO device without acceleration channels is left alone")
    func otherSensorIgnored() throws {
        let output = try Self.udevTest(device: "/devices/platform/fake-light.0/iio:device2")
        #expect(output.contains("DEVNAME=/dev/iio:device2"), "\(output)")
        #expect(!output.contains("SHAKED_ACCELEROMETER"))
        #expect(!output.contains("shaked.service"))
        #expect(!output.contains("GROUP 987"))
        #expect(!output.contains("shaked-iio-access"))
    }

    @Test("the RUN command gives the group write access to exactly the files the daemon writes")
    func runCommandSetsSysfsAccess() throws {
        let device = "/devices/platform/fake-accel.0/iio:device0"
        let output = try Self.udevTest(device: device)
        let runLine = try #require(output.split(separator: "\n").first { $0.hasPrefix("run: '") })
        let command = String(runLine.dropFirst("run: '".count).dropLast())
        let dir = try TestPaths.temporaryDirectory()
        let base = dir.appendingPathComponent("sys\(device)")
        let writable = [
            "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en", "scan_elements/in_timestamp_en",
            "buffer/enable", "buffer/length", "buffer/watermark", "trigger/current_trigger", "sampling_frequency",
            "current_timestamp_clock",
        ]
        let untouched = ["name", "in_accel_x_raw", "scan_elements/in_accel_x_index", "scan_elements/in_accel_x_type"]
        for file in writable + untouched {
            let url = base.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(
                FileManager.default.createFile(
                    atPath: url.path, contents: Data("0\n".utf8), attributes: [.posixPermissions: 0o644]))
        }
        let bait = dir.appendingPathComponent("bait")
        #expect(
            FileManager.default.createFile(atPath: bait.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        try FileManager.default.createSymbolicLink(
            atPath: base.appendingPathComponent("scan_elements/in_bait_en").path, withDestinationPath: bait.path)
        let script = """
            set -eu
            work=$1; command=$2
            grep -v '^shaked:' /etc/group > "$work/group"; echo 'shaked:x:987:' >> "$work/group"
            mount --bind "$work/group" /etc/group
            mount --bind "$work/sys" /sys
            /bin/sh -c "$command"
            """
        let result = try runProcess("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", dir.path, command])
        #expect(result.status == 0, "\(result.stderr)")
        func owner(_ path: String) throws -> (gid: Int, mode: Int) {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.groupOwnerAccountID] as? Int ?? -1, attributes[.posixPermissions] as? Int ?? -1)
        }
        for file in writable {
            let (gid, mode) = try owner(base.appendingPathComponent(file).path)
            #expect(gid == 987 && mode == 0o664, "\(file): gid \(gid) mode \(String(mode, radix: 8))")
        }
        for file in untouched {
            let (gid, mode) = try owner(base.appendingPathComponent(file).path)
            #expect(gid == 0 && mode == 0o644, "\(file)")
        }
        let (gid, mode) = try owner(bait.path)
        #expect(gid == 0 && mode == 0o644, "a symlinked *_en must not redirect the change")
    }
}
