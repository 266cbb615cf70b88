import IIOSensors
import Logging
import ServiceLifecycle
import Systemd

/// Follows iio-sensor-proxy's bus name (`net.hadess.SensorProxy`) on the system bus, so that a buffer
/// the sensor enabled while no rotation service ran gives way the moment one starts, not at the reading
/// loop's next look in `/proc` (every 10 s): iio-sensor-proxy 3.0's raw reads fail while that buffer
/// runs, which freezes rotation (docs/sensor-sharing.md). While the name is followed, it alone says
/// whether iio-sensor-proxy runs: a process of that name in `/proc` may serve another bus (another
/// test's). Without a system bus the loop's look in `/proc` stays.
struct RotationServiceWatcher: Service {
    /// iio-sensor-proxy's well-known name.
    static let busName = "net.hadess.SensorProxy"

    let accelerometer: AccelerometerSource
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await event in BusNameOwner.changes(of: Self.busName) {
                switch event {
                case .following:
                    accelerometer.followRotationService(true)
                    logger.debug("following iio-sensor-proxy's bus name", metadata: ["name": "\(Self.busName)"])
                case .appeared(let pid):
                    logger.info(
                        "iio-sensor-proxy appeared on the system bus\(pid.map { " (pid \($0))" } ?? ""): the sensor reads beside it")
                    accelerometer.rotationServiceAppeared(pid: pid)
                case .left:
                    accelerometer.rotationServiceLeft()
                    logger.debug("iio-sensor-proxy left the system bus")
                case .unreachable(let why):
                    accelerometer.followRotationService(false)
                    logger.info(
                        "iio-sensor-proxy's bus name can't be followed: the sensor looks for it in /proc every 10 s",
                        metadata: ["reason": "\(why)"])
                }
            }
            accelerometer.followRotationService(false)
        }
    }
}
