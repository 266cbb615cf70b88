import MonotonicClock
import ShakeDetection
import Synchronization
import TextSafety

/// A real accelerometer as a ``SampleSource``: IIO buffered or polled, with hotplug and retries.
///
/// Nothing is opened until ``events()`` is called; the device is read only while the stream
/// lives. A dedicated thread sleeps in `epoll_wait(2)` on the buffer (or the polling timer), a udev
/// monitor and a wake-up eventfd, so it wakes only for data, hotplug, a retry, a liveness probe
/// or the end of the stream. When the consumer stops (the stream terminates), the buffer is
/// disabled, the device closed and the thread ends: no consumer, no reads, no wake-ups.
///
/// A new stream opens the device only once the previous reader of this process has closed it
/// (see ``DeviceClaims``), so switching the sensor off and on quickly keeps buffered reading.
///
/// When the sensor goes away or fails (udev `remove`, an open or read error, a malformed
/// attribute) the stream reports ``SourceEvent/sensorGone(reason:)``, ending in
/// `; retrying in N s`, and stays open: it tries again after a delay that doubles from 0.5 s
/// to 30 s (see ``RetryBackoff``), and at once on a udev `add` or `change`. A sensor that
/// comes back is reported with ``SourceEvent/sensorReturned(_:)``. The stream starts with a
/// `sensorReturned` naming the sensor and its mode, and repeats it when a silent buffer gives
/// way to polling.
public struct AccelerometerSource: SampleSource {
    /// How the sensor is chosen and read.
    public let configuration: AccelerometerConfiguration
    /// The reading loops this source started that have not ended yet (copies share them).
    private let loops = LiveLoops()

    /// Creates a source; nothing is opened until ``events()``.
    public init(configuration: AccelerometerConfiguration = .init()) {
        self.configuration = configuration
    }

    /// `accelerometer NAME at 100 Hz`, or `first accelerometer at 100 Hz`.
    public var description: String {
        let which = configuration.device.map { "accelerometer \($0)" } ?? "first accelerometer"
        return "\(which) at \(formatNumber(configuration.rate)) Hz (\(configuration.mode.rawValue))"
    }

    /// Opens the sensor and runs `consumer` on the reading thread with every event, until the stream
    /// is dropped or cancelled; the stream carries what the consumer reports.
    ///
    /// The consumer runs between two waits, so a batch costs no thread hand-off, no task switch and
    /// no allocation; only a report wakes the iterating task. The stream ends with an ``IIOError`` only
    /// when the sensor cannot be opened at start and ``AccelerometerConfiguration/waitForSensor`` is
    /// false, or the udev monitor, the eventfd or the thread cannot be created.
    public func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    > {
        let configuration = self.configuration
        let loops = self.loops
        return AsyncThrowingStream { continuation in
            let control: LoopControl
            do {
                control = try LoopControl(rotationService: loops.rotationService)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            continuation.onTermination = { _ in control.stop() }
            loops.insert(control)
            do {
                try ReadingThread.start(name: "shaked-iio") {
                    // The consumer at a fixed address for the thread's life: a `var` captured by the closure
                    // below would live in a box whose every access the runtime checks for exclusivity (a
                    // thread-local look-up, from cold caches at each wake-up).
                    let state = UnsafeMutablePointer<Consumer>.allocate(capacity: 1)
                    state.initialize(to: consumer)
                    defer {
                        state.deinitialize(count: 1)
                        state.deallocate()
                    }
                    // Made once: a closure made per batch would look up the stream's generic metadata each time.
                    let report: (Consumer.Report) -> Void = { continuation.yield($0) }
                    var loop = ReadingLoop(configuration: configuration, control: control) { event in
                        state.pointee.consume(event, report: report)
                        return state.pointee.samplesCanWait
                    }
                    do {
                        try loop.run()
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                    DeviceClaims.forget(control)
                    loops.remove(control)
                    control.end()
                }
            } catch {
                loops.remove(control)
                continuation.finish(throwing: error)
            }
        }
    }

    /// Whether every reading thread of this source answers within `timeout`: for a watchdog.
    ///
    /// Each live loop is asked through its wake-up eventfd and answers at its next pass through
    /// its wait, so the probe costs no periodic wake-ups, only one per call. A loop stuck in a
    /// driver, a system call or libiio does not answer in time, and this returns false. With no
    /// stream open (the sensor is off) it is true at once. Probes run concurrently, so the call
    /// takes at most about `timeout`. A cancelled caller gets false.
    public func isResponsive(within timeout: Duration) async -> Bool {
        let controls = loops.all
        guard !controls.isEmpty else { return true }
        return await withTaskGroup(of: Bool.self) { group in
            for control in controls { group.addTask { await control.isResponsive(within: timeout) } }
            var all = true
            for await answer in group where !answer { all = false }
            return all
        }
    }

    /// Tells the reading loops that a rotation service (iio-sensor-proxy) appeared, as its bus name's
    /// `NameOwnerChanged` says: a loop reading a buffer of its own gives way to it at once (the rotation
    /// service's raw reads fail while that buffer runs, and 3.7's set-up tears it down), instead of at
    /// its next look in `/proc` (every 10 s).
    /// `pid` is its process, when the bus said (named in messages about who holds the device).
    public func rotationServiceAppeared(pid: Int32? = nil) {
        loops.rotationService.ownerPID.store(pid ?? 0, ordering: .relaxed)
        loops.rotationService.owned.store(true, ordering: .relaxed)
        for control in loops.all { control.rotationServiceAppeared() }
    }

    /// The rotation service's bus name lost its owner: it stopped, or is restarting (it is taken to be
    /// around for a while yet).
    public func rotationServiceLeft() {
        loops.rotationService.leftAt.store(monotonicNanoseconds(), ordering: .relaxed)
        loops.rotationService.owned.store(false, ordering: .relaxed)
    }

    /// Whether ``rotationServiceAppeared(pid:)`` will be called when a rotation service appears: while it is,
    /// a buffer of the loops' own does not look for one in `/proc` every 10 s. Set it false when the
    /// system bus goes away.
    public func followRotationService(_ followed: Bool) {
        if !followed { loops.rotationService.owned.store(false, ordering: .relaxed) }
        loops.rotationService.followed.store(followed, ordering: .releasing)
    }

    /// How many reading threads of this source are running (including ones still closing the device).
    public var runningThreads: Int { loops.all.count }

    /// Checks that a sensor can be opened as configured, without reading it (for `shakectl sensors` and startup checks).
    public func probe() throws(IIOError) -> AccelerometerInfo {
        try Discovery.find(configuration.device, mountMatrixOverride: configuration.mountMatrix)
    }
}

/// The reading loops of one source that have not ended, for liveness probes.
final class LiveLoops: Sendable {
    private let loops = Mutex<[ObjectIdentifier: LoopControl]>([:])
    /// What ``AccelerometerSource/followRotationService(_:)`` last said, read by every loop.
    let rotationService = RotationServiceFollowing()

    func insert(_ control: LoopControl) { loops.withLock { $0[ObjectIdentifier(control)] = control } }
    func remove(_ control: LoopControl) { loops.withLock { $0[ObjectIdentifier(control)] = nil } }
    var all: [LoopControl] { loops.withLock { Array($0.values) } }
}
