/// The sample stream a reading path delivers, emulated on a recorded trace: fewer samples a second
/// than the trace has, and periodic gaps where another reader holds the sensor.
///
/// For judging what a reading path costs in hits and false alarms before building it (issue 28):
/// polling at a slower rate, a driver that sleeps on every raw read (st_accel sleeps two sample
/// periods per axis, so three axes at 100 Hz give about 16 samples a second), or sharing the node in
/// time with iio-sensor-proxy, which opens it every 700 ms and takes what it finds.
public struct SampleStream: Sendable, Equatable {
    /// Samples a second, nil for the trace's own rate.
    public var rate: Double?
    /// Every `gapPeriod` seconds, the last `gapLength` seconds of samples are lost; nil for none.
    public var gaps: (period: Double, length: Double)?

    /// A stream at `rate` (Hz) with `gaps`; either may be nil.
    public init(rate: Double? = nil, gaps: (period: Double, length: Double)? = nil) {
        self.rate = rate
        self.gaps = gaps
    }

    public static func == (a: SampleStream, b: SampleStream) -> Bool {
        a.rate == b.rate && a.gaps?.period == b.gaps?.period && a.gaps?.length == b.gaps?.length
    }

    /// Parses `PERIOD:LENGTH` in milliseconds ("700:300": every 700 ms, the last 300 ms are lost);
    /// nil unless 0 < LENGTH < PERIOD <= 60 s.
    public static func gaps(parsing text: String) -> (period: Double, length: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let period = Double(parts[0]), let length = Double(parts[1]),
            period.isFinite, length.isFinite, length > 0, length < period, period <= 60_000
        else { return nil }
        return (period / 1000, length / 1000)
    }

    /// A filter that says, sample by sample in time order, which samples the stream delivers.
    public func filter() -> Filter {
        Filter(
            interval: rate.map { Int64(1e9 / $0) },
            gapPeriod: gaps.map { Int64($0.period * 1e9) }, gapLength: gaps.map { Int64($0.length * 1e9) })
    }

    /// Keeps the first sample at or after each due time (one interval apart, so the average rate is
    /// the stream's), and drops those that fall in a gap; times count from the first sample seen.
    public struct Filter: Sendable {
        let interval: Int64?
        let gapPeriod: Int64?
        let gapLength: Int64?
        var origin: Int64?
        var due: Int64?

        /// Whether the stream delivers the sample taken at `timestamp` (nanoseconds).
        public mutating func admits(_ timestamp: Int64) -> Bool {
            let origin = self.origin ?? timestamp
            self.origin = origin
            if let gapPeriod, let gapLength {
                let phase = (timestamp &- origin) % gapPeriod
                if phase >= gapPeriod - gapLength { return false }
            }
            guard let interval else { return true }
            if let due, timestamp < due { return false }
            // The first sample, or behind by more than an interval (after a gap): start again from here.
            if let due, timestamp &- due <= interval {
                self.due = due &+ interval
            } else {
                self.due = timestamp &+ interval
            }
            return true
        }
    }
}
