import Logging
import NIOCore
import ServiceLifecycle
import ShakeDetection
import ShakeService
import ShakedConfiguration
import Systemd

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's parts, assembled: coordinator, varlink server, sensor and systemd integration
/// under one ServiceGroup.
struct Daemon {
    let settings: ShakedSettings
    let source: ChosenSource
    let configFile: String?
    let overrides: Overrides
    let version: String

    func run() async throws {
        // One event loop serves a few hundred local connections; NIO's default is one per core, and
        // each thread costs its stack pages and a malloc arena on an 8-core phone.
        NIOSingletons.groupLoopCountSuggestion = 1
        let logger = Logger(label: "shaked")
        let notifier = SystemdNotifier()
        let endpoint = try Endpoints.listen(settings.socket, logger: logger)
        let sensorState = Endpoints.probe(source, logger: logger)
        let service = ServiceSettings(settings)
        let coordinator = UndoCoordinator(
            settings: service,
            sensor: .init(description: sensorState, detector: Self.detectorDescription(settings.detector)),
            logger: logger)
        let preferences = Self.loadPreferences(logger: logger)
        await coordinator.loadPreferences(preferences.loaded.preferences)
        let context = ServerContext(
            version: version, access: service.access, limits: service.limits, demoShake: source.demoShake,
            preferenceFile: preferences.file, sameSession: Self.sameSession)
        let (listening, listeningContinuation) = AsyncStream.makeStream(of: Void.self)
        let server = VarlinkServer(
            endpoint: endpoint, coordinator: coordinator, context: context, logger: logger,
            onListening: { listeningContinuation.yield() })
        let detector = DetectorHolder(settings.detector)
        let sensor = SensorService(
            source: source.source,
            makeDetector: {
                ContextDetector(signal: coordinator.contextSensitivity) { sensitivity in
                    ShakeDetector(configuration: detector.configuration(sensitivity: sensitivity))
                }
            },
            coordinator: coordinator, logger: logger)
        await SeatWatcher.prime(coordinator)
        let seat = SeatWatcher(coordinator: coordinator, logger: logger)
        let session = SessionWatcher(coordinator: coordinator, logger: logger)
        let supervisor = SystemdService(
            notifier: notifier, coordinator: coordinator, listening: listening, logger: logger,
            sensorResponds: { [source] timeout in await source.responds(within: timeout) },
            reload: { [configFile, overrides] () throws(ConfigurationFileError) -> ShakedSettings in
                try overrides.load(configFile: configFile)
            },
            apply: { new in
                let service = ServiceSettings(new)
                await coordinator.update(settings: service)
                context.update(access: service.access, limits: service.limits)
                detector.settings = new.detector
            },
            running: settings)
        // Shutdown runs in reverse: systemd hears STOPPING=1 first, then the sensor stops, then the
        // server cancels the open prompt, tells its app, and closes the socket.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server), .init(service: seat, successTerminationBehavior: .ignore),
            .init(service: session, successTerminationBehavior: .ignore),
        ]
        if let accelerometer = source.accelerometer, settings.sensor.priority != .shake {
            let watcher = RotationServiceWatcher(accelerometer: accelerometer, logger: logger)
            services.append(.init(service: watcher, successTerminationBehavior: .ignore))
        }
        services += [.init(service: sensor), .init(service: supervisor)]
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// `StandIn`'s rule: the app's process is the agent's user's and, with logind, in the agent's
    /// own login session (so an agent of one session can't speak for another session's apps).
    @Sendable static func sameSession(_ peer: Peer, _ pid: Int32) -> Bool {
        guard SessionCheck.sameUser(peer, pid) else { return false }
        guard Logind.isRunning else { return true }
        guard let session = Logind.session(ofProcess: pid) else { return false }
        return session == Logind.session(ofProcess: peer.pid)
    }

    /// Users' preferences from the state directory; a bad file is set aside with a warning.
    static func loadPreferences(logger: Logger) -> (file: PreferenceFile, loaded: PreferenceFile.Loaded) {
        let environment = getenv("STATE_DIRECTORY").map { String(cString: $0) }
        let file = PreferenceFile(directory: PreferenceFile.stateDirectory(environment: environment))
        let loaded = file.load()
        if let problem = loaded.problem {
            logger.warning(
                "preferences file unusable; every user has the defaults until they change them",
                metadata: ["problem": "\(problem)", "setAside": "\(loaded.setAside ?? "-")"])
        } else {
            logger.info("preferences read", metadata: ["file": "\(file.path)", "users": "\(loaded.preferences.count)"])
        }
        return (file, loaded)
    }

    static func detectorDescription(_ detector: ShakedSettings.Detector) -> String {
        "shaked (\(detector.sensitivity.rawValue) sensitivity\(detector.hasOverrides ? ", tuned" : ""))"
    }
}
