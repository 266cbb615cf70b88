"""A locked or idle session turns the sensor off, and back on when it is in use again: logind's
LockedHint and IdleHint on seat0's active session, followed over D-Bus. logind is python-dbusmock's
logind template on a private system bus (DBUS_SYSTEM_BUS_ADDRESS), driven as a shell and logind
would: a session added on seat0 and made active, its hints set and their PropertiesChanged sent.
Needs dbus-daemon and python3-dbusmock (scripts/test.sh installs both); without them it fails
rather than skips."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import dbus

from shaked_harness.daemon import SHAKED, UNDO, App, Daemon, prompt
from shaked_harness.private_bus import BUS_CONFIG
from shaked_harness.processes import stop_all
from test_service import NotifySocket

SHAKECTL = os.path.join(os.path.dirname(SHAKED), "shakectl")
LOGIN = "org.freedesktop.login1"
MOCK = "org.freedesktop.DBus.Mock"
SESSION = "org.freedesktop.login1.Session"


class PrivateLogind:
    """dbus-daemon with a system bus's config on a socket in a temporary folder, and dbusmock's
    logind template on it. Use as a context manager."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="shaked-logind-")
        self.address = "unix:path=" + os.path.join(self.dir, "system_bus_socket")
        self.processes = []

    def __enter__(self):
        config = os.path.join(self.dir, "bus.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG % os.path.join(self.dir, "system_bus_socket"))
        self.bus_log = open(os.path.join(self.dir, "dbus-daemon.log"), "w")
        self.processes.append(subprocess.Popen(
            ["dbus-daemon", "--config-file=" + config, "--nofork"], stdout=self.bus_log, stderr=subprocess.STDOUT))
        self.bus = self.wait_for(lambda: dbus.bus.BusConnection(self.address), "the private system bus")
        self.start_logind()
        return self

    def start_logind(self):
        """Starts the logind template (again, after stop_logind) and waits until it owns its name."""
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)
        self.mock_log = open(os.path.join(self.dir, "dbusmock.log"), "a")
        self.logind = subprocess.Popen([sys.executable, "-m", "dbusmock", "--template", "logind"],
                                       env=env, stdout=self.mock_log, stderr=subprocess.STDOUT)
        self.processes.append(self.logind)
        self.wait_for(lambda: self.bus.get_name_owner(LOGIN), "dbusmock's logind on the bus")
        self.manager = self.bus.get_object(LOGIN, "/org/freedesktop/login1")

    def stop_logind(self):
        self.logind.send_signal(signal.SIGTERM)
        self.logind.wait(timeout=10)

    def add_session(self, session_id, uid):
        """A session of `uid` on seat0, which becomes the seat's ActiveSession (the template's AddSession)."""
        self.manager.AddSession(session_id, "seat0", dbus.UInt32(uid), "person", True, dbus_interface=MOCK)
        return self.bus.get_object(LOGIN, "/org/freedesktop/login1/session/" + session_id)

    @staticmethod
    def wait_for(attempt, what):
        deadline = time.monotonic() + 20
        while True:
            try:
                return attempt()
            except dbus.exceptions.DBusException:
                if time.monotonic() > deadline:
                    raise RuntimeError(what + " did not come up within 20 s")
                time.sleep(0.05)

    def __exit__(self, *exc):
        stop_all(self.processes)
        self.bus_log.close()
        self.mock_log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def status(daemon):
    return daemon.client().open(UNDO, namespaced=False).GetStatus()["status"]


def wait_status(test, daemon, active, off, what):
    """Waits until GetStatus says the sensor is (not) read, for the reason given; returns the status."""
    deadline = time.monotonic() + 10
    while True:
        now = status(daemon)
        if now["sensorActive"] == active and now.get("sensorOff") == off:
            return now
        if time.monotonic() > deadline:
            test.fail("%s: GetStatus still says %s\n%s" % (what, now, daemon.output()))
        time.sleep(0.05)


class SessionHintsTest(unittest.TestCase):
    def daemon(self, logind, **env):
        # The seat's user (sd-login, from logind's files, not D-Bus) is pinned to ours, so the app
        # may hold the context whatever the host's logind says.
        return Daemon("--demo", env=dict(env, DBUS_SYSTEM_BUS_ADDRESS=logind.address,
                                         SHAKED_TEST_SEAT_UID=str(os.getuid())))

    def focused_app(self, daemon):
        app = App(daemon)
        app.context(focused=True, undo="Typing")
        return app

    def test_locked_and_idle_turn_the_sensor_off_and_back_on(self):
        with PrivateLogind() as logind:
            session = logind.add_session("c1", os.getuid())
            with self.daemon(logind) as daemon:
                app = self.focused_app(daemon)
                wait_status(self, daemon, True, None, "an unlocked session with an app in context")

                session.SetLockedHint(True, dbus_interface=SESSION)
                locked = wait_status(self, daemon, False, "the session is locked", "locked")
                daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
                time.sleep(1.5)
                after = status(daemon)
                self.assertEqual(after["samplesRead"], locked["samplesRead"], "not one sample read while locked")
                self.assertNotIn("lastShakeAgo", after, "a shake while locked is not recognized")
                self.assertEqual(after["currentApp"], "org.example.Notes", "the app keeps its context")

                session.SetLockedHint(False, dbus_interface=SESSION)
                wait_status(self, daemon, True, None, "unlocked")
                time.sleep(0.5)
                daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
                event = app.next_event()
                self.assertEqual((event["kind"], event["intent"], event["actionName"]), ("intent", "intent-1", "Typing"),
                                 "unlocked, a shake reaches the app in front; the one while locked made no intent")
                app.calls.AnswerIntent(token=app.token, intent="intent-1", prompt=prompt())
                app.calls.Choose(token=app.token, intent="intent-1", choice="cancel")

                # IdleHint as logind announces it: the property set, PropertiesChanged sent.
                session.UpdateProperties(SESSION, {"IdleHint": True}, dbus_interface=MOCK)
                wait_status(self, daemon, False, "the session is idle", "idle")
                session.UpdateProperties(SESSION, {"IdleHint": False}, dbus_interface=MOCK)
                wait_status(self, daemon, True, None, "in use again")
                app.close()

            log = daemon.output()
            for line in ("sensor off: the session is locked", "sensor off: the session is idle",
                         "the session is locked: the sensor stays off", "the session is in use again"):
                self.assertIn(line, log)
            self.assertNotIn("logind can't be asked", log)

    def test_locked_with_no_app_says_the_session_comes_first(self):
        with PrivateLogind() as logind:
            session = logind.add_session("c1", os.getuid())
            session.SetLockedHint(True, dbus_interface=SESSION)
            notify = NotifySocket()
            with self.daemon(logind, NOTIFY_SOCKET=notify.path, WATCHDOG_USEC="400000") as daemon:
                wait_status(self, daemon, False, "the session is locked", "locked before the daemon started")
                text = subprocess.run([SHAKECTL, "status", "--socket", daemon.socket], capture_output=True,
                                      text=True, check=True).stdout
                self.assertIn("(off: the session is locked)", text, "shakectl status says why")
                # systemctl status says it too: the status line is refreshed with each watchdog ping.
                notify.wait_for(lambda line: line.startswith("STATUS=Sensor off (the session is locked);"))
                app = self.focused_app(daemon)
                time.sleep(0.3)
                self.assertEqual(status(daemon)["sensorOff"], "the session is locked", "an app can't turn it on")
                self.assertFalse(status(daemon)["sensorActive"])
                session.SetLockedHint(False, dbus_interface=SESSION)
                wait_status(self, daemon, True, None, "unlocked")
                app.close()
                wait_status(self, daemon, False, "no app can use a shake", "the app gone")

    def test_the_seat_switching_to_another_session_follows_its_hints(self):
        with PrivateLogind() as logind:
            first = logind.add_session("c1", os.getuid())
            with self.daemon(logind) as daemon:
                app = self.focused_app(daemon)
                wait_status(self, daemon, True, None, "c1 active")
                first.SetLockedHint(True, dbus_interface=SESSION)
                wait_status(self, daemon, False, "the session is locked", "c1 locked")
                # Another session on seat0 becomes the active one (the seat's ActiveSession changes).
                second = logind.add_session("c2", os.getuid())
                wait_status(self, daemon, True, None, "c2, unlocked, active")
                first.SetLockedHint(False, dbus_interface=SESSION)
                second.UpdateProperties(SESSION, {"IdleHint": True}, dbus_interface=MOCK)
                wait_status(self, daemon, False, "the session is idle", "c2 idle; c1's hints no longer count")
                app.close()

    def test_only_seat0s_active_session_counts(self):
        with PrivateLogind() as logind:
            logind.manager.AddSeat("seat0", dbus_interface=MOCK)  # no ActiveSession: ("", "/")
            logind.manager.AddSession("c9", "seat1", dbus.UInt32(os.getuid()), "person", True, dbus_interface=MOCK)
            elsewhere = logind.bus.get_object(LOGIN, "/org/freedesktop/login1/session/c9")
            elsewhere.SetLockedHint(True, dbus_interface=SESSION)
            with self.daemon(logind) as daemon:
                app = self.focused_app(daemon)
                wait_status(self, daemon, True, None, "seat0 without an active session; seat1's is locked")
                elsewhere.UpdateProperties(SESSION, {"IdleHint": True}, dbus_interface=MOCK)
                time.sleep(0.5)
                self.assertTrue(status(daemon)["sensorActive"], "another seat's session changes nothing")
                # A session arrives on seat0 and becomes its active one, locked: now it counts.
                session = logind.add_session("c1", os.getuid())
                session.SetLockedHint(True, dbus_interface=SESSION)
                wait_status(self, daemon, False, "the session is locked", "seat0's session locked")
                app.close()
            self.assertNotIn("logind can't be asked", daemon.output(), "logind answered throughout")

    def test_logind_leaving_the_bus_gives_the_sensor_back_to_the_apps(self):
        with PrivateLogind() as logind:
            session = logind.add_session("c1", os.getuid())
            session.SetLockedHint(True, dbus_interface=SESSION)
            with self.daemon(logind) as daemon:
                app = self.focused_app(daemon)
                wait_status(self, daemon, False, "the session is locked", "locked")
                logind.stop_logind()
                wait_status(self, daemon, True, None, "logind gone: the apps alone decide, as without it")
                self.assertEqual(daemon.output().count("logind can't be asked"), 1, daemon.output())
                logind.start_logind()  # a fresh logind, with no session on seat0 yet
                session = logind.add_session("c1", os.getuid())
                session.SetLockedHint(True, dbus_interface=SESSION)
                wait_status(self, daemon, False, "the session is locked", "logind back, session locked")
                app.close()

    def test_without_a_system_bus_as_before_and_said_once(self):
        # The harness's default: a system bus address where there is none.
        with Daemon("--demo") as daemon:
            app = self.focused_app(daemon)
            wait_status(self, daemon, True, None, "no system bus")
            app.context(focused=False, undo="Typing")
            wait_status(self, daemon, False, "no app can use a shake", "unfocused")
            app.context(focused=True, undo="Typing")
            wait_status(self, daemon, True, None, "focused again")
            app.close()
        log = daemon.output()
        self.assertEqual(log.count("logind can't be asked"), 1, log)
        self.assertIn("no system bus", log)


if __name__ == "__main__":
    unittest.main()
