import MonotonicClock
import ShakeDetection
import Synchronization
import TextSafety

#if canImport(Glibc)
    import Glibc
#endif

/// The poll loop behind an ``AccelerometerSource``, run on the source's own thread.
///
/// It owns the reader (and through it the libiio handles) and the udev monitor; nothing here
/// is shared with other threads except what `deliver` reaches (the stream's continuation) and the
/// ``LoopControl``. Every failure (open, read, malformed value) is reported and retried with
/// ``RetryBackoff`` for as long as the stream lives; a device another loop still has open is waited for.
///
/// A buffered reader is read when its watermark wakes the loop, except while the consumer says its
/// samples can wait (``SampleConsumer/samplesCanWait``): while the device lies still, so no shake is
/// under way, the buffer is left to fill for ``restingWakeups`` watermarks and read all at once, and
/// the loop wakes that many times less often; while nothing can be recognized for a while (no stroke
/// under way), it skips the wake-ups whose samples could not change that, which delays nothing (see
/// ``wakeups(for:period:)``). The consumer gets every sample either way.
struct ReadingLoop {
    /// How many watermarks of scans a resting loop lets the kernel's buffer gather before it reads.
    static let restingWakeups = 3

    let configuration: AccelerometerConfiguration
    let control: LoopControl
    /// Hands an event to the consumer, on this thread, and returns how long the next samples can wait;
    /// a batch is lent, and reused once it returns.
    private let deliver: (SourceEvent) -> SampleWait

    var reader: (any SampleReader)? {
        didSet {
            readerGeneration &+= 1
            readerMode = reader?.mode
        }
    }
    /// The reader's mode, kept with it: asked at every wake-up, where a call through the reader's
    /// protocol would fetch its witness table from cold caches.
    private(set) var readerMode: ReadingMode?
    /// Counts the readers set, so that the loop's ``WaitSet`` is made anew for each one.
    private var readerGeneration = 0
    /// The device this loop has claimed in ``DeviceClaims`` (held while `reader` is open).
    private var claimed: String?
    /// The device is still open in another loop; its release nudges this one.
    private var waitingForDevice = false
    private var batch: [Sample] = []
    /// Samples per delivered batch.
    private var batchSize = 10
    /// When the oldest undelivered sample was read (monotonic ns).
    private var pendingSince: Int64?
    /// While a new buffer has delivered nothing: when polling takes over (monotonic ns).
    private var silenceDeadline: Int64?
    /// While the sensor is failed: when to try again (monotonic ns).
    private var retryAt: Int64?
    /// While the consumer's samples can wait: when the buffer is read next (monotonic ns). Until then
    /// the buffer is not polled.
    private var restingUntil: Int64?
    private var backoff: RetryBackoff
    /// When a rotation service (iio-sensor-proxy) was last seen running (monotonic ns).
    var rotationServiceSeenAt: Int64?
    /// When the reader was last replaced at once because another process changed the sharing (monotonic ns).
    var lastQuickReopen: Int64?
    /// When a buffered reader last delivered samples (monotonic ns).
    var lastSamplesAt: Int64?
    /// When a buffer of our own looks for a rotation service next (monotonic ns).
    var nextServiceCheck: Int64 = 0

    #if DEBUG
        /// Test seam, not in release builds: how long closing a reader takes, in ms, as with a
        /// slow driver, so a test can show that a new reader waits for the old one.
        static let closeDelayMillisecondsForTesting = Atomic<Int>(0)
    #endif

    init(
        configuration: AccelerometerConfiguration, control: LoopControl,
        deliver: @escaping (SourceEvent) -> SampleWait
    ) {
        self.configuration = configuration
        self.control = control
        self.deliver = deliver
        backoff = RetryBackoff(
            initial: configuration.retryDelay.nanoseconds, maximum: configuration.maximumRetryDelay.nanoseconds)
    }

    /// Runs until the consumer goes away (returning, with the device closed), or throws what ends
    /// the stream: no udev monitor, a sensor that cannot be opened at start unless
    /// ``AccelerometerConfiguration/waitForSensor``, or `poll` failing.
    mutating func run() throws(IIOError) {
        let monitor = try UdevMonitor()
        do {
            try open()
        } catch {
            guard configuration.waitForSensor else { throw error }
            failed(error)
        }
        // Made anew for each reader (a generation it was made for), the reader watched unless it rests.
        var waitSet: WaitSet?
        var waitSetGeneration = -1
        while true {
            let ready: WaitSet.Ready
            do throws(IIOError) {
                if waitSetGeneration != readerGeneration || waitSet == nil {
                    waitSet = nil
                    waitSet = try WaitSet(
                        control: control.fd, monitor: monitor.fd, reader: reader?.pollFD ?? -1,
                        watchReader: restingUntil == nil)
                    waitSetGeneration = readerGeneration
                } else {
                    try waitSet!.watchReader(restingUntil == nil)
                }
                ready = try waitSet!.wait(timeoutMilliseconds: timeoutMilliseconds())
            } catch {
                closeReader()
                throw error
            }
            configuration.statistics?.record(wakeups: 1)
            if ready.control {
                control.drain()
                if control.isStopped { break }
                if waitingForDevice && reader == nil { tryReopen() }
                if control.takeRotationServiceAppeared() { rotationServiceAppeared() }
            }
            if ready.monitor {
                while let event = monitor.receive() { handle(event) }
            }
            // Also a hang-up or error of a resting reader's descriptor, which epoll reports unasked: the
            // read then fails and the reader is closed.
            if ready.reader && reader != nil { readReady() }
            if ready.count == 0 || pendingSince != nil || silenceDeadline != nil || retryAt != nil
                || restingUntil != nil || lastSamplesAt != nil
            {
                checkDeadlines()
            }
        }
        closeReader()
    }

    /// Finds, claims and opens the sensor, announcing it; waits (returning) if another loop has it open.
    private mutating func open() throws(IIOError) {
        let info = try Discovery.find(configuration.device, mountMatrixOverride: configuration.mountMatrix)
        retryAt = nil
        guard DeviceClaims.claim(info.syspath, for: control) else {
            waitingForDevice = true
            return
        }
        waitingForDevice = false
        claimed = info.syspath
        var note = ""
        let reader: any SampleReader
        do throws(IIOError) {
            switch configuration.mode {
            case .polled:
                reader = try PolledReader(info: info, configuration: configuration)
            case .buffered:
                reader = try makeBuffered(info)
            case .automatic:
                if configuration.priority == .rotation,
                    let choice = try ReaderChoice.besideOthers(
                        info, configuration: configuration, rotationService: rotationServicePresence(),
                        following: control.rotationService)
                {
                    reader = choice.reader
                    note = choice.note
                } else if info.preferredMode == .buffered {
                    do {
                        reader = try makeBuffered(info)
                    } catch  where error.code != .permissionDenied && info.hasRawAttributes {
                        note = "; the buffer could not be used: \(error)"
                        reader = try PolledReader(info: info, configuration: configuration)
                    }
                } else {
                    reader = try PolledReader(info: info, configuration: configuration)
                }
            }
        } catch {
            closeReader()
            throw error
        }
        start(reader, note: note)
    }

    private func makeBuffered(_ info: AccelerometerInfo) throws(IIOError) -> BufferedReader {
        try BufferedReader(
            info: info, wantedRate: configuration.rate, wakeupsPerSecond: configuration.wakeupsPerSecond,
            timeoutMilliseconds: configuration.libiioTimeoutMilliseconds, priority: configuration.priority,
            following: control.rotationService)
    }

    private mutating func start(_ reader: any SampleReader, note: String) {
        self.reader = reader
        batchSize = scansPerWakeup(rate: reader.rate, wakeupsPerSecond: configuration.wakeupsPerSecond)
        batch.reserveCapacity(batchSize)
        retryAt = nil
        restingUntil = nil
        let now = monotonicNanoseconds()
        lastSamplesAt = reader.mode == .buffered ? now : nil
        // Only an automatic reader that puts rotation first gives way; for any other the check never comes
        // (a deadline left in the past would make every poll return at once).
        nextServiceCheck = givesWayToRotation ? now &+ Self.serviceCheckPeriod : .max
        backoff.succeeded(now: now)
        silenceDeadline =
            reader.mode == .buffered && configuration.mode == .automatic && reader.info.hasRawAttributes
            ? now &+ configuration.bufferSilenceTimeout.nanoseconds : nil
        _ = deliver(.sensorReturned(describe(reader) + note))
    }

    private func describe(_ reader: any SampleReader) -> String {
        "\(reader.info.label ?? reader.info.name) (\(reader.info.sysname)): \(reader.mode.rawValue) "
            + "at \(formatNumber(reader.rate)) Hz"
    }

    /// Closes the reader (disabling the buffer, destroying the libiio context), then releases the device.
    mutating func closeReader() {
        #if DEBUG
            let delay = Self.closeDelayMillisecondsForTesting.load(ordering: .relaxed)
            if reader != nil, delay > 0 { usleep(UInt32(clamping: delay) * 1000) }
        #endif
        reader = nil
        silenceDeadline = nil
        restingUntil = nil
        if let claimed {
            DeviceClaims.release(claimed, by: control)
            self.claimed = nil
        }
    }

    /// Reads what the reader has, delivering full batches; on failure the sensor counts as failed.
    private mutating func readReady() {
        let before = batch.count
        var failure: IIOError?
        if let reader {
            do {
                let reads = try reader.read(into: &batch)
                configuration.statistics?.record(reads: reads, samples: batch.count - before)
            } catch {
                failure = error
            }
        }
        if let failure {
            flush()
            closeReader()
            let now = monotonicNanoseconds()
            if failure.code == .sharingChanged, lastQuickReopen.map({ now &- $0 > 1_000_000_000 }) ?? true {
                // Another process enabled or disabled its buffer: the reader that fits now, at once.
                lastQuickReopen = now
                tryReopen()
                return
            }
            failed(failure)
            return
        }
        if batch.count > before {
            let now = monotonicNanoseconds()
            lastSamplesAt = now
            silenceDeadline = nil
            if pendingSince == nil { pendingSince = now }
        }
        if batch.count >= batchSize { flush() }
    }

    /// Delivers the samples read so far; a buffered reader rests after them if they may wait.
    mutating func flush() {
        pendingSince = nil
        guard !batch.isEmpty else { return }
        let wait = deliver(.samples(batch))
        let wakeups = readerMode == .buffered ? Self.wakeups(for: wait, period: wakeupPeriod) : 1
        restingUntil = wakeups > 1 ? monotonicNanoseconds() &+ Int64(wakeups) &* wakeupPeriod : nil
        // Kept storage, unless the consumer kept the batch (forwarding it): then a new array.
        batch.removeAll(keepingCapacity: true)
    }

    /// How many wake-up periods a buffered reader lets pass before it reads again (1: at the next
    /// watermark, as always). Eventless samples wait for the first wake-up that could show an event: one
    /// `horizon` after the last sample comes to light at the wake-up after it at the soonest, the
    /// `horizon / period + 1`-th, so reading then instead of at every watermark delays nothing. A fifth of
    /// a period is kept back for the time from the last sample to the delivery. Never more than a
    /// resting reader waits, which the kernel's buffer has room for.
    static func wakeups(for wait: SampleWait, period: Int64) -> Int {
        switch wait {
        case .no: return 1
        case .resting: return restingWakeups
        case .eventFree(let horizon):
            guard period > 0, horizon > period / 5 else { return 1 }
            return Int(min((horizon - period / 5) / period + 1, Int64(restingWakeups)))
        }
    }

    /// Reports the failure with the delay before the next try, and schedules that try.
    private mutating func failed(_ error: IIOError) {
        let now = monotonicNanoseconds()
        let delay = backoff.next(now: now)
        retryAt = now &+ delay
        waitingForDevice = false
        _ = deliver(.sensorGone(reason: "\(error); retrying in \(secondsText(delay))"))
    }

    private mutating func handle(_ event: UdevEvent) {
        if event.action == "remove" {
            guard let info = reader?.info, info.syspath == event.device.syspath else { return }
            flush()
            closeReader()
            failed(
                IIOError(.deviceGone, path: event.device.syspath, "the sensor was removed; waiting for it to come back")
            )
        } else if reader == nil, event.action == "add" || event.action == "change" || event.action == "bind" {
            tryReopen()
        }
    }

    mutating func tryReopen() {
        do { try open() } catch { failed(error) }
    }

    /// Reads a resting buffer when its time comes, flushes a batch that waited too long, falls back to
    /// polling after a silent buffer, retries.
    private mutating func checkDeadlines() {
        var now = monotonicNanoseconds()
        if let until = restingUntil, now >= until {
            restingUntil = nil
            if reader != nil { readReady() }
            now = monotonicNanoseconds()
        }
        if let since = pendingSince, now &- since >= batchPeriod { flush() }
        if let deadline = silenceDeadline, now >= deadline, let info = reader?.info {
            // Same device, same claim: the buffered reader closes before the polled one opens.
            silenceDeadline = nil
            reader = nil
            do {
                let polled = try PolledReader(info: info, configuration: configuration)
                let silence = configuration.bufferSilenceTimeout.nanoseconds / 1_000_000
                start(polled, note: "; the buffer delivered nothing in \(silence) ms")
            } catch {
                closeReader()
                failed(error)
            }
        }
        checkOwnBuffer(now: now)
        if let retry = retryAt, now >= retry, reader == nil, !waitingForDevice {
            retryAt = nil
            tryReopen()
        }
    }

    /// The time between two wake-ups of the watermark.
    private var wakeupPeriod: Int64 { Int64(1e9 / clampWakeups(configuration.wakeupsPerSecond)) }

    /// How long a partial batch may wait: two wake-up periods.
    private var batchPeriod: Int64 { 2 &* wakeupPeriod }

    /// Until the nearest deadline, or forever (-1) when there is none.
    private func timeoutMilliseconds() -> Int32 {
        // No arrays here: this runs at every wake-up, and polling wakes a hundred times a second.
        var next = pendingSince.map { $0 &+ batchPeriod }
        if let deadline = silenceDeadline { next = min(next ?? deadline, deadline) }
        if let retry = retryAt { next = min(next ?? retry, retry) }
        if let until = restingUntil { next = min(next ?? until, until) }
        if readerMode == .buffered, let last = lastSamplesAt {
            let check = min(last &+ Self.ownBufferSilence, nextServiceCheck)
            next = min(next ?? check, check)
        }
        guard let next else { return -1 }
        let wait = (next &- monotonicNanoseconds() &+ 999_999) / 1_000_000
        return Int32(clamping: max(0, wait))
    }
}

extension Duration {
    /// The duration in nanoseconds, saturating at about ±292 years instead of overflowing.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min / 2 : .max / 2 }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
