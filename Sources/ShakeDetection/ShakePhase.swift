/// What a sample changed about a shake, as ``ShakeDetecting/advance(_:)`` reports it. A shake has two
/// phases, as UIKit's `motionBegan` and `motionEnded`: it **begins** when its strokes look like a
/// shake, and **ends** when the hand stops. Only an ended shake is acted on; between the two the
/// shake may come to nothing (**dropped**).
public enum ShakePhase: Sendable, Hashable {
    /// The strokes look like a shake: a candidate. Nothing is to be done yet.
    case began(ShakeEvent)
    /// The hand stopped: the shake to act on. Its ``ShakeEvent/recognized`` is the sample that showed it.
    case ended(ShakeEvent)
    /// The candidate came to nothing, for the reason given, at the timestamp given (nanoseconds).
    case dropped(ShakeEvent, DropReason, at: Int64)

    /// The shake this phase is about.
    public var event: ShakeEvent {
        switch self {
        case .began(let event), .ended(let event), .dropped(let event, _, _): event
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
}
