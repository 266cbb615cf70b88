import MonotonicClock

/// How the reading loop keeps out of a rotation service's way (docs/sensor-sharing.md): whether one
/// is around (it may be restarting), and when a buffer of our own must give way to one.
extension ReadingLoop {
    /// How long a rotation service is taken to be around after it was last seen (a restart).
    static let rotationServiceMemory: Int64 = 10_000_000_000
    /// How often a buffer of our own looks for a rotation service that started since (a scan of /proc, about
    /// a millisecond: every 10 s, so a 3.0 started later may find rotation frozen that long).
    static let serviceCheckPeriod: Int64 = 10_000_000_000
    /// How long a buffer of our own may stay silent before its enable is checked.
    static let ownBufferSilence: Int64 = 1_000_000_000

    /// Whether a rotation service runs now or ran lately (it may be restarting).
    mutating func rotationServiceNearby() -> Bool {
        let now = monotonicNanoseconds()
        if DeviceSharing.rotationService() != nil { rotationServiceSeenAt = now }
        return rotationServiceSeenAt.map { now &- $0 < Self.rotationServiceMemory } ?? false
    }

    /// A buffer of our own that went silent: when another process disabled it (iio-sensor-proxy's
    /// set-up tears down a buffer it cannot configure), the reader is chosen again at once.
    mutating func checkOwnBuffer(now: Int64) {
        guard let reader, reader.mode == .buffered else { return }
        if now >= nextServiceCheck {
            // A rotation service that started after this buffer: iio-sensor-proxy 3.0 polls raw
            // attributes, which this buffer makes fail on most drivers, and touches no buffer, so
            // only its process shows it is there.
            nextServiceCheck = now &+ Self.serviceCheckPeriod
            if DeviceSharing.rotationService() != nil {
                flush()
                closeReader()
                lastQuickReopen = now
                tryReopen()
                return
            }
        }
        guard let last = lastSamplesAt, now &- last >= Self.ownBufferSilence else { return }
        lastSamplesAt = now
        guard !DeviceSharing.bufferEnabled(reader.info) else { return }
        flush()
        closeReader()
        lastQuickReopen = now
        tryReopen()
    }
}
