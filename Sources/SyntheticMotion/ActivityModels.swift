#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The motion of each ``Activity`` for one synthetic person and device.
///
/// Every trait (how steeply the phone is held, the tremor's frequency, the walking cadence)
/// is drawn once from the seed, within ranges from the physiology and gait literature:
/// physiological tremor is 8-12 Hz with accelerations around 0.1 m/s²; walking is 1.8-2
/// steps a second, a phone held in front of the body bouncing by 2-4 m/s² vertically and
/// swaying sideways at half the step rate. Neither comes near the 11 m/s² that even the
/// most sensitive detector setting calls a stroke.
struct ActivityModels: Sendable {
    /// Lying on a table that is not quite level.
    let table: Attitude
    /// Held in the hand, screen turned towards the face.
    let hand: Attitude
    /// Slow wandering of the hand's pitch and roll, in radians: a slow and a faster wave each.
    let pitchDrift: (Wave, Wave)
    let rollDrift: (Wave, Wave)
    /// Physiological tremor: one frequency, each axis with its own amplitude and phase.
    let tremor: Wave3
    /// The tremor's waxing and waning (relative depth).
    let tremorBeat: Wave
    /// Slow sway of the hand, in m/s².
    let handSway: Wave3
    /// Steps per second.
    let cadence: Double
    /// Cycle-to-cycle variation of the gait, as a slow phase wobble in radians.
    let cadenceWobble: Wave
    /// Vertical bounce in m/s², with its second harmonic (the heel strike) relative to it.
    let bounce: Double
    let heelStrike: Double
    let heelStrikePhase: Double
    /// Side-to-side sway at half the step rate, and fore-aft surge at the step rate, in m/s².
    let sway: Double
    let surge: Double
    let surgePhase: Double
    /// How much lower the phone is tilted while walking (radians), and how much it bobs per step.
    let walkingTilt: Double
    let walkingBob: Double

    /// Draws every trait from `random`.
    init(using random: inout SeededRandom) {
        let degree = Double.pi / 180
        table = Attitude(pitchDegrees: random.uniform(-1.5...1.5), rollDegrees: random.uniform(-1.5...1.5))
        hand = Attitude(pitchDegrees: random.uniform(35...60), rollDegrees: random.uniform(-8...8))
        pitchDrift = (
            Wave(amplitude: (3 * degree)...(7 * degree), frequency: 0.04...0.12, using: &random),
            Wave(amplitude: (1 * degree)...(2.5 * degree), frequency: 0.2...0.45, using: &random)
        )
        rollDrift = (
            Wave(amplitude: (2 * degree)...(5 * degree), frequency: 0.04...0.12, using: &random),
            Wave(amplitude: (0.5 * degree)...(2 * degree), frequency: 0.2...0.45, using: &random)
        )
        let tremorFrequency = random.uniform(8.5...11.5)
        var tremor = Wave3(amplitude: 0.04...0.14, frequency: tremorFrequency...tremorFrequency, using: &random)
        tremor.z.amplitude *= 0.5  // the hand trembles less along the screen's normal
        self.tremor = tremor
        tremorBeat = Wave(amplitude: 0.2...0.45, frequency: 0.15...0.5, using: &random)
        handSway = Wave3(amplitude: 0.08...0.25, frequency: 0.3...0.9, using: &random)
        cadence = random.uniform(1.8...2.0)
        cadenceWobble = Wave(amplitude: 0.2...0.5, frequency: 0.05...0.15, using: &random)
        bounce = random.uniform(1.8...2.6)
        heelStrike = random.uniform(0.25...0.45)
        heelStrikePhase = random.phase()
        sway = random.uniform(0.5...0.9)
        surge = random.uniform(0.6...1.0)
        surgePhase = random.phase()
        walkingTilt = random.uniform((6 * degree)...(12 * degree))
        walkingBob = random.uniform((1 * degree)...(2 * degree))
    }

    /// The gait's phase in radians: 2π per step, wobbling slowly.
    private func stepPhase(at t: Double) -> Double {
        2 * Double.pi * cadence * t + cadenceWobble.value(at: t)
    }

    /// The hand's own attitude at time `t`, drift included.
    private func handAttitude(at t: Double) -> Attitude {
        Attitude(
            pitch: hand.pitch + pitchDrift.0.value(at: t) + pitchDrift.1.value(at: t),
            roll: hand.roll + rollDrift.0.value(at: t) + rollDrift.1.value(at: t))
    }

    /// The attitude at time `t`, blended across the activities by `weights`.
    func attitude(_ weights: ActivityWeights, at t: Double) -> Attitude {
        var result = weights.resting * table
        if weights.holding > 0 || weights.walking > 0 {
            let held = handAttitude(at: t)
            result = result + weights.holding * held
            if weights.walking > 0 {
                let bob = walkingBob * sin(stepPhase(at: t))
                result = result + weights.walking * (held + Attitude(pitch: -walkingTilt + bob, roll: 0))
            }
        }
        return result
    }

    /// Acceleration beyond gravity at time `t`, in device axes (m/s²), blended by `weights`.
    func dynamic(_ weights: ActivityWeights, at t: Double, frame: WorldFrame) -> SIMD3<Double> {
        let inHand = weights.holding + weights.walking
        guard inHand > 0 else { return .zero }
        let trembling = (1 + tremorBeat.value(at: t)) * tremor.value(at: t)
        var result = inHand * (trembling + handSway.value(at: t))
        if weights.walking > 0 {
            let phase = stepPhase(at: t)
            let vertical = bounce * (sin(phase) + heelStrike * sin(2 * phase + heelStrikePhase))
            let lateral = sway * sin(phase / 2)
            let forward = surge * sin(phase + surgePhase)
            result += weights.walking * frame.device(vertical: vertical, lateral: lateral, forward: forward)
        }
        return result
    }
}
