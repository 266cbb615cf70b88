import Foundation
import IIOSensors
import ShakeDetection
import TestSupport
import Testing
import Traces

/// Recorded traces played through the fake device's buffer: read back through IIOSensors, and
/// through the built `shakectl`.
extension DeviceTests {
    /// A fake device whose buffer will hold `samples`, encoded with `scale` m/s² per unit.
    static func encodeTrace(_ samples: [Sample], type: String, scale: Double) -> (FakeAccelerometer, [UInt8]) {
        var fake = FakeAccelerometer()
        fake.type = type
        fake.scale = String(scale)
        let scans = samples.map { s in
            RawScan(
                x: Int64((s.x / scale).rounded()), y: Int64((s.y / scale).rounded()), z: Int64((s.z / scale).rounded()),
                t: s.timestamp + 1_000_000_000)
        }
        return (fake, fake.encode(scans))
    }

    /// Writes bytes to the device from another thread (the pty holds only a few kilobytes at a time).
    static func feed(_ bed: Testbed, _ fake: FakeAccelerometer, _ bytes: [UInt8]) {
        let fd = bed.deviceFD(fake.devnode)
        Thread { writeAll(fd, bytes) }.start()
    }

    @Test(arguments: ["qt_shake_left", "qt_shake_right"])
    func traceReadBackThroughTheBufferEqualsTheOriginal(name: String) async throws {
        let original = try TraceReader(path: TestPaths.trace(name)).readAll()
        let scale = 0.0012  // s16 at ±39.3 m/s², like a ±4 g part
        let (fake, bytes) = Self.encodeTrace(original, type: "le:s16/16>>0", scale: scale)
        let bed = Testbed()
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        Self.feed(bed, fake, bytes)
        let samples = await recorder.waitForSamples(original.count, timeout: .seconds(10))
        await recorder.stop()
        try #require(samples.count == original.count)
        for (read, sample) in zip(samples, original) {
            #expect(read.timestamp == sample.timestamp + 1_000_000_000)
            #expect(abs(read.x - sample.x) <= scale / 2 + 1e-9)
            #expect(abs(read.y - sample.y) <= scale / 2 + 1e-9)
            #expect(abs(read.z - sample.z) <= scale / 2 + 1e-9)
        }
    }

    /// The detection lines of `detect --format json`, reduced to what must match.
    static func detections(_ output: String) throws -> [[String: String]] {
        try output.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return ["onset", "ended", "reversals", "axis", "direction"].reduce(into: [:]) {
                $0[$1] = "\(object[$1] ?? "")"
            }
        }
    }

    @Test(arguments: ["qt_shake_left", "spliced_dev_01_qt_negs"])
    func detectLiveOnTheFakeDeviceMatchesDetectOnTheTrace(name: String) async throws {
        let shakectl = TestPaths.binary("shakectl")
        try #require(FileManager.default.isExecutableFile(atPath: shakectl), "build shakectl first: \(shakectl)")
        let path = TestPaths.trace(name)
        let onFile = try runProcess(shakectl, ["detect", path, "--format", "json"])
        try #require(onFile.status == 0, "\(onFile.stderr)")
        let original = try TraceReader(path: path).readAll()
        // s32 with 10 µm/s² steps holds the trace's five decimals exactly.
        let (fake, bytes) = Self.encodeTrace(original, type: "le:s32/32>>0", scale: 0.00001)
        let bed = Testbed()
        try bed.add(fake.text)
        Self.feed(bed, fake, bytes)
        let live = try runProcess(
            shakectl, ["detect", "--live", "--device", "fake_accel", "--duration", "2.5", "--format", "json"])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stderr.contains("reading fake_accel (iio:device0): buffered at 100 Hz"), "\(live.stderr)")
        let expected = try Self.detections(onFile.stdout)
        #expect(try Self.detections(live.stdout) == expected)
        #expect(!expected.isEmpty || name.contains("negs"))
    }

    @Test func recordWritesTheTraceItReads() async throws {
        let shakectl = TestPaths.binary("shakectl")
        try #require(FileManager.default.isExecutableFile(atPath: shakectl), "build shakectl first: \(shakectl)")
        let original = try TraceReader(path: TestPaths.trace("qt_shake_right")).readAll()
        let (fake, bytes) = Self.encodeTrace(original, type: "be:s32/32>>0", scale: 0.00001)
        let bed = Testbed()
        try bed.add(fake.text)
        Self.feed(bed, fake, bytes)
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("recorded.csv").path
        let result = try runProcess(shakectl, ["record", "-o", output, "--duration", "1.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote \(original.count) samples"), "\(result.stderr)")
        let recorded = try TraceReader(path: output).readAll()
        try #require(recorded.count == original.count)
        for (read, sample) in zip(recorded, original) {
            #expect(read.timestamp - recorded[0].timestamp == sample.timestamp - original[0].timestamp)
            #expect(abs(read.x - sample.x) < 1e-9 && abs(read.y - sample.y) < 1e-9 && abs(read.z - sample.z) < 1e-9)
        }
    }

    @Test func sensorsListsTheFakeDeviceAsJSON() throws {
        let shakectl = TestPaths.binary("shakectl")
        try #require(FileManager.default.isExecutableFile(atPath: shakectl), "build shakectl first: \(shakectl)")
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.properties["ACCEL_MOUNT_MATRIX"] = "0, 1, 0; 1, 0, 0; 0, 0, 1"
        try bed.add(fake.text)
        var polled = FakeAccelerometer.replugged(fake)
        polled.name = "lid_accel"
        polled.buffered = false
        polled.properties = [:]
        try bed.add(polled.text)
        let result = try runProcess(shakectl, ["sensors", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == 2, "\(result.stdout)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["name"] as? String == "fake_accel")
        #expect(first["path"] as? String == "/sys" + fake.devpath)
        #expect(first["mode"] as? String == "buffered")
        #expect(first["mountMatrix"] as? [[Double]] == [[0, 1, 0], [1, 0, 0], [0, 0, 1]])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["name"] as? String == "lid_accel")
        #expect(second["mode"] as? String == "polled")
        #expect(second["mountMatrix"] as? [[Double]] == [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        let text = try runProcess(shakectl, ["sensors"])
        #expect(text.stdout.contains("mount matrix: 0, 1, 0; 1, 0, 0; 0, 0, 1 (ACCEL_MOUNT_MATRIX)"))
    }
}
