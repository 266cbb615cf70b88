import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Typed errors from bad devices, and recovery once the device is fixed.
extension DeviceTests {
    /// A change that breaks one attribute, and the file or property the error must name.
    static let malformed: [(String, @Sendable (inout FakeAccelerometer) -> Void, String)] = [
        ("scale abc", { $0.scale = "abc" }, "in_accel_scale"),
        ("per-axis scale", { $0.axisScales["y"] = "0.1.2" }, "in_accel_y_scale"),
        ("scale zero", { $0.scale = "0" }, "in_accel_scale"),
        ("offset", { $0.offsets[""] = "ten" }, "in_accel_offset"),
        ("garbage type", { $0.type = "garbage" }, "in_accel_x_type"),
        ("type with bad storage", { $0.type = "le:s16/12>>0" }, "in_accel_x_type"),
        ("matrix with a zero row", { $0.attributes["mount_matrix"] = "1, 0, 0; 0, 0, 0; 0, 0, 1" }, "mount_matrix"),
        (
            "matrix of eight numbers", { $0.attributes["in_accel_mount_matrix"] = "1, 0, 0; 0, 1, 0; 0, 0" },
            "in_accel_mount_matrix"
        ),
        (
            "udev matrix of eight numbers", { $0.properties["ACCEL_MOUNT_MATRIX"] = "1, 0, 0; 0, 1, 0; 0, 0" },
            "ACCEL_MOUNT_MATRIX"
        ),
        ("rates", { $0.available = "fast" }, "sampling_frequency_available"),
        ("rate", { $0.samplingFrequency = "-5" }, "sampling_frequency"),
    ]

    @Test(arguments: malformed)
    func malformedAttributeIsATypedError(
        name: String, breakIt: @Sendable (inout FakeAccelerometer) -> Void, names: String
    ) async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        breakIt(&fake)
        try bed.add(fake.text)
        let error = try #require(throws: IIOError.self) { try Discovery.find() }
        #expect(error.code == .malformedAttribute)
        #expect(error.description.contains(names), "\(error)")
        // The source ends with the same error rather than crashing...
        let recorder = EventRecorder(AccelerometerSource())
        #expect(await recorder.wait { _ in recorder.isFinished })
        #expect((recorder.error as? IIOError)?.code == .malformedAttribute)
        // ...and `sensors` lists the device with the error.
        let listed = try Discovery.all()
        #expect(listed.count == 1)
        if case .failure(let failure) = listed.first { #expect(failure.code == .malformedAttribute) }
    }

    @Test func malformedAttributeRecoversWhenFixed() async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.buffered = false
        fake.scale = "abc"
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(waitForSensor: true)))
        #expect(await recorder.wait { $0.contains { $0.goneReason != nil } })
        #expect(recorder.all.first?.goneReason?.contains("malformed value \"abc\"") == true)
        bed.setAttribute(fake.devpath, "in_accel_scale", "0.5")
        bed.uevent(fake.devpath, "change")
        let samples = await recorder.waitForSamples(1)
        await recorder.stop()
        #expect(samples.first?.x == 50)
    }

    @Test func noAccelerometerIsATypedErrorAndTheSourceWaitsForOne() async throws {
        let bed = Testbed()
        #expect(throws: IIOError.self) { try Discovery.find() }
        let failing = EventRecorder(AccelerometerSource())
        #expect(await failing.wait { _ in failing.isFinished })
        #expect((failing.error as? IIOError)?.code == .noAccelerometer)

        let waiting = EventRecorder(AccelerometerSource(configuration: .init(waitForSensor: true)))
        #expect(await waiting.wait { $0.contains { $0.goneReason?.contains("no IIO accelerometer") == true } })
        var fake = FakeAccelerometer()
        fake.buffered = false
        try bed.add(fake.text)
        bed.uevent(fake.devpath, "add")
        #expect(await waiting.waitForSamples(1).count >= 1)
        await waiting.stop()
        #expect(waiting.error == nil)
    }

    /// Where access is refused: a sysfs attribute the reader writes, or the device node.
    static let denials: [(String, String)] = [("sysfs", "/buffer/enable"), ("device node", "/dev/iio:device0")]

    @Test(arguments: denials)
    func permissionDeniedNamesTheUdevRuleAndRecovers(place: String, file: String) async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let sys = bed.root + "/sys" + fake.devpath
        let asRoot = geteuid() == 0
        let denied = file.hasPrefix("/dev") ? file : "/sys" + fake.devpath + file
        if asRoot {
            // Root ignores file modes: open everything to `nobody` except the one file, then become nobody.
            _ = Glibc.chmod(bed.root, 0o777)  // nobody must reach the fake sysfs and make umockdev's uevent socket
            for case let name as String in FileManager.default.enumerator(atPath: sys)! {
                _ = Glibc.chmod(sys + "/" + name, 0o777)
            }
            for case let name as String in FileManager.default.enumerator(atPath: bed.root + "/ioctl")! {
                _ = Glibc.chmod(bed.root + "/ioctl/" + name, 0o777)  // umockdev's ioctl socket, opened with the node
            }
        }
        bed.chmod(denied, 0o000)
        if asRoot { #expect(seteuid(65534) == 0) }
        let error = await Self.startError(AccelerometerSource(configuration: .init(mode: .buffered)))
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered, waitForSensor: true)))
        let reported = await recorder.wait { $0.contains { $0.goneReason != nil } }
        if asRoot { #expect(seteuid(0) == 0) }
        bed.chmod(denied, 0o666)

        let failure = try #require(error)
        #expect(failure.code == .permissionDenied, "\(failure)")
        #expect(failure.description.contains("systemd/60-shaked.rules") && failure.description.contains("shaked"))
        #expect(failure.path == denied, "\(failure)")
        #expect(reported, "\(recorder.all) \(String(describing: recorder.error))")
        // Fixed (as the udev rule would): the next uevent brings it back.
        bed.uevent(fake.devpath, "change")
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        await recorder.stop()
    }

    /// The error a source's stream ends with at start, if any.
    static func startError(_ source: AccelerometerSource) async -> IIOError? {
        let recorder = EventRecorder(source)
        await recorder.wait { _ in recorder.isFinished }
        await recorder.stop()
        return recorder.error as? IIOError
    }
}
