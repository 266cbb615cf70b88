#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC in seconds: the clock sample timestamps and monitor events use.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
