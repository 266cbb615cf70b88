#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CLOCK_MONOTONIC in nanoseconds: the clock IIO stamps samples with when it has no timestamp
/// channel, that replayed and synthetic samples are stamped with, and that systemd and monitor
/// events are given. One reading for every module, so all their times compare.
@inlinable
public func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
