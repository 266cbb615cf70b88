import ShakeDetection
import ShakeLearning

/// How a replay answers each prompt.
public enum ReplayAnswers: String, Sendable, CaseIterable {
    /// From the trace's labels: Undo when the prompt came in a labelled shake or up to ``Score/grace``
    /// after its end, Cancel otherwise.
    case labels
    /// Undo to every prompt: a person who accepts everything.
    case undo
    /// Cancel to every prompt: a person who refuses everything.
    case cancel
}

/// A trace replayed through shaked's detector while a ``ShakeLearner`` learns from the answer to each
/// prompt, and the detector takes what it learned after each answer: what a person's own answers
/// would have done (issue 44).
public struct LearningReplay: Sendable {
    /// Every phase the detector reported, with the answer given to each ended shake.
    public var phases: [(phase: ShakePhase, answer: ShakeAnswer?)] = []
    /// The profile at the end.
    public var profile: ShakeProfile

    /// The shakes that ended (the prompts), in order.
    public var ended: [ShakeEvent] {
        phases.compactMap { if case .ended(let event) = $0.phase { event } else { nil } }
    }

    /// Replays the trace at `path` from `profile`, answering each prompt as `answers` says from `labels`
    /// (seconds on the trace's own axis; a shake the detector missed is not answered).
    public static func run(
        path: String, labels: [LabelledInterval], profile: ShakeProfile = ShakeProfile(),
        answers: ReplayAnswers = .labels, stream: SampleStream? = nil
    ) throws(TraceError) -> LearningReplay {
        var learner = ShakeLearner(profile: profile)
        var detector = ShakeDetector()
        detector.retune(learner.tuning())
        var replay = LearningReplay(profile: profile)
        var iterator = TraceReader(path: path).makeIterator()
        var delivered = stream?.filter()
        var origin: Int64?
        while let sample = try iterator.nextSample() {
            let first = origin ?? sample.timestamp
            origin = first
            if delivered?.admits(sample.timestamp) == false { continue }
            guard let phase = detector.advance(sample) else { continue }
            learner.saw(phase)
            guard case .ended(let event) = phase else {
                replay.phases.append((phase, nil))
                continue
            }
            let answer: ShakeAnswer
            switch answers {
            case .undo: answer = .undo
            case .cancel: answer = .cancel
            case .labels:
                let t = Double((event.ended ?? event.began) - first) / 1e9
                answer = labels.contains { $0.start <= t && t <= $0.end + Score.grace } ? .undo : .cancel
            }
            learner.answered(answer, to: event, passedOnRepeat: detector.passedOnRepeat)
            detector.retune(learner.tuning())
            replay.phases.append((phase, answer))
        }
        replay.profile = learner.profile
        return replay
    }
}

extension TraceRun {
    /// Scores shaked's detector on this trace as a person who answers `answers` would have taught it, from
    /// a fresh profile: a run holding the one detector, scored as ``scores()`` scores.
    public func learning(path: String, answers: ReplayAnswers = .labels, stream: SampleStream? = nil) throws(TraceError)
        -> TraceRun
    {
        let labelsAnswered = labels
        let replay = try LearningReplay.run(path: path, labels: labelsAnswered, answers: answers, stream: stream)
        var run = self
        run.events = [(kind: .shaked, events: replay.ended)]
        return run
    }
}
