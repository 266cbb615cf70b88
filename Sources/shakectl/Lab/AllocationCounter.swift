#if AllocationCounting
    import MallocInterposerSwift
#endif

/// Heap allocations counted by ordo-one's malloc interposer, for `bench` and `bench-iio`.
///
/// The interposer is a shared library that needs the Swift runtime as shared libraries, so builds meant to
/// be installed leave it out (`swift build --disable-default-traits`, as `scripts/install.sh` builds): there
/// shakectl links the runtime statically and runs without a Swift toolchain, and the counter is unavailable.
enum AllocationCounter {
    /// Allocation count and bytes since `start()`.
    struct Counts {
        var allocations: Int
        var bytes: Int
    }

    /// Why this build cannot count, or nil when it can.
    static var unavailableReason: String? {
        #if AllocationCounting
            return nil
        #else
            return "This shakectl was built without the AllocationCounting trait (builds to install leave the "
                + "malloc interposer out), so it cannot count allocations. Build with `swift build -c release` "
                + "and run .build/release/shakectl."
        #endif
    }

    /// Resets the counts and starts counting on every thread.
    static func start() {
        #if AllocationCounting
            MallocInterposerSwift.initialize()
            MallocInterposerSwift.hook()
        #endif
    }

    /// Stops counting and returns what was counted since `start()` (zero without the interposer).
    static func stop() -> Counts {
        #if AllocationCounting
            MallocInterposerSwift.unhook()
            let statistics = MallocInterposerSwift.getStatistics()
            return Counts(allocations: Int(statistics.mallocCount), bytes: Int(statistics.mallocBytesCount))
        #else
            return Counts(allocations: 0, bytes: 0)
        #endif
    }
}
