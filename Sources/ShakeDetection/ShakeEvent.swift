/// A device axis, in the device's own frame.
public enum Axis: String, Sendable, Hashable, CaseIterable {
    case x, y, z
}

/// The sign of a direction along an axis.
public enum AxisDirection: String, Sendable, Hashable {
    /// Towards the positive end of the axis.
    case positive
    /// Towards the negative end of the axis.
    case negative
}

/// A shake the detector saw: as it began (the strokes look like a shake), and once the hand stopped, as
/// it ended; ``ShakePhase`` says which.
public struct ShakeEvent: Sendable, Hashable {
    /// When the shaking motion began (its first stroke), in nanoseconds on the samples' clock.
    public var onset: Int64
    /// When the strokes first looked like a shake, in nanoseconds (UIKit's `motionBegan`): the sample
    /// that made them a candidate. For a detector that answers at once, the same as ``ended``.
    public var began: Int64
    /// When the hand stopped, in nanoseconds (UIKit's `motionEnded`): the sample that showed the shake
    /// had ended. Nil while it has only begun, and in a shake that was dropped.
    public var ended: Int64?
    /// The largest dynamic acceleration (gravity removed) seen during the shake, in m/s².
    public var peak: Double
    /// How many times the motion reversed direction, as far as it was followed.
    public var reversals: Int
    /// The device axis closest to the line the device was shaken along.
    public var axis: Axis
    /// The direction of the first stroke along `axis`.
    public var direction: AxisDirection

    /// Creates an event; detectors build these, tests compare them. A detector that answers at once (the
    /// baselines) gives an event that began and ended at the same sample.
    public init(
        onset: Int64, began: Int64, ended: Int64? = nil, peak: Double, reversals: Int, axis: Axis,
        direction: AxisDirection
    ) {
        self.onset = onset
        self.began = began
        self.ended = ended
        self.peak = peak
        self.reversals = reversals
        self.axis = axis
        self.direction = direction
    }
}
