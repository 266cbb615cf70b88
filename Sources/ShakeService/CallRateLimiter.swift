/// A token bucket: `rate` calls per second, bursts up to `rate`. The rate is given at each call,
/// so a reload that changes it applies at once.
struct CallRateLimiter: Sendable {
    private var tokens: Double?
    private var last: ContinuousClock.Instant

    init(now: ContinuousClock.Instant = .now) {
        last = now
    }

    /// Takes one call's token; false when the caller is over `rate` calls a second.
    mutating func admit(rate: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let rate = Double(max(1, rate))
        let elapsed = now - last
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let available = min(rate, (tokens ?? rate) + max(0, seconds) * rate)
        guard available >= 1 else {
            tokens = available
            return false
        }
        tokens = available - 1
        return true
    }
}
