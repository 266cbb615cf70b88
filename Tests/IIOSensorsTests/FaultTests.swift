import Foundation
import ShakeDetection
import Synchronization
import Testing

@testable import IIOSensors

/// Faults do not wedge the reader: switching it off and on quickly, a sensor that fails, a
/// reading thread that hangs.
extension DeviceTests {
    /// Off and on again at once, many times, with a driver that is slow to close (the old
    /// reader takes 100 ms to let go): each new reader waits for the old one, so the buffer stays
    /// enabled and reading stays buffered. Without the wait, the old reader's close disables
    /// the new reader's buffer (on a real device: EBUSY), and the source falls back to polling.
    @Test func switchingOffAndOnQuicklyKeepsTheBuffer() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let enable = bed.root + "/sys" + fake.devpath + "/buffer/enable"
        let read = { (try? String(contentsOfFile: enable, encoding: .utf8)) ?? "" }
        ReadingLoop.closeDelayMillisecondsForTesting.store(100, ordering: .relaxed)
        defer { ReadingLoop.closeDelayMillisecondsForTesting.store(0, ordering: .relaxed) }
        let source = AccelerometerSource()
        for round in 0..<12 {
            let recorder = EventRecorder(source)
            #expect(await recorder.wait { $0.contains { $0.returnedText != nil } }, "round \(round)")
            // The previous reader has finished closing: only this round's thread is left.
            #expect(await waitUntil { source.runningThreads == 1 }, "round \(round)")
            #expect(read().hasPrefix("1"), "round \(round): the buffer was disabled under the new reader")
            writeAll(bed.deviceFD(fake.devnode), fake.encode(rampScans(10)))
            #expect(await recorder.waitForSamples(10).count == 10, "round \(round)")
            await recorder.stop()  // returns once the stream ends; the thread is still closing
            #expect(recorder.all.compactMap(\.returnedText) == ["fake_accel (iio:device0): buffered at 100 Hz"])
        }
        #expect(await waitUntil { source.runningThreads == 0 })
        #expect(read().hasPrefix("0"))
        #expect(!DeviceClaims.isClaimed("/sys" + fake.devpath))
    }

    /// What breaks, and how it is mended (without a uevent: only the retry can find it).
    static let failures:
        [(
            String, @Sendable (Testbed, FakeAccelerometer) -> Void, @Sendable (Testbed, FakeAccelerometer) -> Void,
            String
        )] = [
            (
                "a bad value read", { $0.setAttribute($1.devpath, "in_accel_x_raw", "garbage") },
                { $0.setAttribute($1.devpath, "in_accel_x_raw", "7") }, "in_accel_x_raw"
            ),
            (
                // The attribute becomes a directory: open works, read fails with EISDIR (even for root).
                "a read error",
                { bed, fake in
                    let path = bed.root + "/sys" + fake.devpath + "/in_accel_y_raw"
                    unlink(path)
                    mkdir(path, 0o755)
                },
                { bed, fake in
                    let path = bed.root + "/sys" + fake.devpath + "/in_accel_y_raw"
                    rmdir(path)
                    try? "9\n".write(toFile: path, atomically: false, encoding: .utf8)
                }, "in_accel_y_raw"
            ),
            (
                // Removed and found again with a scale that can't be used: each reopen fails.
                "an open error",
                { bed, fake in
                    bed.setAttribute(fake.devpath, "in_accel_scale", "abc")
                    bed.uevent(fake.devpath, "remove")
                },
                { $0.setAttribute($1.devpath, "in_accel_scale", "0.5") }, "in_accel_scale"
            ),
        ]

    @Test(arguments: failures)
    func aFailingSensorIsRetriedWithGrowingDelays(
        name: String, breakIt: @Sendable (Testbed, FakeAccelerometer) -> Void,
        mend: @Sendable (Testbed, FakeAccelerometer) -> Void, names: String
    ) async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.buffered = false
        try bed.add(fake.text)
        let configuration = AccelerometerConfiguration(
            mode: .polled, waitForSensor: true, retryDelay: .milliseconds(100), maximumRetryDelay: .milliseconds(400))
        let recorder = EventRecorder(AccelerometerSource(configuration: configuration))
        #expect(await recorder.waitForSamples(1).count >= 1)
        breakIt(bed, fake)
        #expect(await recorder.wait { $0.compactMap(\.goneReason).count >= 5 })
        let reasons = recorder.all.compactMap(\.goneReason)
        #expect(reasons.dropFirst().allSatisfy { $0.contains(names) }, "\(reasons)")
        let delays = reasons.prefix(5).map { $0.split(separator: "retrying in ").last.map(String.init) ?? $0 }
        #expect(delays == ["0.1 s", "0.2 s", "0.4 s", "0.4 s", "0.4 s"], "\(reasons)")
        let count = recorder.samples.count
        mend(bed, fake)
        #expect(await recorder.waitForSamples(count + 3).count >= count + 3, "\(recorder.all.suffix(3))")
        await recorder.stop()
        #expect(recorder.error == nil)
    }

    /// The liveness probe: true with no stream, true while reading, true once the stream ended.
    @Test func aReadingLoopAnswersTheLivenessProbe() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let statistics = ReaderStatistics()
        let source = AccelerometerSource(configuration: .init(mode: .buffered, statistics: statistics))
        #expect(await source.isResponsive(within: .milliseconds(1)))
        let recorder = EventRecorder(source)
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        let wakeups = statistics.wakeups
        for _ in 0..<5 { #expect(await source.isResponsive(within: .seconds(2))) }
        // Each probe costs one wake-up of the reading thread, and nothing between probes.
        #expect(statistics.wakeups - wakeups <= 5)
        try await Task.sleep(for: .milliseconds(300))
        #expect(statistics.wakeups - wakeups <= 5)
        writeAll(bed.deviceFD(fake.devnode), fake.encode(rampScans(10)))
        #expect(await recorder.waitForSamples(10).count == 10)
        #expect(await source.isResponsive(within: .seconds(2)))
        await recorder.stop()
        #expect(await waitUntil { source.runningThreads == 0 })
        #expect(await source.isResponsive(within: .milliseconds(1)))
    }

    /// A reading thread stuck in a system call (reading an attribute that turned into a FIFO
    /// with no data, as a hung driver would hold it) does not answer; once it is freed, it does.
    ///
    /// The test holds the FIFO's write end, so the reader's `open` returns and its `read`
    /// blocks: umockdev's preload holds a process-wide lock during path calls such as `open`,
    /// and a thread stuck inside one would stop this test's own file calls too.
    @Test func aStuckReadingLoopDoesNotAnswer() async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.buffered = false
        try bed.add(fake.text)
        let source = AccelerometerSource(configuration: .init(mode: .polled))
        let recorder = EventRecorder(source)
        #expect(await recorder.waitForSamples(2).count >= 2)
        #expect(await source.isResponsive(within: .seconds(2)))

        let attribute = bed.root + "/sys" + fake.devpath + "/in_accel_x_raw"
        let fifo = bed.root + "/stuck-fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        try #require(writer >= 0)
        #expect(link(fifo, attribute + ".new") == 0 && rename(attribute + ".new", attribute) == 0)
        try await Task.sleep(for: .milliseconds(100))  // the next tick (10 ms) reads the FIFO, and blocks
        #expect(await source.isResponsive(within: .milliseconds(300)) == false, "\(recorder.all.suffix(1))")
        #expect(await source.isResponsive(within: .milliseconds(300)) == false)

        // Mend the attribute, then let the stuck read complete.
        try "5\n".write(toFile: attribute + ".new", atomically: false, encoding: .utf8)
        #expect(rename(attribute + ".new", attribute) == 0)
        writeAll(writer, Array("5\n".utf8))
        #expect(await source.isResponsive(within: .seconds(2)))
        let count = recorder.samples.count
        #expect(await recorder.waitForSamples(count + 2).count >= count + 2)
        await recorder.stop()
        close(writer)
        unlink(fifo)
    }
}

/// Waits until `condition` holds, for up to `timeout`.
func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
