import CIIO

#if canImport(Glibc)
    import Glibc
#endif

/// The descriptors the reading loop sleeps on, registered once with `epoll(7)`: its ``LoopControl``'s
/// eventfd, the udev monitor and the reader's descriptor (the buffer, or a timer).
///
/// `poll(2)` on three descriptors makes the kernel add the thread to three wait queues and take it off
/// them again at every wake-up; an epoll set keeps them registered, and a wake-up touches only the
/// one that is ready. A set belongs to one reader: the loop makes a new one when its reader changes,
/// so a closed reader's descriptor (whose number a new one may reuse) never stays registered. While
/// the reader rests, its descriptor stays in the set with no events asked for.
struct WaitSet: ~Copyable {
    /// What a wait found ready.
    struct Ready {
        /// How many descriptors were ready (0: the timeout passed).
        var count: Int32 = 0
        var control = false
        var monitor = false
        var reader = false
    }

    private let fd: Int32
    private let readerFD: Int32
    /// Whether the reader's descriptor is watched now (not resting).
    private(set) var readerWatched: Bool

    private static let controlTag: UInt64 = 0
    private static let monitorTag: UInt64 = 1
    private static let readerTag: UInt64 = 2

    /// A set of `control`, `monitor` and, when it is not -1, `reader` (watched when `watchReader`).
    init(control: Int32, monitor: Int32, reader: Int32, watchReader: Bool) throws(IIOError) {
        let set = try checkErrno("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        let watched = reader >= 0 && watchReader
        do throws(IIOError) {
            try Self.control(set, EPOLL_CTL_ADD, control, events: EPOLLIN.rawValue, tag: Self.controlTag)
            try Self.control(set, EPOLL_CTL_ADD, monitor, events: EPOLLIN.rawValue, tag: Self.monitorTag)
            if reader >= 0 {
                try Self.control(
                    set, EPOLL_CTL_ADD, reader, events: watched ? EPOLLIN.rawValue : 0, tag: Self.readerTag)
            }
        } catch {
            close(set)
            throw error
        }
        fd = set
        readerFD = reader
        readerWatched = watched
    }

    deinit { close(fd) }

    /// Watches the reader's descriptor or stops watching it (while the reader rests).
    mutating func watchReader(_ watch: Bool) throws(IIOError) {
        guard readerFD >= 0, watch != readerWatched else { return }
        try Self.control(fd, EPOLL_CTL_MOD, readerFD, events: watch ? EPOLLIN.rawValue : 0, tag: Self.readerTag)
        readerWatched = watch
    }

    /// Sleeps until a descriptor is ready or `timeoutMilliseconds` pass (-1: no timeout).
    func wait(timeoutMilliseconds: Int32) throws(IIOError) -> Ready {
        var events = (epoll_event(), epoll_event(), epoll_event())
        let count = try withUnsafeMutableBytes(of: &events) { (raw) throws(IIOError) -> Int32 in
            let first = raw.baseAddress!.assumingMemoryBound(to: epoll_event.self)
            return try checkErrno("epoll_wait") { epoll_wait(fd, first, 3, timeoutMilliseconds) }
        }
        var ready = Ready(count: count)
        withUnsafeBytes(of: &events) { raw in
            let all = raw.bindMemory(to: epoll_event.self)
            for event in all.prefix(Int(count)) {
                switch event.data.u64 {
                case Self.controlTag: ready.control = true
                case Self.monitorTag: ready.monitor = true
                default: ready.reader = true
                }
            }
        }
        return ready
    }

    private static func control(_ set: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, tag: UInt64)
        throws(IIOError)
    {
        var event = epoll_event()
        event.events = events
        event.data.u64 = tag
        _ = try checkErrno("epoll_ctl") { epoll_ctl(set, operation, fd, &event) }
    }
}
