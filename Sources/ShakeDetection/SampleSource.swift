/// What a sample source delivers.
public enum SourceEvent: Sendable, Equatable {
    /// Samples in time order. Sources deliver in batches so a consumer wakes a few times a
    /// second, not once per sample.
    case samples([Sample])
    /// The sensor went away (unplugged, driver unbound). The stream stays open and resumes
    /// with ``sensorReturned(_:)`` when it comes back.
    case sensorGone(reason: String)
    /// The sensor is (again) delivering; the text names it.
    case sensorReturned(String)
}

/// Anything that produces accelerometer samples: an IIO sensor, a trace file, a synthetic
/// generator. The daemon, the CLI and the tests all read through this one protocol.
///
/// A source opens its device when iteration starts and releases it when iteration stops
/// (the consuming task is cancelled or stops iterating), so nothing reads while nobody listens.
public protocol SampleSource: Sendable {
    /// What the source reads from, for logs and status lines.
    var description: String { get }
    /// Starts the source; the stream ends when the source runs out or fails.
    func events() -> AsyncThrowingStream<SourceEvent, any Error>
    /// Where a consumer of ``events()`` is best run (`withTaskExecutorPreference`): the source's own
    /// thread, when it has one, saves a thread hand-off a batch; nil for anywhere.
    var preferredExecutor: (any TaskExecutor)? { get }
}

extension SampleSource {
    /// No preference: the consumer runs on the global executor.
    public var preferredExecutor: (any TaskExecutor)? { nil }
}
