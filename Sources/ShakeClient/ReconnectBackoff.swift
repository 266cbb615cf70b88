/// How long to wait before connecting again: exponential backoff with jitter.
///
/// The first delay is ``initial``; each further failure doubles it up to ``maximum``. Each
/// delay is then shortened by a random fraction up to ``jitter``, so that many apps that lost
/// the daemon at the same moment do not all knock again at the same moment. A delay never
/// exceeds ``maximum``. ``reset()`` after a connection succeeds starts over at ``initial``.
public struct ReconnectBackoff: Sendable, Hashable {
    /// The first delay (100 ms by default).
    public var initial: Duration
    /// The longest delay (5 s by default).
    public var maximum: Duration
    /// The largest fraction a delay is shortened by at random (0.2 by default: 80-100 %).
    public var jitter: Double
    /// Failures since the last ``reset()``.
    public private(set) var attempts = 0

    /// Creates a backoff.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5), jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before the next attempt, with `random` in [0, 1) choosing the jitter.
    public mutating func nextDelay(random: Double) -> Duration {
        var delay = initial
        var doublings = attempts
        while doublings > 0 && delay < maximum {
            delay *= 2
            doublings -= 1
        }
        if delay > maximum { delay = maximum }
        attempts += 1
        let fraction = 1 - jitter * min(max(random, 0), 1)
        return delay * fraction
    }

    /// The delay before the next attempt, jittered by the system's random numbers.
    public mutating func nextDelay() -> Duration {
        nextDelay(random: Double.random(in: 0..<1))
    }

    /// Starts over at ``initial``, after a connection succeeded.
    public mutating func reset() {
        attempts = 0
    }
}
