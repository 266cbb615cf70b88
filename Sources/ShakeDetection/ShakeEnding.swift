/// A shake that began and has not ended: the part of ``ShakeDetector`` that waits for the hand to stop.
///
/// The rhythm has stopped when no stroke of the shake's size has come for a whole cycle of its own
/// rhythm: the motion stayed below ``ShakeDetectorConfiguration/endLevel`` of its strokes' mean
/// strength for ``ShakeDetectorConfiguration/endCycles`` of its half cycles (and at least
/// ``ShakeDetectorConfiguration/endQuietMinimum``). Each chain that still looks like a shake keeps it
/// going (and its size and rhythm up to date). It is dropped when motion goes on at its size for
/// ``ShakeDetectorConfiguration/candidateLife`` after the strokes last looked like a shake (a body
/// that keeps going), and when it stops as soon as it began, with no stroke of its size for
/// ``ShakeDetectorConfiguration/sustainCycles`` half cycles after (a knock, or a heel strike ringing,
/// which make a few quick strokes and no more; a hand that shakes goes on).
struct ShakeEnding: Sendable {
    /// What a sample did to the shake.
    enum Outcome: Sendable {
        /// Nothing decided yet.
        case goingOn
        /// The rhythm stopped: the shake as it ended.
        case ended(ShakeEvent)
        /// The motion kept going without looking like a shake.
        case keptGoing
        /// It stopped as soon as it began.
        case tooShort
    }

    /// The settings this part uses, from ``ShakeDetectorConfiguration``.
    struct Settings: Sendable {
        var endLevel: Double
        var endCycles: Double
        var endQuietMinimum: Double
        var candidateLife: Double
        var sustainCycles: Double

        init(_ c: ShakeDetectorConfiguration) {
            endLevel = c.endLevel
            endCycles = c.endCycles
            endQuietMinimum = c.endQuietMinimum
            candidateLife = c.candidateLife
            sustainCycles = c.sustainCycles
        }
    }

    /// The shake as it began, its peak and reversals kept up to date.
    private(set) var event: ShakeEvent
    /// The squared strength (m/s², squared) at or above which the motion is a stroke of the shake's size.
    private var level: Double
    /// How long the motion must stay below `level` for the rhythm to have stopped, in nanoseconds.
    private var quietNeeded: Int64
    /// The last sample at or above `level`.
    private var lastStroke: Int64
    /// When the strokes last looked like a shake.
    private var lastMatch: Int64
    /// The shake's latest mean half cycle, in seconds.
    private var halfCycle = 0.0

    init(_ match: StrokeChain.Match, settings: Settings) {
        event = match.event
        level = 0
        quietNeeded = 0
        lastStroke = match.event.recognized
        lastMatch = match.event.recognized
        goesOn(match, settings: settings)
    }

    /// The strokes still look like a shake, as `match` says: it keeps going, at its latest rhythm, and
    /// at the largest size it reached.
    mutating func goesOn(_ match: StrokeChain.Match, settings: Settings) {
        lastMatch = match.event.recognized
        let size = settings.endLevel * match.strokeSize
        level = max(level, size * size)
        let quiet = max(settings.endCycles * match.halfCycle, settings.endQuietMinimum)
        quietNeeded = Int64(quiet * 1e9)
        halfCycle = match.halfCycle
        event.peak = max(event.peak, match.event.peak)
        event.reversals = max(event.reversals, match.event.reversals)
    }

    /// Takes in one sample of the device's motion.
    mutating func advance(_ step: DeviceMotion.Step, settings: Settings) -> Outcome {
        if step.squared >= level {
            lastStroke = step.t
        } else if step.t - lastStroke >= quietNeeded {
            // Within a sample of it: at a low rate a stroke is seen a sample early or late.
            if Double(lastStroke - event.began) * 1e-9 + step.dt < settings.sustainCycles * halfCycle {
                return .tooShort
            }
            var ended = event
            ended.recognized = step.t
            return .ended(ended)
        }
        if Double(step.t - lastMatch) * 1e-9 > settings.candidateLife { return .keptGoing }
        return .goingOn
    }
}
