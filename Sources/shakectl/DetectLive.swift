import IIOSensors
import ShakeDetection

extension Detect {
    /// `detect --live`: the same detection and output as on a file, fed by the accelerometer.
    ///
    /// Times are seconds from the run's first sample, so a trace replayed through a (fake)
    /// sensor gives the same lines as `detect` on the trace file. Sensor status goes to stderr.
    func runLive() async throws {
        var detector = detectorOptions.detector.make(sensitivity: detectorOptions.sensitivity)
        var origin: Int64?
        var count = 0
        for try await event in liveEvents(
            AccelerometerSource(configuration: sensor.configuration()), duration: duration)
        {
            switch event {
            case .sensorReturned(let text):
                printError("reading \(text)")
            case .sensorGone(let reason):
                printError("sensor gone: \(reason)")
            case .samples(let samples):
                for sample in samples {
                    let o = origin ?? sample.timestamp
                    origin = o
                    guard let event = detector.process(sample) else { continue }
                    count += 1
                    let record = DetectionRecord(detector: detectorOptions.detector, event: event, origin: o)
                    print(format == .json ? record.jsonLine : record.textLine)
                }
            }
        }
        if format == .text && count == 0 { print("no shake recognized") }
    }
}
