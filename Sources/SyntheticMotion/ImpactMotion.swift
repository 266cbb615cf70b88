import ShakeDetection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A person standing, then falling onto their side, the phone in a trouser pocket.
///
/// Standing still for 2-4 s; then the body rolls sideways through 90° in 0.75-1.1 s, faster and
/// faster, while the hips drop 0.7-0.9 m (so the pocket is partly unloaded: it reads well under
/// 1 g, never below 0). The hip strikes the floor at about 3 m/s and stops within 40-100 ms
/// (5-12 g, far beyond a ±2 g sensor), the thigh's soft tissue rings at 6-15 Hz for a few
/// tenths of a second. That is the hard landing, on a floor. On soft ground (a bed, a sofa, a
/// gym mat, grass) the surface and the body on it form a spring with damping: the hip sinks in
/// and rebounds at 2.5-4.5 Hz with a damping ratio of 0.08-0.25, swinging several times above
/// a shake's stroke threshold before it dies away. That is a damped oscillation in a shake's
/// frequency band with no hand driving it. Half the falls land soft. Either way the body then
/// settles back a little and lies still.
struct FallMotion: Sendable {
    /// What the body lands on, when it is soft: a spring-damper.
    struct SoftLanding: Sendable {
        let frequency: Double
        let damping: Double
    }

    let mount: PocketMount
    let standing: Double
    let duration: Double
    let drop: Double
    let sideways: Double
    /// +1 falls to the right, -1 to the left.
    let side: Double
    let impactDuration: Double
    let ringFrequency: Double
    let ringDamping: Double
    let ringAmplitude: Double
    let hipBend: Double
    let settle: Double
    let sway: Wave
    /// Nil for a hard floor.
    let soft: SoftLanding?

    init(using random: inout SeededRandom) {
        mount = PocketMount(using: &random)
        standing = random.uniform(2...4)
        drop = random.uniform(0.7...0.9)
        sideways = random.uniform(0.3...0.6)
        // The hips cannot fall faster than gravity: peak downward acceleration 6 H / D² stays under 0.9 g.
        duration = max(random.uniform(0.75...1.1), (6 * drop / (0.9 * standardGravity)).squareRoot())
        side = random.sign()
        impactDuration = random.uniform(0.04...0.1)
        ringFrequency = random.uniform(6...15)
        ringDamping = random.uniform(0.15...0.35)
        ringAmplitude = random.uniform(1...3) * standardGravity
        hipBend = random.uniform(0.2...0.8)
        settle = random.uniform(0...0.3)
        sway = Wave(amplitude: 0.05...0.3, frequency: 0.2...0.6, using: &random)
        soft =
            random.unit() < 0.5
            ? SoftLanding(frequency: random.uniform(2.5...4.5), damping: random.uniform(0.08...0.25)) : nil
    }

    /// When the hip hits the floor, in seconds from the start.
    var impactTime: Double { standing + duration }

    /// How fast the body is rolling when it lands, radians per second.
    private var rollRate: Double { Double.pi / duration }

    func pose(at t: Double) -> BodyPose {
        let g = standardGravity
        let right = -World.left
        if t < standing {
            return BodyPose(hip: [0, sway.value(at: t), g], flexion: 0.05)
        }
        if t < impactTime {
            let u = (t - standing) / duration
            let down = 6 * drop * u / (duration * duration)
            let across = 6 * sideways * u / (duration * duration)
            return BodyPose(
                hip: SIMD3(0, 0, g - down) + side * across * right, flexion: 0.05 + hipBend * smoothStep(u),
                roll: side * Double.pi / 2 * u * u)
        }
        let since = t - impactTime
        let flexion = 0.05 + hipBend
        // Landing: the roll slows to a stop over the impact, then the body settles back a little.
        let braking = min(since, impactDuration)
        var roll = Double.pi / 2 + rollRate * braking * (1 - braking / (2 * impactDuration))
        roll -= settle * smoothStep((since - impactDuration) / 1.0)
        var hip = SIMD3<Double>(0, 0, g)
        if let soft {
            // The hip lands at speed v on a spring-damper and sinks by
            // x(t) = v / ωd · e^(-ζωt) · sin(ωd t); the surface pushes it up with -x''(t).
            // Sideways the surface grips: that speed goes within the impact time, as on a floor.
            let v = 3 * drop / duration
            let omega = 2 * Double.pi * soft.frequency
            let zeta = soft.damping
            let damped = omega * (1 - zeta * zeta).squareRoot()
            hip.z +=
                v / damped * exp(-zeta * omega * since)
                * ((damped * damped - zeta * zeta * omega * omega) * sin(damped * since)
                    + 2 * zeta * omega * damped * cos(damped * since))
            if since < impactDuration {
                let velocity = side * (3 * sideways / duration) * right
                hip -= Double.pi / (2 * impactDuration) * sin(Double.pi * since / impactDuration) * velocity
            }
            return BodyPose(hip: hip, flexion: flexion, roll: side * roll)
        }
        if since < impactDuration {
            // The downward and sideways speed taken out by a half-sine push from the floor.
            let velocity = SIMD3(0, 0, -3 * drop / duration) + side * (3 * sideways / duration) * right
            hip -= Double.pi / (2 * impactDuration) * sin(Double.pi * since / impactDuration) * velocity
        }
        let omega = 2 * Double.pi * ringFrequency
        hip.z += ringAmplitude * exp(-ringDamping * omega * since) * sin(omega * since)
        return BodyPose(hip: hip, flexion: flexion, roll: side * roll)
    }
}

/// A phone held in the hand, let go, falling 10-50 cm onto a table face up (or face down),
/// bouncing and coming to rest.
///
/// In the air it reads 0 g. Each landing stops it within 3-8 ms (hundreds of m/s², clipped);
/// it bounces back with 20-45 % of its speed, falls freely again, and so on until the bounces
/// are too short to tell; the case rattles at 15-30 Hz for a moment. Then it lies still, with
/// gravity on its z axis.
struct DropMotion: Sendable {
    let hand: Attitude
    let table: SIMD3<Double>
    let holding: Double
    let height: Double
    let restitution: Double
    let impactDuration: Double
    let rattle: (direction: SIMD3<Double>, frequency: Double, amplitude: Double)
    let tremor: Wave3

    init(using random: inout SeededRandom) {
        hand = Attitude(pitchDegrees: random.uniform(35...60), rollDegrees: random.uniform(-8...8))
        let tilt = Attitude(pitchDegrees: random.uniform(-2...2), rollDegrees: random.uniform(-2...2)).up
        table = random.unit() < 0.75 ? tilt : -1 * tilt
        holding = random.uniform(1...3)
        height = random.uniform(0.1...0.5)
        restitution = random.uniform(0.2...0.45)
        impactDuration = random.uniform(0.003...0.008)
        var direction = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
        direction /= (direction * direction).sum().squareRoot()
        rattle = (direction, random.uniform(15...30), random.uniform(0.5...1.5) * standardGravity)
        tremor = Wave3(amplitude: 0.04...0.14, frequency: 8.5...11.5, using: &random)
    }

    /// When it first touches the table, in seconds from the start.
    var impactTime: Double { holding + (2 * height / standardGravity).squareRoot() }

    /// Specific force in device axes at `t` seconds.
    func force(at t: Double) -> SIMD3<Double> {
        let g = standardGravity
        if t < holding { return g * hand.up + tremor.value(at: t) }
        if t < impactTime { return .zero }
        // Walk through the bounces: each landing, then a free flight at the rebound speed.
        var start = impactTime
        var speed = (2 * g * height).squareRoot()
        while speed * restitution > 0.05 {
            let rebound = speed * restitution
            let landing = start + impactDuration
            let flight = 2 * rebound / g
            if t < landing {
                let push = Double.pi * (speed + rebound) / (2 * impactDuration)
                return push * sin(Double.pi * (t - start) / impactDuration) * table + rattling(t)
            }
            if t < landing + flight { return rattling(t) }
            start = landing + flight
            speed = rebound
        }
        return g * table + rattling(t)
    }

    private func rattling(_ t: Double) -> SIMD3<Double> {
        let since = t - impactTime
        let omega = 2 * Double.pi * rattle.frequency
        return rattle.amplitude * exp(-0.12 * omega * since) * sin(omega * since) * rattle.direction
    }
}
