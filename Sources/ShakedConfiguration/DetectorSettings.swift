import ShakeDetection
import TextSafety

extension ShakedSettings {
    /// `[Detector]`: a sensitivity level, and optional overrides of single tunables.
    ///
    /// Each override left nil takes the value of the chosen sensitivity (see ``ShakeDetectorConfiguration``);
    /// ``configuration`` gives the result. Ranges are checked by ``ShakeDetectorConfiguration/validate()``,
    /// so the detector and the configuration file agree on them.
    public struct Detector: Sendable, Equatable {
        /// The named preset the tunables start from (`Sensitivity`).
        public var sensitivity: Sensitivity
        /// Overrides ``ShakeDetectorConfiguration/strokeThreshold`` (`StrokeThreshold`, m/s²).
        public var strokeThreshold: Double?
        /// Overrides ``ShakeDetectorConfiguration/reversals`` (`Reversals`).
        public var reversals: Int?
        /// Overrides the lower end of ``ShakeDetectorConfiguration/halfPeriod`` (`HalfPeriodMin`, s).
        public var halfPeriodMin: Double?
        /// Overrides the upper end of ``ShakeDetectorConfiguration/halfPeriod`` (`HalfPeriodMax`, s).
        public var halfPeriodMax: Double?
        /// Overrides ``ShakeDetectorConfiguration/linearity`` (`Linearity`, a cosine).
        public var linearity: Double?
        /// Overrides ``ShakeDetectorConfiguration/maximumZigzag`` (`MaximumZigzag`).
        public var maximumZigzag: Double?
        /// Overrides ``ShakeDetectorConfiguration/maximumRhythmRatio`` (`MaximumRhythmRatio`).
        public var maximumRhythmRatio: Double?
        /// Overrides ``ShakeDetectorConfiguration/gravityTimeConstant`` (`GravityTimeConstant`, s).
        public var gravityTimeConstant: Double?
        /// Overrides ``ShakeDetectorConfiguration/gapReset`` (`GapReset`, s).
        public var gapReset: Double?
        /// Overrides ``ShakeDetectorConfiguration/activityWindow`` (`ActivityWindow`, s).
        public var activityWindow: Double?
        /// Overrides ``ShakeDetectorConfiguration/activityStrokes`` (`ActivityStrokes`).
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
            for field in Self.fields { field.apply(self, &c) }
            let low = halfPeriodMin ?? c.halfPeriod.lowerBound
            let high = halfPeriodMax ?? c.halfPeriod.upperBound
            c.halfPeriod = min(low, high)...max(low, high)
            return c
        }

        /// Whether any tunable is overridden.
        public var hasOverrides: Bool { self != Detector(sensitivity: sensitivity) }

        /// Every problem with the overrides, each with the configuration keys it concerns (the key most to
        /// blame first) and a message that names the value and the allowed range.
        ///
        /// Each override is first checked alone against the sensitivity's defaults, so that one bad value
        /// does not hide another; then, if all pass, the whole configuration, for any rule that ties two
        /// tunables together.
        func problems() -> [(keys: [String], message: String)] {
            var found: [(keys: [String], message: String)] = []
            let preset = ShakeDetectorConfiguration(sensitivity: sensitivity).halfPeriod
            let low = halfPeriodMin ?? preset.lowerBound
            let high = halfPeriodMax ?? preset.upperBound
            if low > high {
                found.append(
                    (
                        halfPeriodMin != nil ? ["HalfPeriodMin", "HalfPeriodMax"] : ["HalfPeriodMax"],
                        "HalfPeriodMin (\(formatNumber(low)) s) is above HalfPeriodMax (\(formatNumber(high)) s); "
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
                        found.append(([field.key], "is \(field.value(self)); it \(Self.settingNames(error.message))"))
                    }
                }
            }
            guard found.isEmpty else { return found }
            let whole = configuration
            do throws(ConfigurationError) {
                try whole.validate()
            } catch {
                found.append(([Self.settingNames(error.key)], Self.settingNames(error.message)))
            }
            return found
        }

        /// One overridable tunable: its key in the file, its name in ``ShakeDetectorConfiguration``'s errors,
        /// and how it is read, applied and shown. ``fields`` is the one list of them.
        struct Field {
            let key: String
            let swiftName: String
            let isSet: (Detector) -> Bool
            let copy: (Detector, inout Detector) -> Void
            let value: (Detector) -> String
            /// Stores a value from the file; empty removes the override.
            let read: (String, inout Detector) throws(SettingKey.Failure) -> Void
            /// Puts the override, when set, into a configuration (the half period's ends are put together
            /// by ``configuration``).
            let apply: (Detector, inout ShakeDetectorConfiguration) -> Void
            /// The value in force in a configuration, as written in the file.
            let effective: (ShakeDetectorConfiguration) -> String
        }

        static func field<T: TunableValue>(
            _ path: WritableKeyPath<Detector, T?>, _ swiftName: String, key: String? = nil,
            target: WritableKeyPath<ShakeDetectorConfiguration, T>? = nil,
            effective: ((ShakeDetectorConfiguration) -> T)? = nil
        ) -> Field {
            Field(
                key: key ?? (swiftName.prefix(1).uppercased() + swiftName.dropFirst()), swiftName: swiftName,
                isSet: { $0[keyPath: path] != nil }, copy: { $1[keyPath: path] = $0[keyPath: path] },
                value: { $0[keyPath: path]?.settingText ?? "unset" },
                read: { text, detector throws(SettingKey.Failure) in
                    detector[keyPath: path] = text.isEmpty ? nil : try T(setting: text, unit: "")
                },
                apply: { detector, c in
                    if let target, let value = detector[keyPath: path] { c[keyPath: target] = value }
                },
                effective: { c in (effective?(c) ?? target.map { c[keyPath: $0] })?.settingText ?? "" })
        }

        static var fields: [Field] {
            [
                field(\.strokeThreshold, "strokeThreshold", target: \.strokeThreshold),
                field(\.reversals, "reversals", target: \.reversals),
                field(\.halfPeriodMin, "halfPeriod", key: "HalfPeriodMin", effective: { $0.halfPeriod.lowerBound }),
                field(\.halfPeriodMax, "halfPeriod", key: "HalfPeriodMax", effective: { $0.halfPeriod.upperBound }),
                field(\.linearity, "linearity", target: \.linearity),
                field(\.maximumZigzag, "maximumZigzag", target: \.maximumZigzag),
                field(\.maximumRhythmRatio, "maximumRhythmRatio", target: \.maximumRhythmRatio),
                field(\.gravityTimeConstant, "gravityTimeConstant", target: \.gravityTimeConstant),
                field(\.gapReset, "gapReset", target: \.gapReset),
                field(\.activityWindow, "activityWindow", target: \.activityWindow),
                field(\.activityStrokes, "activityStrokes", target: \.activityStrokes),
            ]
        }

        /// Keys of `[Detector]` that earlier versions had, and why they are gone: a file that still sets
        /// one is told so by name (an error, as for any key shaked does not know).
        static let retiredKeys: [String: String] = [
            "SettleTime": "a shake is answered when the hand stops, and nothing holds off after it",
            "MaximumHoldoff": "a shake is answered when the hand stops, and nothing holds off after it",
        ]

        /// `strokeThreshold` → `StrokeThreshold`, the name in the file, for every camel-case word in a text.
        static func settingNames(_ text: String) -> String {
            var out = ""
            var word = ""
            func flush() {
                if let first = word.first, first.isLowercase, word.contains(where: \.isUppercase) {
                    out += first.uppercased() + word.dropFirst()
                } else {
                    out += word
                }
                word = ""
            }
            for c in text {
                if c.isLetter {
                    word.append(c)
                } else {
                    flush()
                    out.append(c)
                }
            }
            flush()
            return out
        }
    }
}

/// A value as the file writes it: a number, or a whole number.
protocol TunableValue {
    /// Reads the value; `unit` goes into the message when the text is not a number.
    init(setting text: String, unit: String) throws(SettingKey.Failure)
    var settingText: String { get }
}

extension Double: TunableValue {
    init(setting text: String, unit: String = "") throws(SettingKey.Failure) {
        self = try SettingKey.finiteNumber(text, unit: unit)
    }
    var settingText: String { formatNumber(self) }
}

extension Int: TunableValue {
    init(setting text: String, unit: String = "") throws(SettingKey.Failure) { self = try SettingKey.wholeNumber(text) }
    var settingText: String { String(self) }
}
