import CSystemd
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// What the system bus says about one well-known name, such as iio-sensor-proxy's `net.hadess.SensorProxy`.
public enum BusNameEvent: Sendable, Hashable, CustomStringConvertible {
    /// The bus answers and its `NameOwnerChanged` for the name is followed from now on. When the name has
    /// an owner at that moment, ``appeared(pid:)`` follows at once.
    case following
    /// A process took the name (it starts serving): its pid, when the bus could say.
    case appeared(pid: Int32?)
    /// The name's owner left the bus.
    case left
    /// The name can't be followed: no system bus, or the bus went away. Says why.
    case unreachable(String)

    /// `following`, `appeared`, `left`, or `unreachable: ...`.
    public var description: String {
        switch self {
        case .following: "following"
        case .appeared(let pid): pid.map { "appeared (pid \($0))" } ?? "appeared"
        case .left: "left"
        case .unreachable(let why): "unreachable: \(why)"
        }
    }
}

/// Who owns a well-known name on the system bus.
public enum BusNameOwner {
    /// The owner changes of `name` on the system bus, from the bus's own `NameOwnerChanged` signal, on a
    /// thread of its own that sleeps until the bus writes: ``BusNameEvent/following`` once the match is in
    /// place (then ``BusNameEvent/appeared(pid:)`` at once when the name has an owner already),
    /// then ``BusNameEvent/appeared(pid:)`` and ``BusNameEvent/left`` as they happen. Nothing is polled.
    /// Without a system bus the stream yields ``BusNameEvent/unreachable(_:)`` and finishes; so it does
    /// when the bus goes away later.
    public static func changes(of name: String) -> AsyncStream<BusNameEvent> {
        SystemBusWatch.stream(bufferingNewest: 16, unreachable: BusNameEvent.unreachable) { bus, stop, continuation in
            NameOwnerWatch(bus: bus, name: name, stop: stop, continuation: continuation)
        }
    }
}

/// The watch behind ``BusNameOwner/changes(of:)``: one match, on the name's `NameOwnerChanged`.
private final class NameOwnerWatch: SystemBusWatch<BusNameEvent>, @unchecked Sendable {
    let name: String

    init(
        bus: consuming SystemBus, name: String, stop: FileDescriptor,
        continuation: AsyncStream<BusNameEvent>.Continuation
    ) {
        self.name = name
        super.init(bus: bus, stop: stop, continuation: continuation, unreachable: BusNameEvent.unreachable)
    }

    override func start() -> Bool {
        // Bus names are ASCII letters, digits, '.', '_' and '-': nothing that could end the quoted value.
        guard name.utf8.allSatisfy({ $0 == 0x2E || $0 == 0x5F || $0 == 0x2D || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else {
            continuation.yield(.unreachable("\"\(name)\" is not a bus name"))
            return false
        }
        let rule =
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(name)'"
        do {
            try bus.addMatch(
                rule,
                handler: { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    let watch = Unmanaged<NameOwnerWatch>.fromOpaque(userdata).takeUnretainedValue()
                    watch.ownerChanged(message)
                    return 0
                }, userdata: Unmanaged.passUnretained(self).toOpaque())
        } catch {
            continuation.yield(.unreachable("can't follow NameOwnerChanged (\(error))"))
            return false
        }
        // Asked after the match is in place, so that an owner arriving in between is seen either way.
        let owner: Int32?
        do { owner = try bus.ownerPID(name) } catch {
            continuation.yield(.unreachable("can't ask who owns \(name) (\(error))"))
            return false
        }
        continuation.yield(.following)
        if let owner { continuation.yield(.appeared(pid: owner)) }
        return true
    }

    /// `NameOwnerChanged(name, old_owner, new_owner)`: an empty new owner is the name's owner leaving.
    func ownerChanged(_ message: OpaquePointer) {
        var strings: [String] = []
        for _ in 0..<3 {
            var value: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(115), &value) > 0, let value else { return }  // "s"
            strings.append(String(cString: value))
        }
        guard strings[0] == name else { return }
        // The new owner's pid, asked of the bus by its unique name (nil if it is gone again already).
        continuation.yield(strings[2].isEmpty ? .left : .appeared(pid: (try? bus.ownerPID(strings[2])) ?? nil))
    }
}
