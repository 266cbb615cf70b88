// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "shaked",
    platforms: [.macOS(.v26)],
    products: [
        .library(name: "ShakeDetection", targets: ["ShakeDetection"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "UndoProtocol", targets: ["UndoProtocol"]),
        .executable(name: "shakectl", targets: ["shakectl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // The pure shake detector: samples in, events out. Standard library only.
        .target(name: "ShakeDetection"),
        // Trace files (t,x,y,z CSV + .labels), corpus evaluation.
        .target(name: "Traces", dependencies: ["ShakeDetection"]),
        // libiio and libudev, quarantined: only IIOSensors imports them.
        .systemLibrary(name: "CIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Real accelerometers: discovery and hotplug through libudev, reading through libiio.
        .target(name: "IIOSensors", dependencies: ["ShakeDetection", "CIIO", "CUdev"]),
        // The varlink interface io.shaked.Undo, its messages, and the guideline checks on prompts.
        .target(name: "UndoProtocol", exclude: ["io.shaked.Undo.varlink"]),
        // The command-line tool.
        .executableTarget(
            name: "shakectl",
            dependencies: [
                "ShakeDetection", "Traces", "IIOSensors",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // Helpers the test targets share: where the corpus is, running the built binaries.
        .target(name: "TestSupport", dependencies: ["ShakeDetection", "Traces"], path: "Tests/TestSupport"),
        .testTarget(name: "ShakeDetectionTests", dependencies: ["ShakeDetection", "Traces", "TestSupport"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "TestSupport"]),
        .testTarget(name: "ShakectlTests", dependencies: ["Traces", "TestSupport"]),
        .testTarget(name: "UndoProtocolTests", dependencies: ["UndoProtocol", "TestSupport"]),
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
