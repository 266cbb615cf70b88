import Foundation
@testable import IIOSensors
import ShakeDetection
import Testing

/// While the consumer's samples can wait (its device lies still), a buffered source reads every few
/// watermarks instead of at each one, and still delivers every sample, in order.
extension DeviceTests {
    /// Counts the samples it is given and keeps their times; says whether the next ones can wait.
    struct PatientCounter: SampleConsumer {
        struct Report: Sendable {
            var timestamps: [Int64]
            var returned: Bool
        }

        let patient: SampleWait
        var samplesCanWait: SampleWait { patient }

        func consume(_ event: SourceEvent, report: (Report) -> Void) {
            switch event {
            case .samples(let batch): report(Report(timestamps: batch.map(\.timestamp), returned: false))
            case .sensorReturned: report(Report(timestamps: [], returned: true))
            case .sensorGone(let reason): Issue.record("sensor gone: \(reason)")
            }
        }
    }

    /// Plays the device as a kernel buffer with watermark 10 wakes a reader: ten scans every 100 ms,
    /// `batches` times, and returns how many times the reading thread read the buffer, with the
    /// sample times the consumer was given.
    func readWhileFeeding(patient: SampleWait, batches: Int) async throws -> (reads: Int, timestamps: [Int64]) {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let fd = bed.deviceFD(fake.devnode)
        let statistics = ReaderStatistics()
        let source = AccelerometerSource(configuration: .init(mode: .buffered, statistics: statistics))
        let scans = rampScans(10 * batches)
        var timestamps: [Int64] = []
        for try await report in source.events(consumedBy: PatientCounter(patient: patient)) {
            if report.returned {
                // Nothing is read before the first scans arrive: every read counted is of these.
                Task.detached {
                    for batch in 0..<batches {
                        writeAll(fd, fake.encode(Array(scans[(10 * batch)..<(10 * batch + 10)])))
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                }
            }
            timestamps += report.timestamps
            if timestamps.count >= scans.count { break }
        }
        return (statistics.reads, timestamps)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRestingConsumerIsReadEveryThreeWatermarksAndLosesNothing() async throws {
        let batches = 24
        let prompt = try await readWhileFeeding(patient: .no, batches: batches)
        let resting = try await readWhileFeeding(patient: .resting, batches: batches)
        let written = rampScans(10 * batches).map(\.t)
        // Every sample, in order, either way.
        #expect(prompt.timestamps == written)
        #expect(resting.timestamps == written)
        // About one read a watermark (24), against one every three (8). Wide bounds: a busy
        // machine can let two watermarks gather before a prompt reader wakes.
        #expect(prompt.reads >= batches * 2 / 3, "\(prompt.reads) reads")
        #expect(resting.reads <= batches / 2, "\(resting.reads) reads")
        #expect(resting.reads * 2 <= prompt.reads, "\(resting.reads) against \(prompt.reads) reads")
    }

    /// While nothing can be recognized for 120 ms of samples (the detector's quiet horizon with no
    /// stroke under way), the watermark after next is the first whose samples could show an event.
    @Test(.timeLimit(.minutes(1)))
    func eventFreeSamplesAreReadEveryOtherWatermarkAndNothingIsLost() async throws {
        let batches = 24
        let prompt = try await readWhileFeeding(patient: .no, batches: batches)
        let quiet = try await readWhileFeeding(patient: .eventFree(nanoseconds: 120_000_000), batches: batches)
        let written = rampScans(10 * batches).map(\.t)
        #expect(quiet.timestamps == written)
        // About 12 reads against 24; wide bounds for a busy machine, as above.
        #expect(quiet.reads <= batches * 2 / 3, "\(quiet.reads) reads")
        #expect(quiet.reads * 4 <= prompt.reads * 3, "\(quiet.reads) against \(prompt.reads) reads")
    }

    @Test func howManyWakeupsEachWaitSkips() {
        let period: Int64 = 100_000_000
        #expect(ReadingLoop.wakeups(for: .no, period: period) == 1)
        #expect(ReadingLoop.wakeups(for: .resting, period: period) == ReadingLoop.restingWakeups)
        // The detector's 120 ms: the second watermark is the first that could show an event.
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 120_000_000), period: period) == 2)
        // Under a period and a fifth: the next watermark could show one.
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 119_000_000), period: period) == 1)
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 50_000_000), period: period) == 1)
        // At 20 wake-ups a second, 120 ms is two periods and more: the third.
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 120_000_000), period: 50_000_000) == 3)
        // Never longer than a resting reader, nor anything from nonsense.
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 10_000_000_000), period: period) == 3)
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: -5), period: period) == 1)
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: .max), period: period) == 3)
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: .min), period: period) == 1)
        #expect(ReadingLoop.wakeups(for: .eventFree(nanoseconds: 120_000_000), period: 0) == 1)
    }

    @Test func theKernelBufferHoldsEightWatermarks() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let base = bed.root + "/sys" + fake.devpath
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        let read = { (name: String) in
            ((try? String(contentsOfFile: base + "/" + name, encoding: .utf8)) ?? "").trimmingCharacters(
                in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        }
        // A resting reader lets three watermarks gather; the kernel keeps eight before it drops scans.
        #expect(read("buffer/watermark") == "10")
        #expect(read("buffer/length") == "80")
        await recorder.stop()
    }
}
