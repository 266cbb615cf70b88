import CIIO
import ShakeDetection

#if canImport(Glibc)
    import Glibc
#endif

/// One way of reading an open accelerometer, driven by the source's poll loop.
///
/// A reader owns its device handles from `init` to `deinit`: creating it starts the sensor,
/// dropping it stops it. ``pollFD`` becomes readable when ``read(into:)`` has something to do.
protocol SampleReader: AnyObject {
    /// How this reader reads.
    var mode: ReadingMode { get }
    /// The accelerometer being read.
    var info: AccelerometerInfo { get }
    /// The rate in force, in Hz.
    var rate: Double { get }
    /// The descriptor to wait on.
    var pollFD: Int32 { get }
    /// Reads whatever is ready (never blocking), appending samples; returns the number of reads made.
    func read(into samples: inout [Sample]) throws(IIOError) -> Int
}


/// An owning periodic `timerfd` on CLOCK_MONOTONIC, closed in `deinit`.
struct PeriodicTimer: ~Copyable {
    /// The descriptor, readable at each tick.
    let fd: Int32

    /// Starts a timer that ticks every `period` nanoseconds.
    init(periodNanoseconds period: Int64) throws(IIOError) {
        let fd = try checkErrno("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
        let interval = timespec(tv_sec: Int(period / 1_000_000_000), tv_nsec: Int(period % 1_000_000_000))
        var spec = itimerspec(it_interval: interval, it_value: interval)
        do throws(IIOError) {
            _ = try checkErrno("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// How many ticks passed since the last call (0 if none).
    func consumeTicks() throws(IIOError) -> UInt64 {
        var ticks: UInt64 = 0
        let count = try checkErrnoNonBlocking("read", path: "timerfd") { Glibc.read(fd, &ticks, 8) }
        return count == 8 ? ticks : 0
    }
}

/// An owning one-shot `timerfd` on CLOCK_MONOTONIC, armed at absolute times, closed in `deinit`.
struct OneShotTimer: ~Copyable {
    /// The descriptor, readable once the time armed has come.
    let fd: Int32

    /// Creates a disarmed timer.
    init() throws(IIOError) {
        fd = try checkErrno("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Arms the timer for the monotonic time `time` (ns); a time past fires at once.
    func arm(at time: Int64) throws(IIOError) {
        let at = max(time, 1)
        var spec = itimerspec(
            it_interval: timespec(), it_value: timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000)))
        _ = try checkErrno("timerfd_settime") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// Whether the time came since the last call.
    func consume() throws(IIOError) -> Bool {
        var ticks: UInt64 = 0
        let count = try checkErrnoNonBlocking("read", path: "timerfd") { Glibc.read(fd, &ticks, 8) }
        return count == 8 && ticks > 0
    }
}
