import Synchronization

/// How many samples the sensor has delivered: counted by the consumer on the reading thread, read
/// by status, with no lock and no hop between them.
public final class SampleCounter: Sendable {
    private let total = Atomic<Int>(0)

    /// Creates a counter at zero.
    public init() {}

    /// The samples counted so far.
    public var count: Int { total.load(ordering: .relaxed) }

    /// Counts `samples` more.
    func add(_ samples: Int) { total.add(samples, ordering: .relaxed) }
}
