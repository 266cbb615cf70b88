import ShakeDetection

/// Everyday motion that is not a shake but looks like one to a naive detector: rhythmic
/// whole-body activity and single impacts.
public enum EverydayActivity: String, Sendable, Hashable, CaseIterable {
    /// Jumping in place, 2-2.5 jumps a second, phone in a trouser pocket: each jump a push and
    /// landing impact, then a flight in free fall (0 g).
    case jumping
    /// Skipping rope, 1.8-2.8 small bounces a second, phone in a trouser pocket.
    case skippingRope
    /// Jumping jacks, 1.8-2.4 jumps a second, the legs going out and in, phone in a trouser pocket.
    case jumpingJacks
    /// Dancing at 108-138 beats a minute, a new move every eight beats (bouncing on the knees,
    /// swaying, twisting, hopping), phone in a trouser pocket.
    case dancing
    /// Standing, then falling onto the side, phone in a trouser pocket.
    case fallOntoSide
    /// A phone held in the hand, dropped 10-50 cm onto a table.
    case droppedOnTable
    /// Down a flight of stairs for 8-12 s, phone in a bag at the waist, then standing on the landing.
    case stairsDown
    /// Up a flight of stairs for 8-12 s, phone in a bag at the waist, then standing on the landing.
    case stairsUp

    /// Whether the activity repeats without end (rather than being one event and then rest).
    public var isRhythmic: Bool { ![.fallOntoSide, .droppedOnTable, .stairsDown, .stairsUp].contains(self) }
}

/// One person doing one ``EverydayActivity``, recorded by a phone accelerometer.
///
/// The motion is built from the body's mechanics (ground reaction, thigh rotation, impacts),
/// not from any recording; `seed` draws the person, the pocket (or the bag at the waist) and the
/// style within the ranges each case documents. ``samples(seconds:rate:range:noise:)`` records it the
/// way a phone in a pocket does by default: 100 Hz, clipping at ±2 g.
public struct EverydayMotion: Sendable {
    /// What the person does.
    public let activity: EverydayActivity
    /// Picks the person, the pocket and the style.
    public let seed: UInt64

    private enum Model: Sendable {
        case rhythmic(RhythmicBodyMotion)
        case fall(FallMotion)
        case drop(DropMotion)
        case stairs(StairsMotion)
    }

    private let model: Model

    /// Creates the motion of one person doing `activity`.
    public init(_ activity: EverydayActivity, seed: UInt64) {
        self.activity = activity
        self.seed = seed
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(activity.hashValueStable))
        switch activity {
        case .fallOntoSide: model = .fall(FallMotion(using: &random))
        case .droppedOnTable: model = .drop(DropMotion(using: &random))
        case .stairsDown, .stairsUp: model = .stairs(StairsMotion(down: activity == .stairsDown, using: &random))
        default: model = .rhythmic(RhythmicBodyMotion(activity, using: &random))
        }
    }

    /// The sample rate of a phone in a pocket in the cases this models, Hz.
    public static let pocketRate = 100.0
    /// Where such a phone's accelerometer clips, m/s² (±2 g).
    public static let pocketRange = 2 * standardGravity

    /// For a fall or a drop, when the impact comes, and for stairs when the last step lands, in seconds
    /// from the start; nil for rhythmic activity.
    public var impactTime: Double? {
        switch model {
        case .rhythmic: nil
        case .fall(let fall): fall.impactTime
        case .drop(let drop): drop.impactTime
        case .stairs(let stairs): stairs.lastLanding
        }
    }

    /// For rhythmic activity, repetitions (jumps, bounces or beats) per second.
    public var frequency: Double? {
        if case .rhythmic(let body) = model { return body.style.frequency }
        return nil
    }

    /// The specific force (acceleration minus gravity) the device feels at `t` seconds, in
    /// device axes, m/s², before the sensor samples and clips it.
    public func specificForce(at t: Double) -> SIMD3<Double> {
        switch model {
        case .rhythmic(let body): pocketForce(mount: body.mount, hipOffset: 0.1, at: t, body.pose)
        case .fall(let fall): pocketForce(mount: fall.mount, hipOffset: 0.1 * fall.side, at: t, fall.pose)
        case .drop(let drop): drop.force(at: t)
        case .stairs(let stairs): stairs.force(at: t)
        }
    }

    /// `seconds` of the motion as a sensor records it: each sample the mean over its period,
    /// plus Gaussian noise (`noise` m/s² on each axis), clipped at ±`range` per axis.
    public func samples(
        seconds: Double, rate: Double = pocketRate, range: Double = pocketRange, noise: Double = 0.04
    ) -> [Sample] {
        precondition(rate.isFinite && (1...10_000).contains(rate), "the rate must lie in 1...10000 Hz")
        precondition(range > 0 && noise >= 0, "the range must be above 0 and the noise 0 m/s² or more")
        return SensorModel(rate: rate, range: range, noise: noise).samples(seconds: seconds, seed: seed) {
            specificForce(at: $0)
        }
    }

    /// The specific force in a pocket: the hip's, plus the pocket's own acceleration as the
    /// thigh swings and the hips turn (a second difference over 2 ms), turned into device axes.
    private func pocketForce(
        mount: PocketMount, hipOffset: Double, at t: Double, _ pose: (Double) -> BodyPose
    ) -> SIMD3<Double> {
        func place(_ p: BodyPose) -> (position: SIMD3<Double>, deviceToWorld: Rotation) {
            let thigh = PocketMount.thighToWorld(
                flexion: p.flexion, abduction: p.abduction, yaw: p.yaw, roll: p.roll)
            let body = Rotation.about(World.forward, angle: p.roll) * Rotation.about(World.up, angle: p.yaw)
            let position = body.apply(hipOffset * World.left) - mount.depth * thigh.apply([0, 1, 0])
            return (position, thigh * mount.deviceToThigh)
        }
        let h = 0.002
        let now = pose(t)
        let (here, deviceToWorld) = place(now)
        let before = place(pose(t - h)).position
        let after = place(pose(t + h)).position
        let relative = (after - 2 * here + before) / (h * h)
        return deviceToWorld.transposed.apply(now.hip + relative)
    }
}

extension EverydayActivity {
    /// A number fixed for each case, for seeding (Swift's `hashValue` changes from run to run).
    fileprivate var hashValueStable: Int {
        Self.allCases.firstIndex(of: self) ?? 0
    }
}
