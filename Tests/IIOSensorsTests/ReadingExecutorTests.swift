import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// A consumer that prefers the source's executor gets its batches on the reading thread.
extension DeviceTests {
    /// The name of the thread the caller runs on (the reading thread is `shaked-iio`).
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// With a preference, also that the loop runs what a yield queued before it sleeps (a consumer left
    /// queued after the first event waited for data that only it would write: a hang, cut by the limit).
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func batchesReachAConsumerOnTheReadingThread(preferring: Bool) async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let source = AccelerometerSource(configuration: .init(mode: .buffered))
        let fd = bed.deviceFD(fake.devnode)
        let threads: [String] = try await withTaskExecutorPreference(preferring ? source.preferredExecutor : nil) {
            var threads: [String] = []
            var samples = 0
            for try await event in source.events() {
                switch event {
                case .sensorReturned: writeAll(fd, fake.encode(rampScans(30)))
                case .samples(let batch):
                    samples += batch.count
                    threads.append(Self.threadName())
                case .sensorGone(let reason): Issue.record("sensor gone: \(reason)")
                }
                if samples >= 30 { break }
            }
            return threads
        }
        #expect(!threads.isEmpty)
        if preferring {
            #expect(threads.allSatisfy { $0 == "shaked-iio" }, "\(threads)")
        } else {
            #expect(!threads.contains("shaked-iio"), "\(threads)")
        }
        // After the stream, the consumer carries on elsewhere: the reading thread has ended.
        #expect(Self.threadName() != "shaked-iio")
    }
}
