import Foundation
import ShakeDetection

/// A real accelerometer as a ``SampleSource``: IIO buffered or polled, with hotplug.
///
/// Nothing is opened until ``events()`` is called; the device is read only while the stream
/// lives. A dedicated thread sleeps in `poll(2)` on the buffer (or the polling timer), a udev
/// monitor and a wake-up eventfd, so it wakes only for data, hotplug, or the end of the
/// stream. When the consumer stops (the stream terminates), the buffer is disabled, the
/// device closed and the thread ends: no consumer, no reads, no wake-ups.
///
/// When the sensor goes away (udev `remove`, or a read failing because the device vanished)
/// the stream reports ``SourceEvent/sensorGone(reason:)`` and stays open; on the next udev
/// `add` it reopens the device with a fresh libiio context and reports
/// ``SourceEvent/sensorReturned(_:)``. The stream starts with a `sensorReturned` naming the
/// sensor and its mode, and repeats it when a silent buffer gives way to polling.
public struct AccelerometerSource: SampleSource {
    /// How the sensor is chosen and read.
    public let configuration: AccelerometerConfiguration

    /// Creates a source; nothing is opened until ``events()``.
    public init(configuration: AccelerometerConfiguration = .init()) {
        self.configuration = configuration
    }

    /// `accelerometer NAME at 100 Hz`, or `first accelerometer at 100 Hz`.
    public var description: String {
        let which = configuration.device.map { "accelerometer \($0)" } ?? "first accelerometer"
        return "\(which) at \(formatNumber(configuration.rate)) Hz (\(configuration.mode.rawValue))"
    }

    /// Opens the sensor and streams its samples until the stream is dropped or cancelled.
    ///
    /// The stream ends with an ``IIOError`` only when the sensor cannot be opened at start and
    /// ``AccelerometerConfiguration/waitForSensor`` is false, or the udev monitor cannot be created.
    public func events() -> AsyncThrowingStream<SourceEvent, any Error> {
        let configuration = self.configuration
        return AsyncThrowingStream { continuation in
            let wakeup: Wakeup
            do {
                wakeup = try Wakeup()
            } catch {
                continuation.finish(throwing: error)
                return
            }
            continuation.onTermination = { _ in wakeup.signal() }
            let thread = Thread {
                var loop = ReadingLoop(configuration: configuration, continuation: continuation, wakeup: wakeup)
                loop.run()
            }
            thread.name = "shaked-iio"
            thread.start()
        }
    }

    /// Checks that a sensor can be opened as configured, without reading it (for `shakectl sensors` and startup checks).
    public func probe() throws(IIOError) -> AccelerometerInfo {
        try Discovery.find(configuration.device, mountMatrixOverride: configuration.mountMatrix)
    }
}
