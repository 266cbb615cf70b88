import Foundation
import IIOSensors
import ShakeDetection
import Testing

/// Everything that needs a fake device: real libudev and libiio under umockdev.
///
/// One suite, serialized, because a testbed is process-wide (`UMOCKDEV_DIR`).
@Suite(.serialized, .enabled(if: umockdevPreloaded, umockdevSkipReason))
struct DeviceTests {
    @Test func discoveryFindsTheAccelerometer() throws {
        let bed = Testbed()
        var fake = FakeAccelerometer()
        fake.properties["ACCEL_MOUNT_MATRIX"] = "0, 1, 0; 1, 0, 0; 0, 0, 1"
        try bed.add(fake.text)
        let info = try Discovery.find()
        #expect(info.name == "fake_accel")
        #expect(info.syspath == "/sys" + fake.devpath)
        #expect(info.devnode == "/dev/iio:device0")
        #expect(info.preferredMode == .buffered)
        #expect(info.hasTrigger)
        #expect(info.timestampChannel?.index == 3)
        #expect(info.calibration == Array(repeating: AxisCalibration(scale: 0.000598550), count: 3))
        #expect(info.mountMatrix == MountMatrix(rows: [[0, 1, 0], [1, 0, 0], [0, 0, 1]]))
        #expect(info.mountMatrixSource == "ACCEL_MOUNT_MATRIX")
        #expect(info.rate(for: 100) == 100)
        #expect(info.rate(for: 60) == 100)
    }

    @Test func bufferedReadDecodesScans() async throws {
        let bed = Testbed()
        let fake = FakeAccelerometer()
        try bed.add(fake.text)
        let recorder = EventRecorder(AccelerometerSource(configuration: .init(libiioTimeoutMilliseconds: 200)))
        let scans = rampScans(20)
        #expect(await recorder.wait { $0.contains { $0.returnedText != nil } })
        writeAll(bed.deviceFD(fake.devnode), fake.encode(scans))
        let samples = await recorder.waitForSamples(20)
        await recorder.stop()
        #expect(recorder.all.first?.returnedText?.contains("buffered") == true)
        #expect(samples.count == 20)
        for (sample, scan) in zip(samples, scans) {
            #expect(sample.timestamp == scan.t)
            #expect(abs(sample.x - Double(scan.x) * 0.000598550) < 1e-12)
            #expect(abs(sample.y - Double(scan.y) * 0.000598550) < 1e-12)
            #expect(abs(sample.z - Double(scan.z) * 0.000598550) < 1e-12)
        }
    }
}
