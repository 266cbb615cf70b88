/// The rows false alarms are reported in: the classes of an events file grouped into what a reader
/// recognizes. The swings and throws come first: they are the hardest negatives, the motion of a
/// phone waved about in conversation.
public enum GestureGroup: String, Sendable, Hashable, CaseIterable, Codable {
    /// Forehand Tennis, Backhand Tennis, Baseball Throw, Underhand Bowling.
    case swingsAndThrows
    /// At Rest.
    case rest
    /// The Midair letters: Clockwise O, Counter-clockwise O, S, Zorro Z.
    case midairLetters
    /// Custom: a gesture of the person's own, which may itself be a shake.
    case custom
    /// Any class not named above.
    case other
    /// A Shake clip: a second detection of a shake that already had its hit.
    case shakeRepeat

    /// The swings and throws, as the events files spell them.
    public static let swingsAndThrowsClasses: Set<String> = [
        "Forehand Tennis", "Backhand Tennis", "Baseball Throw", "Underhand Bowling",
    ]

    /// The group a clip's class belongs to. Mid-air letters are every class that starts with
    /// "Midair " (the corpus writes the letters as `_O_`, `_S_` and `_Z_`).
    public init(gesture: String) {
        switch gesture {
        case GestureClip.shake: self = .shakeRepeat
        case "At Rest": self = .rest
        case "Custom": self = .custom
        case _ where Self.swingsAndThrowsClasses.contains(gesture): self = .swingsAndThrows
        case _ where gesture.hasPrefix("Midair "): self = .midairLetters
        default: self = .other
        }
    }

    /// The row's name in a report.
    public var title: String {
        switch self {
        case .swingsAndThrows: "swings and throws"
        case .rest: "rest"
        case .midairLetters: "mid-air letters"
        case .custom: "custom"
        case .other: "other classes"
        case .shakeRepeat: "shake, detected again"
        }
    }
}

extension Dictionary where Key == String, Value == Int {
    /// Counts by class summed into counts by group, every group present (zero when none).
    func byGestureGroup() -> [GestureGroup: Int] {
        var groups = [GestureGroup: Int](uniqueKeysWithValues: GestureGroup.allCases.map { ($0, 0) })
        for (gesture, count) in self { groups[GestureGroup(gesture: gesture), default: 0] += count }
        return groups
    }
}
