import ShakeDetection
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// The poll loop behind an ``AccelerometerSource``, run on the source's own thread.
///
/// It owns the reader (and through it the libiio handles) and the udev monitor; nothing here
/// is shared with other threads except the stream's continuation and the wake-up eventfd.
struct ReadingLoop {
    let configuration: AccelerometerConfiguration
    let continuation: AsyncThrowingStream<SourceEvent, any Error>.Continuation
    let wakeup: Wakeup

    private var reader: (any SampleReader)?
    private var batch: [Sample] = []
    /// Samples per delivered batch.
    private var batchSize = 10
    /// When the oldest undelivered sample was read (monotonic ns).
    private var pendingSince: Int64?
    /// While a new buffer has delivered nothing: when polling takes over (monotonic ns).
    private var silenceDeadline: Int64?
    /// While waiting for the sensor after an error no uevent will fix (permissions): when to retry.
    private var retryAt: Int64?
    private var lastGoneReason: String?

    init(
        configuration: AccelerometerConfiguration,
        continuation: AsyncThrowingStream<SourceEvent, any Error>.Continuation,
        wakeup: Wakeup
    ) {
        self.configuration = configuration
        self.continuation = continuation
        self.wakeup = wakeup
    }

    /// Runs until the consumer goes away.
    mutating func run() {
        let monitor: UdevMonitor
        do {
            monitor = try UdevMonitor()
        } catch {
            continuation.finish(throwing: error)
            return
        }
        do {
            try open()
        } catch {
            guard configuration.waitForSensor else {
                continuation.finish(throwing: error)
                return
            }
            gone(error)
        }
        var fds = [pollfd](repeating: pollfd(), count: 3)
        while true {
            fds[0] = pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: monitor.fd, events: Int16(POLLIN), revents: 0)
            fds[2] = pollfd(fd: reader?.pollFD ?? -1, events: Int16(POLLIN), revents: 0)
            let ready: Int32
            do {
                ready = try checkErrno("poll") { poll(&fds, 3, timeoutMilliseconds()) }
            } catch {
                continuation.finish(throwing: error)
                return
            }
            configuration.statistics?.record(wakeups: 1)
            if fds[0].revents != 0 { break }
            if fds[1].revents != 0 {
                while let event = monitor.receive() { handle(event) }
            }
            if fds[2].revents != 0 && reader != nil { readReady() }
            if ready == 0 || pendingSince != nil || silenceDeadline != nil || retryAt != nil { checkDeadlines() }
        }
        reader = nil
        continuation.finish()
    }

    /// Finds and opens the sensor, announcing it.
    private mutating func open() throws(IIOError) {
        let info = try Discovery.find(configuration.device, mountMatrixOverride: configuration.mountMatrix)
        var note = ""
        let reader: any SampleReader
        switch configuration.mode {
        case .polled:
            reader = try PolledReader(info: info, wantedRate: configuration.rate)
        case .buffered:
            reader = try makeBuffered(info)
        case .automatic:
            if info.preferredMode == .buffered {
                do {
                    reader = try makeBuffered(info)
                } catch  where error.code != .permissionDenied && info.hasRawAttributes {
                    note = "; the buffer could not be used: \(error)"
                    reader = try PolledReader(info: info, wantedRate: configuration.rate)
                }
            } else {
                reader = try PolledReader(info: info, wantedRate: configuration.rate)
            }
        }
        start(reader, note: note)
    }

    private func makeBuffered(_ info: AccelerometerInfo) throws(IIOError) -> BufferedReader {
        try BufferedReader(
            info: info, wantedRate: configuration.rate, wakeupsPerSecond: configuration.wakeupsPerSecond,
            timeoutMilliseconds: configuration.libiioTimeoutMilliseconds)
    }

    private mutating func start(_ reader: any SampleReader, note: String) {
        self.reader = reader
        batchSize = max(1, Int((reader.rate / max(configuration.wakeupsPerSecond, 0.1)).rounded()))
        batch.reserveCapacity(batchSize)
        retryAt = nil
        lastGoneReason = nil
        silenceDeadline =
            reader.mode == .buffered && configuration.mode == .automatic && reader.info.hasRawAttributes
            ? monotonicNanoseconds() + configuration.bufferSilenceTimeout.nanoseconds : nil
        continuation.yield(.sensorReturned(describe(reader) + note))
    }

    private func describe(_ reader: any SampleReader) -> String {
        "\(reader.info.summary.split(separator: " (").first ?? "") (\(reader.info.sysname)): \(reader.mode.rawValue) "
            + "at \(formatNumber(reader.rate)) Hz"
    }

    /// Reads what the reader has, delivering full batches; on failure the sensor counts as gone.
    private mutating func readReady() {
        guard let reader else { return }
        let before = batch.count
        do {
            let reads = try reader.read(into: &batch)
            configuration.statistics?.record(reads: reads, samples: batch.count - before)
        } catch {
            flush()
            self.reader = nil
            gone(error)
            return
        }
        if batch.count > before {
            silenceDeadline = nil
            if pendingSince == nil { pendingSince = monotonicNanoseconds() }
        }
        if batch.count >= batchSize { flush() }
    }

    /// Delivers the samples read so far.
    private mutating func flush() {
        pendingSince = nil
        guard !batch.isEmpty else { return }
        continuation.yield(.samples(batch))
        // The delivered array now belongs to the consumer: start a new one of one batch.
        batch = []
        batch.reserveCapacity(batchSize)
    }

    /// Reports the sensor gone (once per distinct reason) and arranges a retry when no uevent will come.
    private mutating func gone(_ error: IIOError) {
        let reason = error.description
        if reason != lastGoneReason { continuation.yield(.sensorGone(reason: reason)) }
        lastGoneReason = reason
        let uEventWillTell = error.code == .noAccelerometer || error.code == .deviceGone
        retryAt = uEventWillTell ? nil : monotonicNanoseconds() + 5_000_000_000
    }

    private mutating func handle(_ event: UdevEvent) {
        if event.action == "remove" {
            guard let reader, reader.info.syspath == event.device.syspath else { return }
            flush()
            self.reader = nil
            gone(
                IIOError(.deviceGone, path: event.device.syspath, "the sensor was removed; waiting for it to come back")
            )
        } else if reader == nil, event.action == "add" || event.action == "change" || event.action == "bind" {
            tryReopen()
        }
    }

    private mutating func tryReopen() {
        do { try open() } catch { gone(error) }
    }

    /// Flushes a batch that waited too long, falls back to polling after a silent buffer, retries.
    private mutating func checkDeadlines() {
        let now = monotonicNanoseconds()
        if let since = pendingSince, now - since >= batchPeriod { flush() }
        if let deadline = silenceDeadline, now >= deadline, let info = reader?.info {
            silenceDeadline = nil
            reader = nil
            do {
                let polled = try PolledReader(info: info, wantedRate: configuration.rate)
                let silence = configuration.bufferSilenceTimeout.nanoseconds / 1_000_000
                start(polled, note: "; the buffer delivered nothing in \(silence) ms")
            } catch {
                gone(error)
            }
        }
        if let retry = retryAt, now >= retry, reader == nil { tryReopen() }
    }

    /// How long a partial batch may wait: two batch periods.
    private var batchPeriod: Int64 { Int64(2e9 / max(configuration.wakeupsPerSecond, 0.1)) }

    /// Until the nearest deadline, or forever (-1) when there is none.
    private func timeoutMilliseconds() -> Int32 {
        // No arrays here: this runs at every wake-up, and polling wakes a hundred times a second.
        var next = pendingSince.map { $0 + batchPeriod }
        if let deadline = silenceDeadline { next = min(next ?? deadline, deadline) }
        if let retry = retryAt { next = min(next ?? retry, retry) }
        guard let next else { return -1 }
        let wait = (next - monotonicNanoseconds() + 999_999) / 1_000_000
        return Int32(clamping: max(0, wait))
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
