import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Polled reading, the silent-buffer fallback, calibration end to end, and hotplug.
extension DeviceTests {
    /// x has its own scale 0.5; y and z share 0.25; y has offset 10; the matrix turns and flips.
    /// For raw (2, 4, 8): (2 + 0) × 0.5 = 1, (4 + 10) × 0.25 = 3.5, 8 × 0.25 = 2, then
    /// x' = -y = -3.5, y' = x = 1, z' = -z = -2.
    static func calibrated(buffered: Bool) -> FakeAccelerometer {
        var fake = FakeAccelerometer()
        fake.buffered = buffered
        fake.raw = [2, 4, 8]
        fake.scale = "0.25"
        fake.axisScales = ["x": "0.5"]
        fake.offsets = ["y": "10"]
        fake.attributes["mount_matrix"] = "0, -1, 0; 1, 0, 0; 0, 0, -1"
        return fake
    }

    @Test func polledReadAppliesOffsetScaleAndMountMatrix() async throws {
        let bed = Testbed()
        let fake = Self.calibrated(buffered: false)
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource())
        let first = await recorder.waitForSamples(3)
        #expect(recorder.all.first?.returnedText == "fake_accel (iio:device0): polled at 60 Hz")
        try #require(first.count >= 3)
        #expect(first.allSatisfy { $0.x == -3.5 && $0.y == 1 && $0.z == -2 })
        // A new reading shows up at the next tick.
        bed.setAttribute(fake.devpath, "in_accel_z_raw", "-40")
        let later = await recorder.wait { events in
            events.contains { if case .samples(let s) = $0 { return s.contains { $0.z == 10 } } else { return false } }
        }
        await recorder.stop()
        #expect(later)
    }

    /// The polled reader reads at the polling rate (60 Hz by default, or as configured), not at the
    /// device's rate: the samples' spacing is the polling period. The median spacing, since a tick the
    /// loaded machine misses is not made up (the sensor holds one value at a time).
    @Test(arguments: [(nil, 60.0), (25.0, 25.0), (200.0, 100.0)] as [(Double?, Double)])
    func polledReadArrivesAtThePollingRate(pollingRate: Double?, expected: Double) async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        var configuration = AccelerometerConfiguration(mode: .polled)
        if let pollingRate { configuration.pollingRate = pollingRate }
        let recorder = EventRecorder(AccelerometerSource(configuration: configuration))
        let samples = await recorder.waitForSamples(Int(expected) + 1)
        await recorder.stop()
        // At most the device's rate: Rate (100 Hz) sets the fixture to 100 Hz, so 200 polls at 100.
        #expect(recorder.all.first?.returnedText == "fake_accel (iio:device0): polled at \(Int(expected)) Hz")
        try #require(samples.count > Int(expected))
        let gaps = zip(samples.dropFirst(), samples).map { Double($0.timestamp - $1.timestamp) / 1e9 }.sorted()
        let median = gaps[gaps.count / 2]
        #expect(abs(median - 1 / expected) < 0.15 / expected, "median spacing \(median) s at \(expected) Hz")
    }

    @Test func bufferedReadAppliesOffsetScaleAndMountMatrix() async throws {
        let bed = Testbed()
        let fake = Self.calibrated(buffered: true)
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        writeAll(bed.deviceFD(fake.devnode), fake.encode([RawScan(x: 2, y: 4, z: 8, t: 7)]))
        let samples = await recorder.waitForSamples(1)
        await recorder.stop()
        #expect(samples == [Sample(timestamp: 7, x: -3.5, y: 1, z: -2)])
    }

    @Test func silentBufferFallsBackToPolling() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let started = ContinuousClock.now
        let recorder = EventRecorder(AccelerometerSource())
        let fellBack = await recorder.wait { $0.compactMap(\.returnedText).count >= 2 }
        let waited = ContinuousClock.now - started
        let samples = await recorder.waitForSamples(2)
        await recorder.stop()
        #expect(fellBack)
        let texts = recorder.all.compactMap(\.returnedText)
        #expect(texts.first?.contains("buffered") == true)
        #expect(texts.last == "fake_accel (iio:device0): polled at 60 Hz; the buffer delivered nothing in 500 ms")
        #expect(waited >= .milliseconds(450) && waited < .seconds(3))
        // Raw (100, -200, 16384) × 0.000598550.
        let scale = 0.000598550
        let expected = Sample(
            timestamp: samples.first?.timestamp ?? 0, x: 100 * scale, y: -200 * scale, z: 16384 * scale)
        #expect(samples.first == expected)
        // The buffer was disabled when polling took over.
        let enable = try String(contentsOfFile: bed.root + "/sys" + fake.devpath + "/buffer/enable", encoding: .utf8)
        #expect(enable.hasPrefix("0"))
    }

    @Test func hotplugRemoveThenAdd() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered)))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        writeAll(bed.deviceFD(fake.devnode), fake.encode(rampScans(10)))
        #expect(await recorder.waitForSamples(10).count == 10)

        bed.uevent(fake.devpath, "remove")
        bed.remove(fake.devpath)
        #expect(await recorder.wait { $0.contains { $0.goneReason != nil } })
        let gone = recorder.all.compactMap(\.goneReason)
        #expect(gone.first?.contains("removed") == true, "\(gone)")

        // It comes back under a new number, as a re-plugged device does (and umockdev needs a new node).
        let back = FakeAccelerometer.replugged(fake)
        try bed.add(back.text)
        bed.uevent(back.devpath, "add")
        #expect(await recorder.wait { $0.compactMap(\.returnedText).count == 2 })
        #expect(recorder.all.compactMap(\.returnedText).last == "fake_accel (iio:device1): buffered at 100 Hz")
        var later = rampScans(10)
        for i in later.indices { later[i].t += 1_000_000_000 }
        writeAll(bed.deviceFD(back.devnode), back.encode(later))
        let samples = await recorder.waitForSamples(20)
        await recorder.stop()
        #expect(samples.map(\.timestamp) == (rampScans(10) + later).map(\.t))
        #expect(recorder.isFinished && recorder.error == nil)
    }

    @Test func deviceVanishingMidReadIsReportedAndRecovered() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .polled)))
        #expect(await recorder.waitForSamples(2).count >= 2)
        bed.remove(fake.devpath)  // no uevent: the next read fails
        #expect(await recorder.wait { $0.contains { $0.goneReason != nil } })
        let reason = recorder.all.compactMap(\.goneReason).first ?? ""
        // Whichever axis the poll was reading when the device vanished is named.
        let axisNamed = ["x", "y", "z"].contains { reason.contains("in_accel_\($0)_raw") }
        #expect(axisNamed && reason.contains("went away"), "\(reason)")
        let back = FakeAccelerometer.replugged(fake)
        try bed.add(back.text)
        bed.uevent(back.devpath, "add")
        #expect(await recorder.wait { $0.compactMap(\.returnedText).count == 2 })
        let count = recorder.samples.count
        #expect(await recorder.waitForSamples(count + 2).count >= count + 2)
        await recorder.stop()
        #expect(recorder.error == nil)
    }

    /// Where the mount matrix comes from: udev property, then three sysfs names, else identity; configuration wins.
    static let matrixSources: [(property: String?, file: String?, override: String?, source: String)] = [
        ("0, 1, 0; 1, 0, 0; 0, 0, 1", "mount_matrix", nil, "ACCEL_MOUNT_MATRIX"),
        (nil, "mount_matrix", nil, "mount_matrix"),
        (nil, "in_accel_mount_matrix", nil, "in_accel_mount_matrix"),
        (nil, "in_mount_matrix", nil, "in_mount_matrix"),
        (nil, nil, nil, "identity"),
        ("0, 1, 0; 1, 0, 0; 0, 0, 1", nil, "-1, 0, 0; 0, -1, 0; 0, 0, 1", "configuration"),
    ]

    @Test(arguments: matrixSources)
    func mountMatrixLookupOrder(property: String?, file: String?, override: String?, source: String) throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        if let property { fake.properties["ACCEL_MOUNT_MATRIX"] = property }
        if let file { fake.attributes[file] = "0, 0, 1; 0, 1, 0; -1, 0, 0" }
        try bed.add(fake.text)
        let info = try Discovery.find(mountMatrixOverride: override.flatMap { MountMatrix(parsing: $0) })
        #expect(info.mountMatrixSource == source)
        let expected: String =
            switch source {
            case "ACCEL_MOUNT_MATRIX": property!
            case "identity": "1, 0, 0; 0, 1, 0; 0, 0, 1"
            case "configuration": override!
            default: "0, 0, 1; 0, 1, 0; -1, 0, 0"
            }
        #expect(info.mountMatrix == MountMatrix(parsing: expected))
    }

    @Test func chosenByNameLabelOrPath() throws {
        let bed = Testbed()
        var first = FakeAccelerometer()
        first.name = "lid_accel"
        var second = FakeAccelerometer()
        second.devpath = "/devices/platform/fake-accel.1/iio:device1"
        second.sysname = "iio:device1"
        second.label = "accel-display"
        try bed.add(first.text)
        try bed.add(second.text)
        #expect(try Discovery.find().name == "lid_accel")
        #expect(try Discovery.find("accel-display").sysname == "iio:device1")
        #expect(try Discovery.find("/sys" + second.devpath).sysname == "iio:device1")
        #expect(try Discovery.find("/dev/iio:device1").sysname == "iio:device1")
        #expect(try Discovery.find("lid_accel").sysname == "iio:device0")
        #expect(throws: IIOError.self) { try Discovery.find("nothing-like-this") }
    }
}
