import Foundation
import IIOSensors
import Testing

/// What Debian's own iio-sensor-proxy packages install is what shaked looks for to know one may start
/// (``AccelerometerConfiguration/iioSensorProxyFiles``): Debian 12's on this machine and Debian 13's in
/// the root `scripts/debian-root.sh` makes (`scripts/test-iio.sh` installs both before these run).
extension DeviceTests {
    /// The paths dpkg says the iio-sensor-proxy package installed under `root`.
    static func installedFiles(root: String) throws -> Set<String> {
        let list = root + "/var/lib/dpkg/info/iio-sensor-proxy.list"
        let text = try #require(
            try? String(contentsOfFile: list, encoding: .utf8), "\(list) is missing: install iio-sensor-proxy there")
        return Set(text.split(separator: "\n").map(String.init))
    }

    @Test(arguments: ["", "/var/cache/shaked/roots/trixie-amd64"])
    func debiansIioSensorProxyIsSeenInstalled(root: String) throws {
        let installed = try Self.installedFiles(root: root)
        let seen = installed.intersection(AccelerometerConfiguration.iioSensorProxyFiles)
        // Its binary or unit, and its D-Bus policy, each by itself enough.
        #expect(seen.contains { $0.hasSuffix("/iio-sensor-proxy") || $0.hasSuffix(".service") }, "\(installed.sorted())")
        #expect(seen.contains { $0.hasSuffix("/net.hadess.SensorProxy.conf") }, "\(installed.sorted())")
    }
}
