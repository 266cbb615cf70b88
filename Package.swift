// swift-tools-version: 6.2
import PackageDescription

/// How release builds of the daemon are linked, for a resident footprint in the class of the daemons beside it
/// (docs/performance.md). The kernel maps an executable's pages 64 KiB at a time around each page touched,
/// so what counts is how many places the daemon's code runs in, not how much code there is:
/// - lld places the functions the daemon runs first and side by side, in the order of
///   `Sources/shaked/Linking/shaked.order` (made by `scripts/order-file`; a function missing from it still links,
///   only placed with the rest). It works on functions in sections of their own: `scripts/build-release.sh` compiles
///   every module that way. The compiler's helpers that have no symbol to order by go together
///   (`Linking/local-functions.ld`);
/// - relative relocations are packed (DT_RELR, glibc 2.36): the loader reads a few KiB instead of 1.3 MiB of them;
/// - no symbol is exported: nothing loads the daemon's symbols by name, and the dynamic symbol table was 1 MiB;
/// - libstdc++ is linked statically when `scripts/build-release.sh` has put the C++ compiler's `libstdc++.a` in
///   `.build/static-libstdc++` (swiftc searches that directory before the compiler's own): the Swift runtime uses
///   little of it, and the shared library, mapped whole, was 1.1 MiB. Without it, the shared library is used.
let daemonReleaseLinking = LinkerSetting.unsafeFlags(
    [
        "-L", "\(Context.packageDirectory)/.build/static-libstdc++",
        "-use-ld=lld",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/shaked/Linking/shaked.order",
        "-Xlinker", "--no-warn-symbol-ordering",
        "-Xlinker", "\(Context.packageDirectory)/Sources/shaked/Linking/local-functions.ld",
        "-Xlinker", "--no-export-dynamic",
    ],
    .when(platforms: [.linux], configuration: .release))

let package = Package(
    name: "shaked",
    platforms: [.macOS(.v26)],
    products: [
        .library(name: "ShakeDetection", targets: ["ShakeDetection"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "UndoProtocol", targets: ["UndoProtocol"]),
        .library(name: "ShakeClient", targets: ["ShakeClient"]),
        .executable(name: "shaked", targets: ["shaked"]),
        .executable(name: "shakectl", targets: ["shakectl"]),
    ],
    traits: [
        // `shakectl bench` counts heap allocations through ordo-one's malloc interposer, a shared library
        // that needs the Swift runtime as shared libraries too. Builds to install leave it out
        // (`--disable-default-traits`), so that shakectl links the runtime statically and runs without a toolchain.
        .trait(name: "AllocationCounting", description: "Link the malloc interposer for shakectl bench."),
        .default(enabledTraits: ["AllocationCounting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The pure shake detector: samples in, events out. Standard library only.
        .target(name: "ShakeDetection"),
        // CLOCK_MONOTONIC, read in one place for every module that stamps or compares times, and durations in seconds.
        .target(name: "MonotonicClock"),
        // Trace files (t,x,y,z CSV + .labels), corpus evaluation.
        // Which characters text from outside may not carry raw to a screen or a log, and how numbers read in text.
        .target(name: "TextSafety"),
        .target(
            name: "Traces",
            dependencies: [
                "ShakeDetection", "ShakeLearning", "MonotonicClock", "TextSafety",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // libiio and libudev, quarantined: only IIOSensors imports them.
        // No pkgConfig: its Libs would link libiio into every executable; IIOSensors loads it with dlopen.
        .systemLibrary(name: "CIIO", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Real accelerometers: discovery and hotplug through libudev, reading through libiio.
        .target(name: "IIOSensors", dependencies: ["ShakeDetection", "MonotonicClock", "TextSafety", "CIIO", "CUdev"]),
        // What a person's answers teach about their shakes (issue 44): a small profile and the settings it gives.
        .target(name: "ShakeLearning", dependencies: ["ShakeDetection"]),
        // Synthetic motion (rest, hand tremor, walking, shakes) for --demo, benchmarks and tests.
        .target(name: "SyntheticMotion", dependencies: ["ShakeDetection", "MonotonicClock"]),
        // The varlink interfaces, their messages, the NUL framing, and the guideline checks on prompts.
        .target(
            name: "UndoProtocol",
            dependencies: ["TextSafety", .product(name: "NIOCore", package: "swift-nio")],
            exclude: ["io.shaked.Undo.varlink", "io.shaked.Demo.varlink"]),
        // The daemon's logic: intent state machine, routing, permissions, the varlink server, sensor on demand.
        .target(
            name: "ShakeService",
            dependencies: [
                "ShakeDetection", "ShakeLearning", "UndoProtocol", "MonotonicClock", "ShakedConfiguration",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // /etc/shaked/shaked.conf and its drop-ins in systemd's [Section] Key=value format: the schema,
        // layering, validation with named keys and lines.
        .target(
            name: "ShakedConfiguration",
            dependencies: [
                "ShakeDetection", "TextSafety", "UndoProtocol", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // systemd: sd_notify, socket activation, journal records (libsystemd), logind's seat (sd-login).
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "Systemd",
            dependencies: [
                "MonotonicClock", "CSystemd", "TextSafety", .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The library apps use: connection with reconnect, subscription, composed prompts, UndoStack.
        .target(
            name: "ShakeClient",
            dependencies: [
                "UndoProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The daemon.
        .executableTarget(
            name: "shaked",
            dependencies: [
                "ShakeService", "ShakeDetection", "Traces", "IIOSensors", "SyntheticMotion", "ShakedConfiguration",
                "Systemd", "TextSafety", "UndoProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            exclude: ["Linking"],
            linkerSettings: [daemonReleaseLinking]),
        // The command-line tool.
        .executableTarget(
            name: "shakectl",
            dependencies: [
                "ShakeDetection", "ShakeLearning", "Traces", "IIOSensors", "SyntheticMotion", "ShakeClient", "UndoProtocol",
                "MonotonicClock",
                // bench-iio measures the daemon's own sensor path.
                "ShakeService", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(
                    name: "MallocInterposerSwift", package: "malloc-interposer",
                    condition: .when(traits: ["AllocationCounting"])),
            ]
        ),
        // An app that links ShakeClient and does nothing else: what taking part costs an app (bench-daemon.py).
        .executableTarget(name: "shake-idle-app", dependencies: ["ShakeClient"]),
        // Helpers the test targets share: where the corpus is, running the built binaries.
        .target(name: "TestSupport", dependencies: ["ShakeDetection", "Traces"], path: "Tests/TestSupport"),
        .testTarget(name: "ShakeDetectionTests", dependencies: ["ShakeDetection", "Traces", "TestSupport", "SyntheticMotion"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "TestSupport"]),
        .testTarget(
            name: "ShakeLearningTests", dependencies: ["ShakeLearning", "ShakeDetection", "SyntheticMotion", "TestSupport"]),
        .testTarget(name: "ShakectlTests", dependencies: ["Traces", "TestSupport"]),
        .testTarget(
            name: "UndoProtocolTests",
            dependencies: ["UndoProtocol", "TestSupport", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(
            name: "SyntheticMotionTests",
            dependencies: ["SyntheticMotion", "ShakeDetection", "MonotonicClock", "Traces", "TestSupport"]),
        .testTarget(
            name: "ShakeServiceTests",
            dependencies: [
                "ShakeService", "ShakeLearning", "UndoProtocol", "ShakeDetection", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "ShakedConfigurationTests", dependencies: ["ShakedConfiguration", "TestSupport"]),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", "TestSupport"]),
        .testTarget(name: "ShakeClientTests", dependencies: ["ShakeClient", "UndoProtocol", "TestSupport"]),
        // umockdev's testbed API, for the IIO tests only (fake sysfs, /dev and uevents).
        .systemLibrary(
            name: "CUmockdev", path: "Tests/CUmockdev", pkgConfig: "umockdev-1.0",
            providers: [.apt(["libumockdev-dev", "umockdev"])]),
        .testTarget(
            name: "IIOSensorsTests",
            dependencies: ["IIOSensors", "CUmockdev", "ShakeDetection", "Traces", "TestSupport"],
            exclude: ["Fixtures"]),
    ]
)

// Strict settings for every target of ours, in one place.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
