import ArgumentParser
import Traces

/// `--stream-rate` and `--stream-gaps`: evaluate the traces as a reading path would deliver them.
struct StreamOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Emulate a sensor that delivers this many samples a second (Hz), below the trace's rate.",
            discussion: """
                Every detector gets the first sample at or after each 1/RATE s, as a poller at RATE or a \
                driver that sleeps on each read would give it (st_accel at 100 Hz: about 16 Hz). For \
                judging the lowest rate that keeps recall (docs/sensors.md).
                """))
    var streamRate: Double?

    @Option(
        help: ArgumentHelp(
            "Emulate periodic gaps: PERIOD:LENGTH in ms, the last LENGTH ms of every PERIOD ms are lost.",
            discussion: """
                As when sharing the node in time with iio-sensor-proxy, which opens it every 700 ms and \
                takes what it finds: --stream-gaps 700:300 loses the last 300 ms of every 700 ms.
                """))
    var streamGaps: String?

    /// The stream the options describe, nil when neither is given.
    var stream: SampleStream? {
        if streamRate == nil && streamGaps == nil { return nil }
        return SampleStream(rate: streamRate, gaps: streamGaps.flatMap(SampleStream.gaps(parsing:)))
    }

    func validate() throws {
        if let streamRate, !(streamRate.isFinite && streamRate > 0 && streamRate <= 1000) {
            throw ValidationError("--stream-rate must be a rate in Hz above 0 and at most 1000, such as 25.")
        }
        if let streamGaps, SampleStream.gaps(parsing: streamGaps) == nil {
            throw ValidationError(
                "--stream-gaps must be PERIOD:LENGTH in milliseconds with 0 < LENGTH < PERIOD <= 60000, such as 700:300.")
        }
    }
}
