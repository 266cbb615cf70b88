"""shaked under systemd's protocols, without systemd as PID 1: readiness, status, watchdog,
socket activation, reload on SIGHUP and shutdown on SIGTERM."""

import os
import signal
import socket
import subprocess
import tempfile
import time
import unittest

import varlink

from shaked_harness.daemon import OWN_ACCESS, SHAKED, TRACES, UNDO, App, Daemon, prompt

socket.setdefaulttimeout(20)
TRACE = os.path.join(TRACES, "qt_shake_left.csv")


class NotifySocket:
    """A datagram socket standing in for systemd's NOTIFY_SOCKET."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="shaked-notify-")
        self.path = os.path.join(self.dir, "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages = []

    def wait_for(self, assignment, timeout=10):
        """Messages until one has `assignment` (such as READY=1, or a test on a line); returns that
        message's lines."""
        matches = assignment if callable(assignment) else (lambda line: line == assignment)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.sock.recv(4096).decode()
            except socket.timeout:
                break
            lines = data.split("\n")
            self.messages.append(lines)
            if any(matches(line) for line in lines):
                return lines
        raise AssertionError("no %s within %s s; got %s" % (assignment, timeout, self.messages))

    def drain(self, seconds):
        """Every message within `seconds`."""
        got = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                got.append(self.sock.recv(4096).decode().split("\n"))
            except socket.timeout:
                break
        return got


class ReadinessTest(unittest.TestCase):
    def test_ready_status_and_watchdog(self):
        notify = NotifySocket()
        env = {"NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"}
        with Daemon("--replay", TRACE, env=env) as daemon:
            ready = notify.wait_for("READY=1")
            status = [l for l in ready if l.startswith("STATUS=")]
            self.assertTrue(status and "0 subscribers" in status[0], ready)
            # Pings every half interval: about 10 in 2 s.
            pings = [m for m in notify.drain(2.0) if "WATCHDOG=1" in m]
            self.assertGreaterEqual(len(pings), 5)
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            notify.wait_for(lambda l: l.startswith("STATUS=Reading") and "; 1 subscriber;" in l)
            app.close()

    def test_pings_stop_when_the_loop_stalls(self):
        notify = NotifySocket()
        env = {"NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "SHAKED_TEST_STALL_AFTER": "1"}
        with Daemon("--replay", TRACE, env=env) as daemon:
            notify.wait_for("READY=1")
            before = [m for m in notify.drain(0.8) if "WATCHDOG=1" in m]
            self.assertGreaterEqual(len(before), 3)
            time.sleep(0.5)  # the stall begins at 1 s
            notify.drain(0.3)
            after = [m for m in notify.drain(1.5) if "WATCHDOG=1" in m]
            self.assertEqual(after, [], "pings must stop while the coordinator is stalled")
            # The probe gives each part 2 s; then the log names the part that is stuck.
            deadline = time.monotonic() + 5
            while "did not answer" not in daemon.output() and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertIn("the coordinator did not answer", daemon.output())
            daemon.process.kill()

    def test_watchdog_pid_of_another_process_is_ignored(self):
        notify = NotifySocket()
        env = {"NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"}
        with Daemon("--replay", TRACE, env=env):
            notify.wait_for("READY=1")
            pings = [m for m in notify.drain(1.0) if "WATCHDOG=1" in m]
            self.assertEqual(pings, [])


class SocketActivationTest(unittest.TestCase):
    def test_activated_socket_serves_a_python_varlink_call(self):
        directory = tempfile.mkdtemp(prefix="shaked-activate-")
        path = os.path.join(directory, "io.shaked.Undo")
        unused = os.path.join(directory, "not-this-one")
        process = subprocess.Popen(
            ["systemd-socket-activate", "-l", path, "--fdname=varlink", SHAKED, "--socket", unused,
             "--replay", TRACE], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 10
            while not os.path.exists(path) and time.monotonic() < deadline:
                time.sleep(0.02)
            with varlink.Client("unix:" + path) as client, client.open(UNDO, namespaced=False) as con:
                status = con.GetStatus()["status"]
                self.assertEqual(status["subscribers"], 0)
            self.assertFalse(os.path.exists(unused), "with a socket passed in, shaked binds nothing itself")
        finally:
            process.terminate()
            output = process.communicate(timeout=10)[0].decode()
        self.assertIn("using the socket systemd passed", output)


class ReloadTest(unittest.TestCase):
    def write(self, path, text):
        with open(path, "w") as f:
            f.write(text)

    def test_sighup_applies_a_good_file_and_keeps_subscribers(self):
        notify = NotifySocket()
        config = os.path.join(tempfile.mkdtemp(prefix="shaked-conf-"), "shaked.conf")
        self.write(config, OWN_ACCESS + "[Prompt]\nTimeout=30\n")
        with Daemon("--replay", TRACE, "--config", config, env={"NOTIFY_SOCKET": notify.path}) as daemon:
            notify.wait_for("READY=1")
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            self.write(config, OWN_ACCESS + "[Prompt]\nTimeout=1\n")
            daemon.process.send_signal(signal.SIGHUP)
            reloading = notify.wait_for("RELOADING=1")
            self.assertTrue(any(l.startswith("MONOTONIC_USEC=") for l in reloading), reloading)
            notify.wait_for("READY=1")
            # The subscriber stayed, and the new timeout is in force.
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                intent = tool.RequestIntent()["intent"]
            self.assertEqual(app.next_event()["intent"], intent)
            started = time.monotonic()
            event = app.next_event()
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "timeout"))
            self.assertLess(time.monotonic() - started, 5)
            app.close()
            self.assertIn("configuration reloaded", daemon.output())

    def test_sighup_with_a_bad_file_keeps_the_settings_in_force(self):
        notify = NotifySocket()
        config = os.path.join(tempfile.mkdtemp(prefix="shaked-conf-"), "shaked.conf")
        self.write(config, OWN_ACCESS + "[Prompt]\nTimeout=1\n")
        with Daemon("--replay", TRACE, "--config", config, env={"NOTIFY_SOCKET": notify.path}) as daemon:
            notify.wait_for("READY=1")
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            self.write(config, "[Prompt]\nTimout=40\n")
            daemon.process.send_signal(signal.SIGHUP)
            notify.wait_for("RELOADING=1")
            notify.wait_for("READY=1")
            log = daemon.output()
            self.assertIn("configuration not reloaded", log)
            self.assertIn("Timout", log)
            self.assertIn("did you mean Timeout?", log, "a did-you-mean suggestion")
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                tool.RequestIntent()
            app.next_event()
            event = app.next_event()
            self.assertEqual(event["reason"], "timeout", "the old 1 s timeout is still in force")
            app.close()


class ShutdownTest(unittest.TestCase):
    def test_sigterm_with_an_open_prompt(self):
        notify = NotifySocket()
        daemon = Daemon("--replay", TRACE, env={"NOTIFY_SOCKET": notify.path})
        with daemon:
            notify.wait_for("READY=1")
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                intent = tool.RequestIntent()["intent"]
            app.next_event()
            app.calls.AnswerIntent(token=app.token, intent=intent, prompt=prompt())
            started = time.monotonic()
            daemon.process.send_signal(signal.SIGTERM)
            notify.wait_for("STOPPING=1")
            event = app.next_event()
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "shuttingDown"))
            self.assertEqual(daemon.process.wait(timeout=5), 0)
            self.assertLess(time.monotonic() - started, 1.0, "exits within 1 s")
            self.assertFalse(os.path.exists(daemon.socket))
            app.close()


class CheckConfigTest(unittest.TestCase):
    def test_check_config_names_file_line_and_key(self):
        directory = tempfile.mkdtemp(prefix="shaked-conf-")
        good = os.path.join(directory, "good.conf")
        bad = os.path.join(directory, "bad.conf")
        with open(good, "w") as f:
            f.write("[Prompt]\nTimeout=20\n")
        with open(bad, "w") as f:
            f.write("[Prompt]\nTimeout=20\n\n[Detector]\nSensitivty=high\n")
        ok = subprocess.run([SHAKED, "--check-config", good], capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr)
        self.assertIn(good + ": OK", ok.stdout)
        wrong = subprocess.run([SHAKED, "--check-config", bad], capture_output=True, text=True)
        self.assertNotEqual(wrong.returncode, 0)
        self.assertIn(bad + ":5:", wrong.stdout)
        self.assertIn("Detector.Sensitivty", wrong.stdout)
        self.assertIn("Sensitivity", wrong.stdout.split("Detector.Sensitivty", 1)[1])
        # The daemon refuses to start on it, naming the same problem.
        start = subprocess.run([SHAKED, "--config", bad, "--replay", TRACE, "--socket",
                                os.path.join(directory, "s")], capture_output=True, text=True, timeout=20)
        self.assertEqual(start.returncode, 78)
        self.assertIn("Detector.Sensitivty", start.stderr)


class CommandLineTest(unittest.TestCase):
    """shaked's own option parser (the standard library's, not ArgumentParser's): refusals name the
    option and the accepted values, exit 64 (EX_USAGE), and start nothing."""

    refused = [
        (["--frobnicate"], "Unknown option --frobnicate."),
        (["--socket"], "--socket needs a value."),
        (["--demo=yes"], "--demo takes no value."),
        (["--sensitivity", "extreme"], "--sensitivity must be one of low, medium, high, not 'extreme'."),
        (["--log-level=loud"], "--log-level must be one of trace, debug, info, notice, warning, error, critical"),
        (["--rate", "fast"], "--rate takes a number, not 'fast'."),
        (["--rate", "nan"], "--rate takes a number, not 'nan'."),
        (["--cooldown", "99"], "--cooldown must be 0.0...60.0 seconds."),
        (["--demo", "--replay", "trace.csv"], "--replay and --demo are two sources; give one."),
        (["some.conf"], "A file argument is only taken with --check-config"),
        (["--check-config", "a.conf", "b.conf"], "Unexpected argument b.conf"),
        (["--\x1b[31mred"], "Unknown option --\\u{1b}[31mred."),
    ]

    def test_refusals(self):
        for arguments, says in self.refused:
            with self.subTest(arguments=arguments):
                result = subprocess.run([SHAKED, *arguments], capture_output=True, text=True, timeout=20)
                self.assertEqual(result.returncode, 64, result.stderr)
                self.assertIn(says, result.stderr)
                self.assertIn("shaked --help", result.stderr)
                self.assertNotIn("\x1b", result.stderr)
                self.assertEqual(result.stdout, "")

    def test_help_lists_every_option(self):
        result = subprocess.run([SHAKED, "--help"], capture_output=True, text=True, timeout=20)
        self.assertEqual(result.returncode, 0, result.stderr)
        for option in ("--config", "--check-config", "--socket", "--sensitivity", "--prompt-timeout", "--cooldown",
                       "--log-level", "--replay", "--demo", "--device", "--rate", "--version", "USAGE: shaked"):
            self.assertIn(option, result.stdout)
        self.assertEqual(subprocess.run([SHAKED, "-h"], capture_output=True, text=True).stdout, result.stdout)

    def test_version(self):
        result = subprocess.run([SHAKED, "--version"], capture_output=True, text=True, timeout=20)
        self.assertEqual(result.returncode, 0)
        self.assertRegex(result.stdout, r"^\d+\.\d+\.\d+\n$")

    def test_values_after_equals_and_after_double_dash(self):
        directory = tempfile.mkdtemp(prefix="shaked-cli-")
        good = os.path.join(directory, "good.conf")
        with open(good, "w") as f:
            f.write("[Prompt]\nTimeout=20\n")
        for arguments in (["--check-config", "--config=" + good], ["--check-config", "--", good]):
            with self.subTest(arguments=arguments):
                result = subprocess.run([SHAKED, *arguments], capture_output=True, text=True, timeout=20)
                self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
                self.assertIn(good + ": OK", result.stdout)


if __name__ == "__main__":
    unittest.main()
