import ShakeDetection
import ShakeLearning
import SyntheticMotion
import Testing

/// Learning from answers on synthetic people and synthetic days: a person whose shake the fixed detector
/// misses is recognized once their answers showed it, and a person who accepts or refuses every prompt in
/// daily life gets no more prompts than without learning.
struct LearningPropertyTests {
    /// One person's detector and what it learned, fed a stream, answering each prompt.
    struct Person {
        var detector = ShakeDetector()
        var learner = ShakeLearner()
        /// Where the next stream fed starts, in nanoseconds.
        var clock: Int64 = 0

        init(learning: Bool) {
            self.learning = learning
        }

        let learning: Bool

        /// Feeds `samples` (timestamps from 0) after what came before, answering each prompt with `answer`;
        /// returns the prompts (shakes that ended), their times from the stream's start.
        mutating func feed(_ samples: [Sample], answer: (ShakeEvent) -> ShakeAnswer) -> [ShakeEvent] {
            var prompts: [ShakeEvent] = []
            let start = clock
            for sample in samples {
                var moved = sample
                moved.timestamp += start
                clock = moved.timestamp + 10_000_000
                guard let phase = detector.advance(moved) else { continue }
                guard learning else {
                    if case .ended(let event) = phase { prompts.append(event) }
                    continue
                }
                learner.saw(phase)
                guard case .ended(let event) = phase else { continue }
                prompts.append(event)
                learner.answered(answer(event), to: event, passedOnRepeat: detector.passedOnRepeat)
                detector.retune(learner.tuning())
            }
            return prompts
        }
    }

    /// Person number `seed`, as ``HumanShakeTests`` draws them, their shake cut to at most 2.5 s (whole
    /// cycles) so that a repeat comes within seconds, held still `before` seconds first and `after` seconds after.
    static func person(_ seed: UInt64, before: Double = 2, after: Double = 0.5) -> HumanShake {
        var random = SeededRandom(seed: seed &* 0x2545_F491_4F6C_DD1D)
        var person = HumanShake.person(using: &random)
        let cycles = max(2, min(person.shake.halfCycles / 2, Int(2.5 * person.shake.frequency)))
        person.shake.halfCycles = 2 * cycles
        person.stillBefore = before
        person.stillAfter = after
        return person
    }

    static let range = 2 * standardGravity

    /// A shake the fixed detector recognizes: the one that, answered Undo, teaches what the near miss before it was.
    static let recognized: [Sample] = {
        for seed in UInt64(1)...50 {
            let samples = person(seed, before: 1.2, after: 1.5).samples(rate: 100, range: range)
            var detector = ShakeDetector()
            if samples.contains(where: { detector.process($0) != nil }) { return samples }
        }
        return []
    }()

    /// A person outside the fixed line: their shake slow and wide, 1.3-1.5 Hz and 10-13 cm either way (slower
    /// than ``HumanShake`` draws, where a hand's shake becomes an arm's swing), 3-4 cycles, from stillness.
    static func slowPerson(_ seed: UInt64, before: Double = 2, after: Double = 0.5) -> HumanShake {
        var person = person(seed, before: before, after: after)
        var random = SeededRandom(seed: seed &+ 0x5107)
        person.shake.frequency = random.uniform(1.3...1.5)
        person.shake.amplitude = 9
        person.shake.halfCycles = 2 * (3 + Int(random.unit() * 2))
        return person
    }

    /// People outside the line, whose shake the fixed detector stops by a shape rule (a near miss), are
    /// recognized when they repeat it at once, after one such miss was followed by a shake they answered Undo
    /// (bi-level thresholding: the second near miss of the learned rule in a row passes).
    @Test func peopleOutsideTheLineAreRecognizedAfterAnAnswer() throws {
        #expect(!Self.recognized.isEmpty)
        var outside = 0
        var learned = 0
        for seed in UInt64(1)...24 {
            let alone = Self.slowPerson(seed).samples(rate: 100, range: Self.range)
            var fixed = ShakeDetector()
            let phases = alone.compactMap { fixed.advance($0) }
            guard !phases.contains(where: { if case .ended = $0 { true } else { false } }),
                phases.contains(where: { if case .nearMiss(_, let rule) = $0 { !rule.guardsAgainstTheBody } else { false } })
            else { continue }
            outside += 1
            // Their shake missed, then a shake that was recognized, answered Undo.
            var person = Person(learning: true)
            _ = person.feed(alone) { _ in .undo }
            _ = person.feed(Self.recognized) { _ in .undo }
            #expect(!person.learner.profile.missed.isEmpty, "seed \(seed): \(person.learner.profile)")
            // Later: their shake, missed, and at once again.
            let attempt = Self.slowPerson(seed).samples(rate: 100, range: Self.range)
            let again = Self.slowPerson(seed, before: 0.3, after: 2).samples(rate: 100, range: Self.range)
            let prompts = person.feed(attempt) { _ in .undo } + person.feed(again) { _ in .undo }
            var unlearned = Person(learning: false)
            let before = unlearned.feed(attempt) { _ in .undo } + unlearned.feed(again) { _ in .undo }
            #expect(before.isEmpty, "seed \(seed): the fixed detector misses the repeat too")
            if prompts.count == 1 { learned += 1 }
            #expect(prompts.count <= 1, "seed \(seed): one prompt for a shake and its repeat, got \(prompts.count)")
        }
        print("outside the line: \(outside) of 24; recognized on a repeat after one answer: \(learned)")
        #expect(outside >= 8, "the property needs people outside the fixed line: \(outside)")
        // Measured: 9 of 12. The rest repeat too late (over 4 s after the first try began) or too short.
        #expect(learned * 3 >= outside * 2, "recognized after learning: \(learned) of \(outside)")
    }

    /// Everyday motion of one person: walking with the device in hand, then each everyday activity for a while.
    static func day(_ seed: UInt64) -> [[Sample]] {
        var walking = MotionGenerator(seed: seed, script: .only(.walking))
        return [walking.next(4000)]
            + EverydayActivity.allCases.enumerated().map { index, activity in
                let motion = EverydayMotion(activity, seed: seed &* 7 &+ UInt64(index))
                let seconds = motion.impactTime.map { $0 + 5 } ?? 40
                return motion.samples(seconds: seconds)
            }
    }

    /// A person outside the line who taught the detector their missed shakes, then goes about their day
    /// answering Undo to every prompt: walking, jumping, dancing, on stairs, falling. No more prompts in the day
    /// than without learning: the body's rules never relax, and Undos alone never make the detector more eager.
    @Test(arguments: UInt64(1)...3)
    func undoToEverythingTeachesNoFalseAlarms(seed: UInt64) {
        var fixed = Person(learning: false)
        var learning = Person(learning: true)
        // The first of the people drawn from `seed` on whose missed shake it learns.
        for candidate in (seed * 100)..<(seed * 100 + 20) where learning.learner.tuning().passingOnRepeat.isEmpty {
            _ = learning.feed(Self.slowPerson(candidate).samples(rate: 100, range: Self.range)) { _ in .undo }
            _ = learning.feed(Self.recognized) { _ in .undo }
        }
        var counts = (fixed: 0, learning: 0)
        for stretch in Self.day(seed) {
            counts.fixed += fixed.feed(stretch) { _ in .undo }.count
            counts.learning += learning.feed(stretch) { _ in .undo }.count
        }
        #expect(!learning.learner.tuning().passingOnRepeat.isEmpty, "seed \(seed): it learned a rule to pass")
        #expect(counts.learning <= counts.fixed, "seed \(seed): \(counts)")
    }

    /// A person who cancels every prompt, for shakes of all kinds that are not theirs (other people's, from
    /// the whole range), gets fewer prompts: the thresholds move toward the low preset's.
    @Test func cancelEverythingGetsFewerPrompts() {
        var fixed = Person(learning: false)
        var learning = Person(learning: true)
        var counts = (fixed: 0, learning: 0)
        for seed in UInt64(1)...30 {
            let samples = Self.person(seed, before: 1.5, after: 1.5).samples(rate: 100, range: 4 * standardGravity)
            counts.fixed += fixed.feed(samples) { _ in .cancel }.count
            counts.learning += learning.feed(samples) { _ in .cancel }.count
        }
        print("prompts for 30 shakes, cancelling every one: \(counts.fixed) without learning, \(counts.learning) with")
        #expect(counts.fixed >= 25)
        #expect(counts.learning < counts.fixed)
    }
}
