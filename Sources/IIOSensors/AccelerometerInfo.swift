/// How samples are read from an accelerometer.
public enum ReadingMode: String, Sendable, Hashable, CaseIterable {
    /// Through the IIO buffer (`/dev/iio:deviceN`), woken a few times a second by the watermark.
    case buffered
    /// By reading `in_accel_*_raw` at the configured rate.
    case polled
    /// From another process's IIO buffer (iio-sensor-proxy's), opening its node for a moment between
    /// that process's reads (``TimeSharedReader``).
    case timeShared = "time-shared"
}

/// One channel of a buffered scan: its scan index and format.
public struct ScanChannel: Sendable, Hashable {
    /// `scan_elements/in_*_index`.
    public var index: Int
    /// Parsed from `scan_elements/in_*_type`.
    public var format: ChannelFormat

    /// Creates a scan channel.
    public init(index: Int, format: ChannelFormat) {
        self.index = index
        self.format = format
    }
}

/// Everything known about one accelerometer, read from udev and sysfs and checked.
public struct AccelerometerInfo: Sendable, Hashable {
    /// The driver's `name` attribute, e.g. `mma8452`.
    public var name: String
    /// The `label` attribute, when the device tree gives one (e.g. `accel-display`).
    public var label: String?
    /// `/sys/devices/.../iio:device0`.
    public var syspath: String
    /// `iio:device0`.
    public var sysname: String
    /// `/dev/iio:device0`, when the device has a node.
    public var devnode: String?
    /// x, y, z scan channels, when the device has an IIO buffer.
    public var scanChannels: [ScanChannel]?
    /// The timestamp scan channel, when there is one.
    public var timestampChannel: ScanChannel?
    /// Whether `in_accel_{x,y,z}_raw` exist.
    public var hasRawAttributes: Bool
    /// x, y, z calibration: `(raw + offset) × scale`.
    public var calibration: [AxisCalibration]
    /// The mount matrix in force.
    public var mountMatrix: MountMatrix
    /// Where ``mountMatrix`` came from: `ACCEL_MOUNT_MATRIX`, a sysfs file name, `configuration` or `identity`.
    public var mountMatrixSource: String
    /// The current `sampling_frequency`, when the driver has one.
    public var samplingFrequency: Double?
    /// What `sampling_frequency_available` offers.
    public var availableRates: AvailableRates?
    /// The sysfs attribute that sets the rate (`sampling_frequency` or `in_accel_sampling_frequency`).
    public var samplingFrequencyAttribute: String?
    /// Whether the device has `trigger/current_trigger`.
    public var hasTrigger: Bool

    /// The best way to read this device: buffered when it has a buffer and a node, else polled.
    public var preferredMode: ReadingMode {
        scanChannels != nil && devnode != nil ? .buffered : .polled
    }

    /// The rate that would be used for a wanted rate: the nearest available at or above it,
    /// within ``plausibleRates``.
    public func rate(for wanted: Double) -> Double {
        clampRate(availableRates?.choose(atLeast: clampRate(wanted)) ?? clampRate(wanted))
    }

    /// Whether `selector` names this device: its name, label, sysfs path, sysfs name or device node.
    public func matches(_ selector: String) -> Bool {
        let selector = selector.hasSuffix("/") ? String(selector.dropLast()) : selector
        return selector == name || selector == label || selector == syspath || selector == sysname
            || selector == devnode
            || (selector.hasPrefix("/sys/") && selector.split(separator: "/").last.map(String.init) == sysname)
    }

    /// A short line for logs: `fake_accel (iio:device0, buffered)`.
    public var summary: String { "\(label ?? name) (\(sysname), \(preferredMode.rawValue))" }
}
