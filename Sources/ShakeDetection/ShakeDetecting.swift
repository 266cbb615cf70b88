/// A streaming shake detector: samples go in one at a time, the phases of shakes come out.
///
/// Implementations are value types with no clock and no I/O, so the same samples always give
/// the same events. Timestamps must not go backwards; a detector treats a long gap as a fresh
/// start.
public protocol ShakeDetecting: Sendable {
    /// Feeds one sample and returns what it changed: a shake began, ended (the event to act on) or was
    /// dropped; nil when nothing changed. A detector that answers at once reports only `ended`.
    mutating func advance(_ sample: Sample) -> ShakePhase?
    /// Feeds one sample and returns the shake it ended, if any: the event to act on. A requirement (with a
    /// default in terms of ``advance(_:)``), so that each detector's is compiled for it.
    mutating func process(_ sample: Sample) -> ShakeEvent?
    /// Forgets everything seen so far, as if newly created.
    mutating func reset()
    /// Whether the device has lain still for a while, as of the last sample: no shake is under way,
    /// and none can complete before the device moves again. A reader may then deliver samples less
    /// often; the events come out the same, only later. False when a detector cannot tell.
    var isAtRest: Bool { get }
    /// How long after the last sample no shake can be recognized, whatever the samples of that time
    /// hold (nanoseconds of the samples' own time); 0 when a detector cannot tell. A reader may
    /// then hold those samples back that long at no cost in latency.
    var quietHorizon: Int64 { get }
}

extension ShakeDetecting {
    /// ``advance(_:)``'s ended shake.
    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        if case .ended(let event)? = advance(sample) { return event }
        return nil
    }

    /// False: a detector that does not track stillness never lets its samples wait.
    public var isAtRest: Bool { false }
    /// 0: a detector that cannot tell lets no sample wait for it.
    public var quietHorizon: Int64 { 0 }
}

/// The detectors this package ships, by the names the command line uses.
public enum DetectorKind: String, Sendable, CaseIterable {
    /// shaked's own detector.
    case shaked
    /// Square's seismic `ShakeDetector` (Android), as a baseline.
    case seismic
    /// Qt Sensors' `QtSensors.shake` recognizer (Qt 5), as a baseline.
    case qtShake = "qt-shake"
    /// Qt Sensors' `QtSensors.shake2` recognizer, as a baseline.
    case qtShake2 = "qt-shake2"

    /// Makes a fresh detector of this kind at the given sensitivity; shaked's with `rules` turned off
    /// (``ShakeDetectorConfiguration/without(_:)``), the baselines have none.
    public func make(sensitivity: Sensitivity = .medium, without rules: [ShakeRule] = []) -> any ShakeDetecting {
        switch self {
        case .shaked: return ShakeDetector(configuration: ShakeDetectorConfiguration(sensitivity: sensitivity).without(rules))
        case .seismic: return SeismicDetector(sensitivity: sensitivity)
        case .qtShake: return QtShakeDetector()
        case .qtShake2: return QtShake2Detector()
        }
    }
}
