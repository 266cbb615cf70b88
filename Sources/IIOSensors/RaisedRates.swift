import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Chip rates a polled reader raised and must put back, kept until they can be.
///
/// A polled reader raises the chip's rate where each raw read sleeps a few sample periods (st_accel,
/// st_lsm6dsx), and puts it back when it closes. st_lsm6dsx refuses a rate write while a buffer runs
/// (`st_lsm6dsx_write_raw()` claims direct mode): when iio-sensor-proxy 3.7 enabled its buffer meanwhile
/// (the shell claimed the accelerometer), the write back fails, and the raised rate would outlive the
/// reader, the buffer running at it for as long as the shell keeps its claim and after. So a restore
/// that fails waits here, and is tried again every ``retryPeriod`` on a thread of its own (one sysfs
/// read while the buffer still runs) until the buffer is disabled and the write goes through, or someone
/// else changed the rate since, or a new polled reader takes the device over.
enum RaisedRates {
    /// One rate to put back.
    struct Restore: Sendable, Equatable {
        /// The rate attribute's path.
        let path: String
        /// The text to write back.
        let text: String
        /// The raised rate: the attribute is put back only while it still holds it.
        let raised: Double
    }

    /// How often a pending restore is tried again.
    static let retryPeriod: UInt32 = 2

    private static let pending = Mutex<[String: Restore]>([:])
    private static let retrying = Atomic<Bool>(false)

    /// Puts `restore` back now if the chip takes it, else keeps it and tries again until it does.
    static func putBack(_ restore: Restore) {
        let done = pending.withLock { pending in
            pending[restore.path] = nil
            guard !attempt(restore) else { return true }
            pending[restore.path] = restore
            return false
        }
        if !done { startRetrying() }
    }

    /// A new reader takes the device's rate over (it sets its own and puts that back): a pending
    /// restore of that attribute is dropped, so that nothing lowers the rate under the new reader.
    static func takeOver(_ path: String) {
        _ = pending.withLock { $0.removeValue(forKey: path) }
    }

    /// Writes the old rate back if the attribute still holds the raised one; true when nothing is left
    /// to do (written, or changed by someone else since), false when the chip refused.
    private static func attempt(_ restore: Restore) -> Bool {
        guard let now = try? Sysfs.read(restore.path),
            Double(String(now.filter { !$0.isWhitespace })) == restore.raised
        else { return true }
        return (try? Sysfs.write(restore.path, restore.text)) != nil
    }

    private static func startRetrying() {
        guard !retrying.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let started = (try? ReadingThread.start(name: "shaked-rate") { retryUntilDone() }) != nil
        if !started { retrying.store(false, ordering: .releasing) }
    }

    private static func retryUntilDone() {
        while true {
            sleep(retryPeriod)
            let empty = pending.withLock { pending in
                for (path, restore) in pending where attempt(restore) { pending[path] = nil }
                return pending.isEmpty
            }
            guard empty else { continue }
            retrying.store(false, ordering: .releasing)
            // A restore kept after the check above and before the flag went down starts no thread: look again.
            guard !pending.withLock({ $0.isEmpty }), !retrying.exchange(true, ordering: .acquiringAndReleasing)
            else { return }
        }
    }
}
