/// How readily a detector fires, as a named level.
public enum Sensitivity: String, Sendable, CaseIterable {
    /// Needs a firm shake; for people who jolt their device a lot.
    case low
    /// The default.
    case medium
    /// Reacts to a gentler shake; more false alarms during vigorous activity.
    case high
}

/// The tunables of ``ShakeDetector``. Times are in seconds, accelerations in m/s².
///
/// Each value has a physical meaning; the defaults come from what a hand-held shake is
/// (2-8 Hz back-and-forth along one line, several reversals within a second) and what it is
/// not (the impact-and-rebound of gait, single transients).
public struct ShakeDetectorConfiguration: Sendable, Hashable {
    /// Dynamic acceleration (gravity removed) a stroke must reach to count.
    public var strokeThreshold: Double
    /// Reversals needed before a shake is recognized. Three reversals are four strokes:
    /// a flick (there and back) makes at most three.
    public var reversals: Int
    /// The shortest and longest mean time between stroke starts (a half cycle of the motion).
    public var halfPeriod: ClosedRange<Double>
    /// Cosine between every other stroke: how closely the strokes stay on one line.
    public var linearity: Double
    /// Largest allowed ratio between a stroke and the mean of its neighbours. Gait alternates
    /// a hard impact with a weak rebound; a shake's strokes are alike, or, when the hand works
    /// against gravity one way (up and down), alternate less than gait does.
    public var maximumZigzag: Double
    /// Neighbour ratio above which a chain is lopsided (strong and weak strokes alternating,
    /// as in gait and in shakes along gravity) and needs one more reversal to count.
    public var lopsidedZigzag: Double
    /// Largest ratio between the longest and shortest half cycle in the chain.
    public var maximumRhythmRatio: Double
    /// Time constant of the gravity estimate.
    public var gravityTimeConstant: Double
    /// A gap between samples longer than this resets the detector.
    public var gapReset: Double
    /// Window before a chain in which earlier strokes mean ongoing activity such as gait.
    public var activityWindow: Double
    /// Strokes in ``activityWindow`` that mark ongoing activity, which then needs one more
    /// reversal to count as a shake.
    public var activityStrokes: Int
    /// Total acceleration (gravity included) below which the device is falling freely: in the
    /// flight of a jump, a fall or a drop. A hand that holds the device keeps it near 1 g.
    public var freeFallLevel: Double
    /// How long the acceleration must stay below ``freeFallLevel`` to count as free fall.
    public var freeFallDwell: Double
    /// A chain that begins within this long after a free fall, or contains one, is not a shake.
    public var freeFallMemory: Double
    /// Dynamic acceleration below which the device counts as held still (a hand reading the
    /// screen moves it by a few tenths of a m/s²).
    public var calmLevel: Double
    /// How long the motion must stay below ``calmLevel`` for the device to count as held still.
    public var calmDwell: Double
    /// For this long after motion begins from stillness, a chain may start a shake from gentle
    /// strokes and with the relaxed checks below. A shake to undo starts from a device held
    /// still; walking, running and sports keep it moving, and meet the strict checks.
    public var freshWindow: Double
    /// The stroke threshold while motion is fresh from stillness: a gentle shake, about 0.4 g.
    public var gentleThreshold: Double
    /// The longest mean half cycle of a chain that began from stillness (slow shakes, 1.7 Hz).
    public var freshHalfPeriodLimit: Double
    /// Largest neighbour ratio (see ``maximumZigzag``) of a chain that began from stillness.
    public var freshZigzag: Double
    /// Longest sweep (peak acceleration over the angular frequency squared, in metres) of a
    /// chain slower than ``halfPeriod``: a hand shaking slowly moves the device a few
    /// centimetres, an arm or body swinging slowly and hard sweeps further.
    public var slowSweep: Double
    /// Shortest sweep (as ``slowSweep``: a sine's amplitude, in metres) of a chain none of whose
    /// strokes saturated the sensor. A hand that shakes to undo moves the device a centimetre or
    /// more (the smallest real shake measured, 1.1 cm); a jiggle, a tap or a small fast vibration
    /// moves it millimetres. 0 turns the check off.
    public var shortestSweep: Double
    /// Cosine between gravity ``fallLookback`` before a chain began and gravity when it would
    /// be recognized, below which the device turned over on the way. A chain that also dies
    /// away from its strongest stroke (the newest closed stroke 1.15 times weaker, or weaker
    /// at all when the strongest saturated) is a body that fell onto its side or back, ringing
    /// on what it landed on. A hand that shakes keeps feeding the motion and keeps the device's
    /// orientation. The default, 0.4, is 66°. -1 turns the gate off.
    public var fallTurn: Double
    /// How long before a chain's first stroke the orientation is taken for ``fallTurn``: a
    /// body topples in about a second, turning fastest at the end.
    public var fallLookback: Double
    /// Largest crest factor (strongest stroke over the root mean square of the motion since the
    /// chain's first stroke) of a chain in ongoing motion (not begun from stillness). A hand's
    /// shake is near a sine, crest √2 (1.41; clipping lowers it); running, jumping and stairs
    /// move the device by impacts, a short sharp peak and a long low phase, whose crest is
    /// higher. `.infinity` turns the gate off.
    public var impactCrest: Double
    /// A chain in ongoing motion slower than this, in Hz (reversals per second over two), may be
    /// a body's strides; it is, when its motion also sways off its line by more than
    /// ``strideSway``. Running, stairs and jumping step at 1.5-3.5 Hz; a hand shakes at 3-8.
    public var strideRate: Double
    /// Largest root mean square of the motion off a slow chain's line, for every unit on it, in
    /// ongoing motion (see ``strideRate``). A hand's shake keeps near one line: real shakes slower
    /// than 3.5 Hz read 0.26-0.45. A stride adds fore-aft braking and drive and sideways sway:
    /// 0.33-0.87 on phones at the waist, half of them over 0.5. `.infinity` turns the gate off.
    public var strideSway: Double
    /// How far back before a chain in ongoing motion the body's rhythm is remembered, in seconds
    /// (``rhythmStrokes``).
    public var rhythmMemory: Double
    /// Strokes in ``rhythmMemory`` before a chain in ongoing motion that make a rhythm the body kept: when
    /// they came at the chain's pace, as strong and along its line (within ``rhythmLikeness`` and
    /// ``linearity``), the chain only carries that rhythm on (the end of a flight of stairs), and is not a
    /// shake. 0 turns the rule off.
    public var rhythmStrokes: Int
    /// Largest ratio, either way, between the pace or the strength of the strokes before a chain and the
    /// chain's own, for the two to count as the same rhythm (``rhythmStrokes``).
    public var rhythmLikeness: Double
    /// Cosine between gravity as the device was held before a shake's strokes began and gravity when they
    /// stopped, below which the device is turned from where the hand held it: the shake ends only when it
    /// comes back within ``postureWait``, and is dropped if it stays turned (a body that fell or lay down).
    /// The default, 0.5, is 60°. -1 turns the rule off.
    public var postureTurn: Double
    /// How long, in seconds, a device turned when a shake's strokes stop may take to come back.
    public var postureWait: Double
    /// How long before a shake's first stroke gravity is taken as where the hand held the device, in seconds.
    public var postureLookback: Double
    /// The longest shake, from its first stroke to its end, in seconds, whose posture is judged (``postureTurn``):
    /// a body falls or lies down in a second or two.
    public var postureSpan: Double
    /// The share of a shake's size below which the motion is no stroke of that shake: once it stays below
    /// for ``endHalfCycles`` half cycles, the hand has stopped. The size is the largest mean strength of its
    /// strokes seen while they looked like a shake.
    public var endLevel: Double
    /// How many of a shake's own half cycles the motion must stay below ``endLevel`` for the shake to
    /// have ended: 2 is a whole cycle of its rhythm with no stroke of its size.
    public var endHalfCycles: Double
    /// The shortest time, in seconds, the motion must stay below ``endLevel`` for a shake to have ended,
    /// however fast its rhythm.
    public var endQuietMinimum: Double
    /// How long, in seconds, a shake may go on after its strokes last looked like a shake before it is
    /// dropped: motion that keeps going at its size without looking like a shake is a body's.
    public var lifeAfterLastMatch: Double
    /// How long, in half cycles of its rhythm, a shake must go on after it began (a stroke of its size
    /// that late): one that stops at once is a knock or a heel strike ringing, not a hand's shake.
    public var sustainHalfCycles: Double

    /// The defaults for a sensitivity level.
    public init(sensitivity: Sensitivity = .medium) {
        switch sensitivity {
        case .low: strokeThreshold = 18
        case .medium: strokeThreshold = 14
        case .high: strokeThreshold = 11
        }
        reversals = 3
        halfPeriod = 0.04...0.25
        linearity = 0.75
        maximumZigzag = 2.0
        lopsidedZigzag = 1.5
        maximumRhythmRatio = 2.5
        gravityTimeConstant = 0.5
        gapReset = 0.5
        activityWindow = 2.0
        activityStrokes = 4
        freeFallLevel = 0.3 * standardGravity
        freeFallDwell = 0.06
        freeFallMemory = 0.5
        calmLevel = 1.5
        calmDwell = 1.0
        freshWindow = 1.5
        switch sensitivity {
        case .low: gentleThreshold = 18  // a firm shake even from stillness
        case .medium: gentleThreshold = 3.5
        case .high: gentleThreshold = 3.5  // lower would take a hand settling for a stroke
        }
        freshHalfPeriodLimit = 0.30
        freshZigzag = 2.5
        slowSweep = 0.10
        shortestSweep = 0.007
        fallTurn = 0.4
        fallLookback = 1.0
        impactCrest = 2.2
        strideRate = 3.5
        strideSway = 0.5
        postureTurn = 0.5
        postureWait = 1.0
        postureLookback = 0.5
        postureSpan = 4
        rhythmMemory = 4
        rhythmStrokes = 6
        rhythmLikeness = 1.4
        endLevel = 0.5
        endHalfCycles = 2
        endQuietMinimum = 0.1
        lifeAfterLastMatch = 2
        sustainHalfCycles = 1
    }

    /// Checks every value and names the first one out of range.
    public func validate() throws(ConfigurationError) {
        func check(_ ok: Bool, _ key: String, _ rule: String) throws(ConfigurationError) {
            if !ok { throw ConfigurationError(key: key, message: rule) }
        }
        try check(strokeThreshold.isFinite && strokeThreshold > 0, "strokeThreshold", "must be above 0 m/s²")
        try check((2...7).contains(reversals), "reversals", "must be from 2 to 7")
        try check(halfPeriod.lowerBound > 0 && halfPeriod.upperBound <= 1, "halfPeriod", "must lie in (0, 1] s")
        try check((-1...1).contains(linearity), "linearity", "is a cosine, from -1 to 1")
        try check(lopsidedZigzag >= 1, "lopsidedZigzag", "must be at least 1")
        try check(maximumZigzag >= lopsidedZigzag, "maximumZigzag", "must be at least lopsidedZigzag")
        try check(maximumRhythmRatio >= 1, "maximumRhythmRatio", "must be at least 1")
        try check(gravityTimeConstant > 0 && gravityTimeConstant <= 10, "gravityTimeConstant", "must lie in (0, 10] s")
        try check(gapReset > 0, "gapReset", "must be above 0 s")
        try check(activityWindow >= 0, "activityWindow", "must be at least 0 s")
        try check(activityStrokes >= 1, "activityStrokes", "must be at least 1")
        try check(freeFallLevel >= 0 && freeFallLevel < standardGravity, "freeFallLevel", "must lie in [0, 9.8) m/s²")
        try check(freeFallDwell > 0 && freeFallDwell <= 1, "freeFallDwell", "must lie in (0, 1] s")
        try check(freeFallMemory >= 0 && freeFallMemory <= 10, "freeFallMemory", "must lie in [0, 10] s")
        try check(calmLevel >= 0, "calmLevel", "must be at least 0 m/s²")
        try check(calmDwell >= 0 && calmDwell <= 10, "calmDwell", "must lie in [0, 10] s")
        try check(freshWindow >= 0 && freshWindow <= 10, "freshWindow", "must lie in [0, 10] s (0 turns gentle shakes off)")
        try check(gentleThreshold.isFinite && gentleThreshold > calmLevel, "gentleThreshold", "must be above calmLevel")
        try check(freshHalfPeriodLimit > 0 && freshHalfPeriodLimit <= 1, "freshHalfPeriodLimit", "must lie in (0, 1] s")
        try check(slowSweep > 0, "slowSweep", "must be above 0 m")
        try check(
            shortestSweep >= 0 && shortestSweep < slowSweep, "shortestSweep",
            "must lie in [0, slowSweep) m (0 turns it off)")
        try check(freshZigzag >= maximumZigzag, "freshZigzag", "must be at least maximumZigzag")
        try check((-1...1).contains(fallTurn), "fallTurn", "is a cosine, from -1 to 1")
        try check(fallLookback > 0 && fallLookback <= 1.75, "fallLookback", "must lie in (0, 1.75] s")
        try check(impactCrest >= 2.0.squareRoot(), "impactCrest", "must be at least √2 (a sine's crest factor); .infinity turns it off")
        try check(strideRate >= 0 && strideRate <= 12, "strideRate", "must lie in [0, 12] Hz (0 turns the stride gate off)")
        try check(strideSway >= 0, "strideSway", "must be at least 0; .infinity turns the stride gate off")
        try check((-1...1).contains(postureTurn), "postureTurn", "is a cosine, from -1 to 1")
        try check(postureWait >= 0 && postureWait <= 5, "postureWait", "must lie in [0, 5] s")
        try check(postureLookback > 0 && postureLookback <= 1.75, "postureLookback", "must lie in (0, 1.75] s")
        try check(postureSpan >= 0 && postureSpan <= 30, "postureSpan", "must lie in [0, 30] s")
        try check(rhythmMemory >= 0 && rhythmMemory <= 10, "rhythmMemory", "must lie in [0, 10] s")
        try check(rhythmStrokes >= 0 && rhythmStrokes <= 16, "rhythmStrokes", "must lie in [0, 16] (0 turns the rule off)")
        try check(rhythmLikeness >= 1, "rhythmLikeness", "must be at least 1")
        try check(endLevel > 0 && endLevel < 1, "endLevel", "must lie in (0, 1): a share of the shake's strokes")
        try check(endHalfCycles > 0 && endHalfCycles <= 10, "endHalfCycles", "must lie in (0, 10] half cycles")
        try check(
            endQuietMinimum >= 0 && endQuietMinimum <= 2, "endQuietMinimum", "must lie in [0, 2] s")
        try check(lifeAfterLastMatch > 0 && lifeAfterLastMatch <= 30, "lifeAfterLastMatch", "must lie in (0, 30] s")
        try check(sustainHalfCycles >= 0 && sustainHalfCycles <= 10, "sustainHalfCycles", "must lie in [0, 10] half cycles")
    }
}

/// A detector setting that is out of range.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting at fault.
    public var key: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error for a setting.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// A readable sentence naming the key.
    public var description: String { "\(key) \(message)" }
}
