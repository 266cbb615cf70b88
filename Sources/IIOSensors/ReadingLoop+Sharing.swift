import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// How the reading loop keeps out of a rotation service's way (docs/sensor-sharing.md): whether one
/// is around (it may be restarting), and when a buffer of our own must give way to one.
extension ReadingLoop {
    /// How long a rotation service is taken to be around after it was last seen (a restart).
    static let rotationServiceMemory: Int64 = 10_000_000_000
    /// How often a buffer of our own looks for a rotation service that started since, where nobody follows
    /// its bus name (no system bus): a scan of /proc, so a 3.0 started later may find rotation frozen that long.
    static let serviceCheckPeriod: Int64 = 10_000_000_000
    /// How long a buffer of our own may stay silent before its enable is checked.
    static let ownBufferSilence: Int64 = 1_000_000_000

    /// Whether a rotation service runs now or ran lately (it may be restarting), else whether one is
    /// installed and may start at any time. While its bus name is followed, the bus says whether it runs
    /// (ours, on our bus); otherwise a process of its name in `/proc`.
    mutating func rotationServicePresence() -> ReaderChoice.RotationService {
        let now = monotonicNanoseconds()
        switch control.rotationService.seen(now: now, memory: Self.rotationServiceMemory) {
        case .running: rotationServiceSeenAt = now
        case .absent: break
        case .notFollowed: if DeviceSharing.rotationService() != nil { rotationServiceSeenAt = now }
        }
        if rotationServiceSeenAt.map({ now &- $0 < Self.rotationServiceMemory }) ?? false { return .running }
        return configuration.rotationServiceFiles.contains { access($0, F_OK) == 0 } ? .installed : .none
    }

    /// A rotation service took its bus name (``AccelerometerSource/rotationServiceAppeared(pid:)``): it is
    /// around, and a buffer of our own gives way to it at once, before the shell's claim makes it read.
    mutating func rotationServiceAppeared() {
        let now = monotonicNanoseconds()
        rotationServiceSeenAt = now
        guard readerMode == .buffered, givesWayToRotation else { return }
        chooseAgain(now: now)
    }

    /// A buffer of our own that went silent: when another process disabled it (iio-sensor-proxy's
    /// set-up tears down a buffer it cannot configure), the reader is chosen again at once.
    mutating func checkOwnBuffer(now: Int64) {
        guard readerMode == .buffered else { return }
        if now >= nextServiceCheck {
            nextServiceCheck = now &+ Self.serviceCheckPeriod
            // A rotation service that started after this buffer: iio-sensor-proxy 3.0 polls raw
            // attributes, which this buffer makes fail on most drivers, and touches no buffer, so
            // only its process shows it is there. Not looked for while its bus name is followed
            // (the event comes at once).
            if !control.rotationService.followed.load(ordering: .relaxed), DeviceSharing.rotationService() != nil {
                rotationServiceSeenAt = now
                chooseAgain(now: now)
                return
            }
        }
        // The reader's info only here, once a second of silence: copying it (names, paths, arrays) at
        // every wake-up cost more than the rest of this check.
        guard let last = lastSamplesAt, now &- last >= Self.ownBufferSilence, let info = reader?.info else { return }
        lastSamplesAt = now
        guard !DeviceSharing.bufferEnabled(info) else { return }
        chooseAgain(now: now)
    }

    /// Whether this loop's reader gives way to a rotation service: only an automatic one that puts rotation first.
    var givesWayToRotation: Bool { configuration.priority == .rotation && configuration.mode == .automatic }

    /// Closes the reader and opens the one that fits now. No reference to the old reader may be held
    /// by the caller: its buffer is disabled when it goes, before the choice looks at `buffer/enable`.
    private mutating func chooseAgain(now: Int64) {
        flush()
        closeReader()
        lastQuickReopen = now
        tryReopen()
    }
}
