/// shaked's shake detector: a streaming, allocation-free value type.
///
/// A shake has two phases, as on iOS: it **begins** when the strokes look like a shake, and it
/// **ends** when the hand stops. Only the end is acted on: a body that runs, climbs or jumps keeps
/// going, a hand that shakes to undo stops, and then the person looks at the screen.
///
/// How a shake begins, in order:
/// 1. **Gravity** is estimated with a time-aware exponential low-pass filter and subtracted,
///    so no orientation is assumed (``DeviceMotion``, shared by both views below).
/// 2. **Strokes**: runs of samples whose dynamic acceleration exceeds the stroke threshold
///    while pointing the same way. Each stroke keeps its peak vector and start time.
/// 3. **Reversals**: consecutive strokes pointing opposite ways (cosine below -0.5) and
///    close in time form a chain.
/// 4. **Recognition** when the chain holds enough reversals and looks like a shake:
///    the mean half cycle lies in the shake band, every other stroke stays on one line,
///    stroke strengths are alike (not gait's impact and rebound), the rhythm is even, and,
///    when strokes were already going on before the chain began (walking, running), one more
///    reversal is needed. Nor is a chain that moves the device less than 7 mm (peak acceleration
///    over ω²) a shake, unless it saturated the sensor: a jiggle.
/// 5. **From stillness**: motion that begins after the device was held still (a person
///    looking at the screen) may be a gentle or a slow shake. For a short window its strokes
///    count from a lower threshold, slower rhythms count, and strokes may alternate strong and
///    weak (a hand shaking up and down works against gravity one way) at the price of one
///    more reversal.
/// 6. **Body motion** is not a shake: a chain near a free fall (a jump's flight, a drop), or
///    one after the device turned over (a body that fell onto its side, ringing on what it
///    landed on); in motion already going on, a train of impacts (its strongest stroke far
///    above the motion's RMS), a body's strides (slower than a hand shakes, and swaying far
///    off its line), or the rhythm the body already kept for seconds before the chain (the end of
///    a flight of stairs: the same steps, stopping).
/// 7. **A second view, for wandering strokes**: motion fresh from stillness is also projected
///    onto its principal axis over the last second (``PrincipalAxis``), and steps 2-6 run on
///    that line as well, with one more reversal needed. A device that tumbles or swings in an
///    arc while it is shaken turns its own frame stroke by stroke, so its strokes do not meet
///    end to end in three dimensions, yet go back and forth along one line on the whole.
///
/// How it ends (``ShakeEnding``): the rhythm stops. Once no stroke of the shake's size
/// (``ShakeDetectorConfiguration/endLevel`` of the largest mean strength its strokes reached) has come for
/// ``ShakeDetectorConfiguration/endHalfCycles`` half cycles of its own rhythm, the shake has ended. Each
/// stroke that still looks like a shake keeps it going, so continuous shaking ends once, when it stops.
/// When the motion goes on at the shake's size without looking like a shake for
/// ``ShakeDetectorConfiguration/lifeAfterLastMatch``, the shake is dropped: a body that keeps going. When the
/// device comes to rest turned from where the hand held it, and does not come back, it is dropped too: a
/// body that fell or lay down. After an end, the strokes seen so far start nothing new.
///
/// A chain that came close and was stopped by one rule is told once as a near miss
/// (``ShakePhase/nearMiss(_:_:)``), naming the ``ShakeRule``.
///
/// Each sample costs O(1) work and no allocation; the detector has no clock and no I/O.
public struct ShakeDetector: ShakeDetecting {
    // The hot state first, in the order a sample reads it.
    private var device: DeviceMotion
    /// The shake that began and has not ended, if any.
    private var shake: ShakeEnding?
    private let ending: ShakeEnding.Settings
    private var motion: StrokeChain
    private var principalAxis: StrokeChain
    /// The settings in force.
    public private(set) var configuration: ShakeDetectorConfiguration
    /// The shape rules a chain may fail and still begin a shake, when the chain just before it failed the
    /// same rule and nothing else (bi-level thresholding, Negulescu et al.: a person whose shake was refused
    /// shakes again). Empty unless what was learned of the person sets it (``retune(_:passingOnRepeat:)``);
    /// it never holds a rule that guards against the body.
    public private(set) var passingOnRepeat: ShakeRules = []
    /// The rule that let the shake under way, or the last one that ended, pass on a repeat; nil for a shake
    /// that passed every rule.
    public private(set) var passedOnRepeat: ShakeRule?

    /// Creates a detector with the given settings.
    public init(configuration: ShakeDetectorConfiguration = .init()) {
        self.configuration = configuration
        ending = ShakeEnding.Settings(configuration)
        device = DeviceMotion(configuration: configuration)
        motion = StrokeChain(configuration: configuration, view: .motion)
        principalAxis = StrokeChain(configuration: configuration, view: .principalAxis)
    }

    /// Takes new settings without forgetting the motion seen so far (gravity, stillness, the strokes before):
    /// what a person's answers taught, applied between shakes. Only the thresholds and the shape rules
    /// change; `passingOnRepeat` loses any rule that guards against the body.
    public mutating func retune(_ configuration: ShakeDetectorConfiguration, passingOnRepeat rules: ShakeRules = []) {
        self.configuration = configuration
        motion.retune(configuration)
        principalAxis.retune(configuration)
        passingOnRepeat = rules.subtracting(ShakeRules.body)
    }

    /// Creates a detector at a named sensitivity.
    public init(sensitivity: Sensitivity) {
        self.init(configuration: .init(sensitivity: sensitivity))
    }

    public mutating func reset() {
        device.reset()
        motion.reset()
        principalAxis.reset()
        shake = nil
        reportedNearMiss = .min
        lastNearMiss = nil
        passedOnRepeat = nil
        // (A phase already held is still delivered: it happened.)
    }

    /// Whether the motion has stayed below the calm level for the calm dwell, as of the last sample.
    public var isAtRest: Bool { device.isAtRest && shake == nil }

    /// How long after the last sample no shake can begin or end, whatever the samples hold (ns): 0
    /// while a shake is under way (it may end at any sample), or a stroke or a chain is (it may become
    /// one). Otherwise a shake needs ``ShakeDetectorConfiguration/reversals`` half cycles between strokes
    /// that all begin after the last sample, each no shorter than the shortest half cycle on average.
    public var quietHorizon: Int64 {
        guard shake == nil, held.isEmpty, motion.isIdle, principalAxis.isIdle else { return 0 }
        return Int64(Double(configuration.reversals) * configuration.halfPeriod.lowerBound * 1e9)
    }

    public mutating func advance(_ sample: Sample) -> ShakePhase? {
        guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { return held.next() }
        switch device.arrival(at: sample.timestamp) {
        case .next:
            break
        case .repeated:
            // The same instant read twice (a driver's timestamp quirk, a buffer handed over): nothing new.
            return held.next()
        case .restart:
            // Time went backwards or the stream stalled: start over from this sample.
            if let shake { held.add(.dropped(shake.event, .interrupted, at: sample.timestamp)) }
            reset()
        case .afterGap(let missing):
            // Samples lost on the way are filled in, so that strokes go on through the gap.
            fill(missing, before: sample)
        }
        if held.isEmpty { return take(sample) }
        return takeAfterHeld(sample)
    }

    /// ``take(_:)`` with phases held: this sample's phase waits its turn. Out of line, as ``fill(_:before:)``.
    @inline(never)
    private mutating func takeAfterHeld(_ sample: Sample) -> ShakePhase? {
        held.add(take(sample))
        return held.next()
    }

    /// Takes `missing` samples filled in before `sample`, holding their phases. Kept out of line: it runs
    /// only after a gap, and inlined it would make ``advance(_:)`` too large for the sample's own path to
    /// be inlined whole (measured: a fifth dearer per sample).
    @inline(never)
    private mutating func fill(_ missing: Int, before sample: Sample) {
        // Each the next of those left, evenly spaced from the one before.
        for left in stride(from: missing, to: 0, by: -1) {
            held.add(take(device.filling(1, of: left, toward: sample)))
        }
    }

    /// Phases that came from filled-in samples together with a real one, delivered one per sample in
    /// the order they came (two at most, in practice).
    private var held = HeldPhases()

    @inline(__always)
    private mutating func take(_ sample: Sample) -> ShakePhase? {
        guard let step = device.advance(sample) else { return nil }
        var match = motion.advance(step)
        if let seen = match { match!.failed.formUnion(device.bodyRules(seen)) }
        if var onLine = principalAxis.advance(step) {
            onLine.failed.formUnion(device.bodyRules(onLine))
            // A chain that looks like a shake on either view wins over a near miss on the other.
            if match.map({ !$0.failed.isEmpty }) ?? true, onLine.failed.isEmpty || match == nil { match = onLine }
        }
        // `shake` is tested and changed in place: bound to a local, the whole of it (its event and its posture)
        // would be copied out and back on every sample.
        guard shake != nil else {
            guard let match else { return nil }
            guard match.failed.isEmpty else { return nearMiss(match) }
            passedOnRepeat = nil
            lastNearMiss = nil
            shake = ShakeEnding(match, heldAs: heldAs(before: match), settings: ending)
            device.keepsFresh = match.fromStillness
            return .began(match.event)
        }
        // Within a shake, the rhythm that came before is the shake's own, and so is a rule its repeat passed: a
        // chain that fails only those keeps it going.
        if let match, match.failed.subtracting(shake!.passing).isEmpty { shake!.goesOn(match, settings: ending) }
        let outcome = shake!.advance(step, settings: ending)
        if case .goingOn = outcome { return nil }
        return finish(outcome, at: step.t)
    }

    /// The shake under way as `outcome` leaves it, once it ended or came to nothing. Out of line: it runs once
    /// a shake.
    @inline(never)
    private mutating func finish(_ outcome: ShakeEnding.Outcome, at time: Int64) -> ShakePhase? {
        guard let ongoing = shake else { return nil }
        if case .goingOn = outcome { return nil }
        shake = nil
        device.keepsFresh = false
        switch outcome {
        case .goingOn:
            return nil
        case .ended(let event):
            motion.clear()
            principalAxis.clear()
            return .ended(event)
        case .keptGoing:
            return .dropped(ongoing.event, .keptGoing, at: time)
        case .tooShort:
            return .dropped(ongoing.event, .tooShort, at: time)
        case .postureChanged:
            motion.clear()
            principalAxis.clear()
            return .dropped(ongoing.event, .postureChanged, at: time)
        }
    }

    /// Gravity as the device was held just before a chain's first stroke, when the detector saw that far back.
    private func heldAs(before match: StrokeChain.Match) -> Vector3? {
        device.orientation(before: match.firstStroke, by: configuration.postureLookback)
    }

    /// When the last near miss was told: a chain that began before it is the same chain grown, not told again.
    private var reportedNearMiss = Int64.min

    /// The last near miss told: its rule, when its chain began, and whether its motion began from stillness.
    private var lastNearMiss: (rule: ShakeRules, began: Int64, fromStillness: Bool)?
    /// How soon after a near miss a new chain must begin to be its repeat, in nanoseconds.
    private static let repeatWindow: Int64 = 4_000_000_000

    /// A chain that one rule stopped, told once (several rules stopping it is no near miss). A new chain
    /// that a rule in ``passingOnRepeat`` alone stopped, right after a near miss of the same rule whose motion
    /// began from a device held still, begins a shake instead: the person tried again.
    @inline(never)
    private mutating func nearMiss(_ match: StrokeChain.Match) -> ShakePhase? {
        guard let rule = match.failed.single, match.event.onset > reportedNearMiss else { return nil }
        if let last = lastNearMiss, last.rule == match.failed, last.fromStillness, passingOnRepeat.contains(last.rule),
            match.event.began - last.began <= Self.repeatWindow
        {
            lastNearMiss = nil
            passedOnRepeat = rule
            shake = ShakeEnding(match, heldAs: heldAs(before: match), settings: ending, passing: match.failed)
            device.keepsFresh = match.fromStillness
            return .began(match.event)
        }
        reportedNearMiss = match.event.began
        lastNearMiss = (match.failed, match.event.began, match.fromStillness)
        return .nearMiss(match.event, rule)
    }
}

/// A few phases waiting to be delivered, oldest first, without allocating.
struct HeldPhases {
    private var first: ShakePhase?
    private var second: ShakePhase?
    private var third: ShakePhase?

    var isEmpty: Bool { first == nil }

    /// Adds `phase` after those held; with all three slots taken the newest replaces the last (a fill
    /// can hold at most a shake that began and ended, after one already held).
    mutating func add(_ phase: ShakePhase?) {
        guard let phase else { return }
        if first == nil {
            first = phase
        } else if second == nil {
            second = phase
        } else {
            third = phase
        }
    }

    /// The oldest phase held, taken out.
    mutating func next() -> ShakePhase? {
        let oldest = first
        first = second
        second = third
        third = nil
        return oldest
    }
}
