/// One chain of strokes over one view of the motion: the work of ``ShakeDetector``, which runs
/// two of these (see there for how they decide). Internal; its state is the detector's.
struct StrokeChainDetector: Sendable {
    /// One stroke of the motion.
    struct Stroke: Sendable {
        var start: Int64
        var peak: Vector3
        var strength: Double
        /// Whether the sensor saturated during the stroke, so its strength is only a lower bound.
        var saturated = false
        /// ``StrokeChainDetector/moments`` when the stroke began, so a chain's moments are one subtraction.
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

    /// The settings in force.
    let configuration: ShakeDetectorConfiguration
    let view: View
    /// Time constant of the principal axis's window: about the length of a short shake.
    private static let principalAxisTimeConstant = 1.0
    private var principal = PrincipalAxis()

    private(set) var gravity: Vector3?
    /// The last time step between samples, in seconds, and the gravity filter's coefficient for it.
    private var lastStep = (dt: 0.0, alpha: 0.0)
    private var lastTimestamp: Int64?
    /// Since when the motion has been below ``ShakeDetectorConfiguration/calmLevel``, while it is.
    private var quietSince: Int64?
    /// When the motion last began after the device had been held still.
    private var freshSince: Int64?
    /// Whether the stroke in progress, when it began, was too weak to complete a shake or not
    /// yet opposite the last stroke, so recognition is tried again as it grows.
    private var retryAsStrokeGrows = false
    /// The previous sample, for spotting a saturated sensor (the same large value twice).
    private var lastRaw = Vector3.zero
    /// The stroke in progress, if the motion is above threshold now.
    private var current: Stroke?
    /// The closed strokes of the current chain of reversals, newest last.
    private(set) var chain = Ring<8, Stroke>(filler: .none)
    /// Start times of recent strokes, for telling ongoing activity from a fresh shake.
    private(set) var recentStarts = Ring<16, Int64>(filler: 0)
    /// Set after an event: when it fired, and since when the motion has been quiet.
    private var holdoff: (fired: Int64, quietSince: Int64?)?
    /// Since when the total acceleration has been below the free-fall level, while it is.
    private var fallingSince: Int64?
    /// The latest sample of a free fall that lasted long enough to count.
    private(set) var lastFreeFall: Int64?
    /// The gravity estimate every ``Self.orientationStep`` nanoseconds, newest last, and when
    /// the newest was taken: two seconds of how the device was held.
    private(set) var orientations = Ring<8, Vector3>(filler: .zero)
    private(set) var lastOrientationAt: Int64 = 0
    /// The second moments of the motion integrated over time since the last reset: a chain's are the
    /// difference between now and its first stroke (its mean square, and how much lies off its line).
    private var moments = MotionMoments.zero
    /// Nanoseconds between entries of `orientations`.
    static let orientationStep: Int64 = 250_000_000
    /// The first sample since the detector began or was reset: before it, the past is unknown.
    private(set) var streamStart: Int64?
    /// When the device was first seen held still for ``ShakeDetectorConfiguration/stillnessSeen``
    /// since ``streamStart``.
    private(set) var stillSeenAt: Int64?

    init(configuration: ShakeDetectorConfiguration, view: View) {
        self.configuration = configuration
        self.view = view
    }

    mutating func reset() {
        gravity = nil
        principal = PrincipalAxis()
        lastTimestamp = nil
        quietSince = nil
        freshSince = nil
        streamStart = nil
        stillSeenAt = nil
        retryAsStrokeGrows = false
        current = nil
        chain.removeAll()
        recentStarts.removeAll()
        holdoff = nil
        fallingSince = nil
        lastFreeFall = nil
        orientations.removeAll()
        lastOrientationAt = 0
        moments = .zero
    }

    mutating func process(_ sample: Sample) -> ShakeEvent? {
        let t = sample.timestamp
        let raw = Vector3(sample)
        guard raw.x.isFinite, raw.y.isFinite, raw.z.isFinite else { return nil }
        if let last = lastTimestamp, t <= last || seconds(t - last) > configuration.gapReset {
            // Time went backwards or the stream stalled: start over from this sample.
            reset()
        }
        defer {
            lastTimestamp = t
            lastRaw = raw
        }
        guard let previous = lastTimestamp, let g = gravity else {
            streamStart = t
            gravity = raw
            orientations.append(raw)
            lastOrientationAt = t
            return nil
        }
        // Backward-Euler low-pass coefficient: exact enough for dt much below the time constant,
        // and needs no libm.
        let dt = seconds(t - previous)
        // A division is the dearest step of a sample; at a steady rate dt repeats, and so does alpha.
        if dt != lastStep.dt { lastStep = (dt, dt / (configuration.gravityTimeConstant + dt)) }
        let alpha = lastStep.alpha
        let newGravity = g + alpha * (raw - g)
        gravity = newGravity
        if t - lastOrientationAt >= Self.orientationStep {
            orientations.append(newGravity)
            lastOrientationAt = t
        }
        var dynamic = raw - newGravity
        let fresh = noteStillness(squared: dynamic.dot(dynamic), at: t)
        let threshold = fresh ? configuration.gentleThreshold : configuration.strokeThreshold
        if view == .principalAxis {
            // The axis of the motion since it began from stillness; nothing else is seen here.
            if fresh {
                principal.update(dynamic, weight: dt / (Self.principalAxisTimeConstant + dt))
                dynamic = principal.project(dynamic)
            } else {
                principal = PrincipalAxis()
                dynamic = .zero
            }
        }
        let strength = dynamic.length
        if view == .motion {
            moments.add(dynamic, over: dt)
        } else {
            // On a line there is nothing off it: the squared strength (the trace) is all the gates use.
            moments.xx += strength * strength * dt
        }
        noteFreeFall(raw, at: t)
        let saturated = strength >= threshold / 2 && isSaturated(raw)

        if var hold = holdoff {
            if strength < threshold {
                let since = hold.quietSince ?? t
                hold.quietSince = since
                if seconds(t - since) >= configuration.settleTime { rearm() } else { holdoff = hold }
            } else {
                hold.quietSince = nil
                holdoff = hold
            }
            if let hold = holdoff, seconds(t - hold.fired) >= configuration.maximumHoldoff { rearm() }
            return nil
        }

        // The motion swings back past half the threshold: a reversal may complete a shake now.
        if let stroke = current, strength >= threshold / 2, strength < threshold,
            dynamic.cosine(stroke.peak) < -0.5, chain.count + 2 >= configuration.reversals + 1
        {
            closeCurrent()
            let candidate = Stroke(start: t, peak: dynamic, strength: strength, saturated: saturated)
            if let event = recognize(next: candidate, at: t) { return event }
            return nil
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
                    if retryAsStrokeGrows, let event = recognize(next: stroke, at: t) { return event }
                }
            } else {
                if current != nil { closeCurrent() }
                var stroke = Stroke(start: t, peak: dynamic, strength: strength, saturated: saturated)
                stroke.momentsAtStart = moments
                current = stroke
                retryAsStrokeGrows = false
                recentStarts.append(t)
                if let event = recognize(next: stroke, at: t) { return event }
            }
        } else if strength < threshold / 2, current != nil {
            closeCurrent()
        }
        if current == nil, let last = chain.last, seconds(t - last.start) > 2 * configuration.halfPeriod.upperBound {
            chain.removeAll()
        }
        return nil
    }

    // MARK: - Strokes and chains

    /// Seconds from nanoseconds, by a multiplication: a division costs several times as much.
    func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) * 1e-9 }

    /// Whether the sensor is at its limit: an axis reads the same large value (over 1.5 g) as
    /// in the sample before, which a moving device only does when the converter is pinned.
    private func isSaturated(_ raw: Vector3) -> Bool {
        let level = 1.5 * 9.80665  // 1.5 g; a literal, since a global needs a lazy-initialisation check each call
        return (raw.x == lastRaw.x && abs(raw.x) > level) || (raw.y == lastRaw.y && abs(raw.y) > level)
            || (raw.z == lastRaw.z && abs(raw.z) > level)
    }

    /// Tracks whether the device was held still before the motion now going on (from the squared
    /// strength of the motion, which spares a square root), and returns whether that motion is
    /// still fresh from stillness.
    private mutating func noteStillness(squared strength: Double, at t: Int64) -> Bool {
        if strength >= configuration.calmLevel * configuration.calmLevel {
            if let since = quietSince, seconds(t - since) >= configuration.calmDwell { freshSince = t }
            quietSince = nil
        } else if let since = quietSince {
            if stillSeenAt == nil, seconds(t - since) >= configuration.stillnessSeen { stillSeenAt = t }
        } else {
            quietSince = t
        }
        guard let fresh = freshSince else { return false }
        return seconds(t - fresh) <= configuration.freshWindow
    }

    /// Whether the motion has stayed below the calm level for at least the calm dwell, as of the
    /// last sample. A stroke that could start a shake is above the calm level, so none is under way.
    var isAtRest: Bool {
        guard let since = quietSince, let last = lastTimestamp else { return false }
        return seconds(last - since) >= configuration.calmDwell
    }

    /// How long after the last sample no chain can be recognized (ns): with no stroke under way and
    /// none in the chain (or while holding off, whose re-arming empties the chain), a shake needs
    /// ``ShakeDetectorConfiguration/reversals`` half cycles between strokes that all begin after the
    /// last sample, on average no shorter than the shortest half cycle (``shape``). Otherwise 0.
    var quietHorizon: Int64 {
        guard holdoff != nil || (current == nil && chain.isEmpty) else { return 0 }
        return Int64(Double(configuration.reversals) * configuration.halfPeriod.lowerBound * 1e9)
    }

    /// Whether a chain whose oldest stroke began at `start` began from stillness: within the
    /// fresh window after the device was last held still. (A stroke starts above the calm
    /// level, so the first stroke of fresh motion starts no earlier than the motion.)
    private func beganFromStillness(_ start: Int64) -> Bool {
        guard let fresh = freshSince else { return false }
        return start >= fresh && seconds(start - fresh) <= configuration.freshWindow
    }

    /// Tracks free fall: the total acceleration near 0 g for at least the dwell time.
    private mutating func noteFreeFall(_ raw: Vector3, at t: Int64) {
        let level = configuration.freeFallLevel
        guard raw.dot(raw) < level * level else {
            fallingSince = nil
            return
        }
        let since = fallingSince ?? t
        fallingSince = since
        if seconds(t - since) >= configuration.freeFallDwell { lastFreeFall = t }
    }

    /// Holds off as after an event of its own, when the other view of the motion fired at `t`.
    mutating func holdOff(firedAt t: Int64) {
        if holdoff == nil { holdoff = (fired: t, quietSince: nil) }
    }

    private mutating func rearm() {
        holdoff = nil
        chain.removeAll()
        current = nil
    }

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
    private mutating func recognize(next: Stroke, at t: Int64) -> ShakeEvent? {
        guard let last = chain.last else { return nil }
        let fromStillness = beganFromStillness(chain[back: chain.count - 1].start)
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
        // Begun before the detector could see what came before, and never seen still: the motion may
        // have been going on all along, so one more reversal, as in ongoing activity; and when strokes
        // came before the chain even in what it did see, a body was already moving hard: not a shake.
        let chainStart = chain[back: chain.count - 1].start
        let unwatched = beganUnwatched(chainStart)
        if unwatched, hasStrokes(before: chainStart) { return nil }
        if unwatched || isOngoingActivity(before: firstNeeded.start) { strokesNeeded += 1 }
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
        guard var found = shape(closed: closed, next: next, halfPeriod: halfPeriod, zigzag: zigzag)
        else { return nil }
        if found.lopsided > configuration.lopsidedZigzag {
            // Strokes alternate strong and weak: a vertical shake, or gait. One more reversal.
            closed += 1
            guard chain.count >= closed,
                let longer = shape(closed: closed, next: next, halfPeriod: halfPeriod, zigzag: zigzag)
            else { return nil }
            found = longer
        }

        // Slower than the shake band (only from stillness): a hand that shakes at under 2 Hz
        // moves the device a few centimetres; an arm or body swinging that slowly and that hard
        // sweeps further. Sweep = peak acceleration / (2π f)², f from the mean half cycle.
        let radiansPerSecond = Double.pi / found.halfCycle
        let sweep = found.peak / (radiansPerSecond * radiansPerSecond)
        if found.halfCycle > configuration.halfPeriod.upperBound {
            guard sweep <= configuration.slowSweep else { return nil }
        }
        // A hand that shakes moves the device a centimetre or more; a jiggle, a tap or a buzz moves
        // it millimetres. A saturated stroke was stronger than it reads, so its sweep is unknown.
        if sweep < configuration.shortestSweep, !isSaturated(closed: closed, next: next) { return nil }

        let first = chain[back: closed - 1]
        guard !isBodyMotion(first: first, closed: closed) else { return nil }
        let line = Self.line(chain: chain, count: closed, first: first)
        if !fromStillness {
            let stretch = moments - first.momentsAtStart
            if isImpactTrain(stretch, since: first.start, peak: found.peak, at: t) { return nil }
            if isStride(stretch, line: line, halfCycle: found.halfCycle) { return nil }
        }
        let (axis, direction) = Self.dominantAxis(line: line, first: first)
        var onset = first.start
        for i in closed..<chain.count { onset = chain[back: i].start }
        holdoff = (fired: t, quietSince: nil)
        return ShakeEvent(
            onset: onset, recognized: t, peak: found.peak, reversals: chain.count, axis: axis, direction: direction)
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
