/// What a ``SampleSource`` runs with each of its events, synchronously, on the thread that read them.
///
/// A source reads a batch of samples a few times a second, and a detector needs microseconds for it;
/// handing every batch to a task costs more than that (a stream's yield, a task switch, a thread woken).
/// So the source calls the consumer where it reads, and only what the consumer reports crosses into
/// Swift concurrency: rarely (a shake, the sensor going away or coming back). An accelerometer calls
/// it on its reading thread between two `poll(2)`s; a source that runs as a task calls it in that task.
///
/// `consume` must not block or wait: the source reads nothing while it runs.
public protocol SampleConsumer: Sendable {
    /// What the consumer passes on to the iterating task.
    associatedtype Report: Sendable

    /// Takes one event of the source (samples in time order, or the sensor's state) and calls `report`
    /// for each thing the iterating task must see, in order.
    mutating func consume(_ event: SourceEvent, report: (Report) -> Void)

    /// How long the source may hold the next samples back, as of the last event. A buffered source
    /// then wakes less often; it never drops a sample for it.
    var samplesCanWait: SampleWait { get }
}

extension SampleConsumer {
    /// `.no`: samples are delivered as soon as a batch is read.
    public var samplesCanWait: SampleWait { .no }
}

/// How long a source may hold a consumer's next samples back (``SampleConsumer/samplesCanWait``).
public enum SampleWait: Sendable, Equatable {
    /// Not at all: each batch is delivered as it is read.
    case no
    /// For `nanoseconds` of the samples' own time after the last one: nothing the consumer decides can
    /// come of them, whatever they hold (a detector with no stroke under way, see
    /// ``ShakeDetecting/quietHorizon``), so holding them back that long delays nothing.
    case eventFree(nanoseconds: Int64)
    /// A few hundred milliseconds: nothing is under way (a detector whose device lies still), so only
    /// what begins now is delayed, by at most that long.
    case resting
}

/// Passes every event on as it is: the consumer behind ``SampleSource/events()``, for tools that want
/// the samples themselves.
public struct EveryEvent: SampleConsumer {
    /// Creates the consumer.
    public init() {}

    /// Reports `event`.
    public func consume(_ event: SourceEvent, report: (SourceEvent) -> Void) { report(event) }
}

extension SampleConsumer {
    /// The reports of this consumer for a source that runs as a task: `produce` runs in a new task and
    /// hands each event to `deliver`, which runs the consumer at once, in that task.
    ///
    /// The stream ends when `produce` returns or is cancelled (dropping or cancelling the iteration
    /// cancels the task), and ends with the error `produce` throws otherwise.
    public func reports(
        from produce: @escaping @Sendable (_ deliver: (SourceEvent) -> Void) async throws -> Void
    ) -> AsyncThrowingStream<Report, any Error> {
        let consumer = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                var consumer = consumer
                do {
                    try await produce { event in consumer.consume(event) { continuation.yield($0) } }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
