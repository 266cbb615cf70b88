import Foundation
import Synchronization
import Systemd
import TestSupport
import Testing

/// `sd_notify` messages arrive on a real datagram socket, at a path and at an abstract name. libsystemd
/// reads the process environment, so the tests set it, one at a time.
@Suite(.serialized) final class NotifierTests {
    /// Each test leaves the process environment as it found it.
    deinit {
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
    }

    /// A notifier made with `NOTIFY_SOCKET` (and the watchdog's variables) set to `variables`; unset
    /// ones are removed from the process environment.
    static func notifier(_ variables: [String: String]) -> SystemdNotifier {
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = variables[name] { setenv(name, value, 1) } else { unsetenv(name) }
        }
        return SystemdNotifier()
    }

    /// A notification and the datagram systemd must receive for it.
    static let messages: [(String, @Sendable (SystemdNotifier) throws -> Void, String)] = [
        ("ready", { try $0.ready() }, "READY=1"),
        (
            "ready with status", { try $0.ready(status: "sensor accel_3d, 2 subscribers") },
            "READY=1\nSTATUS=sensor accel_3d, 2 subscribers"
        ),
        ("status", { try $0.status("last shake 3 s ago") }, "STATUS=last shake 3 s ago"),
        ("status on one line", { try $0.status("two\nlines") }, "STATUS=two lines"),
        ("watchdog", { try $0.watchdog() }, "WATCHDOG=1"),
        ("stopping", { try $0.stopping() }, "STOPPING=1"),
        ("raw", { try $0.send(["STATUS=x", "ERRNO=5"]) }, "STATUS=x\nERRNO=5"),
    ]

    /// Each message, sent to a socket at a path and to one at an abstract name.
    static let cases = messages.flatMap { m in [false, true].map { (m.0, m.1, m.2, $0) } }

    @Test(arguments: cases)
    func datagramArrives(
        name: String, send: @Sendable (SystemdNotifier) throws -> Void, expected: String, abstract: Bool
    ) throws {
        let receiver = try DatagramReceiver(in: abstract ? nil : TestPaths.temporaryDirectory())
        let notifier = Self.notifier(["NOTIFY_SOCKET": receiver.address])
        #expect(notifier.isEnabled)
        try send(notifier)
        #expect(receiver.receive() == expected)
    }

    @Test("RELOADING=1 carries MONOTONIC_USEC from CLOCK_MONOTONIC")
    func reloading() throws {
        let receiver = try DatagramReceiver(in: TestPaths.temporaryDirectory())
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        try Self.notifier(["NOTIFY_SOCKET": receiver.address]).reloading()
        var after = timespec()
        clock_gettime(CLOCK_MONOTONIC, &after)
        let lines = try #require(receiver.receive()).split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0] == "RELOADING=1")
        #expect(lines[1].hasPrefix("MONOTONIC_USEC="))
        let usec = try #require(UInt64(lines[1].dropFirst("MONOTONIC_USEC=".count)))
        let low = UInt64(before.tv_sec) * 1_000_000 + UInt64(before.tv_nsec) / 1000
        let high = UInt64(after.tv_sec) * 1_000_000 + UInt64(after.tv_nsec) / 1000
        #expect((low...high).contains(usec))
    }

    @Test("without NOTIFY_SOCKET every call does nothing")
    func disabled() throws {
        let notifier = Self.notifier([:])
        #expect(!notifier.isEnabled)
        try notifier.ready(status: "x")
        try notifier.watchdog()
        #expect(Self.notifier(["NOTIFY_SOCKET": ""]).socketAddress == nil)
    }

    @Test("a bad NOTIFY_SOCKET or a missing listener is a typed error")
    func errors() throws {
        let relative = #expect(throws: SystemdError.self) {
            try Self.notifier(["NOTIFY_SOCKET": "relative/notify"]).ready()
        }
        #expect(relative?.code == .invalidEnvironment)
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("nobody-here").path
        let missing = #expect(throws: SystemdError.self) {
            try Self.notifier(["NOTIFY_SOCKET": path]).watchdog()
        }
        #expect(missing?.code == .systemCallFailed)
        #expect(missing?.call == "sd_notify")
        #expect(missing?.description.contains(path) == true)
    }

    @Test("many threads notify at once through one notifier, and every datagram arrives whole")
    func concurrent() throws {
        let receiver = try DatagramReceiver(in: TestPaths.temporaryDirectory())
        let notifier = Self.notifier(["NOTIFY_SOCKET": receiver.address])
        // Drain while sending, as systemd does: the socket's queue holds only a few datagrams. Plain
        // threads, not tasks, so that blocking calls never hold up Swift concurrency's shared threads.
        let seen = Mutex(Set<String>())
        let drainer = Thread {
            while seen.withLock({ $0.count }) < 40, let message = receiver.receive(timeout: 5) {
                seen.withLock { _ = $0.insert(message) }
            }
        }
        drainer.start()
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            do { try notifier.status("task \(i)") } catch { failures.withLock { $0 += 1 } }
        }
        while !drainer.isFinished { usleep(1000) }
        #expect(failures.withLock { $0 } == 0)
        #expect(seen.withLock { $0 } == Set((0..<40).map { "STATUS=task \($0)" }))
    }

    /// WATCHDOG_USEC, WATCHDOG_PID and the interval that follows for this process.
    static let watchdogCases: [(String?, String?, Duration?)] = [
        (nil, nil, nil),
        ("10000000", nil, .seconds(10)),
        ("10000000", "\(getpid())", .seconds(10)),
        ("10000000", "\(getpid() + 1)", nil),
        ("0", nil, nil),
        ("ten", nil, nil),
        ("-5", nil, nil),
        ("250000", nil, .milliseconds(250)),
    ]

    @Test(arguments: watchdogCases)
    func watchdogInterval(usec: String?, pid: String?, expected: Duration?) {
        var environment: [String: String] = [:]
        environment["WATCHDOG_USEC"] = usec
        environment["WATCHDOG_PID"] = pid
        let notifier = Self.notifier(environment)
        #expect(notifier.watchdogInterval == expected)
        #expect(notifier.watchdogPingInterval == expected.map { $0 / 2 })
    }
}
