import ShakeDetection
import TextSafety

extension ShakedSettings {
    /// `[detector]`: a sensitivity level, and optional overrides of single tunables.
    ///
    /// Each override left nil takes the value of the chosen sensitivity (see ``ShakeDetectorConfiguration``);
    /// ``configuration`` gives the result. Ranges are checked by ``ShakeDetectorConfiguration/validate()``,
    /// so the detector and the configuration file agree on them.
    public struct Detector: Sendable, Equatable {
        /// The named preset the tunables start from (`sensitivity`).
        public var sensitivity: Sensitivity
        /// Overrides ``ShakeDetectorConfiguration/strokeThreshold`` (`stroke-threshold`, m/s²).
        public var strokeThreshold: Double?
        /// Overrides ``ShakeDetectorConfiguration/reversals`` (`reversals`).
        public var reversals: Int?
        /// Overrides the lower end of ``ShakeDetectorConfiguration/halfPeriod`` (`half-period-min`, s).
        public var halfPeriodMin: Double?
        /// Overrides the upper end of ``ShakeDetectorConfiguration/halfPeriod`` (`half-period-max`, s).
        public var halfPeriodMax: Double?
        /// Overrides ``ShakeDetectorConfiguration/linearity`` (`linearity`, a cosine).
        public var linearity: Double?
        /// Overrides ``ShakeDetectorConfiguration/maximumZigzag`` (`maximum-zigzag`).
        public var maximumZigzag: Double?
        /// Overrides ``ShakeDetectorConfiguration/maximumRhythmRatio`` (`maximum-rhythm-ratio`).
        public var maximumRhythmRatio: Double?
        /// Overrides ``ShakeDetectorConfiguration/gravityTimeConstant`` (`gravity-time-constant`, s).
        public var gravityTimeConstant: Double?
        /// Overrides ``ShakeDetectorConfiguration/settleTime`` (`settle-time`, s).
        public var settleTime: Double?
        /// Overrides ``ShakeDetectorConfiguration/maximumHoldoff`` (`maximum-holdoff`, s).
        public var maximumHoldoff: Double?
        /// Overrides ``ShakeDetectorConfiguration/gapReset`` (`gap-reset`, s).
        public var gapReset: Double?
        /// Overrides ``ShakeDetectorConfiguration/activityWindow`` (`activity-window`, s).
        public var activityWindow: Double?
        /// Overrides ``ShakeDetectorConfiguration/activityStrokes`` (`activity-strokes`).
        public var activityStrokes: Int?

        /// Creates detector settings at a sensitivity, with no overrides.
        public init(sensitivity: Sensitivity = .medium) {
            self.sensitivity = sensitivity
        }

        /// The detector's tunables: the sensitivity's defaults with every override applied.
        ///
        /// Settings that came through ``ShakedSettings/load(configFile:etcDirectory:)`` always give a valid
        /// configuration. Set by hand, a half-period range with its ends swapped is taken with them sorted.
        public var configuration: ShakeDetectorConfiguration {
            var c = ShakeDetectorConfiguration(sensitivity: sensitivity)
            if let strokeThreshold { c.strokeThreshold = strokeThreshold }
            if let reversals { c.reversals = reversals }
            let low = halfPeriodMin ?? c.halfPeriod.lowerBound
            let high = halfPeriodMax ?? c.halfPeriod.upperBound
            c.halfPeriod = min(low, high)...max(low, high)
            if let linearity { c.linearity = linearity }
            if let maximumZigzag { c.maximumZigzag = maximumZigzag }
            if let maximumRhythmRatio { c.maximumRhythmRatio = maximumRhythmRatio }
            if let gravityTimeConstant { c.gravityTimeConstant = gravityTimeConstant }
            if let settleTime { c.settleTime = settleTime }
            if let maximumHoldoff { c.maximumHoldoff = maximumHoldoff }
            if let gapReset { c.gapReset = gapReset }
            if let activityWindow { c.activityWindow = activityWindow }
            if let activityStrokes { c.activityStrokes = activityStrokes }
            return c
        }

        /// Whether any tunable is overridden.
        public var hasOverrides: Bool { self != Detector(sensitivity: sensitivity) }

        /// Every problem with the overrides, each with the configuration keys it concerns (the key most to
        /// blame first) and a message that names the value and the allowed range.
        ///
        /// Each override is first checked alone against the sensitivity's defaults, so that one bad value
        /// does not hide another; then, if all pass, the whole configuration, for rules that tie two
        /// tunables together (the hold-off may not be shorter than the settle time).
        func problems() -> [(keys: [String], message: String)] {
            var found: [(keys: [String], message: String)] = []
            let preset = ShakeDetectorConfiguration(sensitivity: sensitivity).halfPeriod
            let low = halfPeriodMin ?? preset.lowerBound
            let high = halfPeriodMax ?? preset.upperBound
            if low > high {
                found.append(
                    (
                        halfPeriodMin != nil ? ["half-period-min", "half-period-max"] : ["half-period-max"],
                        "half-period-min (\(formatNumber(low)) s) is above half-period-max (\(formatNumber(high)) s); "
                            + "the shortest half period must not exceed the longest"
                    ))
            }
            for field in Self.fields {
                guard field.isSet(self) else { continue }
                var alone = Detector(sensitivity: sensitivity)
                field.copy(self, &alone)
                do throws(ConfigurationError) {
                    try alone.configuration.validate()
                } catch {
                    if error.key == field.swiftName {
                        found.append(([field.key], "is \(field.value(self)); it \(Self.kebabCase(error.message))"))
                    }
                }
            }
            guard found.isEmpty else { return found }
            let whole = configuration
            do throws(ConfigurationError) {
                try whole.validate()
            } catch {
                if error.key == "maximumHoldoff" {
                    found.append(
                        (
                            ["maximum-holdoff", "settle-time"],
                            "maximum-holdoff (\(formatNumber(whole.maximumHoldoff)) s) must be at least "
                                + "settle-time (\(formatNumber(whole.settleTime)) s); raise maximum-holdoff "
                                + "or lower settle-time"
                        ))
                } else {
                    found.append(([Self.kebabCase(error.key)], Self.kebabCase(error.message)))
                }
            }
            return found
        }

        /// One overridable tunable: its key in the file, its name in ``ShakeDetectorConfiguration``'s errors.
        struct Field {
            let key: String
            let swiftName: String
            let isSet: (Detector) -> Bool
            let copy: (Detector, inout Detector) -> Void
            let value: (Detector) -> String
        }

        static func field<T>(_ path: WritableKeyPath<Detector, T?>, _ swiftName: String, key: String? = nil) -> Field {
            Field(
                key: key ?? kebabCase(swiftName), swiftName: swiftName, isSet: { $0[keyPath: path] != nil },
                copy: { $1[keyPath: path] = $0[keyPath: path] },
                value: { d in d[keyPath: path].map { v in (v as? Double).map(formatNumber) ?? "\(v)" } ?? "unset" })
        }

        static var fields: [Field] {
            [
                field(\.strokeThreshold, "strokeThreshold"), field(\.reversals, "reversals"),
                field(\.halfPeriodMin, "halfPeriod", key: "half-period-min"),
                field(\.halfPeriodMax, "halfPeriod", key: "half-period-max"), field(\.linearity, "linearity"),
                field(\.maximumZigzag, "maximumZigzag"), field(\.maximumRhythmRatio, "maximumRhythmRatio"),
                field(\.gravityTimeConstant, "gravityTimeConstant"), field(\.settleTime, "settleTime"),
                field(\.maximumHoldoff, "maximumHoldoff"), field(\.gapReset, "gapReset"),
                field(\.activityWindow, "activityWindow"), field(\.activityStrokes, "activityStrokes"),
            ]
        }

        /// `settleTime` → `settle-time`, for every camel-case word in a text.
        static func kebabCase(_ text: String) -> String {
            var out = ""
            var previous: Character = " "
            for c in text {
                if c.isUppercase && previous.isLetter {
                    out.append("-")
                    out.append(Character(c.lowercased()))
                } else {
                    out.append(c)
                }
                previous = c
            }
            return out
        }
    }
}
