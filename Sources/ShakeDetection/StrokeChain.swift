/// One chain of strokes over one view of the motion: the part of ``ShakeDetector`` that finds where
/// a shake begins. The detector runs two of these over the same ``DeviceMotion`` (see there for how
/// they decide). Internal; its state is the detector's.
struct StrokeChain: Sendable {
    /// One stroke of the motion.
    struct Stroke: Sendable {
        var start: Int64
        var peak: Vector3
        var strength: Double
        /// Whether the sensor saturated during the stroke, so its strength is only a lower bound.
        var saturated = false
        /// ``StrokeChain/moments`` when the stroke began, so a chain's moments are one subtraction.
        var momentsAtStart = MotionMoments.zero

        static let none = Stroke(start: 0, peak: .zero, strength: 0)
    }

    /// Which motion the strokes are taken from.
    enum View: Sendable {
        /// The dynamic acceleration as it is, in three dimensions.
        case motion
        /// Only motion fresh from stillness, projected onto its ``PrincipalAxis``: a shake whose
        /// strokes wander in direction (a tumbling device, an arc). It needs one more reversal
        /// than ``motion``, and a stroke that dips and comes back the same way within a half
        /// cycle is one stroke, not two.
        case principalAxis
    }

    /// A chain that looks like a shake: where a shake begins.
    struct Match: Sendable {
        /// The shake as recognized so far.
        var event: ShakeEvent
        /// The chain's mean half cycle, in seconds: its rhythm.
        var halfCycle: Double
        /// The mean strength of the chain's strokes, in m/s²: its size.
        var strokeSize: Double
        /// Whether the chain began from stillness (and was judged by the relaxed rules for that).
        var fromStillness: Bool
        /// When the first stroke judged began, in nanoseconds.
        var firstStroke: Int64
        /// Whether the chain dies away from its strongest stroke (``StrokeChain/diesAway(closed:)``).
        var diesAway: Bool
        /// The rules the chain failed: none for a chain that looks like a shake; one for a near miss.
        var failed: ShakeRules = []
    }

    /// A stroke as the body's recent rhythm remembers it (``isBodyRhythm(first:line:halfCycle:size:)``).
    struct PastStroke: Sendable {
        var start: Int64
        var peak: Vector3
    }

    // Stored in the order a sample reads them, the small and hot first: a sample touches few cache lines.
    let view: View
    /// The stroke thresholds: in motion going on, and fresh from stillness (``configuration``'s).
    private var thresholds: (strict: Double, gentle: Double)
    /// Whether `principal` has taken in motion since it was last cleared.
    private var principalInUse = false
    /// Whether the stroke in progress, when it began, was too weak to complete a shake or not
    /// yet opposite the last stroke, so recognition is tried again as it grows.
    private var retryAsStrokeGrows = false
    /// The second moments of the motion integrated over time, over every sample after a stroke began until
    /// the chain is forgotten: a chain's are the difference between now and its first stroke (its mean
    /// square, and how much lies off its line).
    private var moments = MotionMoments.zero
    /// The stroke in progress, if the motion is above threshold now.
    private var current: Stroke?
    /// Time constant of the principal axis's window: about the length of a short shake.
    private static let principalAxisTimeConstant = 1.0
    private var principal = PrincipalAxis()
    /// The closed strokes of the current chain of reversals, newest last.
    private(set) var chain = Ring<8, Stroke>(filler: .none)
    /// Recent strokes, closed, newest last: for telling ongoing activity from a fresh shake, and the body's
    /// rhythm from a new one.
    private(set) var recent = Ring<16, PastStroke>(filler: PastStroke(start: 0, peak: .zero))
    /// The settings in force.
    private(set) var configuration: ShakeDetectorConfiguration

    init(configuration: ShakeDetectorConfiguration, view: View) {
        self.configuration = configuration
        self.view = view
        thresholds = (configuration.strokeThreshold, configuration.gentleThreshold)
    }

    mutating func reset() {
        self = StrokeChain(configuration: configuration, view: view)
    }

    /// Takes new settings and keeps what it saw: the strokes that came before still say what the body
    /// was doing.
    mutating func retune(_ configuration: ShakeDetectorConfiguration) {
        self.configuration = configuration
        thresholds = (configuration.strokeThreshold, configuration.gentleThreshold)
    }

    /// Forgets the chain and the stroke in progress: after a shake ended, its strokes start nothing new.
    mutating func clear() {
        chain.removeAll()
        current = nil
        retryAsStrokeGrows = false
    }

    /// Whether no stroke is under way and none is in the chain: a shake needs all its strokes from now.
    var isIdle: Bool { current == nil && chain.isEmpty }

    /// Takes in one sample of the device's motion and returns the chain when this sample makes it look like
    /// a shake. Whether it is the whole body moving is the device's to say (``DeviceMotion/isBodyMotion(_:)``).
    @inline(__always)
    mutating func advance(_ step: DeviceMotion.Step) -> Match? {
        // Most samples are not fresh from stillness: then the line's view has nothing to do, and no call.
        if view == .principalAxis, !step.fresh, !principalInUse, isIdle { return nil }
        // What every sample reads goes in registers; the rest of the step only where it is needed. A step
        // handed over whole goes through memory, and reading it back stalled each call (measured: the
        // first load took nearly half of the call's time).
        return follow(step, t: step.t, dt: step.dt, dynamic: step.dynamic, squared: step.squared, fresh: step.fresh)
    }

    /// ``advance(_:)``'s work.
    private mutating func follow(
        _ step: borrowing DeviceMotion.Step, t: Int64, dt: Double, dynamic: Vector3, squared stepSquared: Double,
        fresh: Bool
    ) -> Match? {
        var dynamic = dynamic
        let threshold = fresh ? thresholds.gentle : thresholds.strict
        let squared: Double
        // The moments serve a chain's stretch, from its first stroke on (a difference of two snapshots):
        // while none is under way the samples are part of no stretch, and need not be added.
        let idle = isIdle
        switch view {
        case .motion:
            squared = stepSquared
            if !idle { moments.add(dynamic, over: dt) }
        case .principalAxis:
            // The axis of the motion since it began from stillness; nothing else is seen here.
            guard fresh else {
                if principalInUse {
                    principal = PrincipalAxis()
                    principalInUse = false
                }
                // Nothing to see: a stroke in progress ends, and an idle chain has nothing to do.
                if isIdle { return nil }
                dynamic = .zero
                squared = 0
                break
            }
            principal.update(dynamic, weight: dt / (Self.principalAxisTimeConstant + dt))
            principalInUse = true
            dynamic = principal.project(dynamic)
            squared = dynamic.dot(dynamic)
            // On a line there is nothing off it: the squared strength (the trace) is all the gates use.
            if !idle { moments.xx += squared * dt }
        }
        // Below half the threshold nothing grows or turns back: a stroke in progress ends. Most samples
        // are here, and need no square root.
        let half = threshold * 0.5  // a multiplication: a division costs several times as much
        guard squared >= half * half else {
            if current != nil { closeCurrent() }
            dropStaleChain(at: t)
            return nil
        }
        let strength = squared.squareRoot()
        let saturated = step.isSaturated

        // The motion swings back past half the threshold: a reversal may complete a shake now.
        if let stroke = current, strength >= half, strength < threshold,
            dynamic.cosine(stroke.peak) < -0.5, chain.count + 2 >= configuration.reversals + 1
        {
            closeCurrent()
            let candidate = Stroke(start: t, peak: dynamic, strength: strength, saturated: saturated)
            return recognize(next: candidate, at: t, step: step)
        }

        if strength >= threshold {
            if var stroke = current, dynamic.dot(stroke.peak) > 0 {
                if strength > stroke.strength || (saturated && !stroke.saturated) {
                    if strength > stroke.strength {
                        stroke.peak = dynamic
                        stroke.strength = strength
                    }
                    stroke.saturated = stroke.saturated || saturated
                    current = stroke
                    if retryAsStrokeGrows, let match = recognize(next: stroke, at: t, step: step) { return match }
                }
            } else {
                if current != nil { closeCurrent() }
                var stroke = Stroke(start: t, peak: dynamic, strength: strength, saturated: saturated)
                stroke.momentsAtStart = moments
                current = stroke
                retryAsStrokeGrows = false
                if let match = recognize(next: stroke, at: t, step: step) { return match }
            }
        }
        dropStaleChain(at: t)
        return nil
    }

    /// Forgets a chain whose last stroke is too long ago for another to continue it, while none is under way.
    @inline(__always)
    private mutating func dropStaleChain(at t: Int64) {
        if current == nil, let last = chain.last, seconds(t - last.start) > 2 * configuration.halfPeriod.upperBound {
            chain.removeAll()
        }
    }

    // MARK: - Strokes and chains

    /// Seconds from nanoseconds, by a multiplication: a division costs several times as much.
    func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) * 1e-9 }

    /// Whether `next` reverses `previous` soon enough to continue a chain.
    private func reverses(_ previous: Stroke, _ next: Stroke) -> Bool {
        let gap = seconds(next.start - previous.start)
        return previous.peak.cosine(next.peak) < -0.5 && gap <= 2 * configuration.halfPeriod.upperBound
            && gap >= configuration.halfPeriod.lowerBound
    }

    /// Ends the stroke in progress and adds it to the chain, or starts a new chain with it.
    private mutating func closeCurrent() {
        guard let stroke = current else { return }
        current = nil
        recent.append(PastStroke(start: stroke.start, peak: stroke.peak))
        if let last = chain.last, !reverses(last, stroke) {
            if view == .principalAxis, last.peak.cosine(stroke.peak) > 0.5,
                seconds(stroke.start - last.start) <= configuration.halfPeriod.upperBound
            {
                // The same stroke again after a dip: one stroke, with the larger peak.
                if stroke.strength > last.strength {
                    chain.replaceLast(Stroke(start: last.start, peak: stroke.peak, strength: stroke.strength,
                        saturated: last.saturated || stroke.saturated))
                }
                return
            }
            chain.removeAll()
        }
        chain.append(stroke)
    }

    /// Decides whether the chain plus the stroke `next`, just begun, is a shake.
    private mutating func recognize(next: Stroke, at t: Int64, step: DeviceMotion.Step) -> Match? {
        guard let last = chain.last else { return nil }
        let fromStillness = step.beganFromStillness(chain[back: chain.count - 1].start)
        let turn = last.peak.cosine(next.peak)
        guard turn < -0.5 else {
            // A curved or elliptical stroke begins at right angles to the last one and turns to
            // meet it end to end as it grows. From stillness, where such shakes start, try again
            // as it grows; in ongoing motion (running swings the arm in arcs too), don't.
            if fromStillness, turn < 0.5 { retryAsStrokeGrows = true }
            return nil
        }
        let halfPeriod =
            fromStillness
            ? configuration.halfPeriod.lowerBound...max(
                configuration.halfPeriod.upperBound, configuration.freshHalfPeriodLimit)
            : configuration.halfPeriod
        guard seconds(next.start - last.start) <= 2 * halfPeriod.upperBound else { return nil }
        var strokesNeeded = configuration.reversals + 1
        let firstNeeded = chain[back: min(chain.count, strokesNeeded - 1) - 1]
        if isOngoingActivity(before: firstNeeded.start) { strokesNeeded += 1 }
        if view == .principalAxis { strokesNeeded += 1 }
        var closed = strokesNeeded - 1
        guard chain.count >= closed else { return nil }
        let zigzag = fromStillness ? configuration.freshZigzag : configuration.maximumZigzag
        // The stroke just begun must be a stroke of this chain, not the gravity estimate catching
        // up after strong strokes (which a gentle threshold would see): alike within `zigzag`.
        // While it is weaker, recognition is tried again as it grows.
        guard next.strength * 2 * zigzag >= last.strength else {
            retryAsStrokeGrows = true
            return nil
        }
        var found = shape(closed: closed, next: next, halfPeriod: halfPeriod, zigzag: zigzag)
        if found.failed.isEmpty, found.lopsided > configuration.lopsidedZigzag {
            // Strokes alternate strong and weak: a vertical shake, or gait. One more reversal.
            closed += 1
            guard chain.count >= closed else { return nil }
            found = shape(closed: closed, next: next, halfPeriod: halfPeriod, zigzag: zigzag)
        }
        var failed = found.failed

        // Slower than the shake band (only from stillness): a hand that shakes at under 2 Hz
        // moves the device a few centimetres; an arm or body swinging that slowly and that hard
        // sweeps further. Sweep = peak acceleration / (2π f)², f from the mean half cycle.
        let radiansPerSecond = Double.pi / found.halfCycle
        let sweep = found.peak / (radiansPerSecond * radiansPerSecond)
        if found.halfCycle > configuration.halfPeriod.upperBound, sweep > configuration.slowSweep {
            failed.insert(.init(.sweep))
        }
        // A hand that shakes moves the device a centimetre or more; a jiggle, a tap or a buzz moves
        // it millimetres. A saturated stroke was stronger than it reads, so its sweep is unknown.
        if sweep < configuration.shortestSweep, !isSaturated(closed: closed, next: next) { failed.insert(.init(.sweep)) }

        let first = chain[back: closed - 1]
        let line = Self.line(chain: chain, count: closed, first: first)
        var size = next.strength
        for i in 0..<closed { size += chain[back: i].strength }
        size /= Double(closed + 1)
        // The gates on a body's motion judge every chain in motion going on, a shake that began from
        // stillness and went on past the fresh window too: a body that set off from standing is a body.
        if !fromStillness || step.inMotionGoingOn(first.start) {
            let stretch = moments - first.momentsAtStart
            if isImpactTrain(stretch, since: first.start, peak: found.peak, at: t) { failed.insert(.init(.impacts)) }
            if isStride(stretch, line: line, halfCycle: found.halfCycle) { failed.insert(.init(.strides)) }
            if isBodyRhythm(first: first, line: line, halfCycle: found.halfCycle, size: size) {
                failed.insert(.init(.bodyRhythm))
            }
        }
        // Two rules or more failed: not close to a shake at all.
        guard failed.isEmpty || failed.single != nil else { return nil }
        let (axis, direction) = Self.dominantAxis(line: line, first: first)
        var onset = first.start
        for i in closed..<chain.count { onset = chain[back: i].start }
        let event = ShakeEvent(
            onset: onset, began: t, peak: found.peak, reversals: chain.count, axis: axis, direction: direction)
        return Match(
            event: event, halfCycle: found.halfCycle, strokeSize: size, fromStillness: fromStillness,
            firstStroke: first.start, diesAway: diesAway(closed: closed), failed: failed)
    }

    /// The line the strokes lie along: their peaks summed, each turned the way of the first.
    private static func line(chain: Ring<8, Stroke>, count: Int, first: Stroke) -> Vector3 {
        var line = Vector3.zero
        for i in 0..<count {
            let p = chain[back: i].peak
            line = line + (p.dot(first.peak) >= 0 ? p : -1 * p)
        }
        return line
    }

    /// The device axis a line lies along, and the direction of the first stroke on that axis.
    private static func dominantAxis(line: Vector3, first: Stroke) -> (Axis, AxisDirection) {
        let ax = abs(line.x)
        let ay = abs(line.y)
        let az = abs(line.z)
        let axis: Axis = ax >= ay && ax >= az ? .x : (ay >= az ? .y : .z)
        let component = axis == .x ? first.peak.x : (axis == .y ? first.peak.y : first.peak.z)
        return (axis, component >= 0 ? .positive : .negative)
    }
}
