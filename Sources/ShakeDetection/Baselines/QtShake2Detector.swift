/// Qt Sensors' `QtSensors.shake2` recognizer (`qshake2recognizer.cpp`), as a baseline.
///
/// Counts per-axis changes of more than 25 m/s² between consecutive samples, like
/// ``QtShakeDetector``, but each change must come within 250 ms of the one before, or the
/// count starts over. The fourth change fires and reports the direction of the first
/// (Qt's shakeLeft/Right/Up/Down).
public struct QtShake2Detector: ShakeDetecting {
    private let threshold = 25.0
    private let changesToFire = 4
    private let window: Int64 = 250_000_000
    private var previous: Sample?
    private var count = 0
    private var lastChange: Int64 = 0
    private var first: QtChange?
    private var firstTime: Int64 = 0

    /// Creates the recognizer with Qt's constants.
    public init() {}

    public mutating func reset() {
        previous = nil
        count = 0
        first = nil
    }

    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        defer { previous = sample }
        guard let prev = previous, let change = QtChange(from: prev, to: sample, threshold: threshold) else {
            return nil
        }
        if count > 0, sample.timestamp - lastChange > window { count = 0 }
        lastChange = sample.timestamp
        if count == 0 {
            first = change
            firstTime = sample.timestamp
        }
        count += 1
        guard count >= changesToFire, let head = first else { return nil }
        count = 0
        return ShakeEvent(
            onset: firstTime, recognized: sample.timestamp, peak: change.delta, reversals: changesToFire - 1,
            axis: head.axis, direction: head.direction)
    }
}
