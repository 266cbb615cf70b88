#!/usr/bin/env python3
"""Soaks the real shaked daemon with well-behaved and hostile clients for a bounded time, then says
whether it held.

Starts the release daemon on synthetic motion (`shaked --demo`) with a soak configuration whose
[Limits] admit a thousand apps, and runs, in a few forked worker processes (one per user):
  - 1,000 well-behaved app clients (by default) spread over four users: each subscribes, publishes
    undo and redo names (SetContext, unfocused), disconnects at random and comes back. The conductor
    (this process) focuses some of them, shakes the device (io.shaked.Demo.Shake, or RequestIntent
    from one of their users), and the app that gets the intent answers with a correct prompt, then
    confirms (Choose undo or redo, then ReportResult), declines, or disconnects with the prompt open;
  - a hog: one user taking every connection and subscription its limits allow, declaring its apps
    focused (it may not hold the context), churning at the limit, and flooding calls, some of which it
    may not make;
  - junk: oversized and malformed messages, fields that break their rules, connections that never
    complete a call, clients that never read or read slowly, GetStatus fishing for other users' data,
    and other users' tokens (from the conductor) tried on every call that takes one.

Checks, each a line of the report; the exit status is 1 when any fails:
  - every intent reached the app in the current context (the app the soak focused last that is
    still focused and connected) and no other, and the daemon's currentApp matches that model;
  - no client saw another user's data: GetStatus's currentApp and openIntent, RequestIntent's app,
    and other users' tokens (refused with UnknownToken);
  - the per-user call rate held for the flooding user;
  - the daemon's RSS and descriptor count stayed within what the limits allow, returned to the
    start once every client left (descriptors, subscribers), and RSS did not keep growing;
  - the daemon never restarted: one pid, alive at every sample, a clean exit on SIGTERM.
It reports the intent latency under attack: from the monitor's "shake" event (CLOCK_MONOTONIC,
stamped by the daemon when the detector recognizes the shake) to the intent's arrival at the app
(CLOCK_MONOTONIC in the worker when its bytes are read), and from the Shake call.

Other users need root (fork, then setuid, as shaked_harness.daemon's run_as does). Without root
every client runs as the invoking user, the per-user limits are raised to the totals, and the checks
that need a second user are skipped (the report says so).

Usage: scripts/soak [--minutes 10 | --seconds 20] [--clients 1000] [--binary .build/release/shaked]
"""

import argparse
import asyncio
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from shaked_harness import ROOT
from shaked_harness.soak.clients import UNDO, AppWorker, Closed, Connection, error_name
from shaked_harness.soak.hostile import Hog, Junk
from shaked_harness.soak.processes import Daemon, Worker, fork_worker
from shaked_harness.soak.report import log, percentile, report
APP_UIDS = [61001, 61002, 61003, 61004]
HOG_UID, JUNK_UID = 61101, 61102

def soak_config(limits, may_request, may_hold_context, may_monitor):
    """The soak's configuration: [Limits] for a thousand apps; request and context only for the app users,
    monitor only for the conductor (root may anyway)."""
    users = lambda uids: " ".join(str(u) for u in uids)  # noqa: E731
    return """# Written by scripts/soak
[Prompt]
Timeout=20
Cooldown=0

[Access]
SubscribeUsers=*
RequestUsers=%s
RequestGroups=
MonitorUsers=%s
MonitorGroups=
AgentUsers=
AgentGroups=
ContextUsers=%s
ContextGroups=

[Limits]
%s

[Log]
Level=notice
""" % (users(may_request), users(may_monitor), users(may_hold_context),
       "\n".join("%s=%s" % kv for kv in limits.items()))


class Conductor:
    def __init__(self, args, daemon, workers, limits, other_uids, baseline):
        self.args = args
        self.daemon = daemon
        self.workers = workers
        self.app_workers = [w for w in workers if w.kind == "apps"]
        self.limits = limits
        self.other_uids = other_uids
        self.baseline = baseline
        self.samples = [baseline]
        self.failures = []
        self.replies = {}
        self.next_id = 0
        self.focused = []  # the model: focused apps, in the order they gained focus; the last holds the context
        self.intents = collections.defaultdict(list)  # intent id -> reports of the apps it reached
        self.intent_arrived = asyncio.Event()
        self.expected = {}  # intent id -> the app it had to reach
        self.cancellations = []
        self.shakes = []
        self.outcomes = []
        self.arrivals = []
        self.latency_call = []
        self.counts = collections.Counter()
        self.lost = set()
        self.ramped = 1
        self.end_sample = None
        self.drained = None
        self.drained_subscribers = None

    def fail(self, category, what):
        """Records a failed check; category is intents, privacy, limits, input, well-behaved, daemon or soak."""
        self.failures.append((category, what))
        if len(self.failures) <= 50:
            log("FAIL (%s): %s" % (category, what))

    # --- workers ---

    async def read_reports(self, worker):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 22)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(worker.reports_fd, "rb"))
        while True:
            line = await reader.readline()
            if not line:
                return
            self.dispatch(worker, json.loads(line))

    def dispatch(self, worker, report):
        kind = report["type"]
        if kind == "reply":
            future = self.replies.pop(report["id"], None)
            if future and not future.done():
                future.set_result(report)
        elif kind == "stats":
            worker.stats = report
        elif kind == "failure":
            self.fail(report.get("category", "soak"), "%s: %s" % (worker.kind, report["what"]))
        elif kind == "intent":
            report["worker"] = worker.number
            self.intents[report["intent"]].append(report)
            self.intent_arrived.set()
        elif kind == "cancelled":
            self.cancellations.append(report)
        elif kind == "lost":
            self.lost.add(report["app"])
        elif kind == "flow":
            self.fail("intents", "%s: %s" % (report["app"], report["detail"]))

    async def command(self, worker, cmd, timeout=20, **fields):
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        worker.send({"cmd": cmd, "id": self.next_id, **fields})
        try:
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            self.replies.pop(self.next_id, None)
            return {"error": "%s: no reply from worker %d within %d s" % (cmd, worker.number, timeout)}

    # --- the daemon's side ---

    def on_monitor(self, reply, arrived):
        event = (reply.get("parameters") or {}).get("event") or {}
        if event.get("kind") == "shake":
            self.shakes.append((event["time"], arrived))
        elif event.get("kind") == "outcome":
            self.outcomes.append(event["outcome"])

    async def root_call(self, method, parameters=None):
        reply = await self.calls.call(method, parameters)
        self.counts["root-calls"] += 1
        return reply

    async def current_app(self):
        reply = await self.root_call(UNDO + "GetStatus")
        if "error" in reply:
            return "error " + error_name(reply)
        return reply["parameters"]["status"].get("currentApp")

    # --- the rounds ---

    @property
    def holder(self):
        return self.focused[-1] if self.focused else None

    def worker_of(self, app):
        return self.workers[app["worker"]]

    async def focus_phase(self):
        """One to three changes of focus, each acknowledged, then waits until the daemon's context is the model's."""
        for _ in range(random.randint(1, 3)):
            roll = random.random()
            if not self.focused or roll < 0.5:
                worker = random.choice(self.app_workers)
                reply = await self.command(worker, "focus")
                if "error" in reply:
                    self.counts["focus-unavailable"] += 1
                    continue
                reply["worker"] = worker.number
                self.focused.append(reply)
                self.counts["focused"] += 1
            elif roll < 0.7:
                await self.release(self.focused[-1], "unfocus")
            elif roll < 0.85:
                await self.release(self.focused[-1], "drop")
            else:
                await self.release(random.choice(self.focused), "unfocus")
        while len(self.focused) > 6:
            await self.release(self.focused[0], "unfocus")
        await self.settle()

    async def release(self, app, how):
        self.focused.remove(app)
        reply = await self.command(self.worker_of(app), how, client=app["client"])
        self.counts[how] += 1
        if "error" in reply:
            self.fail("soak", "%s %s: %s" % (how, app["app"], reply["error"]))

    async def settle(self):
        """The daemon's current app (root may see it) must become the model's within 5 s."""
        want = self.holder["app"] if self.holder else None
        deadline = time.monotonic() + 5
        while True:
            got = await self.current_app()
            if got == want:
                break
            if time.monotonic() > deadline:
                self.fail("intents", "the daemon's current app is %s; the soak's model says %s"
                          % (got, want or "none (no app focused)"))
                self.focused = [a for a in self.focused if a["app"] == got] or self.focused
                return
            await asyncio.sleep(0.05)
        # Exact privacy: a user sees the current app only when it is one of its own.
        worker = random.choice(self.app_workers)
        status = await self.command(worker, "status")
        if "error" not in status:
            self.counts["status-probes"] += 1
            visible = want if self.holder and self.holder["uid"] == worker.uid else None
            if status["currentApp"] != visible or status["openIntent"] is not None:
                self.fail("privacy", "uid %d's GetStatus showed currentApp %s openIntent %s; expected %s and none"
                          % (worker.uid, status["currentApp"], status["openIntent"], visible))

    async def shake_round(self):
        holder = self.holder
        if holder is None:
            return
        known = set(self.intents)
        self.intent_arrived.clear()
        shakes_before = len(self.shakes)
        called = time.monotonic()
        requester = None
        if self.other_uids and random.random() < 0.15:
            requester = random.choice(self.app_workers)
            reply = await self.command(requester, "request")
            if "error" in reply:
                self.fail("soak", "RequestIntent from uid %d: %s" % (requester.uid, reply["error"]))
                return
            visible = holder["app"] if holder["uid"] == requester.uid else None
            self.counts["requests"] += 1
            if reply["app"] != visible:
                self.fail("privacy", "RequestIntent by uid %d named app %s; the intent went to %s of uid %d"
                          % (requester.uid, reply["app"], holder["app"], holder["uid"]))
        else:
            reply = await self.root_call("io.shaked.Demo.Shake")
            if "error" in reply:
                self.fail("soak", "Demo.Shake: %s" % json.dumps(reply))
                return
            self.counts["shakes-played"] += 1
        intent = await self.wait_for_intent(known, 4.0)
        if intent is None:
            recognized = len(self.shakes) > shakes_before
            self.counts["shake-unrecognized" if not recognized else "no-intent"] += 1
            if recognized or requester:
                self.fail("intents", "a %s with %s in context made no intent"
                          % ("request" if requester else "shake", holder["app"]))
            await asyncio.sleep(1.0)
            return
        await asyncio.sleep(0.02)  # let any second delivery of the same intent arrive
        reports = self.intents[intent]
        self.expected[intent] = holder["app"]
        if [r["app"] for r in reports] != [holder["app"]]:
            self.fail("intents", "intent %s reached %s; the app in context was %s"
                      % (intent, [r["app"] for r in reports], holder["app"]))
            self.counts["intents-wrong"] += 1
            await asyncio.sleep(1.0)
            return
        self.counts["intents-right"] += 1
        arrived = reports[0]["arrived"]
        if not requester:
            self.latency_call.append(arrived - called)
            self.arrivals.append((shakes_before, arrived))  # matched with the monitor's shake at the end
        await self.probe_open_intent(intent, holder)
        choice = random.choices(["undo", "cancel", "drop"], [0.75, 0.17, 0.08])[0]
        if choice == "undo":
            choice = reports[0]["operation"]
        result = await self.command(self.worker_of(holder), "choose", client=holder["client"], intent=intent,
                                    choice=choice)
        outcome = result.get("result") or result.get("error")
        self.counts["flow-" + outcome.split(":")[0]] += 1
        expected = {"undo": "performed", "redo": "performed", "cancel": "declined", "drop": "dropped"}[choice]
        if outcome != expected:
            self.fail("intents", "intent %s, choice %s: %s" % (intent, choice, outcome))
        if choice == "drop":
            self.focused.remove(holder)
        others = [c for c in self.cancellations if c["intent"] == intent and c["reason"] != "declined"]
        if others:
            self.fail("intents", "intent %s was cancelled by someone else: %s" % (intent, others))
        if not requester:
            await asyncio.sleep(max(0.0, 1.2 - (time.monotonic() - called)))  # the synthetic shake plays out

    async def wait_for_intent(self, known, timeout):
        deadline = time.monotonic() + timeout
        while True:
            new = [i for i in self.intents if i not in known]
            if new:
                return new[0]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.intent_arrived.clear()
            try:
                await asyncio.wait_for(self.intent_arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def probe_open_intent(self, intent, holder):
        """While the prompt is open: its user sees it in GetStatus, others don't; others' tokens are refused."""
        for worker in random.sample(self.app_workers, min(2, len(self.app_workers))):
            status = await self.command(worker, "status")
            if "error" in status:
                continue
            self.counts["status-probes"] += 1
            own = worker.uid == holder["uid"]
            want = (holder["app"], intent) if own else (None, None)
            if (status["currentApp"], status["openIntent"]) != want:
                self.fail("privacy", "uid %d's GetStatus during %s (of uid %d) showed %s, %s; expected %s"
                          % (worker.uid, intent, holder["uid"], status["currentApp"], status["openIntent"], want))
        junk = [w for w in self.workers if w.kind == "junk"]
        if self.other_uids and junk and random.random() < 0.5:
            reply = await self.command(junk[0], "steal", token=holder["token"], intent=intent)
            self.counts["steal-attempts"] += 1
            if "error" in reply:
                self.fail("soak", "steal: %s" % reply["error"])

    # --- the run ---

    async def sampler(self, end):
        last_print = time.monotonic()
        started = last_print
        while time.monotonic() < end:
            await asyncio.sleep(1)
            sample = self.daemon.sample()
            if sample is None or self.daemon.process.poll() is not None:
                self.fail("daemon", "the daemon (pid %d) is gone: exit %s"
                          % (self.daemon.pid, self.daemon.process.poll()))
                return
            self.samples.append(sample)
            if time.monotonic() - last_print >= 10:
                last_print = time.monotonic()
                self.progress(time.monotonic() - started, sample)

    def progress(self, elapsed, sample):
        connected = sum(w.stats.get("connected", 0) for w in self.app_workers)
        hostile = collections.Counter()
        for w in self.workers:
            if w.kind != "apps":
                hostile.update(w.stats.get("counts", {}))
        p99 = percentile(self.latency_shake, 99)
        log("[%4d s] apps connected %4d | intents right %d wrong %d, p99 %s | hostile: held %d, flood refused %d, "
            "oversized %d, malformed %d, idle closed %d, never-readers closed %d | daemon RSS %.1f MiB, %d fds, "
            "CPU %.0f%% | failures %d"
            % (elapsed, connected, self.counts["intents-right"], self.counts["intents-wrong"],
               "%.2f ms" % (p99 * 1000) if p99 is not None else "-", hostile["held"],
               hostile["refused-call-rate"] + hostile["refused-call-rate-per-user"], hostile["oversized-refused"],
               hostile["malformed-refused"] + hostile["malformed-closed"], hostile["idle-closed"],
               hostile["never-reader-closed"], sample["rss"] / 1024, sample["fds"],
               100 * (sample["cpu"] - self.samples[-11]["cpu"]) / (sample["t"] - self.samples[-11]["t"])
               if len(self.samples) > 11 else 0, len(self.failures)))

    async def run(self, seconds):
        readers = [asyncio.ensure_future(self.read_reports(w)) for w in self.workers]
        self.calls = await Connection.open(self.daemon.socket)
        await self.root_call(UNDO + "GetStatus")  # a completed call: the idle timeout no longer applies
        self.monitor = await Connection.open(self.daemon.socket, self.on_monitor)
        started = await self.monitor.call(UNDO + "Monitor", more=True)
        if "error" in started:
            raise SystemExit("error: Monitor: %s" % json.dumps(started))
        begin = time.monotonic()
        end = begin + seconds
        sampler = asyncio.ensure_future(self.sampler(end))
        await asyncio.sleep(self.args.ramp + 1)  # the apps connect
        self.ramped = len(self.samples)
        while time.monotonic() < end and self.daemon.process.poll() is None:
            try:
                await self.focus_phase()
                await self.shake_round()
                self.counts["rounds"] += 1
            except (Closed, asyncio.TimeoutError) as e:
                self.fail("daemon", "the conductor's own connection failed: %r" % e)
                break
        await sampler
        self.end_sample = self.daemon.sample()
        for w in self.workers:
            w.send({"cmd": "stop"})
        await asyncio.sleep(1)
        self.monitor.close()
        await self.drain()
        await asyncio.gather(*readers)
        for w in self.workers:
            os.waitpid(w.pid, 0)

    @property
    def latency_shake(self):
        """From each recognized shake (the daemon's CLOCK_MONOTONIC stamp) to its intent's arrival."""
        latencies = []
        for first, arrived in self.arrivals:
            shakes = [s for s, _ in self.shakes[first:first + 3] if s <= arrived]
            if shakes:
                latencies.append(arrived - shakes[-1])
        return latencies

    async def drain(self):
        """Once every client left, the daemon must be back to its start: descriptors and subscribers."""
        deadline = time.monotonic() + self.args.idle_timeout + 20
        while True:
            sample = self.daemon.sample()
            reply = await self.root_call(UNDO + "GetStatus")
            subscribers = reply["parameters"]["status"]["subscribers"] if "error" not in reply else None
            if sample and sample["fds"] <= self.baseline["fds"] and subscribers == 0:
                break
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        self.drained = sample
        self.drained_subscribers = subscribers


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--minutes", type=float, default=10, help="how long to soak (default 10)")
    length.add_argument("--seconds", type=float, help="how long to soak, in seconds (for CI)")
    parser.add_argument("--clients", type=int, default=1000, help="well-behaved app clients (default 1000)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "shaked"))
    parser.add_argument("--ramp", type=float, default=20, help="seconds over which the apps first connect")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the time)")
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    args.idle_timeout = 5
    args.ramp = min(args.ramp, seconds / 4)
    seed = args.seed if args.seed is not None else int(time.time())
    random.seed(seed)
    if not os.access(args.binary, os.X_OK):
        log("building %s (swift build -c release --product shaked)" % args.binary)
        subprocess.run(["swift", "build", "-c", "release", "--product", "shaked"], cwd=ROOT, check=True)

    root = os.geteuid() == 0
    me = os.geteuid()
    app_uids = APP_UIDS if root else [me, me]
    per_app_worker = -(-args.clients // len(app_uids))
    connections = 2 * args.clients + 1000
    limits = {
        "Connections": connections,
        "ConnectionsPerUser": 2 * per_app_worker + 100 if root else connections,
        "Subscriptions": args.clients + 600,
        "SubscriptionsPerUser": 300 if root else args.clients + 600,
        "SubscriptionsPerConnection": 4,
        "CallsPerSecond": 50,
        "CallsPerSecondPerUser": 200 if root else 100000,
        "IdleTimeout": args.idle_timeout,
    }
    directory = tempfile.mkdtemp(prefix="shaked-soak-")
    os.chmod(directory, 0o755)
    config = os.path.join(directory, "soak.conf")
    with open(config, "w") as f:
        f.write(soak_config(limits, sorted(set(app_uids)), sorted(set(app_uids)), [] if root else [me]))
    log("soak: %d s, %d apps, seed %d, %s; daemon %s, config %s"
        % (seconds, args.clients, seed, "root: apps as uids %s, hostile as %d and %d" % (APP_UIDS, HOG_UID, JUNK_UID)
           if root else "not root: every client as uid %d, checks across users skipped" % me, args.binary, config))
    daemon = Daemon(args.binary, directory, config, nofile=connections + 256)
    daemon.warm_up()
    baseline = None
    workers = []
    inherited = []
    options = {"flood_connections": 6, "flood_burst": 100, "idle_timeout": args.idle_timeout}
    makers = [("apps", uid, (lambda n, u: lambda ch: AppWorker(n, u, daemon.socket, per_app_worker, args.ramp, ch,
                                                               True))) for uid in app_uids]
    makers.append(("hog", HOG_UID if root else me, lambda n, u: lambda ch: Hog(n, u, daemon.socket, ch, root, options)))
    makers.append(("junk", JUNK_UID if root else me,
                   lambda n, u: lambda ch: Junk(n, u, daemon.socket, ch, root, options)))
    # The start: the idle daemon, warmed up, with the conductor's one calls connection (opened in run()).
    baseline = daemon.sample()
    baseline["fds"] += 1
    for number, (kind, uid, maker) in enumerate(makers):
        if kind == "hog" and not root:
            options["hog_fill"] = False
        pid, commands_fd, reports_fd = fork_worker(maker(number, uid), uid, inherited, "%d-%d" % (seed, number))
        inherited += [commands_fd, reports_fd]
        workers.append(Worker(number, kind, uid, pid, commands_fd, reports_fd))
    conductor = Conductor(args, daemon, workers, limits, root, baseline)
    try:
        asyncio.run(conductor.run(seconds))
    except KeyboardInterrupt:
        log("interrupted")
    exit_status = daemon.stop()
    ok = report(conductor, exit_status, seconds, root)
    if not ok:
        log("daemon log: %s (last lines below)" % daemon.log_path)
        log("\n".join(daemon.output().splitlines()[-15:]))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
