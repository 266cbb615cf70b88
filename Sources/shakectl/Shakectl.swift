import ArgumentParser

/// `shakectl`: the person's commands for a device running shaked, and the lab's for the detector.
///
/// The two groups are also two folders: `Everyday/` (talking to the daemon and its sensors) and `Lab/`
/// (recording, evaluating and benchmarking the detector, and the terminal demo app).
@main
struct Shakectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakectl",
        abstract: "Talk to the shaked daemon, and record, replay and evaluate shake detection.",
        discussion: """
            The first group is for a person with a device running shaked: what the daemon is doing, \
            its shakes, an undo without a shake, their own Shake to Undo switch, and the accelerometers. \
            The lab's commands work on recordings and the detector, and need no daemon.
            """,
        subcommands: [Status.self, Watch.self, Request.self, PreferencesCommand.self, Sensors.self],
        groupedSubcommands: [
            CommandGroup(
                name: "Lab",
                subcommands: [
                    Record.self, Evaluate.self, Plot.self, Detect.self, Bench.self, BenchIIO.self, Demo.self,
                ])
        ]
    )
}
