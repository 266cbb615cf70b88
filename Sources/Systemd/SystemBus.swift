import CSystemd
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the D-Bus system bus through libsystemd's sd-bus, owned: closed when it goes.
///
/// `sd_bus_open_system` connects to `DBUS_SYSTEM_BUS_ADDRESS` when it is set (the tests' private bus),
/// else to `/run/dbus/system_bus_socket`. The connection is not thread-safe: one thread uses it, the one
/// that polls its descriptor (``fileDescriptor``, ``events``, ``deadline``) and calls ``process()``.
struct SystemBus: ~Copyable {
    let bus: OpaquePointer

    /// Connects to the system bus; method calls give up after `callTimeout` (`sd_bus_set_method_call_timeout`).
    init(callTimeout: Duration = .seconds(5)) throws(SystemBusError) {
        var bus: OpaquePointer?
        let result = sd_bus_open_system(&bus)
        guard result >= 0, let bus else { throw SystemBusError(call: "sd_bus_open_system", result: result) }
        self.bus = bus
        let (seconds, attoseconds) = callTimeout.components
        _ = sd_bus_set_method_call_timeout(bus, UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000))
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls `handler` with `userdata` for each message matching `rule`, a D-Bus match rule
    /// (`sd_bus_add_match`; the slot lives as long as the connection).
    func addMatch(
        _ rule: String, handler: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer
    ) throws(SystemBusError) {
        let result = sd_bus_add_match(bus, nil, rule, handler, userdata)
        guard result >= 0 else { throw SystemBusError(call: "sd_bus_add_match", result: result) }
    }

    /// Reads and dispatches one message (`sd_bus_process`): true when there may be more to do at once.
    func process() throws(SystemBusError) -> Bool {
        let result = sd_bus_process(bus, nil)
        guard result >= 0 else { throw SystemBusError(call: "sd_bus_process", result: result) }
        return result > 0
    }

    /// The connection's descriptor, to poll.
    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// The `poll(2)` events to wait for on ``fileDescriptor``.
    var events: Int16 { Int16(truncatingIfNeeded: max(sd_bus_get_events(bus), 0)) }

    /// How long `poll(2)` may wait before sd-bus has something to time out: milliseconds, -1 for no limit.
    var pollTimeoutMilliseconds: Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        // sd-bus's deadlines are CLOCK_MONOTONIC microseconds.
        let nowMicroseconds = UInt64(max(monotonicNanoseconds(), 0)) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1000)
    }

    /// A boolean property of `interface` at `path` on `destination` (`sd_bus_get_property_trivial`).
    func booleanProperty(
        _ destination: String, path: String, interface: String, name: String
    ) throws(SystemBusError) -> Bool {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var value: Int32 = 0
        let boolean = CChar(98)  // "b"
        let result = sd_bus_get_property_trivial(bus, destination, path, interface, name, &error, boolean, &value)
        guard result >= 0 else { throw SystemBusError(call: "Get \(interface).\(name)", result: result, error) }
        return value != 0
    }

    /// The process that owns a name now (the bus's own `GetConnectionUnixProcessID`, which answers for
    /// a well-known name or a connection's unique one); nil when nobody owns it.
    func ownerPID(_ name: String) throws(SystemBusError) -> Int32? {
        let call = "org.freedesktop.DBus.GetConnectionUnixProcessID"
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(
            bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID")
        guard result >= 0, let message else { throw SystemBusError(call: call, result: result) }
        defer { sd_bus_message_unref(message) }
        result = name.withCString { sd_bus_message_append_basic(message, CChar(115), $0) }  // "s"
        guard result >= 0 else { throw SystemBusError(call: call, result: result) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else {
            let failure = SystemBusError(call: call, result: result, error)
            if failure.serviceAbsent { return nil }
            throw failure
        }
        defer { sd_bus_message_unref(reply) }
        var pid: UInt32 = 0
        result = sd_bus_message_read_basic(reply, CChar(117), &pid)  // "u"
        guard result >= 0 else { throw SystemBusError(call: call, result: min(result, -EBADMSG)) }
        return Int32(bitPattern: pid)
    }

    /// A property of D-Bus type `(so)`, such as logind's `Seat.ActiveSession`: a name and an object path.
    func nameAndPathProperty(
        _ destination: String, path: String, interface: String, name: String
    ) throws(SystemBusError) -> (name: String, path: String) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let call = "Get \(interface).\(name)"
        let result = sd_bus_get_property(bus, destination, path, interface, name, &error, &reply, "(so)")
        guard result >= 0, let reply else { throw SystemBusError(call: call, result: result, error) }
        defer { sd_bus_message_unref(reply) }
        var first: UnsafePointer<CChar>?
        var second: UnsafePointer<CChar>?
        var status = sd_bus_message_enter_container(reply, CChar(114), "so")  // "r": a struct
        if status >= 0 { status = sd_bus_message_read_basic(reply, CChar(115), &first) }  // "s"
        if status >= 0 { status = sd_bus_message_read_basic(reply, CChar(111), &second) }  // "o"
        guard status >= 0, let first, let second else {
            throw SystemBusError(call: call, result: min(status, -EBADMSG))
        }
        return (String(cString: first), String(cString: second))
    }
}

/// A failed sd-bus call: the call (or the D-Bus method and property), the errno, and the D-Bus error's
/// name and message when the peer answered with one.
struct SystemBusError: Error, Sendable, CustomStringConvertible {
    /// The sd-bus call, or `Get INTERFACE.PROPERTY` for a property read.
    let call: String
    /// The errno, positive.
    let errno: Int32
    /// The D-Bus error's name, such as `org.freedesktop.DBus.Error.ServiceUnknown`, when there was one.
    let name: String?
    /// The D-Bus error's message, when there was one.
    let message: String?

    init(call: String, result: Int32, _ error: sd_bus_error = sd_bus_error()) {
        self.call = call
        self.errno = -result
        self.name = error.name.map { String(cString: $0) }
        self.message = error.message.map { String(cString: $0) }
    }

    /// Whether nobody owns the name called (`ServiceUnknown`, `NameHasNoOwner`): the service is not on the bus.
    var serviceAbsent: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    /// `Get org.freedesktop.login1.Seat.ActiveSession: org.freedesktop.DBus.Error.UnknownObject: ...`, or
    /// `sd_bus_open_system: No such file or directory`.
    var description: String {
        if let name { return "\(call): \(name): \(message ?? "")" }
        return "\(call): \(String(cString: strerror(errno)))"
    }
}
