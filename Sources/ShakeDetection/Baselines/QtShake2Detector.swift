/// Qt Sensors' `QtSensors.shake2` recognizer (Qt 5, `qshake2recognizer.cpp`), as a baseline.
///
/// Counts changes of more than 25 m/s² on any axis between consecutive readings, like
/// ``QtShakeDetector``. The third change starts a 250 ms timer (advanced by the readings'
/// own timestamps); a fourth change before it expires fires, and its expiry starts the
/// count over. Reports the direction of the first change (Qt's shakeLeft/Right/Up/Down).
public struct QtShake2Detector: ShakeDetecting {
    private let threshold = 25.0
    private let numberOfShakes = 3
    private let timerTimeout: Int64 = 250_000_000
    private var previous: Sample?
    private var count = 0
    private var shaking = false
    private var timerActive = false
    private var lapsed: Int64 = 0
    private var lastTimestamp: Int64?
    private var first: QtChange?
    private var firstTime: Int64 = 0

    /// Creates the recognizer with Qt's constants.
    public init() {}

    public mutating func reset() {
        self = QtShake2Detector()
    }

    /// Fires at once: a shake ends as soon as it is recognized.
    public mutating func advance(_ sample: Sample) -> ShakePhase? { recognize(sample).map(ShakePhase.ended) }

    private mutating func recognize(_ sample: Sample) -> ShakeEvent? {
        guard let prev = previous else {
            previous = sample
            return nil
        }
        previous = sample
        if QtChange.isStill(prev, sample) { return nil }
        let change = QtChange(from: prev, to: sample, threshold: threshold)
        var event: ShakeEvent?
        if !shaking, let change, count == numberOfShakes, let head = first {
            shaking = true
            count = 0
            lapsed = 0
            timerActive = false
            event = ShakeEvent(
                onset: firstTime, began: sample.timestamp, ended: sample.timestamp, peak: change.delta, reversals: numberOfShakes,
                axis: head.axis, direction: head.direction)
        } else if let change {
            if count == 0 {
                first = change
                firstTime = sample.timestamp
            }
            count += 1
            if count == numberOfShakes { timerActive = true }
        }
        if timerActive, let last = lastTimestamp { lapsed += sample.timestamp - last }
        lastTimestamp = sample.timestamp
        if timerActive && lapsed >= timerTimeout {
            // Qt's timeout(): everything starts over.
            count = 0
            shaking = false
            timerActive = false
            lapsed = 0
            lastTimestamp = nil
        }
        return event
    }
}
