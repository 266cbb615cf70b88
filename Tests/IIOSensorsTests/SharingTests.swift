import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Another process's buffer is left alone, and its holder named (docs/sensor-sharing.md).
///
/// The other process is a shell that opens the fake node and enables the buffer, as
/// iio-sensor-proxy does; `Tests/IIOExclusivity` runs the real iio-sensor-proxy.
extension DeviceTests {
    /// A child that holds the device node open (as `sleep`, after `exec`) until terminated.
    final class NodeHolder {
        let process = Process()

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec 3</dev/iio:device0 && echo ready && exec sleep 30"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let line = output.fileHandleForReading.availableData
            guard String(decoding: line, as: UTF8.self).hasPrefix("ready") else {
                throw CocoaError(.fileReadUnknown)
            }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)  // the test process may run with SIGTERM blocked
            process.waitUntilExit()
        }
    }

    @Test func anotherProcesssBufferIsLeftAloneAndItsHolderNamed() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let holder = try NodeHolder()
        bed.setAttribute(fake.devpath, "buffer/enable", "1")

        let error = await Self.startError(AccelerometerSource(configuration: .init(mode: .buffered)))
        let failure = try #require(error)
        #expect(failure.code == .busy, "\(failure)")
        #expect(failure.message.contains("in use by sleep (pid \(holder.process.processIdentifier))"), "\(failure)")
        #expect(failure.message.contains("Priority=shake"), "\(failure)")
        let enable = try String(contentsOfFile: bed.root + "/sys" + fake.devpath + "/buffer/enable", encoding: .utf8)
        #expect(enable.hasPrefix("1"), "the other process's buffer must stay enabled")

        // Automatic mode reads beside it: this driver (umockdev, no model) answers raw reads.
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .automatic)))
        #expect(await recorder.wait { $0.contains { $0.returnedText?.contains("polled") == true } })
        #expect(recorder.all.compactMap(\.returnedText).first?.contains("in use by sleep") == true)
        #expect(await !recorder.waitForSamples(3).isEmpty)
        await recorder.stop()
        withExtendedLifetime(holder) {}
    }

    @Test func priorityShakeTakesTheBuffer() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let holder = try NodeHolder()
        bed.setAttribute(fake.devpath, "buffer/enable", "1")
        // The same holder as above, which priority "rotation" leaves alone: "shake" takes the buffer.
        // (umockdev lets the node be opened twice; under the kernel the holder must have let go first,
        // as iio-sensor-proxy 3.0 does between its reads.)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .buffered, priority: .shake)))
        #expect(await recorder.wait { $0.contains { $0.returnedText?.contains("buffered") == true } })
        await recorder.stop()
        withExtendedLifetime(holder) {}
    }

    /// Another process's buffer on a driver with nothing else to read (no raw attributes): shared in
    /// time, its set-up left as it was, every scan read in order and spaced by its own timestamps.
    /// Where iio-sensor-proxy is installed it may start at any time, and 3.7's set-up fails beside a buffer of
    /// ours: a device that can be polled is polled, not read with a buffer of our own; without one, the buffer.
    @Test func anInstalledRotationServiceGetsTheBufferLeftFree() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let installed = bed.root + "/iio-sensor-proxy"
        #expect(FileManager.default.createFile(atPath: installed, contents: Data()))
        var configuration = AccelerometerConfiguration(mode: .automatic)
        configuration.rotationServiceFiles = [bed.root + "/not-there", installed]
        let recorder = EventRecorder(AccelerometerSource(configuration: configuration))
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        let text = try #require(recorder.all.compactMap(\.returnedText).first)
        #expect(text.contains("polled") && text.contains("iio-sensor-proxy is installed"), "\(text)")
        #expect(await !recorder.waitForSamples(3).isEmpty)
        await recorder.stop()
        let enable = try String(contentsOfFile: bed.root + "/sys" + fake.devpath + "/buffer/enable", encoding: .utf8)
        #expect(enable.hasPrefix("0"), "no buffer enabled")

        configuration.rotationServiceFiles = [bed.root + "/not-there"]
        let alone = EventRecorder(AccelerometerSource(configuration: configuration))
        #expect(await alone.wait { $0.contains { $0.returnedText?.contains("buffered") == true } })
        await alone.stop()
    }

    @Test func anotherProcesssBufferIsSharedInTimeWhenNothingElseCanBeRead() async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.rawAttributes = false
        try bed.add(fake.text)
        let holder = try NodeHolder()  // iio-sensor-proxy, which enabled every scan element and the buffer
        for element in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] {
            bed.setAttribute(fake.devpath, "scan_elements/\(element)_en", "1")
        }
        bed.setAttribute(fake.devpath, "buffer/enable", "1")

        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .automatic)))
        #expect(await recorder.wait { $0.contains { $0.returnedText?.contains("time-shared") == true } })
        #expect(recorder.all.compactMap(\.returnedText).last?.contains("in use by sleep") == true)
        let scans = (0..<30).map { RawScan(x: Int64($0) * 100, y: -200, z: 16384, t: 5_000_000_000 + Int64($0) * 10_000_000) }
        Self.feed(bed, fake, fake.encode(scans))
        let samples = await recorder.waitForSamples(30)
        await recorder.stop()
        try #require(samples.count == 30)
        for (i, sample) in samples.enumerated() {
            #expect(abs(sample.x - Double(i * 100) * 0.000598550) < 1e-6, "sample \(i) out of order or lost")
        }
        let steps = zip(samples, samples.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(steps.allSatisfy { $0 > 0 })
        #expect(steps.filter { $0 == 10_000_000 }.count >= 27, "spaced by the scans' own timestamps: \(steps)")
        for file in ["buffer/enable", "scan_elements/in_accel_x_en", "scan_elements/in_timestamp_en"] {
            let value = try String(contentsOfFile: bed.root + "/sys" + fake.devpath + "/" + file, encoding: .utf8)
            #expect(value.hasPrefix("1"), "\(file) must stay as the other process set it")
        }
        withExtendedLifetime(holder) {}
    }

    /// The other process changed its scan elements under the reader: iio-sensor-proxy 3.7's teardown clears
    /// them one by one and its set-up enables them one by one, so a reader may lay out its scans from x, y
    /// and z alone, and the other's buffer then runs with the timestamp too. Those 16-byte scans must not be
    /// cut into 6-byte ones (2.7 samples a scan, most of them garbage): the read is dropped and the reader
    /// lays out again.
    @Test func scanElementsChangedUnderTheReaderAreLaidOutAgain() async throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.rawAttributes = false
        try bed.add(fake.text)
        let holder = try NodeHolder()
        for element in ["in_accel_x", "in_accel_y", "in_accel_z"] {
            bed.setAttribute(fake.devpath, "scan_elements/\(element)_en", "1")
        }
        bed.setAttribute(fake.devpath, "buffer/enable", "1")

        let recorder = EventRecorder(AccelerometerSource(configuration: .init(mode: .automatic)))
        #expect(await recorder.wait { $0.contains { $0.returnedText?.contains("time-shared") == true } })
        bed.setAttribute(fake.devpath, "scan_elements/in_timestamp_en", "1")
        func scans(_ first: Int) -> [RawScan] {
            (first..<(first + 30)).map {
                RawScan(x: Int64($0) * 10, y: -200, z: 16384, t: 5_000_000_000 + Int64($0) * 10_000_000)
            }
        }
        Self.feed(bed, fake, fake.encode(scans(0)))
        try await Task.sleep(for: .seconds(1))
        Self.feed(bed, fake, fake.encode(scans(30)))
        let samples = await recorder.waitForSamples(30)
        await recorder.stop()
        #expect(samples.count >= 30 && samples.count <= 60, "one sample a scan at most: \(samples.count) from 60 scans")
        let scale = 0.000598550
        for (i, sample) in samples.enumerated() {
            let x = (sample.x / scale / 10).rounded()
            #expect(
                abs(sample.y + 200 * scale) < 1e-6 && abs(sample.z - 16384 * scale) < 1e-6 && x >= 0 && x < 60
                    && abs(sample.x - x * 10 * scale) < 1e-6,
                "sample \(i) is not one of the scans written: \(sample)")
        }
        withExtendedLifetime(holder) {}
    }
}
