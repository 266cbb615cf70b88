import CSystemd
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd about the service's state through libsystemd's `sd_notify(3)`: readiness, status
/// lines, watchdog pings, reloads and stopping.
///
/// libsystemd reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the process environment.
/// Without `NOTIFY_SOCKET` (not started by systemd, or `Type=` other than notify) every call does
/// nothing. Each send opens its own socket, so the notifier is a plain value that any task may use at
/// once. A send blocks while systemd's queue is full, as it does for every daemon: should systemd stall,
/// the ping loop stalls with it, no ping arrives, and the watchdog acts.
public struct SystemdNotifier: Sendable {
    /// Where messages go (`NOTIFY_SOCKET`), for messages; nil when notifications are off.
    public let socketAddress: String?
    /// How often systemd expects `WATCHDOG=1`, from `sd_watchdog_enabled(3)`: `WATCHDOG_USEC` when it
    /// is meant for this process; nil when the watchdog is off or the variables are malformed.
    public let watchdogInterval: Duration?

    /// Reads where to notify and the watchdog's interval from the process environment.
    public init() {
        let socket = ProcessEnvironment.get("NOTIFY_SOCKET") ?? ""
        socketAddress = socket.isEmpty ? nil : socket
        var microseconds: UInt64 = 0
        let enabled = sd_watchdog_enabled(0, &microseconds)
        watchdogInterval =
            enabled > 0 && microseconds > 0 && microseconds < UInt64(Int64.max)
            ? .microseconds(Int64(microseconds)) : nil
    }

    /// Whether messages are sent at all.
    public var isEnabled: Bool { socketAddress != nil }

    /// How often to ping: half the watchdog interval, as systemd recommends; nil when the watchdog is off.
    public var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// `READY=1`, with a status line when given: the service is up (the socket is served, the sensor state known).
    public func ready(status: String? = nil) throws(SystemdError) {
        try send(["READY=1"] + (status.map { ["STATUS=\(Self.oneLine($0))"] } ?? []))
    }

    /// `STATUS=...`: one line that `systemctl status` shows.
    public func status(_ text: String) throws(SystemdError) {
        try send(["STATUS=\(Self.oneLine(text))"])
    }

    /// `WATCHDOG=1`: the service's loops are alive.
    public func watchdog() throws(SystemdError) {
        try send(["WATCHDOG=1"])
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (now): a reload has begun; send ``ready(status:)`` when done.
    public func reloading() throws(SystemdError) {
        try send(["RELOADING=1", "MONOTONIC_USEC=\(monotonicNanoseconds() / 1000)"])
    }

    /// `STOPPING=1`: the service is shutting down.
    public func stopping() throws(SystemdError) {
        try send(["STOPPING=1"])
    }

    /// Sends `KEY=value` assignments as one datagram, one per line, with `sd_notify(3)`. Does nothing
    /// when notifications are off.
    public func send(_ assignments: [String]) throws(SystemdError) {
        guard let socketAddress else { return }
        let result = sd_notify(0, assignments.joined(separator: "\n"))
        guard result < 0 else { return }
        // EINVAL: libsystemd found NOTIFY_SOCKET neither an absolute path nor an @abstract name.
        throw SystemdError(
            result == -EINVAL ? .invalidEnvironment : .systemCallFailed, call: "sd_notify", errno: -result,
            "cannot notify systemd at NOTIFY_SOCKET=\(socketAddress)")
    }

    /// Status text on one line: newlines would start new assignments.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
