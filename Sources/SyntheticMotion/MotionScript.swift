/// What the synthetic device is doing.
public enum Activity: String, Sendable, Hashable, CaseIterable {
    /// Lying on a table: gravity, a slight tilt, and sensor noise.
    case resting
    /// Held in the hand: physiological tremor at 8-12 Hz (about 0.1 m/s²), slow hand sway,
    /// and the orientation drifting by a few degrees.
    case holding
    /// Held in the hand while walking: a step bounce at 1.8-2 Hz (2-4 m/s²), sway at half the
    /// step rate, plus the tremor and drift of holding.
    case walking
}

/// One stretch of an activity in a ``MotionScript``.
public struct MotionPhase: Sendable, Hashable {
    /// What the device does during the phase.
    public var activity: Activity
    /// How long the phase lasts, in seconds.
    public var duration: Double

    /// Creates a phase of `duration` seconds.
    public init(_ activity: Activity, duration: Double) {
        self.activity = activity
        self.duration = duration
    }
}

/// The activities a ``MotionGenerator`` plays, in order and then again from the start.
///
/// Neighbouring phases cross-fade over ``transition`` seconds (an S-shaped fade, so neither
/// the orientation nor the motion jumps): picking the device up off the table takes that long.
public struct MotionScript: Sendable, Hashable {
    /// The phases, played in order and repeated.
    public let phases: [MotionPhase]
    /// Seconds over which one phase fades into the next, centred on their boundary.
    public let transition: Double

    /// Creates a script; `phases` must not be empty, and each phase must last at least `transition`.
    public init(_ phases: [MotionPhase], transition: Double = 2) {
        precondition(!phases.isEmpty, "a motion script needs at least one phase")
        precondition(transition >= 0 && transition.isFinite, "the transition must be a finite time of 0 s or more")
        for phase in phases {
            precondition(
                phase.duration.isFinite && phase.duration > 0 && phase.duration >= transition,
                "every phase must last at least the transition (\(transition) s)")
        }
        self.phases = phases
        self.transition = transition
    }

    /// What `--demo` plays: 6 s on the table, picked up and held for 10 s, 12 s of walking,
    /// held again for 8 s; 36 s in all, then again.
    public static let demo = MotionScript([
        MotionPhase(.resting, duration: 6),
        MotionPhase(.holding, duration: 10),
        MotionPhase(.walking, duration: 12),
        MotionPhase(.holding, duration: 8),
    ])

    /// One activity, without end.
    public static func only(_ activity: Activity) -> MotionScript {
        MotionScript([MotionPhase(activity, duration: 60)], transition: 0)
    }

    /// The length of one pass through every phase, in seconds.
    public var cycleDuration: Double { phases.reduce(0) { $0 + $1.duration } }

    /// The activity that dominates `seconds` after the start (at the very midpoint of a fade, either).
    public func activity(at seconds: Double) -> Activity {
        let weights = weights(at: seconds)
        return Activity.allCases.max { weights[$0] < weights[$1] } ?? phases[0].activity
    }

    /// How much each activity contributes `seconds` after the start; the weights add up to 1.
    func weights(at seconds: Double) -> ActivityWeights {
        let cycle = cycleDuration
        var position = seconds.truncatingRemainder(dividingBy: cycle)
        if position < 0 { position += cycle }
        var index = 0
        var start = 0.0
        while index < phases.count - 1 && position >= start + phases[index].duration {
            start += phases[index].duration
            index += 1
        }
        let phase = phases[index]
        var weights = ActivityWeights()
        let half = transition / 2
        let sinceStart = position - start
        let untilEnd = start + phase.duration - position
        if transition > 0 && untilEnd < half {
            let next = phases[(index + 1) % phases.count].activity
            let fade = smoothStep((half - untilEnd) / transition)
            weights[phase.activity] += 1 - fade
            weights[next] += fade
        } else if transition > 0 && sinceStart < half {
            let previous = phases[(index + phases.count - 1) % phases.count].activity
            let fade = smoothStep((half + sinceStart) / transition)
            weights[phase.activity] += fade
            weights[previous] += 1 - fade
        } else {
            weights[phase.activity] = 1
        }
        return weights
    }
}

/// The share of each activity in the motion at one moment.
struct ActivityWeights: Sendable, Hashable {
    var resting = 0.0
    var holding = 0.0
    var walking = 0.0

    subscript(activity: Activity) -> Double {
        get {
            switch activity {
            case .resting: resting
            case .holding: holding
            case .walking: walking
            }
        }
        set {
            switch activity {
            case .resting: resting = newValue
            case .holding: holding = newValue
            case .walking: walking = newValue
            }
        }
    }
}

/// An S-shaped step from 0 to 1 over [0, 1] with zero slope at both ends (3x² - 2x³).
func smoothStep(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}
