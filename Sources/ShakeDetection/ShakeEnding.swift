/// A shake that began and has not ended: the part of ``ShakeDetector`` that waits for the hand to stop.
///
/// The rhythm has stopped when no stroke of the shake's size has come for a whole cycle of its own
/// rhythm: the motion stayed below ``ShakeDetectorConfiguration/endLevel`` of its size (the largest mean
/// strength of its strokes while they looked like a shake) for ``ShakeDetectorConfiguration/endHalfCycles`` of its half cycles (and at least
/// ``ShakeDetectorConfiguration/endQuietMinimum``). Each chain that still looks like a shake keeps it
/// going (and its size and rhythm up to date). It is dropped when motion goes on at its size for
/// ``ShakeDetectorConfiguration/lifeAfterLastMatch`` after the strokes last looked like a shake (a body
/// that keeps going), and when it stops as soon as it began, with no stroke of its size for
/// ``ShakeDetectorConfiguration/sustainHalfCycles`` half cycles after (a knock, or a heel strike ringing,
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
        /// The device came to rest turned far from where the hand held it before: a body that fell or lay down.
        case postureChanged
    }

    /// The settings this part uses, from ``ShakeDetectorConfiguration``.
    struct Settings: Sendable {
        var endLevel: Double
        var endHalfCycles: Double
        var endQuietMinimum: Double
        var lifeAfterLastMatch: Double
        var sustainHalfCycles: Double
        var postureTurn: Double
        var postureWait: Int64
        var postureSpan: Int64

        init(_ c: ShakeDetectorConfiguration) {
            endLevel = c.endLevel
            endHalfCycles = c.endHalfCycles
            endQuietMinimum = c.endQuietMinimum
            lifeAfterLastMatch = c.lifeAfterLastMatch
            sustainHalfCycles = c.sustainHalfCycles
            postureTurn = c.postureTurn
            postureWait = DeviceMotion.Settings.nanoseconds(c.postureWait)
            postureSpan = DeviceMotion.Settings.nanoseconds(c.postureSpan)
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
    /// Gravity as the device was held before the shake began, when known.
    private let heldAs: Vector3?
    /// The acceleration read since the last stroke of the shake's size, summed over time (m/s² · s), and
    /// for how long: where gravity lies as the hand stops.
    private var stillSum = Vector3.zero
    private var stillSeconds = 0.0
    /// Since when the device lies turned from `heldAs` after the strokes stopped (``postureChanged``), and
    /// where gravity lies now (a short average).
    private var turnedSince: Int64?
    private var lying = Vector3.zero

    /// The rules a chain that carries the shake on may fail: the body's rhythm (the shake's own, by now), and
    /// the rule it passed on a repeat, if any.
    let passing: ShakeRules

    init(_ match: StrokeChain.Match, heldAs: Vector3?, settings: Settings, passing: ShakeRules = []) {
        self.passing = passing.union(.init(.bodyRhythm))
        event = match.event
        level = 0
        quietNeeded = 0
        lastStroke = match.event.began
        lastMatch = match.event.began
        self.heldAs = heldAs
        goesOn(match, settings: settings)
    }

    /// The strokes still look like a shake, as `match` says: it keeps going, at its latest rhythm, and
    /// at the largest size it reached.
    mutating func goesOn(_ match: StrokeChain.Match, settings: Settings) {
        lastMatch = match.event.began
        let size = settings.endLevel * match.strokeSize
        level = max(level, size * size)
        let quiet = max(settings.endHalfCycles * match.halfCycle, settings.endQuietMinimum)
        quietNeeded = Int64(quiet * 1e9)
        halfCycle = match.halfCycle
        event.peak = max(event.peak, match.event.peak)
        event.reversals = max(event.reversals, match.event.reversals)
    }

    /// Takes in one sample of the device's motion.
    mutating func advance(_ step: DeviceMotion.Step, settings: Settings) -> Outcome {
        if step.squared >= level {
            lastStroke = step.t
            stillSum = .zero
            stillSeconds = 0
            turnedSince = nil
        } else if let since = turnedSince {
            return settle(step, since: since, settings: settings)
        } else {
            stillSum = stillSum + step.dt * step.raw
            stillSeconds += step.dt
            if step.t - lastStroke >= quietNeeded {
                // Within a sample of it: at a low rate a stroke is seen a sample early or late.
                if Double(lastStroke - event.began) * 1e-9 + step.dt < settings.sustainHalfCycles * halfCycle {
                    return .tooShort
                }
                // A body falls or lies down in a second or two; after a longer shake, where it was held before says little.
                if let heldAs, stillSeconds > 0, step.t - event.onset <= settings.postureSpan,
                    heldAs.cosine(stillSum) < settings.postureTurn
                {
                    // Not where the hand held it: wait for the device to come back, or to lie there.
                    turnedSince = step.t
                    lying = (1 / stillSeconds) * stillSum
                    return .goingOn
                }
                return ended(at: step.t)
            }
        }
        if Double(step.t - lastMatch) * 1e-9 > settings.lifeAfterLastMatch { return .keptGoing }
        return .goingOn
    }

    private func ended(at t: Int64) -> Outcome {
        var ended = event
        ended.ended = t
        return .ended(ended)
    }

    /// After the strokes stopped with the device turned from where it was held: a hand brings it back
    /// within ``ShakeDetectorConfiguration/postureWait`` (the shake ends then); a body that fell or lay
    /// down stays turned.
    @inline(never)
    private mutating func settle(_ step: DeviceMotion.Step, since: Int64, settings: Settings) -> Outcome {
        // Where gravity lies now: an average over about a tenth of a second.
        let weight = min(1, step.dt / 0.1)
        lying = lying + weight * (step.raw - lying)
        if let heldAs, heldAs.cosine(lying) >= settings.postureTurn { return ended(at: step.t) }
        return step.t - since >= settings.postureWait ? .postureChanged : .goingOn
    }
}
