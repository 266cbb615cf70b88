import ShakeDetection
import ShakedConfiguration
import Synchronization

/// The `[Detector]` settings in force; a reload replaces them. The sensor's detector asks it for a
/// configuration at the current context user's sensitivity.
final class DetectorHolder: Sendable {
    private let current: Mutex<ShakedSettings.Detector>

    init(_ settings: ShakedSettings.Detector) {
        current = Mutex(settings)
    }

    var settings: ShakedSettings.Detector {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// The tunables for a user's own sensitivity (nil: the configured one). A user's level replaces
    /// `detector.sensitivity` and a `stroke-threshold` override, which is what the levels set; the
    /// other overrides stay.
    func configuration(sensitivity: Sensitivity?) -> ShakeDetectorConfiguration {
        var detector = settings
        if let sensitivity, sensitivity != detector.sensitivity {
            detector.sensitivity = sensitivity
            detector.strokeThreshold = nil
        }
        return detector.configuration
    }
}
