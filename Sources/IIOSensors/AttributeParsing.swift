import TextSafety

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

/// The scales accepted, in m/s² per raw unit: positive, at most 1000 (real ones are below 1).
public let plausibleScales: ClosedRange<Double> = Double.leastNonzeroMagnitude...1000
/// The offsets accepted, in raw units (real ones are small counts).
public let plausibleOffsets: ClosedRange<Double> = -4_294_967_296...4_294_967_296
/// The sampling rates accepted, in Hz, from sysfs or a configuration.
public let plausibleRates: ClosedRange<Double> = 0.001...100_000
/// The most rates a `sampling_frequency_available` list may offer.
public let maximumRateCount = 256

/// Parses a scale attribute: a positive decimal within ``plausibleScales``.
public func parseScale(_ text: some StringProtocol) -> Double? {
    guard let value = parseDecimal(text), plausibleScales.contains(value) else { return nil }
    return value
}

/// Parses an offset attribute: a decimal within ``plausibleOffsets``.
public func parseOffset(_ text: some StringProtocol) -> Double? {
    guard let value = parseDecimal(text), plausibleOffsets.contains(value) else { return nil }
    return value
}

/// Parses a rate attribute (`sampling_frequency`): a decimal within ``plausibleRates``.
public func parseRate(_ text: some StringProtocol) -> Double? {
    guard let value = parseDecimal(text), plausibleRates.contains(value) else { return nil }
    return value
}

/// A rate brought within ``plausibleRates`` (100 Hz for NaN), so every period and count derived from it is finite.
func clampRate(_ rate: Double) -> Double {
    rate.isNaN ? 100 : min(max(rate, plausibleRates.lowerBound), plausibleRates.upperBound)
}

/// The period of a rate in ns (the rate clamped first, so the conversion cannot trap).
func periodNanoseconds(_ rate: Double) -> Int64 {
    Int64((1e9 / clampRate(rate)).rounded())
}

/// Wake-ups a second brought within 0.1 ... 1000 (10 for NaN).
func clampWakeups(_ wakeupsPerSecond: Double) -> Double {
    wakeupsPerSecond.isNaN ? 10 : min(max(wakeupsPerSecond, 0.1), 1000)
}

/// Scans per wake-up for a rate and a number of wake-ups a second: 1 ... 1024.
func scansPerWakeup(rate: Double, wakeupsPerSecond: Double) -> Int {
    Int(min(max((clampRate(rate) / clampWakeups(wakeupsPerSecond)).rounded(), 1), 1024))
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

    /// The highest rate offered.
    public var fastest: Double? {
        switch self {
        case .list(let rates): rates.max()
        case .range(_, _, let hi): hi
        }
    }

    /// Parses either form; nil if the text is neither, lists more than ``maximumRateCount`` rates,
    /// or has a rate outside ``plausibleRates``.
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            let parts = trimmed.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3, let lo = parseRate(parts[0]), let step = parseDecimal(parts[1]),
                let hi = parseRate(parts[2]), step >= 0, step <= hi, hi >= lo
            else { return nil }
            self = .range(min: lo, step: step, max: hi)
            return
        }
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count <= maximumRateCount else { return nil }
        var rates: [Double] = []
        for part in parts {
            guard let rate = parseRate(part) else { return nil }
            rates.append(rate)
        }
        guard !rates.isEmpty else { return nil }
        self = .list(rates.sorted())
    }

    /// The lowest rate at or above `wanted`, or the highest rate when none reaches it.
    public func choose(atLeast wanted: Double) -> Double {
        switch self {
        case .list(let rates):
            return rates.first(where: { $0 >= wanted - 1e-9 }) ?? rates.last ?? wanted
        case .range(let lo, let step, let hi):
            if wanted <= lo { return lo }
            if wanted >= hi { return hi }
            guard step > 0, !wanted.isNaN else { return wanted }
            let steps = ((wanted - lo) / step - 1e-9).rounded(.up)
            return min(hi, lo + steps * step)
        }
    }
}

/// The text to write for a rate: `100`, or `12.5`.
func rateText(_ rate: Double) -> String { formatNumber(rate) }
