import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Device data is untrusted: absurd sysfs values on a fake device are named errors, and a
/// buffer's absurd timestamps are guarded, never a trap.
extension DeviceTests {
    /// A change that makes one attribute absurd, and the file or property the error must name.
    static let absurd: [(String, @Sendable (inout FakeAccelerometer) -> Void, String)] = [
        (
            "a thousand rates", { $0.available = (1...1000).map(String.init).joined(separator: " ") },
            "sampling_frequency_available"
        ),
        ("a huge rate", { $0.available = "12.5 1e300" }, "sampling_frequency_available"),
        ("a negative rate", { $0.available = "-5 50" }, "sampling_frequency_available"),
        ("garbage rates", { $0.available = "12.5;25;fast" }, "sampling_frequency_available"),
        ("a rate range past 100 kHz", { $0.available = "[1 1 1e9]" }, "sampling_frequency_available"),
        ("a huge current rate", { $0.samplingFrequency = "1e300" }, "sampling_frequency"),
        ("a negative scale", { $0.scale = "-0.5" }, "in_accel_scale"),
        ("a NaN scale", { $0.scale = "nan" }, "in_accel_scale"),
        ("an infinite scale", { $0.axisScales["z"] = "inf" }, "in_accel_z_scale"),
        ("a huge scale", { $0.scale = "1e300" }, "in_accel_scale"),
        ("a huge offset", { $0.offsets["x"] = "1e300" }, "in_accel_x_offset"),
        ("more bits than storage", { $0.type = "le:s17/16>>0" }, "in_accel_x_type"),
        ("128-bit storage", { $0.type = "le:s16/128>>0" }, "in_accel_x_type"),
        ("no storage", { $0.type = "le:s16/0>>0" }, "in_accel_x_type"),
        ("shift as large as storage", { $0.type = "le:s8/16>>16" }, "in_accel_x_type"),
        ("seventeen repeats", { $0.type = "le:s16/16X17>>0" }, "in_accel_x_type"),
        (
            "a NaN in the mount matrix", { $0.attributes["mount_matrix"] = "nan, 0, 0; 0, 1, 0; 0, 0, 1" },
            "mount_matrix"
        ),
        (
            "a huge mount matrix", { $0.properties["ACCEL_MOUNT_MATRIX"] = "1e300, 0, 0; 0, 1, 0; 0, 0, 1" },
            "ACCEL_MOUNT_MATRIX"
        ),
        ("a megabyte scale", { $0.scale = String(repeating: "1", count: 1 << 20) }, "in_accel_scale"),
        ("a label of two megabytes", { $0.label = String(repeating: "a", count: 2 << 20) }, "label"),
    ]

    @Test(arguments: absurd)
    func absurdAttributeIsANamedError(
        name: String, breakIt: @Sendable (inout FakeAccelerometer) -> Void, names: String
    ) async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        breakIt(&fake)
        try bed.add(fake.text)
        let error = try #require(throws: IIOError.self) { try Discovery.find() }
        #expect(error.code == .malformedAttribute, "\(error)")
        #expect(error.description.contains(names), "\(error)")
        #expect(error.description.count < 1000, "the error quotes at most a little of the value")
        // The source ends with the same error rather than trapping.
        let recorder = EventRecorder(AccelerometerSource())
        #expect(await recorder.wait { _ in recorder.isFinished })
        #expect((recorder.error as? IIOError)?.code == .malformedAttribute)
    }

    @Test func absurdTimestampsInTheBufferAreGuarded() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        var scans = rampScans(12)
        for i in 3..<6 { scans[i].t = .max }  // a jump to Int64.max that stays
        scans[6].t = .min  // wraps
        scans[7].t = -5  // backwards, before boot
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        writeAll(bed.deviceFD(fake.devnode), fake.encode(scans))
        let samples = await recorder.waitForSamples(scans.count)
        await recorder.stop()
        try #require(samples.count == scans.count)
        #expect(samples.prefix(3).map(\.timestamp) == scans.prefix(3).map(\.t))
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(samples.allSatisfy { (0...TimestampGuard.latest).contains($0.timestamp) })
        // The jump was bridged by one period, and the values are untouched.
        #expect(samples[3].timestamp == scans[2].t + 10_000_000)
        #expect(samples.map(\.z) == scans.map { Double($0.z) * 0.000598550 })
    }
}
