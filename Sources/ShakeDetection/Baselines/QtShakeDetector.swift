/// Qt Sensors' `QtSensors.shake` recognizer (Qt 5, `qshakerecognizer.cpp`), as a baseline.
///
/// Counts "shakes": a change of more than 25 m/s² on any axis between consecutive samples.
/// The fourth change fires; afterwards 450 ms without a change re-arms it. Faithful to the
/// original, the count never decays before the first shake, so jolts minutes apart add up.
public struct QtShakeDetector: ShakeDetecting {
    private let threshold = 25.0
    private let shakesBeforeFiring = 3
    private let quietToRearm: Int64 = 450_000_000
    private var previous: Sample?
    private var count = 0
    private var shaking = false
    private var lastChange: Int64 = 0
    private var firstChange: Int64 = 0

    /// Creates the recognizer with Qt's constants.
    public init() {}

    public mutating func reset() {
        previous = nil
        count = 0
        shaking = false
    }

    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        defer { previous = sample }
        guard let prev = previous else { return nil }
        if shaking, sample.timestamp - lastChange >= quietToRearm {
            shaking = false
            count = 0
        }
        guard let change = QtChange(from: prev, to: sample, threshold: threshold) else { return nil }
        lastChange = sample.timestamp
        if count == 0 { firstChange = sample.timestamp }
        if !shaking && count >= shakesBeforeFiring {
            shaking = true
            count = 0
            return ShakeEvent(
                onset: firstChange, recognized: sample.timestamp, peak: change.delta,
                reversals: shakesBeforeFiring, axis: change.axis, direction: change.direction)
        }
        count += 1
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
}
