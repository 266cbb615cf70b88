import ShakeDetection
import MonotonicClock

#if canImport(Glibc)
    import Glibc
#endif

/// Reads `in_accel_{x,y,z}_raw` at a fixed rate, woken by a timer: the fallback when a device
/// has no IIO buffer, or its buffer stays silent, and the reader beside a rotation service that polls.
///
/// Costs one wake-up and three attribute reads per sample, so it is only used when buffered
/// reading is not possible, and it polls at the polling rate (60 Hz by default: the lowest that keeps
/// every recorded shake, with margin; docs/sensors.md), below the device's own rate. Each read
/// allocates nothing.
final class PolledReader: SampleReader {
    let info: AccelerometerInfo
    /// How many times a second the attributes are read: the polling rate, at most the device's rate.
    let rate: Double
    /// The rate the device samples at (as set here, or as found beside another process's buffer).
    let deviceRate: Double
    var mode: ReadingMode { .polled }
    var pollFD: Int32 { timer.fd }

    private let x: PolledAttribute
    private let y: PolledAttribute
    private let z: PolledAttribute
    private let timer: PeriodicTimer
    private let converter: SampleConverter
    private var lastTimestamp: Int64 = .min
    /// The rate to put back at close, when the reader raised it for a driver that sleeps per read.
    private var restoreRate: (attribute: String, text: String, raised: Double)?

    /// A reader polling at `configuration.pollingRate`, the device at `configuration.rate`.
    convenience init(info: AccelerometerInfo, configuration: AccelerometerConfiguration) throws(IIOError) {
        try self.init(info: info, wantedRate: configuration.rate, pollingRate: configuration.pollingRate)
    }

    /// Sets the device's rate to the nearest it offers at or above `wantedRate` (when it has one) and starts
    /// the timer at `pollingRate`, or at the device's rate when that is lower.
    init(info: AccelerometerInfo, wantedRate: Double, pollingRate: Double) throws(IIOError) {
        guard info.hasRawAttributes else {
            throw IIOError(
                .badConfiguration, path: info.syspath,
                "the device has no in_accel_*_raw attributes, so it cannot be polled; use buffered reading")
        }
        let rate = info.rate(for: wantedRate)
        // Another process's enabled buffer runs at its rate: many drivers refuse a change then (EBUSY).
        if let attribute = info.samplingFrequencyAttribute, !DeviceSharing.bufferEnabled(info) {
            // This reader's rate from now on: a raised one an earlier reader could not put back is its to set.
            RaisedRates.takeOver("\(info.syspath)/\(attribute)")
            if info.samplingFrequency != rate { try Sysfs.write("\(info.syspath)/\(attribute)", rateText(rate)) }
        }
        self.info = info
        deviceRate = rate
        self.rate = min(clampRate(pollingRate), rate)
        x = PolledAttribute(path: "\(info.syspath)/in_accel_x_raw")
        y = PolledAttribute(path: "\(info.syspath)/in_accel_y_raw")
        z = PolledAttribute(path: "\(info.syspath)/in_accel_z_raw")
        converter = SampleConverter(calibration: info.calibration, mountMatrix: info.mountMatrix)
        timer = try PeriodicTimer(periodNanoseconds: periodNanoseconds(self.rate))
        // One reading now: beside another process's buffer it says whether the driver answers raw reads
        // at all, and its length whether the driver powers the chip up for each read.
        var probe: [Sample] = []
        let started = monotonicNanoseconds()
        _ = try readNow(into: &probe, probing: true)
        let took = monotonicNanoseconds() &- started
        // st_accel and st_lsm6dsx power the chip up for every raw read and sleep two to four sample
        // periods of the chip's rate per axis (st_sensors_read_info_raw, st_lsm6dsx_read_oneshot): at
        // the rate asked for, a reading then takes several periods, and polling gets a few a second. The
        // sleeps shrink with the chip's rate, and the chip runs only during the read: its highest rate
        // gives the most readings. Only while no buffer runs, whose rate is its owner's.
        if took > periodNanoseconds(self.rate) / 2, let attribute = info.samplingFrequencyAttribute,
            let fastest = info.availableRates?.fastest, fastest > rate, !DeviceSharing.bufferEnabled(info)
        {
            if (try? Sysfs.write("\(info.syspath)/\(attribute)", rateText(fastest))) != nil {
                restoreRate = (attribute, rateText(rate), fastest)
            }
        }
    }

    deinit {
        // The chip's own rate back (iio-sensor-proxy's buffer would run at the raised one), unless someone
        // changed it since; later, when a buffer enabled meanwhile refuses it now (st_lsm6dsx).
        if let restoreRate {
            let path = "\(info.syspath)/\(restoreRate.attribute)"
            RaisedRates.putBack(.init(path: path, text: restoreRate.text, raised: restoreRate.raised))
        }
    }

    func read(into samples: inout [Sample]) throws(IIOError) -> Int {
        // Missed ticks are not made up: the sensor holds one value at a time.
        guard try timer.consumeTicks() > 0 else { return 0 }
        return try readNow(into: &samples, probing: false)
    }

    /// One reading. A refused read (EBUSY) is `.busy` when probing, else `.sharingChanged`: another
    /// process enabled its buffer since (iio-sensor-proxy 3.7 when the shell claims the accelerometer).
    private func readNow(into samples: inout [Sample], probing: Bool) throws(IIOError) -> Int {
        let rx: Int64, ry: Int64, rz: Int64
        do throws(IIOError) {
            rx = try x.readInteger()
            ry = try y.readInteger()
            rz = try z.readInteger()
        } catch where error.code == .busy {
            // The driver claims direct mode and another process has the buffer enabled.
            if !probing {
                throw IIOError(
                    .sharingChanged, call: error.call, path: info.syspath, errno: EBUSY,
                    "another process enabled its buffer, and this driver refuses raw reads while it runs")
            }
            throw DeviceSharing.busy(
                info, "its IIO buffer is enabled, and this driver refuses in_accel_*_raw reads while it is",
                call: error.call)
        }
        let now = max(monotonicNanoseconds(), lastTimestamp &+ 1)
        lastTimestamp = now
        samples.append(converter.sample(x: rx, y: ry, z: rz, timestamp: now))
        return 3
    }
}
