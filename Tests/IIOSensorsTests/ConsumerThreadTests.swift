import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// A consumer runs on the reading thread, and its reports alone reach the iterating task.
extension DeviceTests {
    /// The name of the thread the caller runs on (the reading thread is `shaked-iio`).
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Reports, for each event, its kind, how many samples it held and the thread it was consumed on.
    struct ThreadReporter: SampleConsumer {
        struct Report: Sendable {
            var samples: Int
            var returned: Bool
            var thread: String
        }

        func consume(_ event: SourceEvent, report: (Report) -> Void) {
            switch event {
            case .samples(let batch): report(Report(samples: batch.count, returned: false, thread: threadName()))
            case .sensorReturned: report(Report(samples: 0, returned: true, thread: threadName()))
            case .sensorGone(let reason): Issue.record("sensor gone: \(reason)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theConsumerRunsOnTheReadingThread() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let source = AccelerometerSource(configuration: .init(mode: .buffered))
        let fd = bed.deviceFD(fake.devnode)
        var threads: Set<String> = []
        var samples = 0
        for try await report in source.events(consumedBy: ThreadReporter()) {
            threads.insert(report.thread)
            if report.returned { writeAll(fd, fake.encode(rampScans(30))) }
            samples += report.samples
            if samples >= 30 { break }
        }
        #expect(samples == 30)
        #expect(threads == ["shaked-iio"])
        // The iterating task runs elsewhere; the reading thread has ended with the stream.
        #expect(Self.threadName() != "shaked-iio")
        #expect(await waitUntil { source.runningThreads == 0 })
    }
}
