import ShakeDetection
import TestSupport
import Testing

@testable import ShakeService

/// The detector on the reading thread: samples are counted and fed to it in order, and only a shake's
/// phases and the sensor's state are reported.
@Suite struct DetectingConsumerTests {
    /// Begins a "shake" at every `period`-th sample since its last reset, and ends it at the next; a
    /// shake begun at a sample that is also a multiple of `dropEvery` is dropped there instead.
    struct EveryNth: ShakeDetecting {
        var period: Int
        var dropEvery = Int.max
        var seen = 0

        mutating func advance(_ sample: Sample) -> ShakePhase? {
            seen += 1
            let event = ShakeEvent(
                onset: sample.timestamp, began: sample.timestamp, ended: sample.timestamp, peak: 1, reversals: seen, axis: .x,
                direction: .positive)
            if seen % period == 0 { return .began(event) }
            guard seen % period == 1, seen > 1 else { return nil }
            if (seen - 1) % dropEvery == 0 { return .dropped(event, .keptGoing, at: sample.timestamp) }
            return .ended(event)
        }

        mutating func reset() { seen = 0 }
    }

    static func batch(_ timestamps: Range<Int64>) -> SourceEvent {
        .samples(timestamps.map { Sample(timestamp: $0, x: 0, y: 0, z: 9.8) })
    }

    @Test func shakesAndTheSensorsStateAreReportedAndSamplesCounted() {
        let counter = SampleCounter()
        var consumer = DetectingConsumer(detector: EveryNth(period: 4, dropEvery: 8), samplesRead: counter)
        var reports: [String] = []
        func feed(_ event: SourceEvent) {
            consumer.consume(event) { report in
                reports.append(ShakeDetectorConsumerTests.describe(report))
            }
        }
        feed(.sensorReturned("fake"))
        feed(Self.batch(0..<3))
        feed(Self.batch(3..<10))
        // The gap resets the detector: counting starts again after it.
        feed(.sensorGone(reason: "unplugged"))
        feed(Self.batch(20..<25))
        #expect(
            reports == [
                "back: fake", "began at 3", "shake at 4", "began at 7", "dropped at 8: kept going", "gone: unplugged",
                "began at 23", "shake at 24",
            ])
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
        case .shake(let shake, _): "shake at \(shake.endedAt)"
        case .shakeBegan(let shake, _): "began at \(shake.began)"
        case .shakeDropped(let shake, let reason, _): "dropped at \(shake.began): \(reason.rawValue)"
        case .nearMiss(let chain, let rule, _): "near miss at \(chain.began): \(rule.rawValue)"
        case .sensorGone(let reason): "gone: \(reason)"
        case .sensorReturned(let name): "back: \(name)"
        }
    }
}
