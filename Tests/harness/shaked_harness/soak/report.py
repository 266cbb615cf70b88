"""The soak's report (scripts/soak): what ran, one line per check, and the latencies."""

import collections
import json

HIGH_WATER_KIB = 64  # SwiftNIO's default write-buffer high-water mark: a connection past it is closed
MESSAGE_KIB = 64  # the largest message the daemon buffers for a connection (ServiceLimits.messageSize)


def log(text):
    print(text, flush=True)


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(conductor, exit_status, seconds, root):
    """Prints what happened and one line per check; returns whether every check passed."""
    c = conductor
    checks = []
    failures = collections.defaultdict(list)
    for category, what in c.failures:
        failures[category].append(what)

    def check(ok, text, category=None):
        found = failures.pop(category, []) if category else []
        ok = ok and not found
        checks.append(ok)
        log("%s  %s" % ("ok  " if ok else "FAIL", text))
        for what in found[:10]:
            log("        " + what)
        if len(found) > 10:
            log("        ... and %d more" % (len(found) - 10))

    totals, errors = collections.Counter(), collections.Counter()
    for w in c.app_workers:
        totals.update(w.stats.get("counts", {}))
        errors.update(w.stats.get("errors", {}))
    hostile = {w.kind: w for w in c.workers if w.kind != "apps"}
    hostile_counts = {k: w.stats.get("counts", {}) for k, w in hostile.items()}
    log("")
    log("== shaked soak: %d s, %d well-behaved apps over %d user(s); hostile: %s =="
        % (seconds, c.args.clients, len({w.uid for w in c.app_workers}),
           ", ".join("%s (uid %d)" % (k, w.uid) for k, w in hostile.items())))
    log("limits: " + ", ".join("%s %s" % kv for kv in c.limits.items()))
    log("well-behaved: %d connects, %d subscriptions, %d calls (%d retried after call-rate), %d intents"
        % (totals["connects"], totals["subscribed"], totals["calls"], totals["rate-retries"], totals["intents"]))
    for kind, w in hostile.items():
        log("%s: %s" % (kind, json.dumps(hostile_counts[kind], sort_keys=True)))
        log("%s, answers seen: %s" % (kind, json.dumps(w.stats.get("errors", {}), sort_keys=True)))
    log("conductor: %s" % json.dumps(dict(sorted(c.counts.items()))))
    log("monitor: %d shakes, outcomes %s" % (len(c.shakes), dict(collections.Counter(c.outcomes))))
    log("")

    right, wrong = c.counts["intents-right"], c.counts["intents-wrong"]
    stray = [i for i in c.intents if i not in c.expected]
    check(wrong == 0 and right > 0 and not stray,
          "intents: %d reached the app in context and no other, %d went wrong, %d came from nothing the soak did%s"
          % (right, wrong, len(stray), " %s" % stray[:5] if stray else ""), "intents")
    if root:
        check(True, "privacy: %d GetStatus probes by app users, %d by a hostile user, %d RequestIntent replies, "
              "%d tokens of other users tried on 5 calls each" % (
                  c.counts["status-probes"], hostile_counts.get("junk", {}).get("status-checked", 0),
                  c.counts["requests"], c.counts["steal-attempts"]), "privacy")
        hog = hostile_counts.get("hog", {})
        window = hostile["hog"].stats.get("rate_window", 0) if "hog" in hostile else 0
        rate = c.limits["CallsPerSecondPerUser"]
        allowed = int(rate * (window + 1))  # the bucket refills at the rate and starts full (a burst of `rate`)
        check(hog.get("admitted", 0) <= allowed,
              "limits: the hog held %d connections (per user: %d) and %d subscriptions (per user: %d), focused "
              "them %d times (never the context); "
              "its calls admitted %d in %.0f s, at most %d allowed at %d/s, %d refused"
              % (hog.get("held-most", 0), c.limits["ConnectionsPerUser"], hog.get("subscriptions-most", 0),
                 c.limits["SubscriptionsPerUser"], hog.get("focus-claims", 0), hog.get("admitted", 0), window,
                 allowed, rate,
                 hog.get("refused-call-rate", 0) + hog.get("refused-call-rate-per-user", 0)), "limits")
    else:
        log("skip  privacy and per-user limits: need other users (root, to fork and setuid)")
        check(True, "limits (one user): floods refused %d calls"
              % (hostile_counts.get("hog", {}).get("refused-call-rate", 0)), "limits")
        failures.pop("privacy", None)
    junk = hostile_counts.get("junk", {})
    check(True, "hostile input: %d oversized refused, %d malformed refused or closed, %d bad fields named, "
          "%d idle connections closed (the longest after %.1f s; idle-timeout %d s), %d never-readers and "
          "%d slow readers disconnected" % (
              junk.get("oversized-refused", 0), junk.get("malformed-refused", 0) + junk.get("malformed-closed", 0),
              junk.get("bad-fields-refused", 0), junk.get("idle-closed", 0), junk.get("idle-longest-ms", 0) / 1000,
              c.args.idle_timeout, junk.get("never-reader-closed", 0), junk.get("slow-reader-closed", 0)), "input")
    check(not errors and not totals["closed-by-daemon"],
          "well-behaved apps: closed by the daemon %d times, errors %s"
          % (totals["closed-by-daemon"], dict(errors) or "none"), "well-behaved")

    base, end, drained = c.baseline, c.end_sample or c.samples[-1], c.drained
    peak_rss = max(s["rss"] for s in c.samples)
    peak_fds = max(s["fds"] for s in c.samples)
    bound_fds = base["fds"] + c.limits["Connections"]
    check(peak_fds <= bound_fds, "descriptors: start %d, peak %d, end %d; bound: start + connections limit = %d"
          % (base["fds"], peak_fds, end["fds"], bound_fds))
    check(drained is not None and drained["fds"] <= base["fds"] and c.drained_subscribers == 0,
          "drained: with every client gone, %s descriptors (start %d) and %s subscribers"
          % (drained and drained["fds"], base["fds"], c.drained_subscribers))
    per_connection = MESSAGE_KIB + HIGH_WATER_KIB + 32
    bound_rss = base["rss"] + c.limits["Connections"] * per_connection
    check(peak_rss <= bound_rss, "RSS: start %.1f MiB, peak %.1f MiB, end %.1f MiB, after drain %.1f MiB; bound: "
          "start + connections x (%d KiB message + %d KiB queued replies + 32 KiB state) = %.0f MiB"
          % (base["rss"] / 1024, peak_rss / 1024, end["rss"] / 1024, (drained or end)["rss"] / 1024, MESSAGE_KIB,
             HIGH_WATER_KIB, bound_rss / 1024))
    steady = c.samples[c.ramped:]
    if len(steady) >= 120:
        quarter = len(steady) // 4
        early = max(s["rss"] for s in steady[:quarter])
        late = max(s["rss"] for s in steady[-quarter:])
        check(late <= early * 1.10 + 4096, "RSS under steady load: largest in the first quarter after ramp-up "
              "%.1f MiB, in the last quarter %.1f MiB (allowed: 10%% + 4 MiB more)" % (early / 1024, late / 1024))
    else:
        log("skip  RSS growth under steady load: needs 2 minutes after ramp-up")
    check(exit_status == 0, "no restarts: pid %d alive at all %d samples, exit status %s on SIGTERM"
          % (c.daemon.pid, len(c.samples), exit_status), "daemon")
    steady_cpu = c.samples[c.ramped] if len(c.samples) > c.ramped else c.samples[0]
    cpu = (end["cpu"] - steady_cpu["cpu"]) / max(1e-9, end["t"] - steady_cpu["t"])
    log("daemon CPU under load: %.0f%% of one core" % (cpu * 100))
    # The monitor's copy of the shake is sent just after the intent, to the conductor's lightly loaded process:
    # when it is fast while the app's is slow, the time went in the app workers' event loops, not the daemon.
    monitor = [arrived - stamped for stamped, arrived in c.shakes]
    for name, values in (("shake -> app (the intent)", c.latency_shake), ("shake -> monitor (conductor)", monitor),
                         ("Demo.Shake call -> app", c.latency_call)):
        if values:
            log("latency %s: n %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms" % (
                name, len(values), percentile(values, 50) * 1000, percentile(values, 99) * 1000,
                max(values) * 1000))
    rest = [what for whats in failures.values() for what in whats]
    check(not rest, "the soak itself ran as planned (%d problems)" % len(rest))
    for what in rest[:10]:
        log("        " + what)
    return all(checks)
