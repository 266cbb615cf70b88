extension Score {
    /// Scores detections (recognition times, in seconds) against labels and the clips of the
    /// trace's events file, whose `Shake` clips are the labels:
    ///
    /// - A detection is a hit when it falls in [start − `lead`, end + `grace`] of an interval that
    ///   has no hit yet: people often start shaking a moment before they press record. Its
    ///   latency, from the labelled start, is then negative.
    /// - Otherwise, in a clip, or within `grace` after it (the slack a hit gets), it is a false
    ///   positive of that clip's class; in a `Shake` clip, or within `lead` before one, a shake
    ///   detected again.
    /// - Otherwise it is between clips: counted apart (``betweenClips``), not a false positive.
    public static func match(
        detections: [Double], labels: [LabelledInterval], clips: [GestureClip], duration: Double,
        lead: Double = 1, grace: Double = Score.grace
    ) -> Score {
        var score = Score()
        score.labelled = labels.count
        score.unlabelledSeconds = max(0, duration - labels.reduce(0) { $0 + ($1.end - $1.start) })
        score.tracesWithEvents = 1
        score.betweenClipsSeconds = max(0, duration - clips.reduce(0) { $0 + ($1.end - $1.start) })
        for clip in clips { score.clipsByClass[clip.gesture, default: 0] += 1 }
        var used = [Bool](repeating: false, count: labels.count)
        for time in detections {
            if let i = labels.indices.first(where: {
                !used[$0] && labels[$0].start - lead <= time && time <= labels[$0].end + grace
            }) {
                used[i] = true
                score.hits += 1
                score.latencies.append(time - labels[i].start)
                score.latenciesFromEnd.append(time - labels[i].end)
            } else if let gesture = gesture(at: time, clips: clips, labels: labels, lead: lead, grace: grace) {
                score.falsePositives += 1
                score.falseAlarmsByClass[gesture, default: 0] += 1
            } else {
                score.betweenClips += 1
            }
        }
        return score
    }

    /// The class a detection that is not a hit counts against, nil between clips. Clips never
    /// overlap, so the last one to start at or before `time` is the only one it can be in.
    private static func gesture(
        at time: Double, clips: [GestureClip], labels: [LabelledInterval], lead: Double, grace: Double
    ) -> String? {
        if let clip = clips.last(where: { $0.start <= time }), time <= clip.end + grace { return clip.gesture }
        if labels.contains(where: { $0.start - lead <= time && time < $0.start }) { return GestureClip.shake }
        return nil
    }
}
