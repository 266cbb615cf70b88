import ArgumentParser
import IIOSensors
import ShakeDetection
import SyntheticMotion
import Traces

/// Where samples come from: the accelerometer, a trace, or the demo motion.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Replay a trace file (t,x,y,z CSV) in real time instead of reading a sensor.", valueName: "trace.csv"))
    var replay: String?

    @Flag(help: "Use synthetic motion (rest, tremor, walking) instead of a sensor; io.shaked.Demo.Shake plays a shake.")
    var demo = false

    @Option(help: "The accelerometer, by name, label, sysfs path or device node (default: the first found).")
    var device: String?

    @Option(help: ArgumentHelp("The sampling rate to ask the sensor for, in Hz.", valueName: "hz"))
    var rate: Double = 100

    func validate() throws {
        if replay != nil && demo { throw ValidationError("--replay and --demo are two sources; give one.") }
        guard rate >= 10, rate <= 1000 else { throw ValidationError("--rate must be 10 to 1000 Hz.") }
    }

    /// The chosen source, and for --demo the handle that plays a shake.
    func makeSource() throws -> ChosenSource {
        if let replay {
            // Read the header now, so a bad path fails at start with the file named.
            var reader = TraceReader(path: replay).makeIterator()
            _ = try reader.nextSample()
            return ChosenSource(source: TraceReplaySource(path: replay), demoShake: nil)
        }
        if demo {
            let source = DemoMotionSource()
            let trigger = source.trigger
            return ChosenSource(source: source, demoShake: { _ = trigger.shake() })
        }
        let configuration = AccelerometerConfiguration(device: device, rate: rate, mode: .automatic, waitForSensor: true)
        return ChosenSource(source: AccelerometerSource(configuration: configuration), demoShake: nil)
    }
}

/// A sample source and, for the demo source, its shake.
struct ChosenSource {
    let source: any SampleSource
    let demoShake: (@Sendable () -> Void)?
}
