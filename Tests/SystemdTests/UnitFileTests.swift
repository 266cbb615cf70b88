import Foundation
import TestSupport
import Testing

/// systemd/shaked.service and shaked.socket, checked by systemd's own analyzer.
@Suite struct UnitFileTests {
    static let systemd = TestPaths.packageRoot.appendingPathComponent("systemd")

    /// The two units in a temporary folder, ExecStart pointing at an executable that exists here
    /// (`systemd-analyze verify` checks that it does), as `scripts/install.sh` points it at PREFIX/sbin.
    static func unitsWithRealExecStart() throws -> (service: String, socket: String) {
        let dir = try TestPaths.temporaryDirectory()
        let text = try String(contentsOf: systemd.appendingPathComponent("shaked.service"), encoding: .utf8)
        #expect(text.contains("\nExecStart=/usr/sbin/shaked\n"))
        let service = dir.appendingPathComponent("shaked.service").path
        try text.replacingOccurrences(of: "\nExecStart=/usr/sbin/shaked\n", with: "\nExecStart=/bin/true\n")
            .write(toFile: service, atomically: false, encoding: .utf8)
        let socket = dir.appendingPathComponent("shaked.socket").path
        try FileManager.default.copyItem(atPath: systemd.appendingPathComponent("shaked.socket").path, toPath: socket)
        return (service, socket)
    }

    /// An environment whose `MANPATH` holds the pages of `docs/man`, laid out as installed: `systemd-analyze
    /// verify` runs `man` on each `man:` entry of `Documentation=`, so the unit may only name pages that exist.
    static func environmentWithManPages() throws -> [String: String] {
        let manpath = try TestPaths.temporaryDirectory()
        let pages = TestPaths.packageRoot.appendingPathComponent("docs/man")
        for page in try FileManager.default.contentsOfDirectory(atPath: pages.path) {
            guard let section = page.split(separator: ".").last else { continue }
            let folder = manpath.appendingPathComponent("man\(section)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: pages.appendingPathComponent(page).path, toPath: folder.appendingPathComponent(page).path)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["MANPATH"] = manpath.path
        return environment
    }

    @Test("systemd-analyze verify passes on both units with nothing on stderr")
    func verify() throws {
        let (service, socket) = try Self.unitsWithRealExecStart()
        let result = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", service, socket], environment: try Self.environmentWithManPages())
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("systemd-analyze verify reports a broken unit, so the check above can fail")
    func verifyCatchesMistakes() throws {
        let (service, socket) = try Self.unitsWithRealExecStart()
        let text = try String(contentsOfFile: service, encoding: .utf8)
        try text.replacingOccurrences(of: "WatchdogSec=10", with: "WatchdogSecs=10")
            .write(toFile: service, atomically: false, encoding: .utf8)
        let result = try runProcess("/usr/bin/systemd-analyze", ["verify", service, socket])
        #expect(result.stderr.contains("WatchdogSecs"))
    }

    @Test("the exposure score is at most 2.0 (threshold 20 passes)")
    func exposure() throws {
        let (service, _) = try Self.unitsWithRealExecStart()
        let result = try runProcess(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=20", "--no-pager", service])
        #expect(result.status == 0, "\(result.stderr)")
        let match = try #require(result.stdout.firstMatch(of: /Overall exposure level for shaked\.service: (\d+\.\d)/))
        let score = try #require(Double(match.1))
        #expect(score <= 2.0, "\(result.stdout)")
    }

    /// Directives that would break the daemon: the IIO device, the sysfs writes, udev events, peer credentials.
    static let forbidden = [
        "PrivateDevices=yes", "ProtectKernelTunables=yes", "PrivateNetwork=yes", "PrivateUsers=yes",
        "DynamicUser=yes", "ProtectSystem=full",
    ]

    @Test("the service keeps what the daemon needs: notify, watchdog, IIO devices, sysfs writes, netlink")
    func serviceNeeds() throws {
        let text = try String(contentsOf: Self.systemd.appendingPathComponent("shaked.service"), encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for needed in [
            "Type=notify", "NotifyAccess=main", "WatchdogSec=10", "Restart=on-failure",
            "ExecReload=/bin/kill -HUP $MAINPID",
            "DeviceAllow=char-iio rw", "DevicePolicy=closed", "RestrictAddressFamilies=AF_UNIX AF_NETLINK",
            "User=shaked", "Group=shaked", "Requires=shaked.socket", "After=shaked.socket",
            "StateDirectory=shaked",
        ] {
            #expect(lines.contains(needed), "\(needed)")
        }
        for directive in Self.forbidden { #expect(!lines.contains(directive), "\(directive)") }
        #expect(!lines.contains { $0.hasPrefix("ReadOnlyPaths=") || $0.hasPrefix("InaccessiblePaths=") })
    }
}
