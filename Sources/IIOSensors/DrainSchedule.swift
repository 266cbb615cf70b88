/// When another process reads a buffer this process shares in time, learned from what it drains;
/// and so when this process may open the node. A value type with no clock and no I/O.
///
/// iio-sensor-proxy reads its buffer every 700 ms while the accelerometer is claimed
/// (`g_timeout_add (700, ...)` in `drv-iio-buffer-accel.c`, 3.0 and 3.7 alike): it opens the node,
/// reads up to 127 scans, keeps the last and closes it. Every scan it reads is gone for the other
/// reader, and an open that meets the other's open fails with `EBUSY` (one opener at a time), which
/// makes it skip that round. So the time-shared reader:
/// - notes each read of the other's: a read of its own that gets fewer scans than the time since its
///   last read holds (the other drained them), or an open of its own refused with `EBUSY` (the other
///   has the node now);
/// - keeps out of a window around the other's next read (every 700 ms from the last one seen), so
///   it never holds the node then;
/// - reads just before that window, so that little is left for the other to drain, but not so late
///   that the other finds the buffer empty: it leaves at least one sample period and a half of scans
///   (`guardBefore`), and rotation always gets a fresh reading.
struct DrainSchedule: Sendable, Equatable {
    /// The other reader's period: iio-sensor-proxy's 700 ms.
    static let otherPeriod: Int64 = 700_000_000

    /// One sample period of the shared buffer, in ns (as set, or as measured from the scans' timestamps).
    private(set) var samplePeriod: Int64
    /// How long before the other's predicted read the node is left alone.
    private(set) var guardBefore: Int64
    /// How long after it.
    private(set) var guardAfter: Int64
    /// The last time the other was seen reading (estimated to within half a sample period), if ever.
    private(set) var lastOtherRead: Int64?
    /// The first of the reads since the last scan that found the buffer empty, if the last read did.
    private var emptyReadAt: Int64?
    /// How many of the other's predicted reads in a row left no trace (no scan missing after them).
    private(set) var silentPredictions = 0
    /// After this many silent predictions the phase is forgotten and learned again.
    static let silentPredictionsToForget = 2
    /// When the phase was last forgotten, newest first.
    private(set) var phaseLosses = LastThree()
    /// When reads last held the node for longer than ``longHold`` (the reader was preempted while holding
    /// it: a busy machine), newest first: the last three.
    private(set) var longHolds = LastThree()
    /// A hold of the node longer than this is the reader preempted in the middle of its read.
    static let longHold: Int64 = 20_000_000
    /// Within this long, two losses of the phase or three long holds make the reader give way.
    static let troubleWindow: Int64 = 10_000_000_000

    /// A schedule for a buffer running at `rate` Hz.
    init(rate: Double) {
        samplePeriod = 1
        guardBefore = 0
        guardAfter = 0
        setSamplePeriod(periodNanoseconds(rate))
    }

    /// The buffer's sample period in ns, as measured (within 0.1 ms and 10 s).
    mutating func setSamplePeriod(_ period: Int64) {
        samplePeriod = min(max(period, 100_000), 10_000_000_000)
        guardBefore = samplePeriod &* 3 / 2 &+ 10_000_000
        guardAfter = max(samplePeriod, 20_000_000)
    }

    /// Records a read made at `now` that got `scans` scans, the previous one at `previous`; returns
    /// how many scans the other took in between (0 when none).
    ///
    /// With the scans' times (`firstScan` of this read, `previousLastScan` of the last one that got
    /// any), a gap of more than half a period beyond one period between them is the other's read,
    /// placed just before the first scan left (and not after an empty read since, which it preceded).
    /// Without them, the count: fewer scans than the time since the last read holds, by two or more.
    ///
    /// A predicted read of the other's that left no trace, twice in a row, makes the schedule forget
    /// the phase: either the phase is wrong, or this reader drained the buffer just before the other
    /// read, which then found nothing and showed nothing, so that the same wrong phase would go on
    /// starving the other (rotation frozen) for good. Without a phase it reads every interval, which
    /// leaves the other the scans since, until its next read shows again where it is.
    mutating func observe(
        readAt now: Int64, previousReadAt previous: Int64, scans: Int, firstScan: Int64? = nil,
        previousLastScan: Int64? = nil
    ) -> Int {
        let predicted = nextOtherRead(after: previous).map { $0 > previous && $0 &+ guardAfter <= now } ?? false
        let taken = takenSince(
            readAt: now, previousReadAt: previous, scans: scans, firstScan: firstScan,
            previousLastScan: previousLastScan)
        if taken > 0 {
            silentPredictions = 0
        } else if predicted {
            silentPredictions += 1
            if silentPredictions >= Self.silentPredictionsToForget {
                silentPredictions = 0
                lastOtherRead = nil
                phaseLosses.add(now)
            }
        }
        return taken
    }

    private mutating func takenSince(
        readAt now: Int64, previousReadAt previous: Int64, scans: Int, firstScan: Int64?, previousLastScan: Int64?
    ) -> Int {
        // An empty read when a scan was due (more than a period and a half since the last one) means
        // the other had already taken it.
        let due = previousLastScan.map { now &- $0 > samplePeriod &* 3 / 2 } ?? false
        defer { emptyReadAt = scans == 0 && due ? (emptyReadAt ?? now) : (scans == 0 ? emptyReadAt : nil) }
        if let first = firstScan, let last = previousLastScan {
            let missing = Int((first &- last &+ samplePeriod / 2) / samplePeriod) - 1
            guard missing >= 1 else { return 0 }
            lastOtherRead = min(first &- samplePeriod / 2, emptyReadAt ?? .max)
            return missing
        }
        let expected = Int((now &- previous) / samplePeriod)
        let taken = expected - scans
        // One scan of slack for the phase of the sample clock.
        guard taken >= 2 else { return 0 }
        // The scans read now arrived after the other's read.
        lastOtherRead = now &- Int64(scans) &* samplePeriod &- samplePeriod / 2
        return taken
    }

    /// Records a read that held the node from `opened` to `closed`: a hold longer than ``longHold`` is noted.
    mutating func held(from opened: Int64, to closed: Int64) {
        guard closed &- opened > Self.longHold else { return }
        longHolds.add(closed)
    }

    /// Where sharing in time has stopped being safe for the other at `now`, why: the machine is so busy
    /// that this reader can no longer keep out of the other's reads. The other's reads went missing twice
    /// within ``troubleWindow`` (its phase lost twice: its open met this reader's, or found the buffer
    /// drained), or this reader was preempted while holding the node three times in it. nil while it is safe.
    func trouble(at now: Int64) -> String? {
        if let before = phaseLosses.second, now &- before <= Self.troubleWindow {
            return "iio-sensor-proxy's reads went missing twice in \(Self.troubleWindow / 1_000_000_000) s"
        }
        if let oldest = longHolds.third, now &- oldest <= Self.troubleWindow {
            return "this process was held up three times in \(Self.troubleWindow / 1_000_000_000) s while it had the node open"
        }
        return nil
    }

    /// The end of the keep-out window around the other's predicted read when `now` lies in it (a reader woken
    /// late, on a busy machine, must not open the node then); nil when `now` is clear or the phase unknown.
    func keepOutEnd(at now: Int64) -> Int64? {
        guard let other = nextOtherRead(after: now), now >= other &- guardBefore else { return nil }
        return other &+ guardAfter
    }

    /// Records that the other holds the node at `now` (an open refused with EBUSY).
    mutating func otherIsReading(at now: Int64) {
        lastOtherRead = now
        silentPredictions = 0
    }

    /// The other's next predicted read whose keep-out window ends after `time`, if its phase is known.
    func nextOtherRead(after time: Int64) -> Int64? {
        guard let last = lastOtherRead else { return nil }
        let since = time &- guardAfter &- last
        let periods = since <= 0 ? 0 : (since + Self.otherPeriod - 1) / Self.otherPeriod
        return last &+ periods &* Self.otherPeriod
    }

    /// When to open the node next, reading every `interval` ns since the last read at `last`: never
    /// inside the window around the other's read, and once just before it.
    func nextRead(after last: Int64, interval: Int64) -> Int64 {
        var candidate = last &+ interval
        guard let other = nextOtherRead(after: last) else { return candidate }
        let start = other &- guardBefore
        let end = other &+ guardAfter
        if last < start && candidate >= start {
            // Read once more just before the window, unless that is hardly later than the last read.
            candidate = start &- 1_000_000 &- last >= 5_000_000 ? start &- 1_000_000 : end &+ 1_000_000
        } else if candidate >= start && candidate <= end || last >= start && last <= end {
            candidate = max(candidate, end &+ 1_000_000)
        }
        return candidate
    }
}

/// The last three times something happened, newest first, without allocating.
struct LastThree: Sendable, Equatable {
    private(set) var first: Int64?
    private(set) var second: Int64?
    private(set) var third: Int64?

    mutating func add(_ time: Int64) {
        third = second
        second = first
        first = time
    }
}
