/// Square's seismic `ShakeDetector` (Android), re-implemented as a baseline.
///
/// A sample "accelerates" when |a| *including gravity* exceeds a threshold. The detector keeps
/// the samples of the last 0.5 s (at least four) and fires when the window spans at least
/// 0.25 s and three quarters of its samples accelerate; then it clears its queue. It has no
/// cooldown and never removes gravity.
public struct SeismicDetector: ShakeDetecting {
    private struct Entry: Sendable {
        var timestamp: Int64
        var accelerating: Bool
        var magnitude: Double
        var sample: Sample
    }

    /// |a| above which a sample accelerates, in m/s² (seismic's light, medium, hard: 11, 13, 15).
    public let threshold: Double
    private let maximumWindow: Int64 = 500_000_000
    private let minimumWindow: Int64 = 250_000_000
    private let minimumQueue = 4
    private var queue = Ring<256, Entry>(
        filler: Entry(timestamp: 0, accelerating: false, magnitude: 0, sample: .init(timestamp: 0, x: 0, y: 0, z: 0)))
    private var accelerating = 0

    /// Creates the detector at a sensitivity: high is seismic's light (11), low its hard (15).
    public init(sensitivity: Sensitivity = .medium) {
        switch sensitivity {
        case .high: threshold = 11
        case .medium: threshold = 13
        case .low: threshold = 15
        }
    }

    public mutating func reset() {
        queue.removeAll()
        accelerating = 0
    }

    /// Fires at once: a shake ends as soon as it is recognized.
    public mutating func advance(_ sample: Sample) -> ShakePhase? { recognize(sample).map(ShakePhase.ended) }

    private mutating func recognize(_ sample: Sample) -> ShakeEvent? {
        let magnitude = sample.magnitude
        guard magnitude.isFinite else { return nil }
        let entry = Entry(
            timestamp: sample.timestamp, accelerating: magnitude > threshold, magnitude: magnitude, sample: sample)
        if queue.count == 256, queue[back: 255].accelerating { accelerating -= 1 }
        queue.append(entry)
        if entry.accelerating { accelerating += 1 }
        // Purge entries older than the window, keeping at least the minimum queue.
        while queue.count > minimumQueue, sample.timestamp - queue[back: queue.count - 1].timestamp > maximumWindow {
            if queue[back: queue.count - 1].accelerating { accelerating -= 1 }
            queue.dropOldest()
        }
        let span = sample.timestamp - queue[back: queue.count - 1].timestamp
        guard queue.count >= minimumQueue, span >= minimumWindow,
            accelerating >= (queue.count >> 1) + (queue.count >> 2)
        else { return nil }
        var peak = 0.0
        var first: Sample?
        for i in 0..<queue.count {
            let e = queue[back: i]
            peak = max(peak, e.magnitude)
            if e.accelerating { first = e.sample }
        }
        let onsetSample = first ?? sample
        let event = ShakeEvent(
            onset: onsetSample.timestamp, began: sample.timestamp, ended: sample.timestamp, peak: peak, reversals: 0,
            axis: .dominant(of: onsetSample), direction: .of(onsetSample))
        reset()
        return event
    }
}

extension Axis {
    /// The axis with the largest absolute component of a sample.
    static func dominant(of s: Sample) -> Axis {
        let ax = abs(s.x)
        let ay = abs(s.y)
        let az = abs(s.z)
        return ax >= ay && ax >= az ? .x : (ay >= az ? .y : .z)
    }
}

extension AxisDirection {
    /// The sign of a sample's largest component.
    static func of(_ s: Sample) -> AxisDirection {
        switch Axis.dominant(of: s) {
        case .x: return s.x >= 0 ? .positive : .negative
        case .y: return s.y >= 0 ? .positive : .negative
        case .z: return s.z >= 0 ? .positive : .negative
        }
    }
}
