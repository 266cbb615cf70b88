import MonotonicClock
import ShakeDetection

/// The detector, run where the source reads: on an accelerometer's reading thread, so that a batch
/// of samples costs the detector's few microseconds and nothing more. Only what the daemon must act
/// on is reported to ``SensorService``: a shake, and the sensor going away or coming back.
struct DetectingConsumer: SampleConsumer {
    /// What the daemon acts on.
    enum Report: Sendable {
        /// A shake, recognized at `time` (seconds on CLOCK_MONOTONIC).
        case shake(ShakeEvent, time: Double)
        /// The sensor failed or went away; the source retries it.
        case sensorGone(reason: String)
        /// The sensor reads (again); the text names it.
        case sensorReturned(String)
    }

    private var detector: any ShakeDetecting
    private let samplesRead: SampleCounter

    /// Creates a consumer that feeds `detector` and counts samples in `samplesRead`.
    init(detector: any ShakeDetecting, samplesRead: SampleCounter) {
        self.detector = detector
        self.samplesRead = samplesRead
    }

    /// While the device lies still no shake can be under way, so the next samples can wait.
    var samplesCanWait: Bool { detector.isAtRest }

    mutating func consume(_ event: SourceEvent, report: (Report) -> Void) {
        switch event {
        case .samples(let samples):
            samplesRead.add(samples.count)
            for sample in samples {
                if let shake = detector.process(sample) {
                    report(.shake(shake, time: Double(monotonicNanoseconds()) / 1e9))
                }
            }
        case .sensorGone(let reason):
            // What follows the gap is a fresh start.
            detector.reset()
            report(.sensorGone(reason: reason))
        case .sensorReturned(let name):
            report(.sensorReturned(name))
        }
    }
}
