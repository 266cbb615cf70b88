import ShakeDetection

/// How readily shaked fires, as a person chooses it: learned from their answers, or a fixed level.
public enum SensitivityChoice: String, Codable, Sendable, CaseIterable {
    /// Learned from the answers, between the `medium` and `low` presets (the default).
    case automatic
    /// The `low` preset: a firm shake.
    case low
    /// The `medium` preset.
    case medium
    /// The `high` preset: a gentler shake.
    case high

    /// The fixed level, nil for ``automatic``.
    public var fixed: Sensitivity? {
        switch self {
        case .automatic: nil
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }
}

/// The detector's settings that a profile gives: the only way what was learned reaches the detector.
public struct ShakeTuning: Sendable, Hashable {
    /// The settings: the `medium` preset with its stroke thresholds moved toward `low`'s, never past.
    public var configuration: ShakeDetectorConfiguration
    /// The shape rules a repeated near miss passes (``ShakeDetector/passingOnRepeat``); never a body rule.
    public var passingOnRepeat: ShakeRules

    /// Cancels beyond the Undos that take the thresholds all the way to the `low` preset's.
    public static let cancelsToLow = 6.0

    /// The settings for `choice`, learned from `profile` when the choice is ``SensitivityChoice/automatic``.
    ///
    /// What moves, and how far:
    /// - **The stroke thresholds**, from `medium`'s toward `low`'s, as far as the Cancels outnumber the Undos
    ///   (all the way after ``cancelsToLow`` more), and never so far that the person's own shakes, by their
    ///   mean strength, would no longer pass. Undos alone never make it more eager than `medium`.
    /// - **A repeated near miss passes** for each shape rule that stopped at least one shake of theirs they
    ///   then repeated, and more often than such a pass was answered Cancel.
    ///
    /// Nothing else changes: the rules that guard against the body are those of the presets, for everyone.
    public init(profile: ShakeProfile, choice: SensitivityChoice = .automatic) {
        if let level = choice.fixed {
            configuration = ShakeDetectorConfiguration(sensitivity: level)
            passingOnRepeat = []
            return
        }
        let medium = ShakeDetectorConfiguration(sensitivity: .medium)
        let low = ShakeDetectorConfiguration(sensitivity: .low)
        var c = medium
        let excess = Double(profile.cancelled - profile.undone)
        var strictness = min(max(excess / Self.cancelsToLow, 0), 1)
        if profile.strength.count >= 3 {
            // Their own shakes must still make strokes: a stroke of a shake reaches about half its peak.
            let room = (0.5 * profile.strength.mean - medium.strokeThreshold) / (low.strokeThreshold - medium.strokeThreshold)
            strictness = min(strictness, max(room, 0))
        }
        c.strokeThreshold = medium.strokeThreshold + strictness * (low.strokeThreshold - medium.strokeThreshold)
        c.gentleThreshold = medium.gentleThreshold + strictness * (low.gentleThreshold - medium.gentleThreshold)
        configuration = c
        var rules: ShakeRules = []
        for rule in ShakeRule.allCases where !rule.guardsAgainstTheBody {
            let missed = profile.missed[rule.key] ?? 0
            if missed >= 1, missed > profile.refused[rule.key] ?? 0 { rules.insert(.init(rule)) }
        }
        passingOnRepeat = rules.subtracting(ShakeRules.body)
    }
}

extension ShakeDetector {
    /// Takes the settings `tuning` gives, keeping the motion seen so far.
    public mutating func retune(_ tuning: ShakeTuning) {
        retune(tuning.configuration, passingOnRepeat: tuning.passingOnRepeat)
    }
}
