import ArgumentParser

@main
struct Shakectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakectl",
        abstract: "Inspect, record, replay and evaluate shake detection, and talk to the shaked daemon.",
        subcommands: [
            Detect.self, Evaluate.self, Plot.self, Bench.self, Sensors.self, Record.self, BenchIIO.self, Status.self,
            Watch.self, Request.self, PreferencesCommand.self, Demo.self,
        ]
    )
}
