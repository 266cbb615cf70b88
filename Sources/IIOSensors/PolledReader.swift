import ShakeDetection
import MonotonicClock

/// Reads `in_accel_{x,y,z}_raw` at a fixed rate, woken by a timer: the fallback when a device
/// has no IIO buffer, or its buffer stays silent.
///
/// Costs one wake-up and three attribute reads per sample, so it is only used when buffered
/// reading is not possible. Each read allocates nothing.
final class PolledReader: SampleReader {
    let info: AccelerometerInfo
    let rate: Double
    var mode: ReadingMode { .polled }
    var pollFD: Int32 { timer.fd }

    private let x: PolledAttribute
    private let y: PolledAttribute
    private let z: PolledAttribute
    private let timer: PeriodicTimer
    private let converter: SampleConverter
    private var lastTimestamp: Int64 = .min

    /// Sets the device's rate (when it has one) and starts the timer.
    init(info: AccelerometerInfo, wantedRate: Double) throws(IIOError) {
        guard info.hasRawAttributes else {
            throw IIOError(
                .badConfiguration, path: info.syspath,
                "the device has no in_accel_*_raw attributes, so it cannot be polled; use buffered reading")
        }
        let rate = info.rate(for: wantedRate)
        if let attribute = info.samplingFrequencyAttribute, info.samplingFrequency != rate {
            try Sysfs.write("\(info.syspath)/\(attribute)", rateText(rate))
        }
        self.info = info
        self.rate = rate
        x = PolledAttribute(path: "\(info.syspath)/in_accel_x_raw")
        y = PolledAttribute(path: "\(info.syspath)/in_accel_y_raw")
        z = PolledAttribute(path: "\(info.syspath)/in_accel_z_raw")
        converter = SampleConverter(calibration: info.calibration, mountMatrix: info.mountMatrix)
        timer = try PeriodicTimer(periodNanoseconds: periodNanoseconds(rate))
    }

    func read(into samples: inout [Sample]) throws(IIOError) -> Int {
        // Missed ticks are not made up: the sensor holds one value at a time.
        guard try timer.consumeTicks() > 0 else { return 0 }
        let rx = try x.readInteger()
        let ry = try y.readInteger()
        let rz = try z.readInteger()
        let now = max(monotonicNanoseconds(), lastTimestamp &+ 1)
        lastTimestamp = now
        samples.append(converter.sample(x: rx, y: ry, z: rz, timestamp: now))
        return 3
    }
}
