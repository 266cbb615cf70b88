import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Buffered reading through libiio from a fake device whose scans the test writes.
extension DeviceTests {
    /// The scan formats a driver may use, with and without a timestamp channel.
    static let formats: [(type: String, timestamp: Bool)] = [
        ("le:s16/16>>0", true), ("be:s16/16>>0", true), ("le:s32/32>>0", true), ("be:s32/32>>0", true),
        ("le:s12/16>>4", true), ("be:u10/16>>6", true), ("le:s16/16>>0", false), ("be:s32/32>>0", false),
        ("le:s14/16>>2", false),
    ]

    @Test(arguments: formats)
    func bufferedReadDecodesEveryFormat(type: String, timestamp: Bool) async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.type = type
        fake.timestamp = timestamp
        try bed.add(fake.text)
        let range = try #require(ChannelFormat(parsing: type)).rawRange
        let candidates: [Int64] = [0, 1, -1, 100, -100, 1234, -1234, range.lowerBound, range.upperBound].filter(range.contains)
        // The closure's type spelled out: Swift 6.2.3 cannot infer it in reasonable time.
        let scans = (0..<24).map { (i: Int) -> RawScan in
            RawScan(
                x: candidates[i % candidates.count], y: candidates[(i + 1) % candidates.count],
                z: candidates[(i + 2) % candidates.count], t: 5_000_000_000 + Int64(i) * 10_000_000)
        }
        let before = monotonic()
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        writeAll(bed.deviceFD(fake.devnode), fake.encode(scans))
        let samples = await recorder.waitForSamples(scans.count)
        await recorder.stop()
        let after = monotonic()
        try #require(samples.count == scans.count, "\(recorder.all.prefix(3))")
        for (sample, scan) in zip(samples, scans) {
            #expect(sample.x == Double(scan.x) * 0.000598550)
            #expect(sample.y == Double(scan.y) * 0.000598550)
            #expect(sample.z == Double(scan.z) * 0.000598550)
            if timestamp {
                #expect(sample.timestamp == scan.t)
            } else {
                // CLOCK_MONOTONIC at the read, spaced by the period before it, never going back.
                #expect(sample.timestamp > before - 1_000_000_000 && sample.timestamp <= after)
            }
        }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test func shortReadsAreJoinedIntoWholeScans() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let scans = rampScans(30)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        let bytes = fake.encode(scans)
        let fd = bed.deviceFD(fake.devnode)
        // Pieces that split scans (16 bytes) anywhere, each read on its own.
        var offset = 0
        for size in [5, 11, 16, 3, 29, 1, 100, 7] where offset < bytes.count {
            writeAll(fd, Array(bytes[offset..<min(bytes.count, offset + size)]))
            offset += size
            try await Task.sleep(for: .milliseconds(20))
        }
        writeAll(fd, Array(bytes[offset...]))
        let samples = await recorder.waitForSamples(scans.count)
        await recorder.stop()
        #expect(samples.map(\.timestamp) == scans.map(\.t))
        #expect(samples.map(\.z) == scans.map { Double($0.z) * 0.000598550 })
    }

    @Test func stoppingTheConsumerDisablesTheBufferAndStopsReading() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let enable = bed.root + "/sys" + fake.devpath + "/buffer/enable"
        let statistics = ReaderStatistics()
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered, statistics: statistics)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        #expect(try String(contentsOfFile: enable, encoding: .utf8).hasPrefix("1"))
        writeAll(bed.deviceFD(fake.devnode), fake.encode(rampScans(10)))
        #expect(await recorder.waitForSamples(10).count == 10)
        await recorder.stop()
        try await Task.sleep(for: .milliseconds(100))
        #expect(try String(contentsOfFile: enable, encoding: .utf8).hasPrefix("0"))
        // No consumer: data arriving now wakes nothing and is not read.
        let wakeups = statistics.wakeups
        let reads = statistics.reads
        writeAll(bed.deviceFD(fake.devnode), fake.encode(rampScans(10)))
        try await Task.sleep(for: .milliseconds(300))
        #expect(statistics.wakeups == wakeups)
        #expect(statistics.reads == reads)
    }

    @Test func setsRateWatermarkAndTrigger() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let base = bed.root + "/sys" + fake.devpath
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(rate: 60, mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        let read = { (name: String) in
            ((try? String(contentsOfFile: base + "/" + name, encoding: .utf8)) ?? "").trimmingCharacters(
                in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        }
        #expect(read("sampling_frequency") == "100")  // the nearest available at or above 60
        #expect(read("buffer/watermark") == "10")  // ten wake-ups a second at 100 Hz
        #expect(read("buffer/enable").hasPrefix("1"))
        #expect(read("trigger/current_trigger") == "fake_accel-dev0")
        #expect(read("scan_elements/in_accel_x_en").hasPrefix("1"))
        #expect(read("scan_elements/in_timestamp_en").hasPrefix("1"))
        #expect(recorder.all.first?.returnedText == "fake_accel (iio:device0): buffered at 100 Hz")
        await recorder.stop()
    }
}

/// CLOCK_MONOTONIC in ns, as the source stamps samples without a timestamp channel.
func monotonic() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}
