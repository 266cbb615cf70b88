import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd about the service's state (`sd_notify` without libsystemd): readiness, status lines,
/// watchdog pings, reloads and stopping.
///
/// Each message is one datagram on an `AF_UNIX` datagram socket at `$NOTIFY_SOCKET` (a path, or an
/// abstract name written with a leading `@`). Without `NOTIFY_SOCKET` (not started by systemd, or
/// `Type=` other than notify) every call does nothing. Each send opens its own socket, so the
/// notifier is a plain value that any task may use at once. A send waits at most a second for room
/// in systemd's queue, then throws.
public struct SystemdNotifier: Sendable {
    /// Where messages go; nil when notifications are off.
    public let socketAddress: String?
    /// How often systemd expects `WATCHDOG=1`: `WATCHDOG_USEC`, when it is meant for this process
    /// (`WATCHDOG_PID` unset or equal to our pid); nil when the watchdog is off.
    public let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment` (by default the
    /// process's), for process `pid`.
    public init(environment: [String: String] = ProcessEnvironment.systemd, pid: Int32 = getpid()) {
        let socket = environment["NOTIFY_SOCKET"] ?? ""
        socketAddress = socket.isEmpty ? nil : socket
        watchdogInterval = Self.watchdogInterval(
            usec: environment["WATCHDOG_USEC"], pid: environment["WATCHDOG_PID"], ourPID: pid)
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

    /// Sends `KEY=value` assignments as one datagram, one per line. Does nothing when notifications are off.
    public func send(_ assignments: [String]) throws(SystemdError) {
        guard let socketAddress else { return }
        let message = assignments.joined(separator: "\n")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketAddress.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity || (abstract && path.count <= capacity), socketAddress.hasPrefix("/") || abstract
        else {
            throw SystemdError(
                .invalidEnvironment,
                "NOTIFY_SOCKET=\(socketAddress) is neither an absolute path nor an @abstract name that fits a socket address"
            )
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        // Abstract names are not NUL-terminated: the address length ends them.
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1))
        let fd = try checkErrno("socket", "cannot make a socket for NOTIFY_SOCKET") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { close(fd) }
        // systemd reads promptly; should it stall with its queue full, give up after a second rather
        // than block the loop that is notifying (a missed ping then shows as a stalled service).
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = try checkErrno("setsockopt", "cannot set a send timeout for NOTIFY_SOCKET") {
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let sent = try checkErrno("sendto", "cannot notify systemd at \(socketAddress)") {
            message.utf8CString.withUnsafeBufferPointer { bytes in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, bytes.baseAddress, bytes.count - 1, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
        }
        if sent != message.utf8.count {
            throw SystemdError(
                .systemCallFailed, call: "sendto", "sent \(sent) of \(message.utf8.count) bytes to systemd")
        }
    }

    /// The watchdog interval from `WATCHDOG_USEC` and `WATCHDOG_PID`; nil when unset, malformed,
    /// zero, or meant for another process.
    static func watchdogInterval(usec: String?, pid: String?, ourPID: Int32) -> Duration? {
        guard let usec, let microseconds = UInt64(usec), microseconds > 0, microseconds < UInt64(Int64.max) else {
            return nil
        }
        if let pid, Int32(pid) != ourPID { return nil }
        return .microseconds(Int64(microseconds))
    }

    /// Status text on one line: newlines would start new assignments.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

}
