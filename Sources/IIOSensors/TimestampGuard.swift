/// Turns the timestamps a device reports into sample times that only go forward, by plausible steps.
///
/// A buffer's timestamp channel is device data: it may jump to `Int64.max`, wrap, go backwards
/// or stand still. Each time this gives is within `0...latest` and later than the one before;
/// a small step back (jitter) becomes the previous time plus 1 ns, as before. A jump out of
/// that range, backwards by more than ``maxGap`` or forwards by more than ``maxGap``, is a
/// discontinuity: the sample gets the previous time plus one period, and the device's later
/// timestamps are shifted by the same amount, so a clock that jumped once carries on smoothly.
/// All arithmetic on device values is checked, so no timestamp can trap.
public struct TimestampGuard: Sendable, Hashable {
    /// The latest time handed out, in ns (2⁶², about 146 years): far from `Int64.max`, so adding
    /// periods to it cannot overflow.
    public static let latest: Int64 = 1 << 62

    /// The sample period in ns: a discontinuity is bridged by one period.
    public let period: Int64
    /// The longest plausible step between two samples, in ns.
    public let maxGap: Int64
    /// The last time handed out.
    public private(set) var last: Int64?
    /// How many discontinuities were bridged (for tests and statistics).
    public private(set) var discontinuities = 0
    /// Added to the device's timestamps since the last discontinuity.
    private var shift: Int64 = 0

    /// A guard for samples `period` ns apart (clamped to 1 ns ... 1000 s), allowing steps up to `maxGap`.
    public init(period: Int64, maxGap: Int64 = 60_000_000_000) {
        self.period = min(max(period, 1), 1_000_000_000_000)
        self.maxGap = max(maxGap, self.period)
    }

    /// The time of the next sample: the device's `timestamp` when it has one and it is plausible,
    /// else `fallback` (the read time on CLOCK_MONOTONIC, spaced by the period).
    public mutating func next(device timestamp: Int64?, fallback: Int64) -> Int64 {
        let time: Int64
        if let timestamp {
            time = map(timestamp, fallback: fallback)
        } else {
            let clamped = min(max(fallback, 0), Self.latest)
            if let last, clamped <= last { time = last + 1 } else { time = clamped }
        }
        last = time
        return time
    }

    private mutating func map(_ timestamp: Int64, fallback: Int64) -> Int64 {
        let (mapped, overflow) = timestamp.addingReportingOverflow(shift)
        if !overflow, mapped >= 0, mapped <= Self.latest {
            guard let last else { return mapped }
            let (step, stepOverflow) = mapped.subtractingReportingOverflow(last)
            if !stepOverflow, step > 0, step <= maxGap { return mapped }
            if !stepOverflow, step <= 0, step >= -maxGap { return last + 1 }
        }
        // A discontinuity: one period on, and later timestamps shifted to follow on from here.
        discontinuities += 1
        let time = last.map { $0 + period } ?? min(max(fallback, 0), Self.latest)
        shift = time &- timestamp
        return time
    }
}
