import ArgumentParser

@main
struct Shakectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakectl",
        abstract: "Inspect, record, replay and evaluate shake detection for shaked.",
        subcommands: [Detect.self, Evaluate.self, Plot.self, Bench.self, Sensors.self, Record.self, BenchIIO.self]
    )
}
