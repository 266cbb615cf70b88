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
        SystemBusWatch.stream(bufferingNewest: 8, unreachable: SessionHints.unreachable) { bus, stop, continuation in
            SessionWatch(bus: bus, stop: stop, continuation: continuation)
        }
    }
}

/// The watch behind ``Logind/sessionHints()``: logind's signals mark the hints stale, and they are
/// read again once the queue is empty.
private final class SessionWatch: SystemBusWatch<SessionHints>, @unchecked Sendable {
    /// The active session's object path, whose signals matter.
    var sessionPath: String?
    /// A signal said the hints may have changed: read them again once the queue is empty.
    var stale = true
    /// The hints last yielded.
    var last: SessionHints?

    init(bus: consuming SystemBus, stop: FileDescriptor, continuation: AsyncStream<SessionHints>.Continuation) {
        super.init(bus: bus, stop: stop, continuation: continuation, unreachable: SessionHints.unreachable)
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

    override func start() -> Bool {
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
            return false
        }
        return true
    }

    /// Reads the hints again after a signal, and yields them if they changed. Reading calls logind, and
    /// signals that arrive meanwhile wait in sd-bus's queue: true, to process them before sleeping.
    override func afterProcessing() -> Bool {
        guard stale else { return false }
        stale = false
        let now = read()
        if now != last {
            last = now
            continuation.yield(now)
        }
        return true
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
