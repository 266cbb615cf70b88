/// A token bucket: `rate` calls per second, bursts up to `rate`.
struct CallRateLimiter {
    private let rate: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(callsPerSecond: Int, now: ContinuousClock.Instant = .now) {
        rate = Double(max(1, callsPerSecond))
        tokens = rate
        last = now
    }

    /// Takes one call's token; false when the caller is over the rate.
    mutating func admit(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = now - last
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(rate, tokens + seconds * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
