// Strict parsers for the text of IIO sysfs attributes. Pure functions, tested with tables.

/// How one axis's raw readings become m/s²: `value = (raw + offset) × scale`.
public struct AxisCalibration: Sendable, Hashable {
    /// m/s² per raw unit (`in_accel_x_scale`, or the shared `in_accel_scale`).
    public var scale: Double
    /// Added to the raw value before scaling (`in_accel_x_offset`, or the shared `in_accel_offset`).
    public var offset: Double

    /// Creates a calibration.
    public init(scale: Double, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    /// Converts a raw reading to m/s².
    @inline(__always)
    public func convert(_ raw: Int64) -> Double { (Double(raw) + offset) * scale }
}

/// Parses a decimal attribute such as a scale (`0.009576806`) or an offset (`-12`); nil if it is not one finite number.
public func parseDecimal(_ text: some StringProtocol) -> Double? {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
        let value = Double(trimmed), value.isFinite
    else { return nil }
    return value
}

/// Parses a scale attribute: a finite, non-zero decimal.
public func parseScale(_ text: some StringProtocol) -> Double? {
    guard let value = parseDecimal(text), value != 0 else { return nil }
    return value
}

/// Parses a raw reading (`in_accel_x_raw`): an integer.
public func parseRaw(_ text: some StringProtocol) -> Int64? {
    Int64(text.trimmingWhitespace())
}

/// The rates a device offers, from `sampling_frequency_available`.
public enum AvailableRates: Sendable, Hashable {
    /// A list of rates, e.g. `12.5 25 50 100 200`.
    case list([Double])
    /// A range `[min step max]`.
    case range(min: Double, step: Double, max: Double)

    /// The rates believed, in Hz: a period of 1e9 / rate ns must be a whole, representable number
    /// of nanoseconds (a rate of 1e-300 Hz overflowed Int64, a trap, found by fuzzing).
    public static let plausible: ClosedRange<Double> = 0.001...1_000_000

    /// Parses either form; nil if the text is neither, or offers a rate outside ``plausible``.
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            let parts = trimmed.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3, let lo = parseDecimal(parts[0]), let step = parseDecimal(parts[1]),
                let hi = parseDecimal(parts[2]), Self.plausible.contains(lo), step >= 0, hi >= lo,
                Self.plausible.contains(hi)
            else { return nil }
            self = .range(min: lo, step: step, max: hi)
            return
        }
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var rates: [Double] = []
        for part in parts {
            guard let rate = parseDecimal(part), Self.plausible.contains(rate) else { return nil }
            rates.append(rate)
        }
        guard !rates.isEmpty else { return nil }
        self = .list(rates.sorted())
    }

    /// The lowest rate at or above `wanted`, or the highest rate when none reaches it.
    public func choose(atLeast wanted: Double) -> Double {
        switch self {
        case .list(let rates):
            return rates.first(where: { $0 >= wanted - 1e-9 }) ?? rates.last!
        case .range(let lo, let step, let hi):
            if wanted <= lo { return lo }
            if wanted >= hi { return hi }
            guard step > 0 else { return wanted }
            let steps = ((wanted - lo) / step - 1e-9).rounded(.up)
            return min(hi, lo + steps * step)
        }
    }
}

/// The text to write for a rate: `100`, or `12.5`.
func rateText(_ rate: Double) -> String { formatNumber(rate) }
