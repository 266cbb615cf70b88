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
    /// Starts the source, running `consumer` with each event where the source produces it (see
    /// ``SampleConsumer``); the stream carries what the consumer reports, and ends when the source
    /// runs out or fails.
    func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    >
}

extension SampleSource {
    /// Starts the source; the stream carries every event, samples included, and ends when the source
    /// runs out or fails. Each batch then crosses to the iterating task: for tools, not for the daemon.
    public func events() -> AsyncThrowingStream<SourceEvent, any Error> { events(consumedBy: EveryEvent()) }
}
