import MonotonicClock

/// When to try a failed sensor again: a delay that doubles from ``initial`` up to ``maximum``.
///
/// A pure value, driven by the reading loop: ``next(now:)`` at each failure gives the delay
/// to wait. A sensor that then worked for at least ``maximum`` before failing again starts
/// over at ``initial`` (``succeeded(now:)`` records when it started working), so a sensor that
/// flaps quickly is not hammered, and one that failed once after hours is retried at once.
struct RetryBackoff: Sendable, Hashable {
    /// The first delay, in nanoseconds.
    let initial: Int64
    /// The longest delay, in nanoseconds.
    let maximum: Int64
    /// The delay the next failure gets.
    private(set) var current: Int64
    /// When the sensor last started working (monotonic ns), if it is working.
    private var workingSince: Int64?

    /// A schedule from `initial` doubling to `maximum` (0.5 s to 30 s by default).
    init(initial: Int64 = 500_000_000, maximum: Int64 = 30_000_000_000) {
        self.initial = max(1, initial)
        self.maximum = max(self.initial, maximum)
        current = self.initial
    }

    /// The sensor works (again) from `now`.
    mutating func succeeded(now: Int64) {
        workingSince = now
    }

    /// The sensor failed at `now`: the delay before the next try, in nanoseconds.
    mutating func next(now: Int64) -> Int64 {
        if let since = workingSince, now &- since >= maximum { current = initial }
        workingSince = nil
        let delay = current
        current = current > maximum / 2 ? maximum : current * 2
        return delay
    }
}

/// A delay for status lines: `0.5 s`, `4 s`, `30 s`.
func secondsText(_ nanoseconds: Int64) -> String { Duration.nanoseconds(nanoseconds).secondsText }
