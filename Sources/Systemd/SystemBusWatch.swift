import CSystemd
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A watch of the system bus on a thread of its own that sleeps until the bus writes or the stream's
/// consumer goes: the shared part of ``BusNameOwner/changes(of:)`` and ``Logind/sessionHints()``.
/// A subclass adds its matches in ``start()`` and may read again in ``afterProcessing()``; it is used
/// only on its own thread (sd-bus connections are not thread-safe).
class SystemBusWatch<Element: Sendable>: @unchecked Sendable {
    let bus: SystemBus
    let stop: FileDescriptor
    let continuation: AsyncStream<Element>.Continuation
    /// How the stream says the bus can't be used: no bus, no thread, or the bus went away.
    let unreachable: @Sendable (String) -> Element

    init(
        bus: consuming SystemBus, stop: FileDescriptor, continuation: AsyncStream<Element>.Continuation,
        unreachable: @escaping @Sendable (String) -> Element
    ) {
        self.bus = bus
        self.stop = stop
        self.continuation = continuation
        self.unreachable = unreachable
    }

    /// Adds the watch's matches and yields what it has to say first; false ends the watch (having said why).
    func start() -> Bool { true }

    /// Called each time the queue of messages is empty; true to process again before sleeping
    /// (a read that called the bus may have let more signals in).
    func afterProcessing() -> Bool { false }

    /// A stream fed by the watch `make` gives for a new connection to the system bus. Without a system
    /// bus, or without a thread, the stream yields `unreachable(why)` and finishes; so it does when the
    /// bus goes away later. Ending the stream (its consumer gone) wakes and ends the thread.
    static func stream(
        bufferingNewest limit: Int, unreachable: @escaping @Sendable (String) -> Element,
        make: @escaping (consuming SystemBus, FileDescriptor, AsyncStream<Element>.Continuation) -> SystemBusWatch
    ) -> AsyncStream<Element> {
        AsyncStream(bufferingPolicy: .bufferingNewest(limit)) { continuation in
            let bus: SystemBus
            do {
                bus = try SystemBus()
            } catch {
                continuation.yield(unreachable("no system bus (\(error))"))
                continuation.finish()
                return
            }
            let stop = FileDescriptor(rawValue: eventfd(0, Int32(EFD_CLOEXEC)))
            continuation.onTermination = { _ in
                _ = try? withUnsafeBytes(of: UInt64(1)) { try stop.write($0) }
            }
            let watch = make(bus, stop, continuation)
            if !startDetachedThread({ watch.run() }) {
                continuation.yield(unreachable("no thread to watch the system bus"))
                continuation.finish()
                try? stop.close()
            }
        }
    }

    /// The loop: ``start()``, then process every queued message, ``afterProcessing()``, and sleep in
    /// `poll(2)` until the bus writes, sd-bus has a deadline, or `stop` is written.
    final func run() {
        defer {
            // Finished first: finishing runs onTermination, which writes to `stop`; closed after, so
            // that write never lands on a descriptor number reused by then.
            continuation.finish()
            try? stop.close()
        }
        guard start() else { return }
        while true {
            do {
                while try bus.process() {}
            } catch {
                continuation.yield(unreachable("the system bus went away (\(error))"))
                return
            }
            if afterProcessing() { continue }
            var fds = [
                pollfd(fd: stop.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: bus.fileDescriptor, events: bus.events, revents: 0),
            ]
            let ready = pollRetryingInterrupts(&fds, timeoutMilliseconds: bus.pollTimeoutMilliseconds)
            guard ready >= 0, fds[0].revents == 0 else { return }
        }
    }
}
