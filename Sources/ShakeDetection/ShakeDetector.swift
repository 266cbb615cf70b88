/// shaked's shake detector: a streaming, allocation-free value type.
///
/// How it decides, in order:
/// 1. **Gravity** is estimated with a time-aware exponential low-pass filter and subtracted,
///    so no orientation is assumed.
/// 2. **Strokes**: runs of samples whose dynamic acceleration exceeds the stroke threshold
///    while pointing the same way. Each stroke keeps its peak vector and start time.
/// 3. **Reversals**: consecutive strokes pointing opposite ways (cosine below -0.5) and
///    close in time form a chain.
/// 4. **Recognition** when the chain holds enough reversals and looks like a shake:
///    the mean half cycle lies in the shake band, every other stroke stays on one line,
///    stroke strengths are alike (not gait's impact and rebound), the rhythm is even, and,
///    when strokes were already going on before the chain began (walking, running), one more
///    reversal is needed. So it is for a chain the detector could not watch the time before (it
///    began less than 2 s after the detector started) unless the device was seen held still since
///    the start, and such a chain is none when strokes came before it: a body was already moving
///    hard. Nor is a chain that moves the
///    device less than 7 mm (peak acceleration over ω²) unless it saturated the sensor: a jiggle.
/// 5. **From stillness**: motion that begins after the device was held still (a person
///    looking at the screen) may be a gentle or a slow shake. For a short window its strokes
///    count from a lower threshold, slower rhythms count, and strokes may alternate strong and
///    weak (a hand shaking up and down works against gravity one way) at the price of one
///    more reversal.
/// 6. **Body motion** is not a shake: a chain near a free fall (a jump's flight, a drop), or
///    one after the device turned over (a body that fell onto its side, ringing on what it
///    landed on); in motion already going on, a train of impacts (its strongest stroke far
///    above the motion's RMS) or a body's strides (slower than a hand shakes, and swaying far
///    off its line).
/// 7. **A second view, for wandering strokes**: motion fresh from stillness is also projected
///    onto its principal axis over the last second (``PrincipalAxis``), and steps 2-6 run on
///    that line as well, with one more reversal needed. A device that tumbles or swings in an
///    arc while it is shaken turns its own frame stroke by stroke, so its strokes do not meet
///    end to end in three dimensions, yet go back and forth along one line on the whole.
/// 8. **Hold-off**: after an event nothing fires until the motion settles (or a maximum
///    hold-off passes), so a shake gives one event, whichever view saw it first.
///
/// Each sample costs O(1) work and no allocation; the detector has no clock and no I/O.
public struct ShakeDetector: ShakeDetecting {
    /// The settings in force.
    public let configuration: ShakeDetectorConfiguration
    private var motion: StrokeChainDetector
    private var principalAxis: StrokeChainDetector

    /// Creates a detector with the given settings.
    public init(configuration: ShakeDetectorConfiguration = .init()) {
        self.configuration = configuration
        motion = StrokeChainDetector(configuration: configuration, view: .motion)
        principalAxis = StrokeChainDetector(configuration: configuration, view: .principalAxis)
    }

    /// Creates a detector at a named sensitivity.
    public init(sensitivity: Sensitivity) {
        self.init(configuration: .init(sensitivity: sensitivity))
    }

    public mutating func reset() {
        motion.reset()
        principalAxis.reset()
    }

    /// Whether the motion has stayed below the calm level for the calm dwell, as of the last sample.
    public var isAtRest: Bool { motion.isAtRest }

    /// The shorter of the two views' (see ``StrokeChainDetector/quietHorizon``).
    public var quietHorizon: Int64 { min(motion.quietHorizon, principalAxis.quietHorizon) }

    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        let seen = motion.process(sample)
        let seenOnLine = principalAxis.process(sample)
        guard let event = seen ?? seenOnLine else { return nil }
        motion.holdOff(firedAt: event.recognized)
        principalAxis.holdOff(firedAt: event.recognized)
        return event
    }
}
