/// Qt Sensors' `QtSensors.shake` recognizer (Qt 5, `qshakerecognizer.cpp`), as a baseline.
///
/// Counts changes of more than 25 m/s² on any axis between consecutive readings (readings
/// that move less than 1 m/s² on every axis are skipped). With three counted, the next change
/// fires. After firing, further changes are counted again and, past three, each restarts a
/// 450 ms timer whose expiry re-arms the recognizer. Faithful to the original, the count
/// never decays before the first shake, so jolts minutes apart add up.
public struct QtShakeDetector: ShakeDetecting {
    private let threshold = 25.0
    private let numberOfShakes = 3
    private let timerTimeout: Int64 = 450_000_000
    private var previous: Sample?
    private var count = 0
    private var shaking = false
    /// When the re-arm timer expires, if it is running.
    private var timerDeadline: Int64?
    private var firstChange: Int64 = 0

    /// Creates the recognizer with Qt's constants.
    public init() {}

    public mutating func reset() {
        self = QtShakeDetector()
    }

    /// Fires at once: a shake ends as soon as it is recognized.
    public mutating func advance(_ sample: Sample) -> ShakePhase? { recognize(sample).map(ShakePhase.ended) }

    private mutating func recognize(_ sample: Sample) -> ShakeEvent? {
        if let deadline = timerDeadline, sample.timestamp >= deadline {
            // Qt's timeout(): the count and the shaking state start over.
            timerDeadline = nil
            count = 0
            shaking = false
        }
        defer { previous = sample }
        guard let prev = previous, !QtChange.isStill(prev, sample),
            let change = QtChange(from: prev, to: sample, threshold: threshold)
        else { return nil }
        if !shaking && count >= numberOfShakes {
            shaking = true
            count = 0
            return ShakeEvent(
                onset: firstChange, began: sample.timestamp, ended: sample.timestamp, peak: change.delta,
                reversals: numberOfShakes, axis: change.axis, direction: change.direction)
        }
        if count == 0 { firstChange = sample.timestamp }
        count += 1
        if count > numberOfShakes { timerDeadline = sample.timestamp + timerTimeout }
        return nil
    }
}

/// A per-axis jump between two consecutive samples, as Qt's recognizers count them.
struct QtChange {
    var axis: Axis
    var direction: AxisDirection
    var delta: Double

    /// The largest per-axis change if it exceeds the threshold, else nil.
    init?(from a: Sample, to b: Sample, threshold: Double) {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let dz = b.z - a.z
        let (axis, d): (Axis, Double) =
            abs(dx) >= abs(dy) && abs(dx) >= abs(dz) ? (.x, dx) : (abs(dy) >= abs(dz) ? (.y, dy) : (.z, dz))
        guard abs(d) > threshold else { return nil }
        self.axis = axis
        self.direction = d >= 0 ? .positive : .negative
        self.delta = abs(d)
    }

    /// Qt skips readings that moved less than 1 m/s² on every axis.
    static func isStill(_ a: Sample, _ b: Sample) -> Bool {
        abs(a.x - b.x) < 1 && abs(a.y - b.y) < 1 && abs(a.z - b.z) < 1
    }
}
