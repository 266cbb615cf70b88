import ShakeDetection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A flight of stairs, phone in a bag at the waist: seconds of steady steps, then the last step onto
/// the landing, and the body stands still. The end of a flight is where a detector that answers when
/// the motion stops looks hardest at a body: the same rhythm ran for seconds, then it stopped.
///
/// Each step loads the pelvis through the leg that lands: going down, a landing peak of 0.8-1.4 g
/// above gravity (the body is caught a step lower each time), going up a gentler 0.3-0.6 g as the leg
/// lifts the body; between landings the load falls below 1 g as the other leg swings through. The
/// landing brakes the body forwards, the push drives it on, and the hips sway sideways once a stride
/// (two steps). The pelvis pitches and rolls a few degrees with each step. Cadence: 1.8-2.4 steps a
/// second going down, 1.5-2.0 up (the stair-gait literature's ranges). Every step is a little
/// different in strength and timing, and the flight's first two steps build up to its rhythm.
struct StairsMotion: Sendable {
    /// Maps device axes to the pelvis's (x forward, y left, z up): a bag at the waist, any way round.
    let deviceToPelvis: Rotation
    /// Seconds standing still before the first step.
    let standing: Double
    /// Seconds of steps on the flight, to the last landing.
    let flight: Double
    let cadence: Double
    let landing: Double
    let landingWidth: Double
    let rebound: Double
    let reboundPhase: Double
    let braking: Double
    let drive: Double
    let drivePhase: Double
    let sway: Double
    let swayPhase: Double
    let pitch: Double
    let roll: Double
    let timingWobble: Wave
    let stepSeed: UInt64
    /// The body's sway while standing, m/s².
    let standingSway: Wave3

    init(down: Bool, using random: inout SeededRandom) {
        let degree = Double.pi / 180
        let axis = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
        let length = (axis * axis).sum().squareRoot()
        deviceToPelvis = Rotation.about(length > 0 ? axis / length : World.up, angle: random.uniform(0...(2 * .pi)))
        standing = random.uniform(1.5...3)
        flight = random.uniform(8...12)
        let g = standardGravity
        if down {
            cadence = random.uniform(1.8...2.4)
            landing = random.uniform(0.8...1.4) * g
            landingWidth = random.uniform(0.10...0.18)
            braking = random.uniform(0.2...0.45)
        } else {
            cadence = random.uniform(1.5...2.0)
            landing = random.uniform(0.3...0.6) * g
            landingWidth = random.uniform(0.15...0.25)
            braking = random.uniform(0.1...0.25)
        }
        rebound = random.uniform(0.15...0.35) * g
        reboundPhase = random.uniform(-0.6...0.6)
        drive = random.uniform(0.12...0.3) * g
        drivePhase = random.phase()
        sway = random.uniform(0.08...0.25) * g
        swayPhase = random.phase()
        pitch = random.uniform((1.5 * degree)...(4 * degree))
        roll = random.uniform((2 * degree)...(5 * degree))
        timingWobble = Wave(amplitude: 0.02...0.06, frequency: 0.1...0.3, using: &random)
        stepSeed = random.next()
        standingSway = Wave3(amplitude: 0.05...0.2, frequency: 0.2...0.6, using: &random)
    }

    /// When the last step lands, in seconds from the start.
    var lastLanding: Double { standing + flight }

    /// The raised-cosine pulse of a landing, `u` of a step after it (1 at the landing, 0 after `width`).
    private static func pulse(_ u: Double, width: Double) -> Double {
        guard u >= 0, u < width else { return 0 }
        let s = sin(.pi * u / width)
        return s * s
    }

    /// The specific force at the pelvis (world axes) and its pitch and roll, at `t` seconds.
    func pelvis(at t: Double) -> (force: SIMD3<Double>, pitch: Double, roll: Double) {
        let g = standardGravity
        let still = SIMD3<Double>(standingSway.x.value(at: t), standingSway.y.value(at: t), g + standingSway.z.value(at: t))
        let into = t - standing
        guard into > 0 else { return (still, 0, 0) }
        // Steps since the first, the rhythm wobbling a little; the flight ends on a whole step.
        let steps = cadence * into + timingWobble.value(at: t)
        let total = (cadence * flight).rounded()
        // After the last landing the body comes to rest within half a step: what is left of that step fades.
        let after = max(0, steps - total)
        let fade = after > 0 ? max(0, 1 - after / 0.6) : 1
        guard fade > 0 else { return (still, 0, 0) }
        let step = min(steps, total + 0.6).rounded(.down)
        let u = min(steps, total + 0.6) - step
        var random = SeededRandom(seed: stepSeed &+ UInt64(bitPattern: Int64(step)) &* 0x9E37_79B9)
        let strength = random.uniform(0.8...1.2) * (step < 2 ? 0.6 + 0.2 * step : 1)
        // The landing's weight, less its mean over the step, so that the body's weight is carried.
        let land = landing * strength
        let vertical = land * (Self.pulse(u, width: landingWidth) - landingWidth / 2)
            + rebound * strength * cos(2 * .pi * (u + reboundPhase))
        let forward = -braking * land * Self.pulse(u, width: landingWidth) + braking * land * landingWidth / 2
            + drive * sin(2 * .pi * u + drivePhase)
        let lateral = sway * sin(.pi * steps + swayPhase)
        let moving = SIMD3<Double>(forward, lateral, vertical)
        let w = 2 * Double.pi * steps
        return (still + fade * moving, fade * pitch * sin(w), fade * roll * sin(w / 2))
    }

    /// The specific force in device axes at `t` seconds.
    func force(at t: Double) -> SIMD3<Double> {
        let (force, pitch, roll) = pelvis(at: t)
        let pelvisToWorld = Rotation.about(World.forward, angle: roll) * Rotation.about(World.left, angle: pitch)
        return (pelvisToWorld * deviceToPelvis).transposed.apply(force)
    }
}
