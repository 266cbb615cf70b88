import ShakeDetection
import Synchronization
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sample source behind `shaked --demo`: a ``MotionGenerator`` played in real time, and a
/// shake whenever someone calls ``shake()``.
///
/// While the stream is iterated it wakes about `rate / batchSize` times a second (ten at the
/// defaults) and delivers every sample whose time has come, stamped on CLOCK_MONOTONIC as an
/// IIO sensor stamps them, so the real detector sees what it would see from hardware. When
/// iteration stops nothing runs.
///
/// The script is anchored to when the source was made, not to when a stream starts: the
/// daemon stops and resumes reading as apps come and go, and the motion carries on where the
/// clock says it is rather than starting again on the table. Samples missed while nobody was
/// reading, or while the source fell more than ``maximumLag`` behind (the system was suspended,
/// or the process starved), are never delivered; the gap shows in the timestamps, as it would
/// from a sensor.
public struct DemoMotionSource: SampleSource {
    /// Picks the synthetic person and device, as the seed of a ``MotionGenerator``.
    public let seed: UInt64
    /// Samples per second.
    public let rate: Double
    /// Samples per delivery, at the least.
    public let batchSize: Int
    /// The activities played.
    public let script: MotionScript
    /// The handle that shakes this source; hand it to whatever serves the demo's Shake call.
    public let trigger: Trigger
    /// When the script started, on CLOCK_MONOTONIC in nanoseconds.
    public let origin: Int64
    /// Running this late (in nanoseconds) or later, the source skips ahead instead of catching up.
    public let maximumLag: Int64

    /// Creates a demo source; the script starts now.
    ///
    /// - Parameters:
    ///   - seed: The synthetic person and device.
    ///   - rate: Samples per second, from 1 to 10,000.
    ///   - batchSize: Samples per delivery (about a tenth of a second at 100 Hz).
    ///   - script: The activities to play.
    ///   - trigger: The trigger to answer; a new one by default.
    ///   - maximumLag: How far behind (in nanoseconds) the source may fall and still deliver
    ///     every sample in one large batch; beyond it, it skips to the present. One second by
    ///     default.
    public init(
        seed: UInt64 = 1, rate: Double = 100, batchSize: Int = 10, script: MotionScript = .demo,
        trigger: Trigger = Trigger(), maximumLag: Int64 = 1_000_000_000
    ) {
        precondition(rate.isFinite && (1...10_000).contains(rate), "the rate must lie in 1...10000 Hz")
        self.seed = seed
        self.rate = rate
        self.batchSize = max(1, batchSize)
        self.script = script
        self.trigger = trigger
        self.maximumLag = max(0, maximumLag)
        self.origin = monotonicNanoseconds()
    }

    /// What the source is, for logs and status lines.
    public var description: String {
        "synthetic demo motion at \(Int(rate)) Hz (rest, hand tremor, walking; shakes on request)"
    }

    /// Shakes the synthetic device; the same as `trigger.shake()`.
    ///
    /// - Returns: whether a stream was running to play the shake. When none is, the shake is
    ///   dropped, not saved for later: nobody would be listening for it now.
    @discardableResult
    public func shake() -> Bool { trigger.shake() }

    /// Starts playing the motion in real time, running `consumer` in the playing task with each batch;
    /// the stream ends only when iteration stops.
    public func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    > {
        let source = self
        return consumer.reports { deliver in
            let listener = source.trigger.register()
            defer { source.trigger.unregister(listener) }
            // Only cancellation ends playing: iteration stopped.
            try await source.play(listener: listener) { deliver(.samples($0)) }
        }
    }

    /// Generates and delivers batches until cancelled.
    private func play(listener: Int, deliver: ([Sample]) -> Void) async throws {
        var generator = MotionGenerator(seed: seed, rate: rate, script: script, startTimestamp: origin)
        let lastOfBatch = batchSize - 1
        generator.skip(to: monotonicNanoseconds())
        while true {
            let due = generator.timestamp(samplesAhead: lastOfBatch)
            try await Self.sleep(untilMonotonic: due)
            let now = monotonicNanoseconds()
            if now - due >= maximumLag {
                // Suspended or starved: pick up from now instead of flooding the consumer.
                generator.skip(to: now - (generator.timestamp(samplesAhead: lastOfBatch) - generator.nextTimestamp))
            }
            if let requested = trigger.takeRequest(listener) {
                generator.queueShake(notBefore: requested)
            }
            var batch: [Sample] = []
            batch.reserveCapacity(batchSize + 1)
            while generator.nextTimestamp <= now { batch.append(generator.next()) }
            deliver(batch)
        }
    }

    /// Sleeps until CLOCK_MONOTONIC reaches `deadline` (nanoseconds), never waking early.
    private static func sleep(untilMonotonic deadline: Int64) async throws {
        while true {
            let remaining = deadline - monotonicNanoseconds()
            if remaining <= 0 { return }
            try await Task.sleep(for: .nanoseconds(remaining))
        }
    }
}

extension DemoMotionSource {
    /// Shakes a ``DemoMotionSource`` from any task or thread: the handle the daemon keeps for
    /// the demo's Shake call.
    ///
    /// A shake goes to every stream of the source that is running when ``shake()`` is called,
    /// and starts at the first sample stamped at or after the call. Calls while a shake is
    /// still queued or playing on a stream add nothing to it (one long shake would be one
    /// event anyway). Calls while no stream runs are dropped.
    public final class Trigger: Sendable {
        private struct State {
            var nextListener = 0
            var listeners: Set<Int> = []
            /// The CLOCK_MONOTONIC time of the oldest request each listener has not taken yet.
            var requests: [Int: Int64] = [:]
        }

        private let state = Mutex(State())

        /// Creates a trigger with no stream listening.
        public init() {}

        /// Asks every running stream to play a shake.
        ///
        /// - Returns: whether any stream was running; when none was, the shake is dropped.
        @discardableResult
        public func shake() -> Bool {
            let now = monotonicNanoseconds()
            return state.withLock { state in
                for listener in state.listeners where state.requests[listener] == nil {
                    state.requests[listener] = now
                }
                return !state.listeners.isEmpty
            }
        }

        /// Asks every running stream to play a shake, waiting up to `timeout` for one to start when none
        /// runs yet: a stream that is starting (an app has just taken the context, or the daemon has just
        /// started again) plays it; when none starts in time, the shake is dropped.
        ///
        /// - Returns: whether a stream was running to play it.
        @discardableResult
        public func shake(within timeout: Duration) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while !shake() {
                guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return true
        }

        /// Whether a stream is running, so that ``shake()`` would be played.
        public var isListening: Bool { runningStreams > 0 }

        /// How many streams of the source are running now.
        public var runningStreams: Int {
            state.withLock { $0.listeners.count }
        }

        /// Registers a running stream and returns its identifier.
        func register() -> Int {
            state.withLock { state in
                let listener = state.nextListener
                state.nextListener += 1
                state.listeners.insert(listener)
                return listener
            }
        }

        /// Forgets a stream that stopped, with any request it had not taken.
        func unregister(_ listener: Int) {
            state.withLock { state in
                state.listeners.remove(listener)
                state.requests[listener] = nil
            }
        }

        /// The time of the request waiting for `listener`, if any, which is then taken.
        func takeRequest(_ listener: Int) -> Int64? {
            state.withLock { state in state.requests.removeValue(forKey: listener) }
        }
    }
}

