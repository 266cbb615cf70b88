/// What a sample changed about a shake, as ``ShakeDetecting/advance(_:)`` reports it. A shake has two
/// phases, as UIKit's `motionBegan` and `motionEnded`: it **begins** when its strokes look like a
/// shake, and **ends** when the hand stops. Only an ended shake is acted on; between the two the
/// shake may come to nothing (**dropped**).
public enum ShakePhase: Sendable, Hashable {
    /// The strokes look like a shake: a candidate. Nothing is to be done yet.
    case began(ShakeEvent)
    /// The hand stopped: the shake to act on. Its ``ShakeEvent/ended`` is the sample that showed it.
    case ended(ShakeEvent)
    /// The candidate came to nothing, for the reason given, at the timestamp given (nanoseconds).
    case dropped(ShakeEvent, DropReason, at: Int64)
    /// A chain came close to a shake, and one rule stopped it (its ``ShakeEvent/began`` is when): no shake
    /// began. Told once per chain, and not while a shake is under way.
    case nearMiss(ShakeEvent, ShakeRule)

    /// The shake this phase is about.
    public var event: ShakeEvent {
        switch self {
        case .began(let event), .ended(let event), .dropped(let event, _, _), .nearMiss(let event, _): event
        }
    }

    /// When this phase came, in nanoseconds: when the shake began, ended, or was dropped.
    public var time: Int64 {
        switch self {
        case .began(let event), .nearMiss(let event, _): event.began
        case .ended(let event): event.ended ?? event.began
        case .dropped(_, _, let at): at
        }
    }
}

/// Why a shake that began never ended.
public enum DropReason: String, Sendable, Hashable, CaseIterable {
    /// The motion went on at the shake's size, no longer looking like a shake: a body keeps going
    /// (running, stairs, jumping), a hand stops.
    case keptGoing = "kept going"
    /// It stopped as soon as it began: no stroke of its size came after the one that made it a shake
    /// (a knock, or a heel strike ringing, make a few quick strokes and no more).
    case tooShort = "too short"
    /// The samples stopped or went back in time before the shake ended, so its end was not seen.
    case interrupted
    /// When the strokes stopped, the device lay turned far from where the hand held it before they began,
    /// and stayed so: a body that fell or lay down, not a hand that stopped (a hand brings the screen back).
    case postureChanged = "posture changed"
}
