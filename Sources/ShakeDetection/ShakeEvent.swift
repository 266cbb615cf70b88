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

/// A recognized shake: begun (the strokes look like a shake) or ended (the hand stopped), as
/// ``ShakePhase`` says.
public struct ShakeEvent: Sendable, Hashable {
    /// When the shaking motion began, in nanoseconds on the samples' clock.
    public var onset: Int64
    /// The timestamp of the sample that completed recognition, in nanoseconds: for a shake that
    /// ended, the sample that showed the hand had stopped; for one that began, the sample that made
    /// its strokes a shake.
    public var recognized: Int64
    /// When the strokes first looked like a shake, in nanoseconds (UIKit's `motionBegan`): the same as
    /// ``recognized`` for a shake that has only begun, and for a detector that answers at once.
    public var began: Int64
    /// The largest dynamic acceleration (gravity removed) seen during the shake, in m/s².
    public var peak: Double
    /// How many times the motion reversed direction before recognition.
    public var reversals: Int
    /// The device axis closest to the line the device was shaken along.
    public var axis: Axis
    /// The direction of the first stroke along `axis`.
    public var direction: AxisDirection

    /// Creates an event; detectors build these, tests compare them.
    public init(
        onset: Int64, recognized: Int64, peak: Double, reversals: Int, axis: Axis, direction: AxisDirection,
        began: Int64? = nil
    ) {
        self.onset = onset
        self.recognized = recognized
        self.began = began ?? recognized
        self.peak = peak
        self.reversals = reversals
        self.axis = axis
        self.direction = direction
    }

    /// Recognition latency from the onset of the motion, in nanoseconds.
    public var latency: Int64 { recognized - onset }
}
