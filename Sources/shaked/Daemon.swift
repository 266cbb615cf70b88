import Logging
import ServiceLifecycle
import ShakeDetection
import ShakeService

/// The daemon's parts, assembled: coordinator, varlink server and sensor under one ServiceGroup.
struct Daemon {
    let socket: String
    let source: ChosenSource
    let sensitivity: Sensitivity
    let settings: ServiceSettings
    let version: String

    init(socket: String, source: ChosenSource, sensitivity: Sensitivity, settings: ServiceSettings, version: String) throws {
        self.socket = socket
        self.source = source
        self.sensitivity = sensitivity
        self.settings = settings
        self.version = version
    }

    func run() async throws {
        let logger = Logger(label: "shaked")
        let sensitivity = self.sensitivity
        let coordinator = UndoCoordinator(
            settings: settings,
            sensor: .init(description: source.source.description, detector: "shaked (\(sensitivity.rawValue) sensitivity)"),
            logger: logger)
        let context = ServerContext(version: version, access: settings.access, demoShake: source.demoShake)
        let server = VarlinkServer(
            endpoint: .path(socket, mode: 0o666, group: nil), coordinator: coordinator, context: context,
            limits: settings.limits, logger: logger)
        let sensor = SensorService(
            source: source.source,
            makeDetector: { ShakeDetector(configuration: .init(sensitivity: sensitivity)) },
            coordinator: coordinator, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: server), .init(service: sensor)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
