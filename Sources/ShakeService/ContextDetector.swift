import ShakeDetection
import Synchronization

/// The sensitivity of the current context's user, shared between the coordinator (which sets it)
/// and the sensor's detector (which reads it with each sample). nil: the configured sensitivity.
public final class SensitivitySignal: Sendable {
    private let raw = Atomic<UInt8>(0)

    /// Creates a signal at the configured sensitivity.
    public init() {}

    /// The sensitivity in force, or nil for the configured one.
    public var value: Sensitivity? {
        switch raw.load(ordering: .acquiring) {
        case 1: .low
        case 2: .medium
        case 3: .high
        default: nil
        }
    }

    func set(_ sensitivity: Sensitivity?) {
        let code: UInt8 =
            switch sensitivity {
            case nil: 0
            case .low: 1
            case .medium: 2
            case .high: 3
            }
        raw.store(code, ordering: .releasing)
    }
}

/// A detector that follows the current context's user: it makes a fresh inner detector whenever
/// the ``SensitivitySignal`` changes (another user's app took the context, or the user chose another
/// level), so a per-user sensitivity applies from the next sample on. One atomic load per sample.
///
/// Generic over the inner detector, which it holds in place: an existential would be a box, its
/// uniqueness checked at every sample, and each call a look-up of its witness table.
public struct ContextDetector<Inner: ShakeDetecting>: ShakeDetecting {
    private let signal: SensitivitySignal
    private let make: @Sendable (Sensitivity?) -> Inner
    private var sensitivity: Sensitivity?
    private var inner: Inner

    /// Creates a detector; `make` builds one for a user's sensitivity (nil: the configured one).
    public init(signal: SensitivitySignal, make: @escaping @Sendable (Sensitivity?) -> Inner) {
        self.signal = signal
        self.make = make
        sensitivity = signal.value
        inner = make(sensitivity)
    }

    /// The sensitivity the inner detector was made for.
    public var currentSensitivity: Sensitivity? { sensitivity }

    public mutating func advance(_ sample: Sample) -> ShakePhase? {
        let wanted = signal.value
        if wanted != sensitivity {
            sensitivity = wanted
            inner = make(wanted)
        }
        return inner.advance(sample)
    }

    public mutating func reset() { inner.reset() }

    public var isAtRest: Bool { inner.isAtRest }

    /// The inner detector's; one made anew for another sensitivity starts with no strokes, so it can
    /// recognize nothing sooner.
    public var quietHorizon: Int64 { inner.quietHorizon }
}
