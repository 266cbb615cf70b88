/// What the device is doing, sample by sample: the part of ``ShakeDetector`` that every view of the
/// motion shares. It estimates gravity and takes it out, tracks whether the device was held still
/// before the motion now going on, notes free falls, and keeps two seconds of how the device was held.
/// Computed once per sample for both views (``StrokeChain``).
struct DeviceMotion: Sendable {
    /// One sample as the views see it.
    struct Step: Sendable {
        /// The sample's time, in nanoseconds.
        var t: Int64
        /// Seconds since the sample before.
        var dt: Double
        /// The acceleration as read, gravity included, and as read at the sample before.
        var raw: Vector3
        var previous: Vector3
        /// The dynamic acceleration: gravity taken out.
        var dynamic: Vector3
        /// `dynamic`'s squared length.
        var squared: Double
        /// Whether the motion now going on began from stillness, within the fresh window.
        var fresh: Bool
        /// The fresh window: motion that began in it began from stillness (``beganFromStillness(_:)``). While
        /// a shake that began so goes on, it stays open (``keepsFresh``); `windowEnd` is where it would close.
        var freshFrom: Int64
        var freshUntil: Int64
        var windowEnd: Int64

        /// Whether the sensor is at its limit: an axis reads the same large value (over 1.5 g) as in
        /// the sample before, which a moving device only does when the converter is pinned. Asked only
        /// of samples that can make a stroke: comparing every sample costs more than the rest of it.
        var isSaturated: Bool {
            let level = 1.5 * 9.80665  // 1.5 g; a literal, since a global needs a lazy-initialisation check each call
            return (raw.x == previous.x && abs(raw.x) > level) || (raw.y == previous.y && abs(raw.y) > level)
                || (raw.z == previous.z && abs(raw.z) > level)
        }

        /// Whether a chain whose oldest stroke began at `start` began from stillness: within the fresh
        /// window after the device was last held still. (A stroke starts above the calm level, so the first
        /// stroke of fresh motion starts no earlier than the motion.)
        func beganFromStillness(_ start: Int64) -> Bool { start >= freshFrom && start <= freshUntil }

        /// Whether a chain whose oldest stroke began at `start` is in motion going on: not begun in the fresh
        /// window (a shake that began from stillness may go on past it, its chains still judged by the relaxed
        /// rules of its start; a body that set off from standing still is past it too).
        func inMotionGoingOn(_ start: Int64) -> Bool { !(start >= freshFrom && start <= windowEnd) }
    }

    /// Nanoseconds between entries of ``orientations``.
    static let orientationStep: Int64 = 250_000_000

    /// The settings this part uses, from ``ShakeDetectorConfiguration``: only these, so that the views, which
    /// read this struct at every sample, are handed a small one.
    /// Times are in nanoseconds, as the samples' are: a comparison of integers costs less than a conversion.
    struct Settings: Sendable {
        var gapReset: Int64
        var gravityTimeConstant: Double
        var calmLevelSquared: Double
        var calmDwell: Int64
        var freshWindow: Int64
        var freeFallLevelSquared: Double
        var freeFallDwell: Int64
        var freeFallMemory: Int64
        var fallTurn: Double
        var fallLookback: Double

        init(_ c: ShakeDetectorConfiguration) {
            gapReset = Self.nanoseconds(c.gapReset)
            gravityTimeConstant = c.gravityTimeConstant
            calmLevelSquared = c.calmLevel * c.calmLevel
            calmDwell = Self.nanoseconds(c.calmDwell)
            freshWindow = Self.nanoseconds(c.freshWindow)
            freeFallLevelSquared = c.freeFallLevel * c.freeFallLevel
            freeFallDwell = Self.nanoseconds(c.freeFallDwell)
            freeFallMemory = Int64(c.freeFallMemory * 1e9)
            fallTurn = c.fallTurn
            fallLookback = c.fallLookback
        }

        /// Seconds as nanoseconds, clamped (a gap reset of 1e300 s is "never").
        static func nanoseconds(_ seconds: Double) -> Int64 {
            let ns = (seconds * 1e9).rounded()
            return ns >= 9.2e18 ? .max : Int64(max(0, ns))
        }
    }

    private let settings: Settings

    /// The gravity estimate, nil before the first sample.
    private(set) var gravity: Vector3?
    /// The last time step between samples, in seconds, and the gravity filter's coefficient for it.
    private var lastStep = (dt: 0.0, alpha: 0.0)
    private(set) var lastTimestamp: Int64?
    /// The stream's usual time between samples (ns), 0 before the second sample: a running average that
    /// follows short steps closely and long ones slowly, so that a gap moves it little and a lasting
    /// change of rate still carries it along.
    private(set) var usualStep: Int64 = 0
    /// The longest step that is the stream's pace: two and a half usual steps, and no more than
    /// ``ShakeDetectorConfiguration/gapReset``; 0 before the second sample.
    private var paceLimit: Int64 = 0
    /// The sample before, for spotting a saturated sensor (the same large value twice).
    private var lastRaw = Vector3.zero
    /// Since when the motion has been below ``ShakeDetectorConfiguration/calmLevel``, while it is.
    private var quietSince: Int64?
    /// When the motion last began after the device had been held still.
    private(set) var freshSince: Int64?
    /// Set while a shake that began from stillness goes on: its motion stays fresh past the fresh window,
    /// so that a gentle or slow shake is judged as it began, however long it lasts.
    var keepsFresh = false
    /// Since when the total acceleration has been below the free-fall level, while it is.
    private var fallingSince: Int64?
    /// The latest sample of a free fall that lasted long enough to count.
    private(set) var lastFreeFall: Int64?

    /// The gravity estimate every ``orientationStep`` nanoseconds, newest last, and when the newest was
    /// taken: two seconds of how the device was held.
    private(set) var lastOrientationAt: Int64 = 0
    private(set) var orientations = Ring<8, Vector3>(filler: .zero)

    init(configuration: ShakeDetectorConfiguration) {
        settings = Settings(configuration)
    }

    private init(settings: Settings) {
        self.settings = settings
    }

    mutating func reset() {
        self = DeviceMotion(settings: settings)
    }

    /// What a sample is to the stream, from the time since the last one.
    enum Arrival: Equatable {
        /// The next sample, at the stream's pace.
        case next
        /// Stamped with the last one's time: the same instant read twice (nothing new).
        case repeated
        /// Time went backwards or the samples stalled longer than
        /// ``ShakeDetectorConfiguration/gapReset``: start over from it.
        case restart
        /// After `missing` samples the stream lost (``missing(after:)``).
        case afterGap(missing: Int)
    }

    /// What a sample at `t` is to the stream (``Arrival``). Inlined: at the stream's pace it is one
    /// subtraction and one comparison.
    @inline(__always)
    func arrival(at t: Int64) -> Arrival {
        guard let last = lastTimestamp else { return .next }
        let gap = t &- last
        if gap > 0, gap <= paceLimit { return .next }
        // Static, given what it needs: a method of `self` here would copy the whole struct first.
        return Self.arrival(after: gap, usualStep: usualStep, gapReset: settings.gapReset)
    }

    /// ``arrival(at:)`` off the stream's pace.
    @inline(never)
    private static func arrival(after gap: Int64, usualStep: Int64, gapReset: Int64) -> Arrival {
        if gap == 0 { return .repeated }
        if gap < 0 || gap > gapReset { return .restart }
        let missing = missing(after: gap, usualStep: usualStep, gapReset: gapReset)
        return missing > 0 ? .afterGap(missing: missing) : .next
    }

    /// The most samples ``missing(after:usualStep:gapReset:)`` fills in, whatever the stream's rate says.
    static let mostMissing = 128

    /// How many samples the stream lost in a `gap` between two samples (0 when none): a gap under
    /// ``ShakeDetectorConfiguration/gapReset`` but over two and a half usual steps. Another reader that
    /// drains a shared buffer takes a stretch of the samples (iio-sensor-proxy beside a time-shared
    /// buffer), and a busy system polls late; the strokes go on through such a gap, so the detector
    /// sees it filled in (``filling(_:of:toward:)``) rather than as one long step.
    static func missing(after gap: Int64, usualStep: Int64, gapReset: Int64) -> Int {
        guard usualStep > 0, gap > usualStep * 5 / 2, gap <= gapReset else { return 0 }
        return Int(min((gap + usualStep / 2) / usualStep - 1, Int64(mostMissing)))
    }

    /// The `k`th of `count` samples filled in, evenly in time and on the line, between the last sample
    /// and `next`.
    func filling(_ k: Int, of count: Int, toward next: Sample) -> Sample {
        let last = lastTimestamp ?? next.timestamp
        let w = Double(k) / Double(count + 1)
        let to = Vector3(next)
        let at = lastRaw + w * (to - lastRaw)
        return Sample(timestamp: last + (next.timestamp - last) * Int64(k) / Int64(count + 1), x: at.x, y: at.y, z: at.z)
    }

    /// Takes in one sample (finite, and after the last: see ``arrival(at:)``) and returns it as the views
    /// see it; nil for the first sample, which only starts the gravity estimate. Inlined into the detector,
    /// so the step stays in registers rather than going through memory.
    @inline(__always)
    mutating func advance(_ sample: Sample) -> Step? {
        let t = sample.timestamp
        let raw = Vector3(sample)
        defer {
            lastTimestamp = t
            lastRaw = raw
        }
        guard let previous = lastTimestamp, let g = gravity else {
            gravity = raw
            orientations.append(raw)
            lastOrientationAt = t
            return nil
        }
        // Backward-Euler low-pass coefficient: exact enough for dt much below the time constant,
        // and needs no libm.
        let step = t - previous
        let dt = seconds(step)
        if usualStep == 0 {
            usualStep = step
        } else {
            // An eighth of the difference, a thirty-second for a long step; shifts, not a division
            // (a division by a divisor chosen at run time costs more than the rest of this step).
            usualStep += (step - usualStep) >> (step <= usualStep &* 2 ? 3 : 5)
        }
        paceLimit = min((usualStep &* 5) >> 1, settings.gapReset)
        // A division is the dearest step of a sample; at a steady rate dt repeats, and so does alpha.
        if dt != lastStep.dt { lastStep = (dt, dt / (settings.gravityTimeConstant + dt)) }
        let newGravity = g + lastStep.alpha * (raw - g)
        gravity = newGravity
        if t - lastOrientationAt >= Self.orientationStep {
            orientations.append(newGravity)
            lastOrientationAt = t
        }
        let dynamic = raw - newGravity
        let squared = dynamic.dot(dynamic)
        let fresh = noteStillness(squared: squared, at: t)
        noteFreeFall(raw, at: t)
        var window = (from: Int64.max, until: Int64.min, end: Int64.min)
        if let since = freshSince {
            let end = since > .max - settings.freshWindow ? .max : since + settings.freshWindow
            window = (since, keepsFresh ? .max : end, end)
        }
        return Step(
            t: t, dt: dt, raw: raw, previous: lastRaw, dynamic: dynamic, squared: squared, fresh: fresh,
            freshFrom: window.from, freshUntil: window.until, windowEnd: window.end)
    }

    /// Seconds from nanoseconds, by a multiplication: a division costs several times as much.
    func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) * 1e-9 }

    /// Tracks whether the device was held still before the motion now going on (from the squared
    /// strength of the motion, which spares a square root), and returns whether that motion is
    /// still fresh from stillness.
    @inline(__always)
    private mutating func noteStillness(squared strength: Double, at t: Int64) -> Bool {
        if strength >= settings.calmLevelSquared {
            if let since = quietSince, t - since >= settings.calmDwell { freshSince = t }
            quietSince = nil
        } else if quietSince == nil {
            quietSince = t
        }
        guard let fresh = freshSince else { return false }
        return keepsFresh || t - fresh <= settings.freshWindow
    }

    /// Whether the motion has stayed below the calm level for at least the calm dwell, as of the
    /// last sample. A stroke that could start a shake is above the calm level, so none is under way.
    var isAtRest: Bool {
        guard let since = quietSince, let last = lastTimestamp else { return false }
        return last - since >= settings.calmDwell
    }

    /// Tracks free fall: the total acceleration near 0 g for at least the dwell time.
    @inline(__always)
    private mutating func noteFreeFall(_ raw: Vector3, at t: Int64) {
        guard raw.dot(raw) < settings.freeFallLevelSquared else {
            fallingSince = nil
            return
        }

        let since = fallingSince ?? t
        fallingSince = since
        if t - since >= settings.freeFallDwell { lastFreeFall = t }
    }

    /// The gates on the whole body a chain fails, rather than a hand shaking: ``ShakeRule/freeFall`` when it
    /// began within ``ShakeDetectorConfiguration/freeFallMemory`` of a free fall (or contains one: the
    /// flight of a jump, a drop); ``ShakeRule/turnedOver`` when it is a body ringing on what it landed on
    /// after toppling over: the chain dies away (``StrokeChain/diesAway(closed:)``) and gravity now lies more
    /// than ``ShakeDetectorConfiguration/fallTurn`` away from where it was
    /// ``ShakeDetectorConfiguration/fallLookback`` before the chain began (the body went from upright to
    /// lying on its side or back). Without that much history, no turn.
    func bodyRules(_ match: StrokeChain.Match) -> ShakeRules {
        var failed: ShakeRules = []
        if let fell = lastFreeFall, fell >= match.firstStroke - settings.freeFallMemory { failed.insert(.init(.freeFall)) }
        if match.diesAway, let then = orientation(before: match.firstStroke, by: settings.fallLookback), let gravity,
            then.cosine(gravity) < settings.fallTurn
        {
            failed.insert(.init(.turnedOver))
        }
        return failed
    }

    /// The gravity estimate `lookback` seconds before `time`, nil when the detector has not seen that
    /// far back (entries are ``orientationStep`` apart, the newest taken at ``lastOrientationAt``).
    func orientation(before time: Int64, by lookback: Double) -> Vector3? {
        let then = time - Int64(lookback * 1e9)
        guard then <= lastOrientationAt else { return nil }
        let back = Int((lastOrientationAt - then + Self.orientationStep - 1) / Self.orientationStep)
        guard back < orientations.count else { return nil }
        return orientations[back: back]
    }
}
