import ShakeDetection
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
