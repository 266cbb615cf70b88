import ShakeDetection
import TestSupport
import Testing

@testable import ShakeService

/// The detector on the reading thread: samples are counted and fed to it in order, and only shakes
/// and the sensor's state are reported.
@Suite struct DetectingConsumerTests {
    /// Recognizes a "shake" at every `period`-th sample since its last reset.
    struct EveryNth: ShakeDetecting {
        var period: Int
        var seen = 0

        mutating func process(_ sample: Sample) -> ShakeEvent? {
            seen += 1
            guard seen % period == 0 else { return nil }
            return ShakeEvent(
                onset: sample.timestamp, recognized: sample.timestamp, peak: 1, reversals: seen, axis: .x,
                direction: .positive)
        }

        mutating func reset() { seen = 0 }
    }

    static func batch(_ timestamps: Range<Int64>) -> SourceEvent {
        .samples(timestamps.map { Sample(timestamp: $0, x: 0, y: 0, z: 9.8) })
    }

    @Test func shakesAndTheSensorsStateAreReportedAndSamplesCounted() {
        let counter = SampleCounter()
        var consumer = DetectingConsumer(detector: EveryNth(period: 4), samplesRead: counter)
        var reports: [String] = []
        func feed(_ event: SourceEvent) {
            consumer.consume(event) { report in
                switch report {
                case .shake(let shake, _): reports.append("shake at \(shake.recognized)")
                case .sensorGone(let reason): reports.append("gone: \(reason)")
                case .sensorReturned(let name): reports.append("back: \(name)")
                }
            }
        }
        feed(.sensorReturned("fake"))
        feed(Self.batch(0..<3))
        feed(Self.batch(3..<10))
        // The gap resets the detector: counting starts again after it.
        feed(.sensorGone(reason: "unplugged"))
        feed(Self.batch(20..<25))
        #expect(reports == ["back: fake", "shake at 3", "shake at 7", "gone: unplugged", "shake at 23"])
        #expect(counter.count == 15)
    }
}

/// The daemon's own consumer (``ShakeDetectorConsumer``, a type of its own so that its code is compiled
/// for its detector) reports and rests exactly as the generic one with the same detector.
@Suite struct ShakeDetectorConsumerTests {
    @Test func sameReportsAndRestsAsTheGenericConsumer() {
        let signal = SensitivitySignal()
        let make: @Sendable (Sensitivity?) -> ShakeDetector = { ShakeDetector(sensitivity: $0 ?? .medium) }
        var daemons = ShakeDetectorConsumer(
            detector: ContextDetector(signal: signal, make: make), samplesRead: SampleCounter())
        let counted = SampleCounter()
        var generic = DetectingConsumer(detector: ContextDetector(signal: signal, make: make), samplesRead: counted)
        // Rest, a shake, rest: in watermarks of ten, as a buffer delivers them.
        let samples = Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.2, start: 2, total: 6)
        var told: [String] = []
        var toldGeneric: [String] = []
        var rests: [SampleWait] = []
        var restsGeneric: [SampleWait] = []
        for start in stride(from: 0, to: samples.count, by: 10) {
            let batch = SourceEvent.samples(Array(samples[start..<min(start + 10, samples.count)]))
            daemons.consume(batch) { told.append(Self.describe($0)) }
            generic.consume(batch) { toldGeneric.append(Self.describe($0)) }
            rests.append(daemons.samplesCanWait)
            restsGeneric.append(generic.samplesCanWait)
        }
        daemons.consume(.sensorGone(reason: "unplugged")) { told.append(Self.describe($0)) }
        generic.consume(.sensorGone(reason: "unplugged")) { toldGeneric.append(Self.describe($0)) }
        #expect(told.count(where: { $0.hasPrefix("shake") }) == 1, "the shake is recognized: \(told)")
        #expect(told == toldGeneric)
        #expect(rests == restsGeneric)
        // Not yet at rest after the first batch, but no stroke under way; at rest before the shake;
        // not at all while its strokes build the chain.
        #expect(rests.first == .eventFree(nanoseconds: 120_000_000), "\(rests)")
        #expect(rests[10..<20].contains(.resting), "\(rests)")
        #expect(rests[20..<32].contains(.no), "\(rests)")
        #expect(counted.count == samples.count)
    }

    static func describe(_ report: SensorReport) -> String {
        switch report {
        case .shake(let shake, _): "shake at \(shake.recognized)"
        case .sensorGone(let reason): "gone: \(reason)"
        case .sensorReturned(let name): "back: \(name)"
        }
    }
}
