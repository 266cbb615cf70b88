import MonotonicClock
import ShakeDetection
import Synchronization
import SyntheticMotion
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The demo source in real time. Short runs; the checks are on counts, order and timestamps,
/// never on how long anything took, so a loaded machine cannot make them fail. (With the
/// CPU-bound tests running beside these, the reading task can wait seconds for a thread, so
/// the sources here never skip ahead: a late batch is a large one.)
struct DemoMotionSourceTests {
    static let noSkipping: Int64 = 3_600_000_000_000

    /// Reads batches until `count` samples in at least `minimumBatches` batches have come,
    /// checking each batch as it arrives.
    static func collect(_ source: DemoMotionSource, samples count: Int, minimumBatches: Int = 1) async throws
        -> [[Sample]]
    {
        var batches: [[Sample]] = []
        var total = 0
        for try await event in source.events() {
            guard case .samples(let batch) = event else {
                Issue.record("unexpected event \(event)")
                continue
            }
            let received = monotonicNanoseconds()
            #expect(batch.last.map { $0.timestamp <= received } ?? false, "no sample from the future")
            batches.append(batch)
            total += batch.count
            if total >= count && batches.count >= minimumBatches { break }
        }
        return batches
    }

    @Test(arguments: [(rate: 100.0, batchSize: 10), (50, 5), (200, 20)])
    func batchesOfAtLeastTheBatchSizeEvenlyStamped(rate: Double, batchSize: Int) async throws {
        let source = DemoMotionSource(
            seed: 5, rate: rate, batchSize: batchSize, script: .only(.resting), maximumLag: Self.noSkipping)
        let before = monotonicNanoseconds()
        let batches = try await Self.collect(source, samples: Int(rate * 0.8), minimumBatches: 3)
        let samples = batches.flatMap { $0 }
        #expect(batches.allSatisfy { $0.count >= batchSize }, "the consumer wakes once per batch, not per sample")
        #expect((samples.first?.timestamp ?? 0) >= before, "stamped on CLOCK_MONOTONIC from when reading began")
        let period = 1e9 / rate
        for (earlier, later) in zip(samples, samples.dropFirst()) {
            #expect(abs(Double(later.timestamp - earlier.timestamp) - period) <= 1)
        }
        #expect(samples.allSatisfy { abs($0.magnitude - standardGravity) < 2 })
    }

    /// A shake triggered from another task while reading is recognized by the real detector,
    /// from samples stamped after the request, within 0.8 s of sample time.
    @Test func aShakeFromAnotherTaskIsRecognized() async throws {
        let source = DemoMotionSource(seed: 9, script: .only(.holding), maximumLag: Self.noSkipping)
        let request = Mutex<(time: Int64, accepted: Bool)?>(nil)
        let shaker = Task {
            while !source.trigger.isListening { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(300))
            let time = monotonicNanoseconds()
            let accepted = source.shake()
            request.withLock { $0 = (time, accepted) }
        }
        var detector = ShakeDetector()
        var found: [ShakeEvent] = []
        for try await event in source.events() {
            guard case .samples(let batch) = event else { continue }
            found += batch.compactMap { detector.process($0) }
            // Read on until 1.5 s of motion after the request.
            if let asked = request.withLock({ $0 }), let last = batch.last, last.timestamp - asked.time > 1_500_000_000
            {
                break
            }
        }
        try await shaker.value
        let asked = try #require(request.withLock { $0 })
        #expect(asked.accepted, "a stream was running, so the shake was accepted")
        #expect(found.count == 1)
        if let event = found.first {
            #expect(event.onset >= asked.time, "no stroke before the shake was asked for")
            // The demo's shake lasts at most 0.79 s; it is answered when it ends, a cycle later.
            #expect(event.endedAt - asked.time <= 1_200_000_000)
        }
    }

    /// A shake asked for while no stream runs yet, waiting for one (as `io.shaked.Demo.Shake` does while
    /// the source starts: an app has just taken the context, or the daemon has just started again), is
    /// played once the stream starts, and recognized.
    @Test func aShakeAskedForJustBeforeTheStreamStartsIsPlayedWhenItStarts() async throws {
        let source = DemoMotionSource(seed: 9, script: .only(.holding), maximumLag: Self.noSkipping)
        #expect(!source.trigger.isListening)
        let asked = Task { await source.trigger.shake(within: .seconds(120)) }
        // The request is waiting; then the stream starts.
        try await Task.sleep(for: .milliseconds(200))
        var detector = ShakeDetector()
        var found: [ShakeEvent] = []
        var first: Int64?
        for try await event in source.events() {
            guard case .samples(let batch) = event else { continue }
            first = first ?? batch.first?.timestamp
            found += batch.compactMap { detector.process($0) }
            if let first, let last = batch.last, last.timestamp - first > 2_500_000_000 { break }
        }
        #expect(await asked.value, "a stream started, so the shake was played")
        #expect(found.count == 1, "\(found)")
        // A trigger that waits for nobody gives up, and nothing is played later.
        #expect(await !DemoMotionSource(seed: 2).trigger.shake(within: .milliseconds(50)))
    }

    /// With no stream running a shake is dropped, not saved for when reading starts.
    @Test func aShakeWithNoStreamRunningIsDropped() async throws {
        let source = DemoMotionSource(seed: 2, script: .only(.resting), maximumLag: Self.noSkipping)
        #expect(!source.trigger.isListening)
        #expect(!source.shake())

        _ = try await Self.collect(source, samples: 10)
        // Iteration stopped: the source stops listening (the reading task ends shortly after).
        let deadline = ContinuousClock.now + .seconds(120)
        while source.trigger.isListening && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!source.trigger.isListening)
        #expect(!source.shake())

        let batches = try await Self.collect(source, samples: 150)
        #expect(events(batches.flatMap { $0 }).isEmpty, "the dropped shakes were not played later")
    }

    /// Every running stream hears a shake; each plays it once.
    @Test func twoStreamsBothPlayTheShake() async throws {
        let source = DemoMotionSource(seed: 4, script: .only(.holding), maximumLag: Self.noSkipping)
        let requested = RequestTime()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var detector = ShakeDetector()
                    var found = 0
                    for try await event in source.events() {
                        guard case .samples(let batch) = event else { continue }
                        found += batch.compactMap { detector.process($0) }.count
                        // Read on until 1.5 s of motion after the request.
                        if let asked = requested.time.withLock({ $0 }), let last = batch.last,
                            last.timestamp - asked > 1_500_000_000
                        {
                            break
                        }
                    }
                    return found
                }
            }
            group.addTask {
                while source.trigger.runningStreams < 2 { try await Task.sleep(for: .milliseconds(10)) }
                try await Task.sleep(for: .milliseconds(200))
                let time = monotonicNanoseconds()
                let accepted = source.shake()
                requested.time.withLock { $0 = time }
                return accepted ? -1 : -2
            }
            var results: [Int] = []
            for try await count in group { results.append(count) }
            return results.sorted()
        }
        #expect(counts == [-1, 1, 1])
    }
}

/// When a shake was asked for, shared between the task asking and the tasks reading.
final class RequestTime: Sendable {
    let time = Mutex<Int64?>(nil)
}
