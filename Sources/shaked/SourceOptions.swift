import IIOSensors
import ShakeDetection
import ShakedConfiguration
import SyntheticMotion
import Systemd
import Traces

/// Where samples come from: the accelerometer, a trace, or the demo motion.
struct SourceOptions: Sendable {
    /// A trace file (t,x,y,z CSV) to replay in real time instead of reading a sensor.
    var replay: String?
    /// Synthetic motion (rest, tremor, walking) instead of a sensor.
    var demo = false
    /// The accelerometer, by name, label, sysfs path or device node.
    var device: String?
    /// The sampling rate to ask the sensor for, in Hz.
    var rate: Double?

    /// The chosen source, and for --demo the handle that plays a shake.
    func makeSource(_ sensor: ShakedSettings.Sensor) throws -> ChosenSource {
        if let replay {
            // Read the first sample now, so a bad path or format fails at start with the file named.
            var reader = TraceReader(path: replay).makeIterator()
            _ = try reader.nextSample()
            return ChosenSource(source: TraceReplaySource(path: replay), demoShake: nil, accelerometer: nil)
        }
        if demo {
            let source = DemoMotionSource()
            let trigger = source.trigger
            // A shake asked for while the source is starting (the app has just taken the context, or the
            // daemon has just started again) is played once it reads, not lost.
            return ChosenSource(
                source: source, demoShake: { await trigger.shake(within: .seconds(3)) }, accelerometer: nil)
        }
        let mode: AccelerometerConfiguration.ModePreference =
            switch sensor.mode {
            case .auto: .automatic
            case .buffered: .buffered
            case .polled: .polled
            }
        var configuration = AccelerometerConfiguration(
            device: sensor.device, rate: sensor.rate, pollingRate: sensor.pollingRate, mode: mode,
            mountMatrix: sensor.mountMatrix.flatMap { MountMatrix(rows: $0) },
            priority: sensor.priority == .shake ? .shake : .rotation, waitForSensor: true)
        configuration.rotationServiceFiles = Self.rotationServiceFiles
        let source = AccelerometerSource(configuration: configuration)
        return ChosenSource(source: source, demoShake: nil, accelerometer: source)
    }
}

extension SourceOptions {
    /// Where to look for an installed iio-sensor-proxy: its usual places, or in debug builds the
    /// colon-separated paths of SHAKED_TEST_ROTATION_SERVICE_FILES (the sharing tests run on a machine
    /// with Debian 12's installed, and also test a phone without one).
    static var rotationServiceFiles: [String] {
        #if DEBUG
            if let paths = ProcessEnvironment.get("SHAKED_TEST_ROTATION_SERVICE_FILES") {
                return paths.split(separator: ":").map(String.init)
            }
        #endif
        return AccelerometerConfiguration.iioSensorProxyFiles
    }
}

/// A sample source and, for the demo source, its shake.
struct ChosenSource: Sendable {
    let source: any SampleSource
    let demoShake: (@Sendable () async -> Void)?
    /// The IIO source, to probe at start so readiness reports the sensor's state.
    let accelerometer: AccelerometerSource?
}

extension ChosenSource {
    /// Whether the source's reading thread answers within `timeout`, for the watchdog. Trace replay
    /// and the demo motion run as tasks, which the coordinator's probe covers.
    func responds(within timeout: Duration) async -> Bool {
        guard let accelerometer else { return true }
        return await accelerometer.isResponsive(within: timeout)
    }
}
