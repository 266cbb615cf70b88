import ArgumentParser
import Foundation
import ShakeClient
import ShakeDetection
import Traces

extension DetectorKind: ExpressibleByArgument {}
extension Sensitivity: ExpressibleByArgument {}
extension ReplayAnswers: ExpressibleByArgument {}

/// How a command prints its results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned text for people.
    case text
    /// One JSON object per line, for scripts and tests.
    case json
}

/// The options that pick and tune a detector, shared by the commands that run one.
struct DetectorOptions: ParsableArguments {
    @Option(help: "The detector to run: \(DetectorKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var detector: DetectorKind = .shaked

    @Option(help: "How readily to fire: low, medium or high.")
    var sensitivity: Sensitivity = .medium

    @Option(
        name: .customLong("without"),
        help: ArgumentHelp(
            "Turn one of shaked's rules off (repeatable), to see what it stops: \(ShakeRule.allCases.map(\.key).joined(separator: ", ")).",
            valueName: "rule"))
    var without: [ShakeRule] = []

    /// A fresh detector as the options ask.
    func make() -> any ShakeDetecting { detector.make(sensitivity: sensitivity, without: without) }
}

extension ShakeRule: ExpressibleByArgument {
    public init?(argument: String) { self.init(key: argument) }
    public static var allValueStrings: [String] { allCases.map(\.key) }
}

/// Writes a line to standard error (progress and diagnostics never mix with results).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The daemon's socket, shared by the commands that talk to shaked.
struct SocketOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket (default: $SHAKED_SOCKET, else \(ClientEnvironment.defaultSocketPath)).",
            valueName: "path"))
    var socket: String?

    /// The socket to connect to.
    var path: String { socket ?? ClientEnvironment.socketPath() }
}
