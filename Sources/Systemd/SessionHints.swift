import CSystemd
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// What logind says over D-Bus about the active session on ``Logind/seat``: whether its screen is
/// locked (`LockedHint`) and whether the person has left it idle (`IdleHint`).
public enum SessionHints: Sendable, Hashable, CustomStringConvertible {
    /// logind can't be asked: no system bus, or no `org.freedesktop.login1` on it. Says why.
    case unreachable(String)
    /// logind answers, but the seat has no active session (or there is no such seat).
    case noActiveSession
    /// The seat's active session: its id, and its `LockedHint` and `IdleHint`.
    case active(session: String, locked: Bool, idle: Bool)

    /// `session 2 on seat0: locked`, `session 2 on seat0: idle`, `session 2 on seat0: in use`,
    /// `no active session on seat0`, `logind unreachable: ...`.
    public var description: String {
        switch self {
        case .unreachable(let why): "logind unreachable: \(why)"
        case .noActiveSession: "no active session on \(Logind.seat)"
        case .active(let session, let locked, let idle):
            "session \(session) on \(Logind.seat): \(locked ? "locked" : idle ? "idle" : "in use")"
        }
    }
}

extension Logind {
    /// logind's bus name.
    static let busName = "org.freedesktop.login1"
    /// The seat's object path: logind names seat0's so (and so does python-dbusmock's template).
    static var seatPath: String { "/org/freedesktop/login1/seat/\(seat)" }

    /// The seat's active session's hints each time they change, starting with the current ones, read
    /// over the system bus with sd-bus on a thread of its own that sleeps until a signal comes:
    /// `PropertiesChanged` of the seat (its `ActiveSession`) and of that session (`LockedHint`,
    /// `IdleHint`), logind's `SeatNew` and `SeatRemoved`, and logind joining or leaving the bus
    /// (`NameOwnerChanged`). Nothing is polled. Without a system bus the stream yields
    /// ``SessionHints/unreachable(_:)`` once and finishes; without logind on the bus it yields that
    /// and goes on watching for logind to arrive.
    public static func sessionHints() -> AsyncStream<SessionHints> {
        AsyncStream(bufferingPolicy: .bufferingNewest(8)) { continuation in
            let bus: SystemBus
            do {
                bus = try SystemBus()
            } catch {
                continuation.yield(.unreachable("no system bus (\(error))"))
                continuation.finish()
                return
            }
            let stop = FileDescriptor(rawValue: eventfd(0, Int32(EFD_CLOEXEC)))
            continuation.onTermination = { _ in
                _ = try? withUnsafeBytes(of: UInt64(1)) { try stop.write($0) }
            }
            let watch = SessionWatch(bus: bus, stop: stop, continuation: continuation)
            // Without a thread the stream ends, rather than staying silent for good.
            if !startDetachedThread({ watch.run() }) {
                continuation.yield(.unreachable("no thread to watch the system bus"))
                continuation.finish()
                try? stop.close()
            }
        }
    }
}

/// The loop behind ``Logind/sessionHints()``: owns the bus connection and the stop descriptor, and is
/// used only on its own thread (sd-bus connections are not thread-safe).
private final class SessionWatch: @unchecked Sendable {
    let bus: SystemBus
    let stop: FileDescriptor
    let continuation: AsyncStream<SessionHints>.Continuation
    /// The active session's object path, whose signals matter.
    var sessionPath: String?
    /// A signal said the hints may have changed: read them again once the queue is empty.
    var stale = true

    init(bus: consuming SystemBus, stop: FileDescriptor, continuation: AsyncStream<SessionHints>.Continuation) {
        self.bus = bus
        self.stop = stop
        self.continuation = continuation
    }

    /// The match rules: every property change logind announces (sorted out in ``signal(path:member:)``),
    /// seats coming and going, and logind itself coming and going.
    static let rules = [
        "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.DBus.Properties',"
            + "member='PropertiesChanged'",
        "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
            + "interface='org.freedesktop.login1.Manager',member='SeatNew'",
        "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
            + "interface='org.freedesktop.login1.Manager',member='SeatRemoved'",
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='org.freedesktop.login1'",
    ]

    func run() {
        defer {
            // Finished first: finishing runs onTermination, which writes to `stop`; closed after, so
            // that write never lands on a descriptor number reused by then.
            continuation.finish()
            try? stop.close()
        }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        do {
            for rule in Self.rules {
                try bus.addMatch(
                    rule,
                    handler: { message, userdata, _ in
                        guard let message, let userdata else { return 0 }
                        let watch = Unmanaged<SessionWatch>.fromOpaque(userdata).takeUnretainedValue()
                        watch.signal(
                            path: sd_bus_message_get_path(message).map { String(cString: $0) },
                            member: sd_bus_message_get_member(message).map { String(cString: $0) })
                        return 0
                    }, userdata: userdata)
            }
        } catch {
            continuation.yield(.unreachable("can't follow logind's signals (\(error))"))
            return
        }
        var last: SessionHints?
        while true {
            do {
                while try bus.process() {}
            } catch {
                continuation.yield(.unreachable("the system bus went away (\(error))"))
                return
            }
            if stale {
                // Reading calls logind, and signals that arrive meanwhile wait in sd-bus's queue:
                // process them (above) before sleeping.
                stale = false
                let now = read()
                if now != last {
                    last = now
                    continuation.yield(now)
                }
                continue
            }
            var fds = [
                pollfd(fd: stop.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: bus.fileDescriptor, events: bus.events, revents: 0),
            ]
            let ready = pollRetryingInterrupts(&fds, timeoutMilliseconds: bus.pollTimeoutMilliseconds)
            guard ready >= 0, fds[0].revents == 0 else { return }
        }
    }

    /// A matched signal: a property change of the seat or the active session, or anything else matched.
    func signal(path: String?, member: String?) {
        if member == "PropertiesChanged", path != Logind.seatPath, path != sessionPath { return }
        stale = true
    }

    /// The seat's active session and its hints, now.
    func read() -> SessionHints {
        let login = Logind.busName
        let active: (name: String, path: String)
        do {
            active = try bus.nameAndPathProperty(
                login, path: Logind.seatPath, interface: "org.freedesktop.login1.Seat", name: "ActiveSession")
        } catch {
            sessionPath = nil
            if error.serviceAbsent { return .unreachable("\(login) is not on the system bus") }
            if error.name == nil { return .unreachable("\(error)") }
            // logind answered: no such seat (NoSuchSeat, UnknownObject), which is no session in front.
            return .noActiveSession
        }
        guard !active.name.isEmpty, active.path != "/" else {
            sessionPath = nil
            return .noActiveSession
        }
        sessionPath = active.path
        // A logind too old for a hint (LockedHint came in systemd 230) leaves it false: as today.
        let interface = "org.freedesktop.login1.Session"
        let locked =
            (try? bus.booleanProperty(login, path: active.path, interface: interface, name: "LockedHint")) ?? false
        let idle = (try? bus.booleanProperty(login, path: active.path, interface: interface, name: "IdleHint")) ?? false
        return .active(session: active.name, locked: locked, idle: idle)
    }
}
