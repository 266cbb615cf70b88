/// The checks on a chain's shape and the gates on whole-body motion, at recognition: kept apart
/// from the per-sample tracking in `StrokeChain.swift`. Each runs only when a chain would
/// be recognized and reads the state the detector keeps; none changes it.
extension StrokeChain {
    /// Checks the shape of the newest `closed` strokes of a chain followed by `next`: the mean
    /// half cycle within `halfPeriod`, an even rhythm, every other stroke on one line, and
    /// neighbouring strengths within `zigzag` of each other. Returns the strongest stroke, the
    /// largest neighbour ratio found and the mean half cycle, with the rules of the shape it failed.
    func shape(
        closed: Int, next: Stroke, halfPeriod: ClosedRange<Double>, zigzag: Double
    ) -> (peak: Double, lopsided: Double, halfCycle: Double, failed: ShakeRules) {
        // Half cycles between stroke starts, oldest first, ending with `next`.
        var total = 0.0
        var shortest = Double.infinity
        var longest = 0.0
        var peak = next.strength
        for i in 0..<closed {
            let later = i == 0 ? next : chain[back: i - 1]
            let earlier = chain[back: i]
            let half = seconds(later.start - earlier.start)
            total += half
            shortest = min(shortest, half)
            longest = max(longest, half)
            peak = max(peak, earlier.strength)
        }
        let mean = total / Double(closed)
        var failed: ShakeRules = []
        if !halfPeriod.contains(mean) { failed.insert(.init(.rhythm)) }
        if !(shortest > 0 && longest / shortest <= configuration.maximumRhythmRatio) { failed.insert(.init(.unevenRhythm)) }
        // Every other stroke on one line; neighbouring strengths alike.
        var lopsided = 1.0
        for i in 0..<(closed - 2) {
            let newer = chain[back: i]
            let middle = chain[back: i + 1]
            let older = chain[back: i + 2]
            if newer.peak.cosine(older.peak) < configuration.linearity { failed.insert(.init(.offLine)) }
            let neighbours = (newer.strength * older.strength).squareRoot()
            // A saturated stroke's strength is only a lower bound (clipping is lopsided: gravity
            // uses up part of the range one way and frees it the other), so it may look weaker
            // than it was; it cannot have been weaker than it looks.
            let weakerSaturated =
                middle.strength < neighbours ? middle.saturated : (newer.saturated || older.saturated)
            if weakerSaturated { continue }
            let ratio = max(middle.strength / neighbours, neighbours / middle.strength)
            if ratio > zigzag { failed.insert(.init(.unlikeStrokes)) }
            lopsided = max(lopsided, min(ratio, zigzag))
        }
        return (peak, lopsided, mean, failed)
    }

    /// Whether any of the newest `closed` strokes of the chain, or `next`, saturated the sensor.
    func isSaturated(closed: Int, next: Stroke) -> Bool {
        if next.saturated { return true }
        for i in 0..<closed where chain[back: i].saturated { return true }
        return false
    }

    /// Whether the chain dies away: its newest closed stroke is weaker than its strongest earlier one
    /// (one blow, then a free vibration ringing down; a hand that shakes keeps feeding the motion). A
    /// strongest stroke that saturated the sensor was stronger than it reads; one that did not must stand
    /// clear of the newest (1.15 times), as a damped vibration's swings do. For ``DeviceMotion/isBodyMotion(_:)``.
    func diesAway(closed: Int) -> Bool {
        var strongest = chain[back: 1]
        for i in 2..<closed where chain[back: i].strength > strongest.strength { strongest = chain[back: i] }
        let margin = strongest.saturated ? 1 : 1.15
        return chain[back: 0].strength * margin <= strongest.strength
    }

    /// Whether a chain in ongoing motion is a train of impacts (foot strikes, landings) rather than
    /// a hand's smooth back and forth: its strongest stroke stands more than
    /// ``ShakeDetectorConfiguration/impactCrest`` times above the root mean square of the motion
    /// from its first stroke until now. A shake is near a sine (crest √2, less when clipped); a
    /// foot strike is a short, sharp rise with a long, low phase between.
    func isImpactTrain(_ stretch: MotionMoments, since start: Int64, peak: Double, at t: Int64) -> Bool {
        let span = seconds(t - start)
        guard span > 0 else { return false }
        let meanSquare = stretch.energy / span
        return peak * peak > configuration.impactCrest * configuration.impactCrest * meanSquare
    }

    /// Whether a chain in ongoing motion is a body's strides rather than a hand's shake: slower than
    /// ``ShakeDetectorConfiguration/strideRate`` (a step rate) with more than
    /// ``ShakeDetectorConfiguration/strideSway`` of its motion (RMS) off its line for every unit on
    /// it. A foot strike pushes the body up and brakes it forwards at once, and the hips sway
    /// sideways from step to step; a hand drives the device back and forth along one line.
    func isStride(_ stretch: MotionMoments, line: Vector3, halfCycle: Double) -> Bool {
        guard view == .motion, halfCycle * 2 * configuration.strideRate > 1 else { return false }
        let length = line.length
        guard length > 0 else { return false }
        let along = stretch.energy(along: (1 / length) * line)
        let sway = configuration.strideSway
        return stretch.energy - along > sway * sway * along
    }

    /// Whether strokes were already happening in the window before `start`.
    func isOngoingActivity(before start: Int64) -> Bool {
        let windowStart = start - Int64(configuration.activityWindow * 1e9)
        var count = 0
        for i in 0..<recent.count {
            let s = recent[back: i].start
            if s >= windowStart && s < start { count += 1 }
        }
        return count >= configuration.activityStrokes
    }

    /// Whether a chain in ongoing motion only carries on the rhythm the body kept before it: in the
    /// ``ShakeDetectorConfiguration/rhythmMemory`` before its first stroke (from its first quarter on: for
    /// seconds), at least ``ShakeDetectorConfiguration/rhythmStrokes`` strokes came, as strong as the chain's and along its line,
    /// those of them one way along it at the chain's own cycle (a body's steps may pass the threshold only
    /// one way, at each landing), and they kept coming up to it. Nothing new began: the end of a flight of
    /// stairs is the same steps stopping. A hand's shake changes the rhythm, the strength or the line of
    /// what came before.
    func isBodyRhythm(first: Stroke, line: Vector3, halfCycle: Double, size: Double) -> Bool {
        let length = line.length
        guard view == .motion, configuration.rhythmStrokes > 0, length > 0, halfCycle > 0, size > 0 else { return false }
        let direction = (1 / length) * line
        let from = first.start - Int64(configuration.rhythmMemory * 1e9)
        var count = 0
        var latest = Int64.min
        var strength = 0.0
        var along = 0.0
        // Each way along the line: how many, the first and the last, and the longest wait between two (the
        // ring runs newest first).
        var forth = (count: 0, earliest: Int64.max, latest: Int64.min, gap: Int64(0))
        var back = (count: 0, earliest: Int64.max, latest: Int64.min, gap: Int64(0))
        for i in 0..<recent.count {
            let stroke = recent[back: i]
            guard stroke.start >= from, stroke.start < first.start else { continue }
            count += 1
            latest = max(latest, stroke.start)
            strength += stroke.peak.length
            let on = stroke.peak.dot(direction)
            along += abs(on)
            if on >= 0 {
                let gap = forth.count > 0 ? forth.earliest - stroke.start : 0
                forth = (forth.count + 1, stroke.start, max(forth.latest, stroke.start), max(forth.gap, gap))
            } else {
                let gap = back.count > 0 ? back.earliest - stroke.start : 0
                back = (back.count + 1, stroke.start, max(back.latest, stroke.start), max(back.gap, gap))
            }
        }
        guard count >= configuration.rhythmStrokes, strength > 0 else { return false }
        let way = forth.count >= back.count ? forth : back
        // A rhythm the body kept for seconds: evenly, from the first quarter of the memory on. (A hand whose
        // first strokes did not yet make a chain has strokes only just before it.)
        guard way.count >= 2, seconds(first.start - way.earliest) >= 0.75 * configuration.rhythmMemory else { return false }
        let cycle = seconds(way.latest - way.earliest) / Double(way.count - 1)
        // The strokes kept coming, evenly and up to the chain: no pause longer than a cycle and a half (a hand
        // that shook, stopped and shakes again is not keeping a rhythm).
        guard seconds(first.start - latest) <= 1.5 * cycle, seconds(way.gap) <= 1.5 * cycle else { return false }
        let alike = configuration.rhythmLikeness
        let pace = cycle / (2 * halfCycle)
        let samePace = pace >= 1 / alike && pace <= alike
        let strong = strength / Double(count) / size
        let sameStrength = strong >= 1 / alike && strong <= alike
        return samePace && sameStrength && along / strength >= configuration.linearity
    }
}
