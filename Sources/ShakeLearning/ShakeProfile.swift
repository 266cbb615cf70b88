import ShakeDetection

/// What shaked learned of one person's shakes from their answers: counts and a few bounded summaries,
/// small enough to read whole and to say in words (``summary``).
///
/// It holds no motion and no time of day: only how many prompts were answered each way, where the shakes
/// answered Undo lie (rate, strength, length, axis; running means over the latest ``ShakeProfile/Summary/window``),
/// and which shape rules stopped a shake of theirs that they then repeated. Rules that guard against the
/// body are never recorded (``ShakeRule/guardsAgainstTheBody``).
public struct ShakeProfile: Codable, Sendable, Hashable {
    /// The format written now; a file of another version is kept aside and learning starts over.
    public static let currentVersion = 1
    /// The most any count holds: enough to say "many", and a file that cannot grow.
    public static let countLimit = 10_000

    /// The format of this profile.
    public var version = ShakeProfile.currentVersion
    /// Prompts answered Undo: a shake of theirs.
    public var undone = 0
    /// Prompts answered Cancel: a motion that was not.
    public var cancelled = 0
    /// The rate of their shakes, in Hz (reversals over twice the time they took to look like a shake).
    public var rate = Summary()
    /// The strength of their shakes: the largest dynamic acceleration, in m/s².
    public var strength = Summary()
    /// How long their shakes last, from the first stroke to the hand stopping, in seconds.
    public var length = Summary()
    /// Their shakes along each device axis: x, y and z.
    public var axes = [0, 0, 0]
    /// Shakes of theirs that a shape rule stopped, by the rule's key (``ShakeRule/key``): a near miss
    /// followed within seconds by a shake answered Undo, or a shake let through on a repeat and answered Undo.
    public var missed: [String: Int] = [:]
    /// Shakes let through on a repeat (``ShakeDetector/passingOnRepeat``) and answered Cancel, by rule key.
    public var refused: [String: Int] = [:]

    /// An empty profile: nothing learned.
    public init() {}

    /// Prompts answered, either way.
    public var answers: Int { undone + cancelled }

    /// A running mean over the latest values, bounded in what it holds.
    public struct Summary: Codable, Sendable, Hashable {
        /// How many of the latest values the mean follows: older ones fade.
        public static let window = 20
        /// Values taken in, up to ``window``.
        public var count = 0
        /// Their mean.
        public var mean = 0.0

        /// An empty summary.
        public init() {}

        /// Takes in a value; one that is not finite is ignored.
        public mutating func add(_ value: Double) {
            guard value.isFinite else { return }
            count = min(count + 1, Self.window)
            mean += (value - mean) / Double(count)
        }
    }
}

extension ShakeProfile {
    /// The profile with every field brought into range, as read from a file that may have been edited or
    /// damaged: counts within 0...``countLimit``, means finite and within `range`, only the shape rules'
    /// keys, and none of the body's. Nil when the version is not ``currentVersion``.
    public func checked() -> ShakeProfile? {
        guard version == Self.currentVersion else { return nil }
        func count(_ n: Int) -> Int { min(max(n, 0), Self.countLimit) }
        func summary(_ s: Summary, _ range: ClosedRange<Double>) -> Summary {
            var out = Summary()
            guard s.count > 0, s.mean.isFinite, range.contains(s.mean) else { return out }
            out.count = min(s.count, Summary.window)
            out.mean = s.mean
            return out
        }
        func rules(_ table: [String: Int]) -> [String: Int] {
            var out: [String: Int] = [:]
            for rule in ShakeRule.allCases where !rule.guardsAgainstTheBody {
                if let n = table[rule.key], n > 0 { out[rule.key] = count(n) }
            }
            return out
        }
        var p = ShakeProfile()
        p.undone = count(undone)
        p.cancelled = count(cancelled)
        p.rate = summary(rate, 0.1...30)
        p.strength = summary(strength, 0...1000)
        p.length = summary(length, 0...60)
        p.axes = axes.count == 3 ? axes.map(count) : [0, 0, 0]
        p.missed = rules(missed)
        p.refused = rules(refused)
        return p
    }
}
