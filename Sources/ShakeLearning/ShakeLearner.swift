import ShakeDetection

/// A person's answer to a prompt.
public enum ShakeAnswer: String, Sendable, Hashable, CaseIterable {
    /// "That was my shake": the action was undone.
    case undo
    /// "That was not": the prompt was dismissed.
    case cancel
}

/// Learns a ``ShakeProfile`` from what the detector saw and how the person answered: a pure value type
/// with no clock and no I/O, as the detector is.
///
/// It remembers the last near miss the detector told of (only one a shape rule stopped: a near miss the
/// body's rules stopped is never the person's). When a shake answered Undo began within
/// ``missWindow`` after it, the near miss was a shake of theirs that the rule missed.
public struct ShakeLearner: Sendable {
    /// What was learned so far.
    public private(set) var profile: ShakeProfile
    /// The last near miss of a shape rule: the rule and when its chain began (ns).
    private var lastNearMiss: (rule: ShakeRule, began: Int64)?
    /// The shake under way as it began: its reversals then, over the time they took, are its rate (an ended
    /// shake's reversals count every stroke it went on for).
    private var lastBegan: ShakeEvent?
    /// How long after a near miss a shake answered Undo makes it a missed shake of theirs, in nanoseconds.
    public static let missWindow: Int64 = 5_000_000_000

    /// Starts from `profile` (an empty one learns from nothing).
    public init(profile: ShakeProfile = ShakeProfile()) {
        self.profile = profile
    }

    /// The detector's settings that what was learned gives for `choice`.
    public func tuning(_ choice: SensitivityChoice = .automatic) -> ShakeTuning {
        ShakeTuning(profile: profile, choice: choice)
    }

    /// Takes in a phase the detector reported.
    public mutating func saw(_ phase: ShakePhase) {
        switch phase {
        case .nearMiss(let event, let rule) where !rule.guardsAgainstTheBody: lastNearMiss = (rule, event.began)
        case .began(let event): lastBegan = event
        default: break
        }
    }

    /// Learns from the answer to the prompt for `shake` (an ended shake); `passedOnRepeat` is the rule it
    /// passed on a repeat, if it did (``ShakeDetector/passedOnRepeat``).
    public mutating func answered(_ answer: ShakeAnswer, to shake: ShakeEvent, passedOnRepeat: ShakeRule? = nil) {
        let limit = ShakeProfile.countLimit
        switch answer {
        case .undo:
            profile.undone = min(profile.undone + 1, limit)
            let began = lastBegan.flatMap { $0.onset == shake.onset ? $0 : nil } ?? shake
            let looked = Double(began.began - began.onset) * 1e-9
            if looked > 0 { profile.rate.add(Double(began.reversals) / (2 * looked)) }
            profile.strength.add(shake.peak)
            if let ended = shake.ended { profile.length.add(Double(ended - shake.onset) * 1e-9) }
            let axis = Axis.allCases.firstIndex(of: shake.axis) ?? 0
            profile.axes[axis] = min(profile.axes[axis] + 1, limit)
            if let rule = passedOnRepeat, !rule.guardsAgainstTheBody {
                profile.missed[rule.key, default: 0] = min((profile.missed[rule.key] ?? 0) + 1, limit)
            } else if let miss = lastNearMiss, miss.began < shake.onset, shake.onset - miss.began <= Self.missWindow {
                profile.missed[miss.rule.key, default: 0] = min((profile.missed[miss.rule.key] ?? 0) + 1, limit)
            }
        case .cancel:
            profile.cancelled = min(profile.cancelled + 1, limit)
            if let rule = passedOnRepeat, !rule.guardsAgainstTheBody {
                profile.refused[rule.key, default: 0] = min((profile.refused[rule.key] ?? 0) + 1, limit)
            }
        }
        lastNearMiss = nil
        lastBegan = nil
    }
}
