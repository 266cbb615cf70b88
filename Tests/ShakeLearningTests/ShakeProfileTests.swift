import ShakeDetection
import ShakeLearning
import Testing

/// What the answers teach, one rule at a time: the profile stays small and bounded, and the settings it
/// gives stay between the presets with every rule against the body as it was.
struct ShakeProfileTests {
    static let second: Int64 = 1_000_000_000

    /// A shake of `peak` m/s² along `axis`, its first stroke at `onset` seconds, taking 0.5 s to look like one
    /// with 4 reversals (4 Hz), ended 1.2 s after its onset.
    static func shake(at onset: Double, peak: Double = 30, axis: Axis = .y) -> ShakeEvent {
        let t = Int64(onset * 1e9)
        return ShakeEvent(
            onset: t, began: t + second / 2, ended: t + 12 * second / 10, peak: peak, reversals: 4, axis: axis,
            direction: .positive)
    }

    @Test func anUndoTellsWhereTheShakesLie() {
        var learner = ShakeLearner()
        learner.answered(.undo, to: Self.shake(at: 1))
        learner.answered(.undo, to: Self.shake(at: 10, peak: 40))
        let p = learner.profile
        #expect(p.undone == 2 && p.cancelled == 0)
        #expect(abs(p.rate.mean - 4) < 1e-9)
        #expect(abs(p.strength.mean - 35) < 1e-9)
        #expect(abs(p.length.mean - 1.2) < 1e-9)
        #expect(p.axes == [0, 2, 0])
        #expect(p.summary.contains("about 4 Hz") && p.summary.contains("up and down"), "\(p.summary)")
        #expect(p.summary.contains("learned from 2 answers"), "\(p.summary)")
    }

    @Test func summariesFollowTheLatestShakesAndStayBounded() {
        var learner = ShakeLearner()
        for i in 0..<500 { learner.answered(.undo, to: Self.shake(at: Double(i) * 10, peak: i < 450 ? 20 : 50)) }
        #expect(learner.profile.strength.count == ShakeProfile.Summary.window)
        #expect(learner.profile.strength.mean > 45, "the last 50 shakes, all at 50 m/s², outweigh the 450 before")
    }

    /// A near miss of a shape rule followed within seconds by a shake answered Undo: a shake of theirs the rule
    /// missed. A near miss of a body rule teaches nothing, nor does one long before, nor one answered Cancel.
    @Test(arguments: ShakeRule.allCases)
    func aNearMissThenAnUndoIsAMissedShake(rule: ShakeRule) {
        var learner = ShakeLearner()
        learner.saw(.nearMiss(Self.shake(at: 1), rule))
        learner.answered(.undo, to: Self.shake(at: 3))
        #expect(learner.profile.missed[rule.key] == (rule.guardsAgainstTheBody ? nil : 1))
        let tuning = learner.tuning()
        #expect(tuning.passingOnRepeat.contains(.init(rule)) == !rule.guardsAgainstTheBody)
        #expect(tuning.passingOnRepeat.isDisjoint(with: ShakeRules.body))

        var late = ShakeLearner()
        late.saw(.nearMiss(Self.shake(at: 1), rule))
        late.answered(.undo, to: Self.shake(at: 7))
        #expect(late.profile.missed.isEmpty)

        var refused = ShakeLearner()
        refused.saw(.nearMiss(Self.shake(at: 1), rule))
        refused.answered(.cancel, to: Self.shake(at: 3))
        #expect(refused.profile.missed.isEmpty)
    }

    /// A pass on a repeat answered Cancel counts against its rule: once refused as often as confirmed, the
    /// rule no longer passes.
    @Test func aRefusedPassUnlearnsItsRule() {
        var learner = ShakeLearner()
        learner.saw(.nearMiss(Self.shake(at: 1), .offLine))
        learner.answered(.undo, to: Self.shake(at: 3))
        #expect(learner.tuning().passingOnRepeat == [.init(.offLine)])
        learner.answered(.cancel, to: Self.shake(at: 20), passedOnRepeat: .offLine)
        #expect(learner.tuning().passingOnRepeat.isEmpty)
    }

    /// Cancels move the stroke thresholds toward the low preset's, never past them; Undos alone never make it
    /// more eager than medium; and no setting but the two thresholds moves.
    @Test(arguments: [(0, 0), (0, 3), (0, 6), (0, 50), (5, 5), (50, 0), (2, 9)])
    func thresholdsStayBetweenThePresets(undone: Int, cancelled: Int) {
        var learner = ShakeLearner()
        for i in 0..<undone { learner.answered(.undo, to: Self.shake(at: Double(i) * 10, peak: 60)) }
        for i in 0..<cancelled { learner.answered(.cancel, to: Self.shake(at: Double(1000 + i * 10))) }
        let c = learner.tuning().configuration
        let low = ShakeDetectorConfiguration(sensitivity: .low)
        let medium = ShakeDetectorConfiguration(sensitivity: .medium)
        #expect((medium.strokeThreshold...low.strokeThreshold).contains(c.strokeThreshold))
        #expect((medium.gentleThreshold...low.gentleThreshold).contains(c.gentleThreshold))
        if cancelled <= undone { #expect(c == medium) }
        if cancelled - undone >= Int(ShakeTuning.cancelsToLow) {
            #expect(c.strokeThreshold == low.strokeThreshold)
        }
        var rest = c
        rest.strokeThreshold = medium.strokeThreshold
        rest.gentleThreshold = medium.gentleThreshold
        #expect(rest == medium, "only the stroke thresholds move")
        #expect((try? c.validate()) != nil)
    }

    /// Cancels never take the thresholds so high that the person's own shakes, by their strength, would fail.
    @Test func cancelsKeepThePersonsOwnShakes() {
        var learner = ShakeLearner()
        for i in 0..<5 { learner.answered(.undo, to: Self.shake(at: Double(i) * 10, peak: 30)) }
        for i in 0..<40 { learner.answered(.cancel, to: Self.shake(at: Double(100 + i * 10))) }
        #expect(learner.tuning().configuration.strokeThreshold <= 15 + 1e-9)
    }

    @Test(arguments: SensitivityChoice.allCases)
    func aFixedChoiceIsThePresetWhateverWasLearned(choice: SensitivityChoice) {
        var learner = ShakeLearner()
        learner.saw(.nearMiss(Self.shake(at: 1), .rhythm))
        learner.answered(.undo, to: Self.shake(at: 3))
        for i in 0..<20 { learner.answered(.cancel, to: Self.shake(at: Double(100 + i * 10))) }
        let tuning = learner.tuning(choice)
        guard let level = choice.fixed else { return }
        #expect(tuning.configuration == ShakeDetectorConfiguration(sensitivity: level))
        #expect(tuning.passingOnRepeat.isEmpty)
    }

    /// A profile read from a file is brought into range: counts capped, means that make no sense dropped,
    /// body rules and unknown keys left out, another version refused.
    @Test func aDamagedProfileIsCheckedFieldByField() {
        var p = ShakeProfile()
        p.undone = -4
        p.cancelled = Int.max
        p.rate.count = 7
        p.rate.mean = .nan
        p.strength.count = 1000
        p.strength.mean = 25
        p.axes = [1, 2]
        p.missed = ["strides": 9, "rhythm": 2, "nonsense": 1, "off-line": -3]
        let checked = p.checked()
        #expect(checked?.undone == 0)
        #expect(checked?.cancelled == ShakeProfile.countLimit)
        #expect(checked?.rate == ShakeProfile.Summary())
        #expect(checked?.strength.count == ShakeProfile.Summary.window)
        #expect(checked?.axes == [0, 0, 0])
        #expect(checked?.missed == ["rhythm": 2])
        p.version = 2
        #expect(p.checked() == nil)
    }

    @Test func nothingLearnedSaysSo() {
        #expect(ShakeProfile().summary == "nothing learned yet: no prompt answered")
        #expect(ShakeLearner().tuning().configuration == ShakeDetectorConfiguration(sensitivity: .medium))
    }
}
