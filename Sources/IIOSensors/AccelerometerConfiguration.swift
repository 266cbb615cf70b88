import Synchronization

/// How an ``AccelerometerSource`` chooses and reads its sensor.
public struct AccelerometerConfiguration: Sendable {
    /// Which reading mode to use.
    public enum ModePreference: String, Sendable, CaseIterable {
        /// Buffered when the device has a buffer (falling back to polled if it stays silent), else polled.
        case automatic
        /// Buffered only; an error if the device has no buffer.
        case buffered
        /// Polled only.
        case polled
    }

    /// Who keeps the accelerometer when the kernel lets only one reader have it (docs/sensor-sharing.md).
    public enum SharingPriority: String, Sendable, CaseIterable {
        /// Screen rotation (iio-sensor-proxy): never disable a buffer another process enabled, never keep one
        /// enabled whose raw readings a running iio-sensor-proxy polls; say why the sensor cannot be read.
        case rotation
        /// Shake to undo: take the buffer even from iio-sensor-proxy, which then stops rotating the screen.
        case shake
    }

    /// The sensor to use, by name, label, sysfs path, sysfs name or device node; nil for the first found.
    public var device: String?
    /// The wanted rate in Hz; the device runs at the nearest available rate at or above it.
    public var rate: Double
    /// How many times a second a polled reader reads `in_accel_*_raw` (at most the device's rate): the
    /// lowest rate that keeps every recorded shake, with margin (docs/sensors.md).
    public var pollingRate: Double
    /// The default ``pollingRate``: 60 Hz.
    public static let defaultPollingRate = 60.0
    /// Which reading mode to use.
    public var mode: ModePreference
    /// Overrides the mount matrix read from udev and sysfs.
    public var mountMatrix: MountMatrix?
    /// Who keeps the accelerometer when only one reader can have it.
    public var priority: SharingPriority
    /// How long a new buffer may stay silent before polling takes over.
    public var bufferSilenceTimeout: Duration
    /// How often a buffered source wakes (and delivers a batch) per second.
    public var wakeupsPerSecond: Double
    /// When no usable sensor exists at start: wait for one (reporting ``SourceEvent/sensorGone(reason:)``)
    /// instead of ending the stream with the error. Errors after a successful start always wait.
    public var waitForSensor: Bool
    /// libiio's timeout for blocking operations, in milliseconds.
    public var libiioTimeoutMilliseconds: UInt32
    /// The first delay before a failed sensor is tried again; each failure doubles it up to ``maximumRetryDelay``.
    public var retryDelay: Duration
    /// The longest delay between tries of a failed sensor.
    public var maximumRetryDelay: Duration
    /// Counters for benchmarks and status lines, if wanted.
    public var statistics: ReaderStatistics?
    /// Files whose presence says a rotation service is installed and may start at any time (its binary or
    /// systemd unit, ``iioSensorProxyFiles``): then, with ``SharingPriority/rotation``, a device that can be
    /// polled never gets a buffer of this process's own. Empty (the default): only a running one counts.
    public var rotationServiceFiles: [String] = []

    /// Where an installed iio-sensor-proxy shows: its binary and systemd unit where Debian (12 and 13),
    /// Fedora, Arch and postmarketOS put them, the unit where systemd also reads (`/etc`, `/usr/local`), and
    /// its D-Bus policy in either folder the system bus reads. The bus lets a service own
    /// `net.hadess.SensorProxy` only by such a policy, so an iio-sensor-proxy that can serve rotation has
    /// one there wherever its binary went (a build installed under `/usr/local`, say).
    public static let iioSensorProxyFiles = [
        "/usr/libexec/iio-sensor-proxy", "/usr/sbin/iio-sensor-proxy", "/usr/local/libexec/iio-sensor-proxy",
        "/usr/lib/systemd/system/iio-sensor-proxy.service", "/lib/systemd/system/iio-sensor-proxy.service",
        "/etc/systemd/system/iio-sensor-proxy.service", "/usr/local/lib/systemd/system/iio-sensor-proxy.service",
        "/usr/share/dbus-1/system.d/net.hadess.SensorProxy.conf", "/etc/dbus-1/system.d/net.hadess.SensorProxy.conf",
    ]

    /// Creates a configuration; the defaults suit a phone: the first accelerometer at 100 Hz (polled at 60 Hz), ten
    /// wake-ups a second.
    public init(
        device: String? = nil, rate: Double = 100, pollingRate: Double = defaultPollingRate,
        mode: ModePreference = .automatic, mountMatrix: MountMatrix? = nil,
        priority: SharingPriority = .rotation, bufferSilenceTimeout: Duration = .milliseconds(500),
        wakeupsPerSecond: Double = 10,
        waitForSensor: Bool = false, libiioTimeoutMilliseconds: UInt32 = 1000,
        retryDelay: Duration = .milliseconds(500), maximumRetryDelay: Duration = .seconds(30),
        statistics: ReaderStatistics? = nil
    ) {
        self.device = device
        self.rate = rate
        self.pollingRate = pollingRate
        self.mode = mode
        self.mountMatrix = mountMatrix
        self.priority = priority
        self.bufferSilenceTimeout = bufferSilenceTimeout
        self.wakeupsPerSecond = wakeupsPerSecond
        self.waitForSensor = waitForSensor
        self.libiioTimeoutMilliseconds = libiioTimeoutMilliseconds
        self.retryDelay = retryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.statistics = statistics
    }
}

/// Counts what a source's reading thread does, for benchmarks and tests.
public final class ReaderStatistics: Sendable {
    private let wakeupCount = Atomic<Int>(0)
    private let readCount = Atomic<Int>(0)
    private let sampleCount = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// How many times the reading thread returned from `poll`.
    public var wakeups: Int { wakeupCount.load(ordering: .relaxed) }
    /// How many reads (of the buffer, or of a set of raw attributes) it made.
    public var reads: Int { readCount.load(ordering: .relaxed) }
    /// How many samples it delivered.
    public var samples: Int { sampleCount.load(ordering: .relaxed) }

    func record(wakeups: Int = 0, reads: Int = 0, samples: Int = 0) {
        if wakeups != 0 { wakeupCount.add(wakeups, ordering: .relaxed) }
        if reads != 0 { readCount.add(reads, ordering: .relaxed) }
        if samples != 0 { sampleCount.add(samples, ordering: .relaxed) }
    }
}
