import Foundation
import IIOSensors
import ShakeDetection
import Synchronization

/// Iterates a source's events in a task and keeps them, so a test can wait for what it expects.
final class EventRecorder: Sendable {
    private let events = Mutex<[SourceEvent]>([])
    private let failure = Mutex<(any Error)?>(nil)
    private let finished = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts iterating `source`.
    init(_ source: some SampleSource) {
        let stream = source.events()
        let handle = Task { [self] in
            do {
                for try await event in stream { events.withLock { $0.append(event) } }
            } catch {
                failure.withLock { $0 = error }
            }
            finished.store(true, ordering: .releasing)
        }
        task.withLock { $0 = handle }
    }

    /// Everything seen so far.
    var all: [SourceEvent] { events.withLock { $0 } }
    /// The samples seen so far.
    var samples: [Sample] {
        all.flatMap { event -> [Sample] in
            if case .samples(let batch) = event { return batch }
            return []
        }
    }
    /// The error that ended the stream, if any.
    var error: (any Error)? { failure.withLock { $0 } }
    /// Whether the stream ended.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Waits until `condition` holds for the events seen (or the stream ends, or time runs out).
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: ([SourceEvent]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            if isFinished { return condition(all) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(all)
    }

    /// Waits until at least `count` samples arrived.
    @discardableResult
    func waitForSamples(_ count: Int, timeout: Duration = .seconds(5)) async -> [Sample] {
        await wait(timeout: timeout) { events in
            events.reduce(0) { total, event in
                if case .samples(let batch) = event { return total + batch.count }
                return total
            } >= count
        }
        return samples
    }

    /// Stops iterating (the source then closes the device) and waits for the stream to end.
    func stop() async {
        task.withLock { $0?.cancel() }
        let deadline = ContinuousClock.now + .seconds(5)
        while !isFinished && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

extension SourceEvent {
    /// The text of a `sensorReturned`, if this is one.
    var returnedText: String? {
        if case .sensorReturned(let text) = self { return text }
        return nil
    }
    /// The reason of a `sensorGone`, if this is one.
    var goneReason: String? {
        if case .sensorGone(let reason) = self { return reason }
        return nil
    }
}
