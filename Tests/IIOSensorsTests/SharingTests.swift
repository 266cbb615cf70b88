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
}
