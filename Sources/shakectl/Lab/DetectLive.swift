import IIOSensors
import ShakeDetection

extension Detect {
    /// `detect --live`: the same detection and output as on a file, fed by the accelerometer.
    ///
    /// Times are seconds from the run's first sample, so a trace replayed through a (fake)
    /// sensor gives the same lines as `detect` on the trace file. Sensor status goes to stderr.
    func runLive() async throws {
        var printer = DetectionPrinter(options: detectorOptions, format: format)
        for try await event in liveEvents(
            AccelerometerSource(configuration: sensor.configuration()), duration: duration)
        {
            switch event {
            case .sensorReturned(let text):
                printError("reading \(text)")
            case .sensorGone(let reason):
                printError("sensor gone: \(reason)")
            case .samples(let samples):
                for sample in samples { printer.feed(sample) }
            }
        }
        printer.finish()
    }
}
