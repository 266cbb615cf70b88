@testable import IIOSensors
import Testing

/// When the time-shared reader opens the node, beside a reader that drains the buffer every 700 ms
/// (iio-sensor-proxy): no device, only the schedule.
struct DrainScheduleTests {
    let ms: Int64 = 1_000_000

    @Test func withoutAPhaseItReadsEveryInterval() {
        let schedule = DrainSchedule(rate: 100)
        #expect(schedule.nextOtherRead(after: 5_000 * ms) == nil)
        #expect(schedule.nextRead(after: 5_000 * ms, interval: 100 * ms) == 5_100 * ms)
    }

    @Test func aFullReadIsNoDrain() {
        var schedule = DrainSchedule(rate: 100)
        #expect(schedule.observe(readAt: 1_100 * ms, previousReadAt: 1_000 * ms, scans: 10) == 0)
        #expect(schedule.observe(readAt: 1_200 * ms, previousReadAt: 1_100 * ms, scans: 9) == 0)
        #expect(schedule.lastOtherRead == nil)
    }

    @Test func missingScansPlaceTheOthersRead() throws {
        var schedule = DrainSchedule(rate: 100)
        // The other read at 1040 ms: only the 6 scans since are left at 1100 ms.
        #expect(schedule.observe(readAt: 1_100 * ms, previousReadAt: 1_000 * ms, scans: 6) == 4)
        let seen = try #require(schedule.lastOtherRead)
        #expect(abs(seen - 1_040 * ms) <= 10 * ms)
        #expect(schedule.nextOtherRead(after: 1_100 * ms) == seen + DrainSchedule.otherPeriod)
    }

    @Test func aGapBetweenScanTimesPlacesTheOthersRead() throws {
        var schedule = DrainSchedule(rate: 12.5)  // 80 ms
        // Scans at 0, 80, ... ; the last read got the one at 400 ms, this one starts at 720: the other
        // took 480, 560 and 640.
        #expect(
            schedule.observe(
                readAt: 750 * ms, previousReadAt: 450 * ms, scans: 1, firstScan: 720 * ms, previousLastScan: 400 * ms)
                == 3)
        let seen = try #require(schedule.lastOtherRead)
        #expect(seen > 640 * ms && seen < 720 * ms)
        // Consecutive scans are no gap.
        var other = DrainSchedule(rate: 12.5)
        #expect(other.observe(readAt: 900 * ms, previousReadAt: 800 * ms, scans: 1, firstScan: 880 * ms,
                              previousLastScan: 800 * ms) == 0)
        #expect(other.lastOtherRead == nil)
    }

    @Test func aRefusedOpenIsTheOtherReadingNow() {
        var schedule = DrainSchedule(rate: 100)
        schedule.otherIsReading(at: 2_000 * ms)
        #expect(schedule.lastOtherRead == 2_000 * ms)
        // Right after it, the next read waits until the window has passed.
        #expect(schedule.nextRead(after: 2_000 * ms, interval: 5 * ms) >= 2_000 * ms + schedule.guardAfter)
    }

    @Test(arguments: [100.0, 10.0])
    func itReadsJustBeforeTheWindowAndNeverInIt(rate: Double) {
        var schedule = DrainSchedule(rate: rate)
        schedule.otherIsReading(at: 0)
        var last = 10 * ms
        var times: [Int64] = []
        for _ in 0..<60 {
            last = schedule.nextRead(after: last, interval: 100 * ms)
            times.append(last)
        }
        for time in times {
            let phase = time % DrainSchedule.otherPeriod
            let inWindow = phase >= DrainSchedule.otherPeriod - schedule.guardBefore || phase <= schedule.guardAfter
            #expect(!inWindow, "a read at \(time / ms) ms falls in the other's window")
        }
        // One read lands just before each window (within 1 ms of its start).
        let before = times.filter {
            let untilOther = DrainSchedule.otherPeriod - $0 % DrainSchedule.otherPeriod
            return untilOther > schedule.guardBefore && untilOther <= schedule.guardBefore + 2 * ms
        }
        #expect(before.count >= 4)
    }

    /// Both readers on one simulated buffer: scans every period, the other draining every 700 ms at a
    /// phase the schedule must learn; it always finds a fresh scan, and this reader loses little.
    @Test(arguments: [(100.0, 0.05), (50.0, 0.06), (12.5, 0.25)])
    func bothReadersGetWhatTheyNeed(rate: Double, allowedLoss: Double) {
        var schedule = DrainSchedule(rate: rate)
        let period = periodNanoseconds(rate)
        let phase: Int64 = 333 * ms
        var fifo: [Int64] = []  // arrival times of the scans in the buffer
        var produced: Int64 = 0
        var lastScan: Int64?
        var mine = 0
        var taken = 0
        var emptyForOther = 0
        var last: Int64 = 0
        var next = schedule.nextRead(after: 0, interval: 100 * ms)
        var nextOther = phase
        let end: Int64 = 30_000 * ms
        while min(next, nextOther) < end {
            let now = min(next, nextOther)
            while (produced + 1) * period <= now {
                produced += 1
                fifo.append(produced * period)
            }
            if nextOther <= next {
                if fifo.isEmpty { emptyForOther += 1 }
                taken += fifo.count
                fifo.removeAll()
                nextOther += DrainSchedule.otherPeriod
            } else {
                mine += fifo.count
                _ = schedule.observe(
                    readAt: now, previousReadAt: last, scans: fifo.count, firstScan: fifo.first, previousLastScan: lastScan)
                if let newest = fifo.last { lastScan = newest }
                fifo.removeAll()
                last = now
                next = schedule.nextRead(after: now, interval: 100 * ms)
            }
        }
        #expect(emptyForOther <= 1, "the other found the buffer empty \(emptyForOther) times")
        let loss = Double(taken) / Double(mine + taken)
        #expect(loss <= allowedLoss, "lost \(loss) at \(rate) Hz")
    }

    /// A phase learned a little late makes this reader drain the buffer just before the other reads,
    /// which then finds nothing and leaves no trace to correct the phase by: the other would starve for
    /// good (rotation frozen; seen with the real 3.7 in iio_sharing.py). Predicted reads that leave no
    /// trace make the schedule forget the phase, and the other finds fresh scans again.
    @Test(arguments: [100.0, 50.0])
    func aWrongPhaseDoesNotStarveTheOther(rate: Double) {
        var schedule = DrainSchedule(rate: rate)
        let period = periodNanoseconds(rate)
        let phase: Int64 = 333 * ms
        // Believed later than it is, by the guard less 1 ms: the read before the window lands 2 ms before
        // the other's, after the last scan.
        schedule.otherIsReading(at: phase + schedule.guardBefore - 1 * ms)
        var fifo: [Int64] = []
        var produced: Int64 = 0
        var lastScan: Int64?
        var emptyForOther: [Int64] = []
        var last: Int64 = phase - 50 * ms
        var next = schedule.nextRead(after: last, interval: 100 * ms)
        var nextOther = phase + DrainSchedule.otherPeriod
        let end: Int64 = 20_000 * ms
        while min(next, nextOther) < end {
            let now = min(next, nextOther)
            while (produced + 1) * period <= now {
                produced += 1
                fifo.append(produced * period)
            }
            if nextOther <= next {
                if fifo.isEmpty { emptyForOther.append(now) }
                fifo.removeAll()
                nextOther += DrainSchedule.otherPeriod
            } else {
                _ = schedule.observe(
                    readAt: now, previousReadAt: last, scans: fifo.count, firstScan: fifo.first,
                    previousLastScan: lastScan)
                if let newest = fifo.last { lastScan = newest }
                fifo.removeAll()
                last = now
                next = schedule.nextRead(after: now, interval: 100 * ms)
            }
        }
        // At most the silent predictions it takes to forget the phase, and none in the last 15 s.
        #expect(emptyForOther.count <= DrainSchedule.silentPredictionsToForget + 1, "\(emptyForOther.map { $0 / ms })")
        #expect(emptyForOther.allSatisfy { $0 < 5_000 * ms }, "\(emptyForOther.map { $0 / ms })")
    }

    @Test func theMeasuredPeriodIsClamped() {
        var schedule = DrainSchedule(rate: 100)
        schedule.setSamplePeriod(0)
        #expect(schedule.samplePeriod == 100_000)
        schedule.setSamplePeriod(.max)
        #expect(schedule.samplePeriod == 10_000_000_000)
        #expect(schedule.guardBefore > schedule.samplePeriod)
    }

    /// A reader woken late, inside the window around the other's predicted read, waits until it ends.
    @Test func aLateWakeupInsideTheOthersWindowWaits() throws {
        var schedule = DrainSchedule(rate: 100)
        schedule.otherIsReading(at: 1_000 * ms)
        let next = try #require(schedule.nextOtherRead(after: 1_100 * ms))
        #expect(schedule.keepOutEnd(at: next - 200 * ms) == nil, "well before it: clear")
        let end = try #require(schedule.keepOutEnd(at: next), "at the other's read: inside")
        #expect(end > next)
        #expect(schedule.keepOutEnd(at: end + 1) == nil)
    }

    /// Preempted while holding the node three times within the window: no longer safe, and it says why;
    /// once those holds are old, safe again. A short hold is no trouble.
    @Test func threeLongHoldsAreTroubleUntilTheyAreOld() {
        var schedule = DrainSchedule(rate: 100)
        for at in [1_000, 2_000, 3_000] as [Int64] {
            schedule.held(from: at * ms, to: at * ms + 1 * ms)
        }
        #expect(schedule.trouble(at: 3_100 * ms) == nil)
        for at in [4_000, 5_000] as [Int64] {
            schedule.held(from: at * ms, to: at * ms + DrainSchedule.longHold + 1)
        }
        #expect(schedule.trouble(at: 5_100 * ms) == nil, "two long holds")
        schedule.held(from: 6_000 * ms, to: 6_000 * ms + DrainSchedule.longHold + 1)
        let why = schedule.trouble(at: 6_100 * ms)
        #expect(why?.contains("held up three times") == true, "\(String(describing: why))")
        #expect(schedule.trouble(at: 4_000 * ms + DrainSchedule.troubleWindow + 100 * ms) == nil)
    }

    /// The other's reads went missing twice within the window (its phase forgotten twice: each time two
    /// predicted reads in a row left no trace): no longer safe, and it says why; once the first loss is old,
    /// one loss alone is no trouble.
    @Test func aPhaseLostTwiceIsTroubleUntilItIsOld() throws {
        var schedule = DrainSchedule(rate: 100)
        var now: Int64 = 1_000 * ms
        // The other's read shows (four scans gone), then each predicted read finds every scan still there.
        func showThenLosePhase() throws {
            #expect(schedule.observe(readAt: now + 100 * ms, previousReadAt: now, scans: 6) == 4)
            now += 100 * ms
            var reads = 0
            while let other = schedule.nextOtherRead(after: now) {
                let read = other + 100 * ms
                #expect(schedule.observe(readAt: read, previousReadAt: now, scans: Int((read - now) / (10 * ms))) == 0)
                now = read
                reads += 1
                try #require(reads <= DrainSchedule.silentPredictionsToForget, "the phase is never forgotten")
            }
        }
        try showThenLosePhase()
        let firstLoss = now
        #expect(schedule.trouble(at: now) == nil, "one loss")
        try showThenLosePhase()
        let why = schedule.trouble(at: now)
        #expect(why?.contains("went missing twice") == true, "\(String(describing: why))")
        #expect(schedule.trouble(at: firstLoss + DrainSchedule.troubleWindow + 1 * ms) == nil)
    }
}

/// Whether a rotation service runs, by its bus name while that is followed.
struct RotationServiceFollowingTests {
    @Test func theBusNameSaysWhileFollowed() {
        let following = RotationServiceFollowing()
        let second: Int64 = 1_000_000_000
        #expect(following.seen(now: 100 * second, memory: 30 * second) == .notFollowed, "not followed: /proc must tell")
        following.followed.store(true, ordering: .relaxed)
        #expect(following.seen(now: 100 * second, memory: 30 * second) == .absent, "followed, never owned")
        following.owned.store(true, ordering: .relaxed)
        #expect(following.seen(now: 100 * second, memory: 30 * second) == .running)
        following.owned.store(false, ordering: .relaxed)
        following.leftAt.store(90 * second, ordering: .relaxed)
        #expect(following.seen(now: 100 * second, memory: 30 * second) == .running, "left lately: may be restarting")
        #expect(following.seen(now: 200 * second, memory: 30 * second) == .absent)
    }
}
