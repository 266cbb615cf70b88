import ShakeDetection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pose of a body at one moment: what moves a phone in a trouser pocket.
struct BodyPose: Sendable {
    /// Specific force at the hip (acceleration minus gravity, so 1 g up when still), world axes, m/s².
    var hip: SIMD3<Double>
    /// Thigh raised forward, radians.
    var flexion: Double
    /// Thigh out sideways, radians.
    var abduction: Double = 0
    /// Hips turned about the vertical, radians.
    var yaw: Double = 0
    /// Body rolled about the forward axis (lying on the side at ±π/2), radians.
    var roll: Double = 0
}

/// One style of rhythmic jumping: the ground reaction on the body, cycle by cycle.
///
/// Each cycle is a contact phase (the feet on the ground: a half-sine push, plus a short
/// landing impact at its start) and a flight phase with no force at all: the body falls
/// freely, so a device it carries reads about 0 g. Over a cycle the push must carry the
/// body's weight, so its peak is set by the contact share: P = (g T - I τ / 2) π / (2 Tc).
/// The knees bend to take each landing and straighten to push off, so the thigh rises and
/// falls back during contact (a sine-squared swing) and stays put in flight, legs straight: the
/// pocket, a hand's width down the thigh, swings with it. Landings vary from cycle to cycle,
/// the depth of the knee bend slowly.
struct JumpStyle: Sendable {
    /// Jumps per second.
    var frequency: Double
    /// Share of each cycle on the ground.
    var duty: Double
    /// Landing impact at the thigh, m/s², and its length in seconds.
    var impact: Double
    var impactDuration: Double
    /// Thigh angle while standing, and how much more it is raised at mid-contact (radians).
    var baseFlexion: Double
    var kneeBend: Double
    /// Slow change in the depth of the knee bend (relative).
    var bendDrift: Wave
    /// Slow drift of the rhythm, radians of phase.
    var wobble: Wave
    /// Seed for the cycle-to-cycle variation.
    var cycleSeed: UInt64

    init(
        frequency: ClosedRange<Double>, duty: ClosedRange<Double>, impact: ClosedRange<Double>,
        kneeBendDegrees: ClosedRange<Double>, using random: inout SeededRandom
    ) {
        let degree = Double.pi / 180
        self.frequency = random.uniform(frequency)
        self.duty = random.uniform(duty)
        self.impact = random.uniform(impact) * standardGravity
        impactDuration = random.uniform(0.025...0.06)
        baseFlexion = random.uniform((0 * degree)...(10 * degree))
        kneeBend = random.uniform((kneeBendDegrees.lowerBound * degree)...(kneeBendDegrees.upperBound * degree))
        bendDrift = Wave(amplitude: 0.1...0.25, frequency: 0.05...0.2, using: &random)
        wobble = Wave(amplitude: 0.1...0.4, frequency: 0.05...0.2, using: &random)
        cycleSeed = random.next()
    }

    /// Cycles since the start, including the drift of the rhythm.
    func cycles(at t: Double) -> Double { frequency * t + wobble.value(at: t) / (2 * .pi) }

    /// The vertical specific force at the hip and the thigh's flexion at `t` seconds.
    func state(at t: Double) -> (vertical: Double, flexion: Double) {
        let phase = cycles(at: t)
        let cycle = phase.rounded(.down)
        let u = phase - cycle
        var random = SeededRandom(seed: cycleSeed &+ UInt64(bitPattern: Int64(cycle)) &* 0x9E37_79B9)
        let impact = self.impact * random.uniform(0.75...1.25)
        let bend = kneeBend * (1 + bendDrift.value(at: t))
        let swing = sin(.pi * min(u, duty) / duty)
        let flexion = baseFlexion + bend * swing * swing
        let period = 1 / frequency
        let contact = duty * period
        if u < duty {
            let push = (standardGravity * period - impact * impactDuration / 2) * .pi / (2 * contact)
            let time = u * period
            var vertical = push * sin(.pi * u / duty)
            if time < impactDuration {
                let s = sin(.pi * time / impactDuration)
                vertical += impact * s * s
            }
            return (vertical, flexion)
        }
        return (0, flexion)
    }
}

/// Rhythmic whole-body activities, the phone in a trouser pocket: jumping in place, skipping
/// rope, jumping jacks and dancing. All repeat at about 2 Hz with the hips going up and down,
/// along gravity.
struct RhythmicBodyMotion: Sendable {
    let activity: EverydayActivity
    let mount: PocketMount
    let style: JumpStyle
    /// Sideways sway of the hips, m/s².
    let sway: Wave
    /// Jumping jacks: how far each leg goes out (radians), and which side this leg is on.
    let spread: Double
    let side: Double
    /// Dancing: the beat's seed for choosing a move each bar, and the moves' sizes.
    let barSeed: UInt64
    let bounce: Double
    let swing: Double
    let twist: Double

    init(_ activity: EverydayActivity, using random: inout SeededRandom) {
        self.activity = activity
        mount = PocketMount(using: &random)
        switch activity {
        case .skippingRope:
            // Small, quick bounces on the balls of the feet, 110-170 turns of the rope a minute.
            style = JumpStyle(
                frequency: 1.8...2.8, duty: 0.45...0.65, impact: 0.3...1.0, kneeBendDegrees: 4...12, using: &random)
        case .jumpingJacks:
            // Two jumps per jack (out, in), 55-70 jacks a minute.
            style = JumpStyle(
                frequency: 1.8...2.4, duty: 0.5...0.7, impact: 0.3...1.2, kneeBendDegrees: 5...15, using: &random)
        case .dancing:
            // Hops on the beat, 108-138 beats a minute.
            style = JumpStyle(
                frequency: 1.8...2.3, duty: 0.55...0.75, impact: 0.2...0.8, kneeBendDegrees: 8...20, using: &random)
        default:
            // Jumping in place, 2-2.5 jumps a second, knees bent to take each landing.
            style = JumpStyle(
                frequency: 2.0...2.5, duty: 0.4...0.6, impact: 0.5...1.5, kneeBendDegrees: 10...25, using: &random)
        }
        sway = Wave(amplitude: 0.3...1.0, frequency: (style.frequency / 2)...(style.frequency / 2), using: &random)
        spread = random.uniform(0.17...0.35)
        side = random.sign()
        barSeed = random.next()
        bounce = random.uniform(0.2...0.6) * standardGravity
        swing = random.uniform(2...5)
        twist = random.uniform(0.35...0.7)
    }

    /// The body's pose at `t` seconds.
    func pose(at t: Double) -> BodyPose {
        let (vertical, flexion) = style.state(at: t)
        let lateral = sway.value(at: t)
        var pose = BodyPose(hip: [0, lateral, vertical], flexion: flexion)
        switch activity {
        case .jumpingJacks:
            // Out on one jump, in on the next.
            let c = cos(.pi * style.cycles(at: t))
            pose.abduction = side * spread * (1 - c) / 2
        case .dancing:
            pose = dance(at: t, hop: pose)
        default: break
        }
        return pose
    }

    /// Dancing: each bar of eight beats is one move (bounce, sway, twist or hops), and bars
    /// cross-fade over a quarter beat so nothing jumps.
    private func dance(at t: Double, hop: BodyPose) -> BodyPose {
        let beats = style.cycles(at: t)
        let bar = (beats / 8).rounded(.down)
        let into = beats - 8 * bar
        let fade = smoothStep((into - 7.75) / 0.5 + 0.5)
        let current = move(Int64(bar), beats: beats, hop: hop)
        guard fade > 0 else { return current }
        let next = move(Int64(bar) + 1, beats: beats, hop: hop)
        return BodyPose(
            hip: (1 - fade) * current.hip + fade * next.hip,
            flexion: (1 - fade) * current.flexion + fade * next.flexion,
            yaw: (1 - fade) * current.yaw + fade * next.yaw)
    }

    private func move(_ bar: Int64, beats: Double, hop: BodyPose) -> BodyPose {
        var random = SeededRandom(seed: barSeed &+ UInt64(bitPattern: bar) &* 0x2545_F491)
        let w = 2 * Double.pi * beats
        let g = standardGravity
        switch Int(random.unit() * 4) {
        case 0:  // bounce on the knees
            let up = g + bounce * sin(w) + 0.3 * bounce * sin(2 * w + 1)
            return BodyPose(hip: [0, 0, up], flexion: style.baseFlexion + style.kneeBend * (1 - cos(w)) / 2)
        case 1:  // hips swaying side to side, a step each beat
            return BodyPose(
                hip: [0, swing * sin(w / 2), g + 0.3 * bounce * sin(w)],
                flexion: style.baseFlexion + 0.5 * style.kneeBend * (1 - cos(w)) / 2)
        case 2:  // hips twisting
            return BodyPose(
                hip: [0, 0, g + 0.3 * bounce * sin(w)], flexion: style.baseFlexion, yaw: twist * sin(w / 2))
        default:  // hops
            return hop
        }
    }
}
