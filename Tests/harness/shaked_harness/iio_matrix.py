"""The sharing matrix of issue 28: {iio-sensor-proxy 3.0, 3.7} x driver kinds x who starts first, each
cell through the shell claiming, releasing and claiming again, and iio-sensor-proxy restarted while
shaked reads.

Each cell is one Scene (iio_scene.py) in a process of its own; cells run a few at a time. In each of
the three phases of a cell (first claim; claimed again after a release; after iio-sensor-proxy's
restart) it checks:
  - rotation: the device turned upright (normal, then left-up, alternating) reaches monitor-sensor as
    an orientation change;
  - tilt: laid flat, 3.7 reports "face-up" (3.0 has no tilt) and, for 2 s flat, no spurious
    "vertical" (3.6 and later report vertical for the (0, 0, 0) a failed raw read gives) nor
    orientation change;
  - shake to undo: a real recorded shake (../shared/traces/qt_shake_left.csv), replayed through the
    fake device, reaches the app in context as an intent;
and reports what shaked reads with (GetStatus's sensor line) and its sample rate.

Usage (as root, from scripts/test-iio.sh, with the Python of scripts/python-env.sh):
  PYTHON -m shaked_harness.iio_matrix --shim LIB.so --shaked PATH [--proxy 3.7] [--kind K] [--order O]
         [--jobs N] [--trace CSV]
"""

import argparse
import json
import os
import subprocess
import sys
import time

from . import iio_drivers
from .daemon import TRACES
from .iio_scene import FLAT, LEFT_UP, NORMAL, Scene, read_trace, wait_until

VERSIONS = ["3.0", "3.7"]
# The table; kxcjk-1013 behaves as inv_mpu6050 does in every rule modelled (a triggered buffer
# with its trigger selected at probe, raw reads refused while buffered), so it is left out for time.
KINDS = ["inv_mpu6050", "bmc150-accel", "st_lsm6dsx", "st_lsm6dsx-no-buffer", "bmi160"]
ORDERS = ["proxy-first", "shaked-first"]
# More cells, with shaked first on a phone where iio-sensor-proxy is not installed (so shaked reads a buffer
# of its own, where the device has one) and then starts: shaked gives way when it takes its bus name; with
# no system bus, at its next look in /proc (every 10 s), so the first turn may take that long there.
UNINSTALLED = "shaked-first-uninstalled"
NO_BUS = "shaked-first-no-bus"
EXTRA_CELLS = [("3.0", "inv_mpu6050", UNINSTALLED), ("3.0", "st_lsm6dsx", UNINSTALLED),
               ("3.0", "inv_mpu6050", NO_BUS)]
NO_BUS_PROMPT = 14.0
PHASES = ["claimed", "claimed again", "after restart"]
TRACE = os.path.join(TRACES, "qt_shake_left.csv")
ORIENTATION_NAMES = {NORMAL: "normal", LEFT_UP: "left-up"}
# A replay in which the player went longer than this between two samples (s) stalled.
STALL = 0.03
# The longest a turn of the device may take to reach monitor-sensor (s): iio-sensor-proxy reads every
# 700 ms, so a longer wait is rotation frozen (its raw reads failing under a buffer of shaked's own).
PROMPT = 3.0


def phase(scene, monitor, upright, trace, result):
    """Turns the device upright (first the other way, so that the orientation surely changes), then
    flat, then shakes it; records what arrived."""
    other = LEFT_UP if upright == NORMAL else NORMAL
    started = time.monotonic()
    scene.player.hold(other)
    turned = wait_until(lambda: monitor.orientation() == ORIENTATION_NAMES[other], 12)
    turn_s = time.monotonic() - started
    mark = len(monitor.lines)
    started = time.monotonic()
    scene.player.hold(upright)
    rotation = wait_until(lambda: monitor.saw("orientation changed: %s" % ORIENTATION_NAMES[upright], mark), 8)
    turn_s = max(turn_s, time.monotonic() - started) if turned else None
    mark = len(monitor.lines)
    scene.player.hold(FLAT)
    tilt = True
    if scene.version.name != "3.0":
        tilt = wait_until(lambda: monitor.saw("Tilt changed: face-up", mark), 8)
    mark = len(monitor.lines)
    time.sleep(2)
    spurious = [line for line in monitor.lines[mark:] if "Tilt changed" in line or "orientation changed" in line]
    stalls = 0
    while True:
        before = scene.status()["samplesRead"]
        started = time.monotonic()
        intents = scene.intents()
        length = scene.player.replay(trace)
        shake = wait_until(lambda: scene.intents() > intents, length + 4)
        wait_until(lambda: scene.player.trace is None, length + 1)
        status = scene.status()
        rate = (status["samplesRead"] - before) / max(time.monotonic() - started, 0.1)
        # A replay the player itself stalled in (the machine too loaded to play 100 Hz) says nothing
        # about the reader: played again, up to twice, and counted.
        if shake or scene.player.worst_gap <= STALL or stalls == 2:
            break
        stalls += 1
        time.sleep(1.5)
    result.append({"rotation": rotation, "turn_s": turn_s and round(turn_s, 1), "tilt": tilt, "spurious": spurious, "shake": shake,
                   "sensor": status["sensor"], "rate": round(rate), "unavailable": status.get("unavailable"),
                   "replays_stalled": stalls, "worst_gap_ms": round(scene.player.worst_gap * 1000)})


def run_cell(version, kind, order, shim, trace_path):
    """One cell; returns its result as a dict."""
    trace = read_trace(trace_path)
    phases = []
    cell = {"version": version, "kind": kind, "order": order, "phases": phases}
    with Scene(version, kind, shim) as scene:
        try:
            if order == "proxy-first":
                scene.start_proxy()
                time.sleep(1)
                scene.start_shaked()
            else:
                # shaked reading alone (the app in context) when iio-sensor-proxy starts.
                scene.start_shaked(system_bus=order != NO_BUS, proxy_installed=order == "shaked-first")
                wait_until(lambda: scene.status()["samplesRead"] > 0, 5)
                cell["alone"] = scene.status()["sensor"]
                scene.start_proxy()
            monitor = scene.monitor = None
            from .iio_scene import Monitor
            monitor = Monitor(scene.version, scene.bus_env)
            if not wait_until(lambda: monitor.saw("Has accelerometer"), 15):
                raise RuntimeError("monitor-sensor saw no accelerometer: %s" % monitor.lines[-5:])
            phase(scene, monitor, NORMAL, trace, phases)
            # The shell lets go (auto-rotation off, the screen off) and claims again.
            monitor.stop()
            time.sleep(1.5)
            monitor = Monitor(scene.version, scene.bus_env)
            wait_until(lambda: monitor.saw("Has accelerometer"), 15)
            phase(scene, monitor, LEFT_UP, trace, phases)
            # iio-sensor-proxy restarted while shaked reads; monitor-sensor claims again when it reappears.
            scene.stop_proxy()
            mark = len(monitor.lines)
            scene.start_proxy()
            wait_until(lambda: monitor.saw("Has accelerometer", mark) or monitor.saw("appeared", mark), 15)
            phase(scene, monitor, NORMAL, trace, phases)
            # The app leaves (shaked stops reading) while the shell still claims, then the shell lets go:
            # a rate shaked raised to poll faster must not outlive it (st_lsm6dsx refuses the write back
            # while iio-sensor-proxy's buffer runs; it is put back once the buffer is disabled).
            scene.app.close()
            scene.app = None
            time.sleep(1.5)
            monitor.stop()
            wait_until(lambda: scene.player.rate(unclamped=True) <= rate_allowed(kind), 6)
            cell["rate_left"] = scene.player.rate(unclamped=True)
        except Exception as error:  # a cell that cannot run is a failed cell, with its reason
            cell["error"] = "%s: %s" % (type(error).__name__, error)
        cell["shaked_log"] = scene.daemon.output()[-3000:] if scene.daemon else ""
        cell["proxy_log"] = scene.proxy_log()[-3000:]
    return cell


def rate_allowed(kind):
    """The highest rate the chip may be left at once shaked stopped: the one it started at, or the one
    shaked asks for (the nearest listed at or above its 100 Hz), never one raised to poll faster."""
    driver = iio_drivers.DRIVERS[kind]
    listed = sorted(float(r) for r in driver.available.split())
    wanted = next((r for r in listed if r >= 100), listed[-1])
    return max(driver.starting_rate, wanted)


def cell_ok(cell):
    # Alone, shaked polls where iio-sensor-proxy is installed (it may start at any time), else reads a
    # buffer of its own where the device has one.
    alone = cell.get("alone")
    own_buffer = cell["order"] != "shaked-first" and iio_drivers.DRIVERS[cell["kind"]].buffer is not None
    limits = [NO_BUS_PROMPT if cell["order"] == NO_BUS and i == 0 else PROMPT for i in range(len(PHASES))]
    return "error" not in cell and len(cell["phases"]) == len(PHASES) and all(
        p["rotation"] and p.get("turn_s") is not None and p["turn_s"] <= limit and p["tilt"] and not p["spurious"]
        and p["shake"] for p, limit in zip(cell["phases"], limits)) and (
        alone is None or ("buffered at" in alone) == own_buffer) and (
        cell.get("rate_left", float("inf")) <= rate_allowed(cell["kind"]))


def summary(cell):
    marks = []
    for p in cell["phases"]:
        marks.append("%s%s%s" % ("R" if p["rotation"] and not p["spurious"] else "r",
                                 "T" if p["tilt"] else "t", "S" if p["shake"] else "s"))
    mode = cell["phases"][0]["sensor"].split(": ", 1)[1].split(";")[0] if cell["phases"] else "-"
    rates = "/".join(str(p["rate"]) for p in cell["phases"])
    turns = "/".join("-" if p.get("turn_s") is None else "%.1f" % p["turn_s"] for p in cell["phases"])
    stalled = sum(p.get("replays_stalled", 0) for p in cell["phases"])
    return "%-4s %-22s %-13s %-13s %-44s %-12s %-13s %s%s" % (
        cell["version"], cell["kind"], cell["order"], " ".join(marks) or "-", mode[:44], rates, turns,
        "ok" if cell_ok(cell) else "FAIL", " (%d replay(s) stalled by the load, played again)" % stalled if stalled else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shim", required=True, help="the kernel model, libiio-exclusivity.so")
    parser.add_argument("--shaked", required=True, help="the shaked binary")
    parser.add_argument("--proxy", action="append", choices=VERSIONS, help="only these versions")
    parser.add_argument("--kind", action="append", choices=iio_drivers.KINDS, help="only these driver kinds")
    parser.add_argument("--order", action="append", choices=ORDERS + [UNINSTALLED, NO_BUS],
                        help="only these orders")
    parser.add_argument("--jobs", type=int, default=4, help="cells run at once (default 4)")
    parser.add_argument("--trace", default=TRACE, help="the shake replayed (default qt_shake_left.csv)")
    parser.add_argument("--cell", help=argparse.SUPPRESS)  # internal: run one cell, print its JSON
    parser.add_argument("--verbose", action="store_true", help="logs of every cell, not only failed ones")
    args = parser.parse_args()
    from . import daemon as daemon_module
    daemon_module.SHAKED = os.path.abspath(args.shaked)
    shim = os.path.abspath(args.shim)
    if args.cell:
        version, kind, order = args.cell.split(",")
        print(json.dumps(run_cell(version, kind, order, shim, args.trace)))
        return
    cells = [(v, k, o) for v in args.proxy or VERSIONS for k in args.kind or KINDS for o in args.order or ORDERS]
    if not (args.proxy or args.kind or args.order):
        cells += EXTRA_CELLS
    started = time.monotonic()
    print("%-4s %-22s %-13s %-13s %-44s %-12s %-13s %s" % ("isp", "driver", "first", "phases", "shaked reads",
                                                           "samples/s", "turn (s)", "result"))
    print("(phases: claimed, claimed again, after restart; R rotation, T tilt, S shake reached the app; "
          "lower case: failed; turn: the slowest turn to reach monitor-sensor, at most %.0f s; shaked-first: "
          "shaked reads alone when iio-sensor-proxy starts: polling where it is installed, else with a buffer "
          "of its own where the device has one)"
          % PROMPT)
    pending = list(cells)
    running = []
    failures = 0
    while pending or running:
        while pending and len(running) < args.jobs:
            v, k, o = pending.pop(0)
            # The cells share the machine's /proc: each one's shaked sees the others' iio-sensor-proxy there,
            # and must follow only its own, by its bus name on the cell's own bus (issue 37: the
            # shaked-first-uninstalled cells read a buffer of their own only if they do). Only the no-bus
            # cell, where shaked has nothing but /proc to look in, gets a PID namespace (and a /proc) of
            # its own, whose processes end with it.
            command = [sys.executable, "-W", "ignore::ResourceWarning", "-m", "shaked_harness.iio_matrix",
                       "--shim", shim, "--shaked", args.shaked, "--trace", args.trace, "--cell", "%s,%s,%s" % (v, k, o)]
            if o == NO_BUS:
                command = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"] + command
            running.append(((v, k, o), subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                        text=True)))
        time.sleep(0.5)
        for entry in list(running):
            (v, k, o), process = entry
            if process.poll() is None:
                continue
            running.remove(entry)
            out, err = process.communicate()
            try:
                cell = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                cell = {"version": v, "kind": k, "order": o, "phases": [], "error": "the cell crashed: " + err[-2000:]}
            ok = cell_ok(cell)
            failures += not ok
            print(summary(cell), flush=True)
            if not ok or args.verbose:
                print("  error: %s" % cell.get("error"))
                print("  the chip's rate once shaked stopped and the shell let go: %s Hz (at most %s)" % (
                    cell.get("rate_left"), rate_allowed(cell["kind"])))
                if cell.get("alone"):
                    print("  shaked read alone: %s" % cell["alone"])
                for name, p in zip(PHASES, cell["phases"]):
                    print("  %s: %s" % (name, p))
                print("  shaked log:\n" + cell.get("shaked_log", ""))
                print("  iio-sensor-proxy log:\n" + cell.get("proxy_log", "")[-1500:])
    print("%d cells, %d failed, %.0f s" % (len(cells), failures, time.monotonic() - started))
    if failures:
        sys.exit("%d matrix cell(s) failed" % failures)


if __name__ == "__main__":
    main()
