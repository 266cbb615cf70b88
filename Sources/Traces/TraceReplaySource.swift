import ShakeDetection
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replays a trace file as a ``SampleSource``: in real time, or as fast as possible.
///
/// Timestamps are shifted so the first sample lands at the moment replay starts, on the
/// continuous clock, as a live sensor would stamp them.
public struct TraceReplaySource: SampleSource {
    /// The trace file.
    public let path: String
    /// Whether to pace samples at the trace's own rate.
    public let realTime: Bool
    /// How many samples to deliver per batch (about a tenth of a second at 100 Hz).
    public let batchSize: Int

    /// Creates a replay source.
    public init(path: String, realTime: Bool = true, batchSize: Int = 10) {
        self.path = path
        self.realTime = realTime
        self.batchSize = max(1, batchSize)
    }

    public var description: String { "trace \(path)\(realTime ? "" : " (as fast as possible)")" }

    /// Replays the trace, running `consumer` in the replaying task with each batch.
    public func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    > {
        let path = self.path
        let realTime = self.realTime
        let batchSize = self.batchSize
        return consumer.reports { deliver in
            let clock = ContinuousClock()
            let start = clock.now
            let startNanos = monotonicNanoseconds()
            var origin: Int64?
            var batch: [Sample] = []
            batch.reserveCapacity(batchSize)
            var iterator = TraceReader(path: path).makeIterator()
            while let sample = try iterator.nextSample() {
                try Task.checkCancellation()
                let o = origin ?? sample.timestamp
                origin = o
                let offset = sample.timestamp - o
                var shifted = sample
                shifted.timestamp = startNanos + offset
                batch.append(shifted)
                if batch.count >= batchSize {
                    if realTime { try await clock.sleep(until: start.advanced(by: .nanoseconds(offset))) }
                    deliver(.samples(batch))
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { deliver(.samples(batch)) }
        }
    }
}

