import MonotonicClock
import ShakeDetection

/// What the daemon acts on, as ``DetectingConsumer`` reports it.
enum SensorReport: Sendable {
    /// A shake ended (the hand stopped), recognized at `time` (seconds on CLOCK_MONOTONIC): the one to act on.
    case shake(ShakeEvent, time: Double)
    /// A shake began (its strokes look like one) at `time`; nothing is done until it ends. For monitors.
    case shakeBegan(ShakeEvent, time: Double)
    /// A shake that began came to nothing, for `reason`, at `time`. For monitors.
    case shakeDropped(ShakeEvent, reason: DropReason, time: Double)
    /// A chain came close to a shake at `time`, and `rule` stopped it. For monitors.
    case nearMiss(ShakeEvent, rule: ShakeRule, time: Double)
    /// The sensor failed or went away; the source retries it.
    case sensorGone(reason: String)
    /// The sensor reads (again); the text names it.
    case sensorReturned(String)
}

/// The detector, run where the source reads: on an accelerometer's reading thread, so that a batch
/// of samples costs the detector's few microseconds and nothing more. Only what the daemon must act
/// on or show is reported to ``SensorService``: a shake's phases, and the sensor going away or coming back.
///
/// Generic over the detector, held in place (not in an existential's box); the daemon's own detector
/// runs in ``ShakeDetectorConsumer``, this with the detector's type fixed.
struct DetectingConsumer<Detector: ShakeDetecting>: SampleConsumer {
    typealias Report = SensorReport

    private var detector: Detector
    private let samplesRead: SampleCounter

    /// Creates a consumer that feeds `detector` and counts samples in `samplesRead`.
    init(detector: Detector, samplesRead: SampleCounter) {
        self.detector = detector
        self.samplesRead = samplesRead
    }

    /// While the device lies still no shake can be under way, so the next samples can wait a few
    /// watermarks; while no stroke is under way none can be recognized for a while, so the samples of
    /// that while can wait for it.
    var samplesCanWait: SampleWait {
        if detector.isAtRest { return .resting }
        let horizon = detector.quietHorizon
        return horizon > 0 ? .eventFree(nanoseconds: horizon) : .no
    }

    mutating func consume(_ event: SourceEvent, report: (Report) -> Void) {
        switch event {
        case .samples(let samples):
            samplesRead.add(samples.count)
            for sample in samples {
                guard let phase = detector.advance(sample) else { continue }
                let time = Double(monotonicNanoseconds()) / 1e9
                switch phase {
                case .ended(let shake): report(.shake(shake, time: time))
                case .began(let shake): report(.shakeBegan(shake, time: time))
                case .dropped(let shake, let reason, _): report(.shakeDropped(shake, reason: reason, time: time))
                case .nearMiss(let chain, let rule): report(.nearMiss(chain, rule: rule, time: time))
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

/// ``DetectingConsumer`` for the daemon's own detector (``ContextDetector`` around ``ShakeDetector``),
/// as a type of its own. A source calls its consumer through ``SampleConsumer``, and the protocol's
/// functions for a generic type run generic code, which looks its type's metadata up at each call;
/// on a reading thread that wakes from cold caches every 100 ms that costs more than the detector.
/// This one's functions are compiled for its detector, with nothing left to look up.
struct ShakeDetectorConsumer: SampleConsumer {
    typealias Report = SensorReport

    private var base: DetectingConsumer<ContextDetector<ShakeDetector>>

    /// Creates a consumer that feeds `detector` and counts samples in `samplesRead`.
    init(detector: ContextDetector<ShakeDetector>, samplesRead: SampleCounter) {
        base = DetectingConsumer(detector: detector, samplesRead: samplesRead)
    }

    var samplesCanWait: SampleWait { base.samplesCanWait }

    mutating func consume(_ event: SourceEvent, report: (Report) -> Void) { base.consume(event, report: report) }
}
