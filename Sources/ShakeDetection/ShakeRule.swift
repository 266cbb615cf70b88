/// A rule that stops a chain of strokes from being a shake: the name a near miss carries
/// (``ShakePhase/nearMiss(_:_:)``), so a person whose shake was missed, or a contributor looking at a
/// recording, can see why.
///
/// The first group are the shape of a hand's shake; the second are the gates against a body's motion,
/// which nothing ever relaxes.
public enum ShakeRule: String, Sendable, Hashable, CaseIterable {
    /// The rhythm is outside a hand's: the mean half cycle lies outside the shake band.
    case rhythm
    /// The rhythm is uneven: the longest half cycle is too many times the shortest.
    case unevenRhythm = "uneven rhythm"
    /// Every other stroke does not stay on one line.
    case offLine = "off its line"
    /// Neighbouring strokes are unlike in strength, as gait's impact and rebound are.
    case unlikeStrokes = "unlike strokes"
    /// The device moved too little (a jiggle), or too far for so slow a rhythm (an arm or a body swinging).
    case sweep
    /// Near a free fall: the flight of a jump, a drop.
    case freeFall = "free fall"
    /// Dying away after the device turned over: a body that fell, ringing on what it landed on. (A shake
    /// whose device comes to rest turned is dropped at its end for the same reason: ``DropReason/postureChanged``.)
    case turnedOver = "turned over"
    /// A train of impacts: its strongest stroke stands far above the motion around it (foot strikes).
    case impacts
    /// A body's strides: slower than a hand shakes, and swaying far off its line.
    case strides
    /// The rhythm, strength and line the body already kept for seconds before: nothing new began.
    case bodyRhythm = "the body's rhythm"

    /// The rule's place in ``ShakeRules``, without the array that `allCases` would make.
    var bit: UInt16 {
        switch self {
        case .rhythm: 1 << 0
        case .unevenRhythm: 1 << 1
        case .offLine: 1 << 2
        case .unlikeStrokes: 1 << 3
        case .sweep: 1 << 4
        case .freeFall: 1 << 5
        case .turnedOver: 1 << 6
        case .impacts: 1 << 7
        case .strides: 1 << 8
        case .bodyRhythm: 1 << 9
        }
    }

    /// Whether the rule tells a body's motion from a hand's: those never relax for anyone.
    public var guardsAgainstTheBody: Bool {
        switch self {
        case .freeFall, .turnedOver, .impacts, .strides, .bodyRhythm: true
        case .rhythm, .unevenRhythm, .offLine, .unlikeStrokes, .sweep: false
        }
    }
}

/// The rules a chain failed, as a set of bits (no allocation).
public struct ShakeRules: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The set holding one rule.
    public init(_ rule: ShakeRule) { rawValue = rule.bit }

    /// The rules that guard against the body's motion (``ShakeRule/guardsAgainstTheBody``).
    public static let body: ShakeRules = [
        .init(.freeFall), .init(.turnedOver), .init(.impacts), .init(.strides), .init(.bodyRhythm),
    ]

    /// The one rule in the set, nil when it holds none or several.
    public var single: ShakeRule? {
        guard rawValue != 0, rawValue & (rawValue - 1) == 0 else { return nil }
        switch rawValue.trailingZeroBitCount {
        case 0: return .rhythm
        case 1: return .unevenRhythm
        case 2: return .offLine
        case 3: return .unlikeStrokes
        case 4: return .sweep
        case 5: return .freeFall
        case 6: return .turnedOver
        case 7: return .impacts
        case 8: return .strides
        case 9: return .bodyRhythm
        default: return nil
        }
    }
}

extension ShakeRule {
    /// The rule's name on a command line (`--without body-rhythm`).
    public var key: String {
        switch self {
        case .rhythm: "rhythm"
        case .unevenRhythm: "uneven-rhythm"
        case .offLine: "off-line"
        case .unlikeStrokes: "unlike-strokes"
        case .sweep: "sweep"
        case .freeFall: "free-fall"
        case .turnedOver: "turned-over"
        case .impacts: "impacts"
        case .strides: "strides"
        case .bodyRhythm: "body-rhythm"
        }
    }

    /// The rule whose ``key`` or name is `text`, nil for none.
    public init?(key text: String) {
        guard let rule = Self.allCases.first(where: { $0.key == text || $0.rawValue == text }) else { return nil }
        self = rule
    }
}

extension ShakeDetectorConfiguration {
    /// These settings with `rules` turned off: for measuring what each rule buys (`shakectl evaluate
    /// --without RULE`) and for tests that show a rule is what stops a motion.
    public func without(_ rules: some Sequence<ShakeRule>) -> ShakeDetectorConfiguration {
        var c = self
        for rule in rules {
            switch rule {
            case .rhythm:
                c.halfPeriod = 0.001...1
                c.freshHalfPeriodLimit = 1
            case .unevenRhythm: c.maximumRhythmRatio = .infinity
            case .offLine: c.linearity = -1
            case .unlikeStrokes:
                c.maximumZigzag = .infinity
                c.freshZigzag = .infinity
            case .sweep:
                c.slowSweep = .infinity
                c.shortestSweep = 0
            case .freeFall: c.freeFallLevel = 0
            case .turnedOver:
                c.fallTurn = -1
                c.postureTurn = -1
            case .impacts: c.impactCrest = .infinity
            case .strides: c.strideSway = .infinity
            case .bodyRhythm: c.rhythmStrokes = 0
            }
        }
        return c
    }
}
