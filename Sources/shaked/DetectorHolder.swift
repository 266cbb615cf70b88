import ShakeDetection
import Synchronization

/// The detector tunables in force; a reload replaces them and the sensor's next start uses them.
final class DetectorHolder: Sendable {
    private let current: Mutex<ShakeDetectorConfiguration>

    init(_ configuration: ShakeDetectorConfiguration) {
        current = Mutex(configuration)
    }

    var configuration: ShakeDetectorConfiguration {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
