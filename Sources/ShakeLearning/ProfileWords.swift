import ShakeDetection

extension ShakeProfile {
    /// What was learned, in words for the person: "your shakes: about 3 Hz, strong, up and down; learned
    /// from 12 answers", and what it changed.
    public var summary: String {
        guard answers > 0 else { return "nothing learned yet: no prompt answered" }
        var lines: [String] = []
        if strength.count > 0 {
            var traits: [String] = []
            if rate.count > 0 { traits.append("about \(Int(rate.mean.rounded())) Hz") }
            traits.append(strength.mean < 18 ? "gentle" : strength.mean < 30 ? "firm" : "strong")
            if let axis = mainAxis { traits.append(axis) }
            if length.count > 0 { traits.append("\(Self.tenths(length.mean)) s long") }
            lines.append("your shakes: \(traits.joined(separator: ", "))")
        }
        lines.append("learned from \(answers) \(answers == 1 ? "answer" : "answers") (\(undone) undo, \(cancelled) cancel)")
        let tuning = ShakeTuning(profile: self)
        let medium = ShakeDetectorConfiguration(sensitivity: .medium)
        if tuning.configuration.strokeThreshold > medium.strokeThreshold {
            lines.append(
                "needs a firmer shake: strokes from \(Self.tenths(tuning.configuration.strokeThreshold)) m/s² "
                    + "(medium \(Self.tenths(medium.strokeThreshold)), low 18)")
        }
        for rule in ShakeRule.allCases where tuning.passingOnRepeat.contains(.init(rule)) {
            lines.append("a shake stopped by \"\(rule.rawValue)\" passes when you repeat it at once")
        }
        return lines.joined(separator: "; ")
    }

    /// The axis most of their shakes were along, in words, when one stands out.
    private var mainAxis: String? {
        let total = axes.reduce(0, +)
        guard total > 0, let top = axes.indices.max(by: { axes[$0] < axes[$1] }), 2 * axes[top] > total else {
            return nil
        }
        return ["side to side", "up and down", "toward and away from the screen"][top]
    }

    private static func tenths(_ value: Double) -> String {
        let t = Int((value * 10).rounded())
        return "\(t / 10).\(abs(t % 10))"
    }
}
