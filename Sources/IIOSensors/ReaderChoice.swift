/// Which reader to open beside another user of the accelerometer, with `Priority=rotation`
/// (docs/sensor-sharing.md has the rules, the kernel's and iio-sensor-proxy's, and what was measured).
///
/// Beside a rotation service (iio-sensor-proxy running, or seen lately: it may be restarting; or
/// installed, when it may start at any time) or another process's enabled buffer, this process never
/// enables a buffer of its own where it can read otherwise: iio-sensor-proxy
/// 3.7 enables its buffer whenever the shell claims the accelerometer and reads the node every 700 ms,
/// so a buffer held here would make its opens fail, and its set-up tears down any buffer it cannot
/// configure. Instead:
/// 1. where the driver answers `in_accel_*_raw` (no buffer enabled, or a driver such as bmi160 that
///    answers beside one): poll them. Nothing of the other's changes.
/// 2. where another process's buffer is enabled and the driver refuses raw reads while it runs:
///    share that buffer in time (``TimeSharedReader``).
/// 3. otherwise the device cannot be read beside rotation: `.busy`, naming the holder.
/// A reader opened here throws ``IIOError/Code/sharingChanged`` when the other process enables or
/// disables its buffer, and the reading loop chooses again at once.
enum ReaderChoice {
    /// Whether a rotation service is around.
    enum RotationService {
        /// None runs, and none is installed (or nobody said where to look).
        case none
        /// One is installed (``AccelerometerConfiguration/rotationServiceFiles``) and may start at any time:
        /// iio-sensor-proxy 3.7's set-up fails beside a buffer of ours, and it then exits.
        case installed
        /// One runs, or ran lately (it may be restarting).
        case running
    }

    /// The reader for `info` beside other users, and a note for the log saying why; nil when nobody
    /// else uses the device, and the caller reads it as it would alone.
    /// `following` is the source's rotation-service bus name, when followed (``DeviceSharing/rotationService(following:)``).
    static func besideOthers(
        _ info: AccelerometerInfo, configuration: AccelerometerConfiguration, rotationService: RotationService,
        following: RotationServiceFollowing? = nil
    ) throws(IIOError) -> (reader: any SampleReader, note: String)? {
        let othersBuffer =
            DeviceSharing.bufferEnabled(info) && DeviceSharing.holderOfEnabledBuffer(info, following: following) != nil
        guard othersBuffer || rotationService != .none else { return nil }
        if info.hasRawAttributes {
            do {
                let polled = try PolledReader(info: info, configuration: configuration)
                return (
                    polled,
                    othersBuffer
                        ? "; the accelerometer is in use by \(DeviceSharing.describeUser(of: info, following: following)) (its IIO buffer "
                            + "enabled): polling in_accel_*_raw, which this driver answers beside it"
                        : rotationService == .running
                            ? "; polling beside iio-sensor-proxy, which needs the buffer and the node free to rotate "
                                + "the screen"
                            : "; polling: iio-sensor-proxy is installed, may start at any time, and needs the buffer "
                                + "and the node free to rotate the screen"
                )
            } catch where error.code == .busy && othersBuffer && info.preferredMode == .buffered {
                // Raw reads refused while the other's buffer runs: share the buffer instead.
            }
        }
        if othersBuffer {
            guard info.preferredMode == .buffered else {
                throw DeviceSharing.busy(
                    info, "its IIO buffer is enabled, and this device has nothing else to read", following: following)
            }
            let shared = try TimeSharedReader(
                info: info, wantedRate: configuration.rate, wakeupsPerSecond: configuration.wakeupsPerSecond)
            return (
                shared,
                "; the accelerometer is in use by \(DeviceSharing.describeUser(of: info, following: following)) (its IIO buffer enabled), and "
                    + "this driver refuses raw reads while it runs: sharing the buffer in time"
            )
        }
        // A rotation service, no buffer enabled, nothing to poll: a buffer of our own, as alone.
        return nil
    }
}
