import CSystemd
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Whose session is in front on the seat, as logind reports it through sd-login.
public enum SeatUser: Sendable, Hashable, CustomStringConvertible {
    /// logind doesn't run here (a container, a test, a system without it): nobody is singled out.
    case noLogind
    /// logind runs; the user of the active session on the seat, or nil when no session is active.
    case active(UInt32?)

    /// `no logind`, `uid 1000 active on seat0`, `no active session`.
    public var description: String {
        switch self {
        case .noLogind: "no logind"
        case .active(let uid?): "uid \(uid) active on \(Logind.seat)"
        case .active(nil): "no active session on \(Logind.seat)"
        }
    }
}

/// logind's view of the seat, through libsystemd's sd-login (which reads logind's state in
/// `/run/systemd`; no D-Bus, no user database, so it is safe to ask from anywhere).
public enum Logind {
    /// The seat phones and tablets have: the built-in display and input.
    public static let seat = "seat0"

    /// Whether logind runs: the system was booted with systemd (`sd_booted`) and logind's seat
    /// state directory exists. (Debian's systemd package ships the directory even in containers,
    /// so the directory alone proves nothing.)
    public static var isRunning: Bool { sd_booted() > 0 && access("/run/systemd/seats/", F_OK) == 0 }

    /// The user of the active session on ``seat`` (`sd_seat_get_active`), checked to be in the
    /// "active" state (`sd_uid_get_state`); ``SeatUser/noLogind`` when logind doesn't run.
    public static func seatUser() -> SeatUser {
        guard isRunning else { return .noLogind }
        var uid = uid_t()
        guard sd_seat_get_active(seat, nil, &uid) >= 0 else { return .active(nil) }
        var state: UnsafeMutablePointer<CChar>?
        guard sd_uid_get_state(uid, &state) >= 0, let state else { return .active(nil) }
        defer { free(state) }
        return String(cString: state) == "active" ? .active(uid) : .active(nil)
    }

    /// The login session a process acts in: its own (`sd_pid_get_session`), else, for a process of a
    /// user's service manager (`user@UID.service`: systemd user units, and apps that desktops start as
    /// scopes there), that user's graphical session (`sd_pid_get_owner_uid`, `sd_uid_get_display`).
    /// Nil when there is none (a system service) or logind doesn't run.
    public static func session(ofProcess pid: Int32) -> String? {
        guard isRunning else { return nil }
        var session: UnsafeMutablePointer<CChar>?
        if sd_pid_get_session(pid, &session) >= 0, let session {
            defer { free(session) }
            return String(cString: session)
        }
        var uid = uid_t()
        guard sd_pid_get_owner_uid(pid, &uid) >= 0, sd_uid_get_display(uid, &session) >= 0, let session else {
            return nil
        }
        defer { free(session) }
        return String(cString: session)
    }

    /// The seat's user each time it may have changed, starting with the current one
    /// (`sd_login_monitor` on "seat", polled on a thread of its own that sleeps until
    /// logind writes). Without logind the stream yields ``SeatUser/noLogind`` once and finishes.
    public static func seatUsers() -> AsyncStream<SeatUser> {
        AsyncStream { continuation in
            let first = seatUser()
            continuation.yield(first)
            guard first != .noLogind else {
                continuation.finish()
                return
            }
            var monitor: OpaquePointer?
            guard sd_login_monitor_new("seat", &monitor) >= 0, let monitor else {
                continuation.finish()
                return
            }
            let stop = FileDescriptor(rawValue: eventfd(0, Int32(EFD_CLOEXEC)))
            continuation.onTermination = { _ in
                _ = try? withUnsafeBytes(of: UInt64(1)) { try stop.write($0) }
            }
            let watch = SeatWatch(monitor: monitor, stop: stop, continuation: continuation)
            // Without a thread the stream ends, rather than staying silent for good.
            if !startDetachedThread({ watch.run() }) {
                sd_login_monitor_unref(monitor)
                continuation.finish()
                try? stop.close()
            }
        }
    }
}

/// The loop behind ``Logind/seatUsers()``: owns the monitor and the stop descriptor.
private final class SeatWatch: @unchecked Sendable {
    let monitor: OpaquePointer
    let stop: FileDescriptor
    let continuation: AsyncStream<SeatUser>.Continuation

    init(monitor: OpaquePointer, stop: FileDescriptor, continuation: AsyncStream<SeatUser>.Continuation) {
        self.monitor = monitor
        self.stop = stop
        self.continuation = continuation
    }

    func run() {
        defer {
            sd_login_monitor_unref(monitor)
            // Finished first: finishing runs onTermination, which writes to `stop`; closed after, so
            // that write never lands on a descriptor number reused by then.
            continuation.finish()
            try? stop.close()
        }
        var last = Logind.seatUser()
        while true {
            var fds = [
                pollfd(fd: stop.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: sd_login_monitor_get_fd(monitor), events: Int16(sd_login_monitor_get_events(monitor)), revents: 0),
            ]
            let ready = pollRetryingInterrupts(&fds, timeoutMilliseconds: -1)
            guard ready > 0, fds[0].revents == 0 else { return }
            sd_login_monitor_flush(monitor)
            let now = Logind.seatUser()
            if now != last {
                last = now
                continuation.yield(now)
            }
        }
    }
}

/// Runs `body` on a new detached POSIX thread (no Foundation `Thread`); false when none could start.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    guard started == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}
