"""Each person's Shake to Undo switch and sensitivity (GetPreferences, SetPreferences): per user,
kept across restarts and crashes in the state directory, a corrupt file set aside, and no sensor
reads while the switch is off."""

import json
import os
import signal
import socket
import tempfile
import time
import unittest

from shaked_harness.daemon import UNDO, App, Daemon, Raw, error_of, needs_root, run_as

socket.setdefaulttimeout(20)
NOBODY = 65534
DEFAULTS = {"shakeToUndo": True, "sensitivity": "medium", "standIn": True}


def preferences(daemon):
    return daemon.client().open(UNDO, namespaced=False).GetPreferences()["preferences"]


def set_preferences(daemon, **change):
    return daemon.client().open(UNDO, namespaced=False).SetPreferences(**change)["preferences"]


def status(daemon):
    return daemon.client().open(UNDO, namespaced=False).GetStatus()["status"]


def state_dir():
    path = tempfile.mkdtemp(prefix="shaked-state-")
    os.chmod(path, 0o755)
    return path


def stored(state):
    with open(os.path.join(state, "preferences.json")) as f:
        return json.load(f)["users"]


class PreferencesTest(unittest.TestCase):
    def test_defaults_then_a_change_in_force_and_written(self):
        with Daemon("--demo") as daemon:
            self.assertEqual(preferences(daemon), DEFAULTS)
            self.assertEqual(set_preferences(daemon, shakeToUndo=False),
                             {"shakeToUndo": False, "sensitivity": "medium", "standIn": True})
            self.assertEqual(set_preferences(daemon, sensitivity="low"),
                             {"shakeToUndo": False, "sensitivity": "low", "standIn": True})
            uid = str(os.geteuid())
            self.assertEqual(stored(daemon.state), {uid: {"shakeToUndo": False, "sensitivity": "low"}},
                             "apps that don't take part: on, the default, is not written")
            self.assertEqual(set_preferences(daemon, standIn=False),
                             {"shakeToUndo": False, "sensitivity": "low", "standIn": False})
            self.assertEqual(stored(daemon.state), {uid: {"shakeToUndo": False, "sensitivity": "low", "standIn": False}})
            self.assertEqual(sorted(os.listdir(daemon.state)), ["preferences.json"], "no temporary file left")

    def test_a_bad_sensitivity_is_refused_by_name(self):
        with Daemon("--demo") as daemon:
            for bad in ("extreme", "LOW", "", "low\n"):
                with self.subTest(bad):
                    reply = Raw(daemon).call(UNDO + ".SetPreferences", {"sensitivity": bad})
                    self.assertEqual(reply.get("error"), "org.varlink.service.InvalidParameter", reply)
                    self.assertEqual(reply["parameters"]["parameter"], "sensitivity")
            self.assertEqual(preferences(daemon), DEFAULTS)

    def test_survives_a_restart_and_a_crash(self):
        state = state_dir()
        with Daemon("--demo", state=state) as daemon:
            set_preferences(daemon, shakeToUndo=False, sensitivity="high")
        with Daemon("--demo", state=state) as daemon:
            self.assertEqual(preferences(daemon), {"shakeToUndo": False, "sensitivity": "high", "standIn": True},
                             "after SIGTERM")
            set_preferences(daemon, shakeToUndo=True)
            daemon.process.send_signal(signal.SIGKILL)  # a crash right after the reply
            daemon.process.wait()
        with Daemon("--demo", state=state) as daemon:
            self.assertEqual(preferences(daemon), {"shakeToUndo": True, "sensitivity": "high", "standIn": True},
                             "after SIGKILL")

    def test_a_corrupt_file_gives_the_defaults_and_is_kept_aside(self):
        state = state_dir()
        garbage = '{"version": 1, "users": {"0": {"shakeToUndo": "maybe"'
        with open(os.path.join(state, "preferences.json"), "w") as f:
            f.write(garbage)
        with Daemon("--demo", state=state) as daemon:
            self.assertEqual(preferences(daemon), DEFAULTS)
            log = daemon.output()
            self.assertIn("preferences file unusable", log)
            self.assertIn(os.path.join(state, "preferences.json"), log)
            aside = [n for n in os.listdir(state) if n.startswith("preferences.json.corrupt-")]
            self.assertEqual(len(aside), 1, os.listdir(state))
            with open(os.path.join(state, aside[0])) as f:
                self.assertEqual(f.read(), garbage, "set aside unchanged")
            set_preferences(daemon, shakeToUndo=False)
            self.assertEqual(stored(state), {str(os.geteuid()): {"shakeToUndo": False}})
            self.assertTrue(os.path.exists(os.path.join(state, aside[0])), "the bad copy is still there")

    def test_not_saved_is_said_and_the_change_still_applies(self):
        with Daemon("--demo", state="/proc/shaked-no-such-state") as daemon:
            reply = Raw(daemon).call(UNDO + ".SetPreferences", {"shakeToUndo": False})
            self.assertEqual(reply.get("error"), "io.shaked.Undo.NotSaved", reply)
            self.assertIn("/proc/shaked-no-such-state", reply["parameters"]["reason"])
            self.assertFalse(preferences(daemon)["shakeToUndo"], "in force until the daemon stops")

    def test_no_samples_are_read_while_the_switch_is_off(self):
        with Daemon("--demo") as daemon:
            set_preferences(daemon, shakeToUndo=False)
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            time.sleep(0.3)
            before = status(daemon)
            self.assertFalse(before["sensorActive"])
            daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
            time.sleep(1.5)
            after = status(daemon)
            self.assertEqual(after["samplesRead"], before["samplesRead"], "not one sample read")
            self.assertNotIn("lastShakeAgo", after, "no shake recognized")
            # Other ways to undo stay: a request still reaches the app.
            intent = Raw(daemon).call(UNDO + ".RequestIntent")["parameters"]["intent"]
            self.assertEqual(app.next_event()["intent"], intent)
            app.close()
            # Switched on, the sensor runs again for the app in context.
            set_preferences(daemon, shakeToUndo=True)
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            deadline = time.monotonic() + 5
            while status(daemon)["samplesRead"] == after["samplesRead"] and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertTrue(status(daemon)["sensorActive"])
            self.assertGreater(status(daemon)["samplesRead"], after["samplesRead"])
            app.close()


@needs_root
class OtherUsersTest(unittest.TestCase):
    def test_two_users_each_have_their_own(self):
        with Daemon("--demo") as daemon:
            set_preferences(daemon, shakeToUndo=False, sensitivity="low")

            def nobody():  # raw calls: the child may not read modules not yet loaded
                raw = Raw(daemon)
                seen = raw.call(UNDO + ".GetPreferences")["parameters"]["preferences"]
                changed = raw.call(UNDO + ".SetPreferences", {"sensitivity": "high"})["parameters"]["preferences"]
                return json.dumps([seen, changed])

            seen, changed = json.loads(run_as(NOBODY, nobody))
            self.assertEqual(seen, DEFAULTS, "root's switch is not nobody's")
            self.assertEqual(changed, {"shakeToUndo": True, "sensitivity": "high", "standIn": True})
            self.assertEqual(preferences(daemon), {"shakeToUndo": False, "sensitivity": "low", "standIn": True},
                             "root's unchanged")
            self.assertEqual(stored(daemon.state), {
                "0": {"shakeToUndo": False, "sensitivity": "low"},
                str(NOBODY): {"shakeToUndo": True, "sensitivity": "high"}})

    def test_another_users_entry_cannot_be_named(self):
        with Daemon("--demo") as daemon:
            set_preferences(daemon, shakeToUndo=False)

            def forge():
                reply = Raw(daemon).call(UNDO + ".SetPreferences", {"uid": 0, "shakeToUndo": True})
                return json.dumps(reply)

            reply = json.loads(run_as(NOBODY, forge))
            self.assertNotIn("error", reply)
            self.assertFalse(preferences(daemon)["shakeToUndo"], "a uid field is ignored: it acted on nobody")
            self.assertEqual(stored(daemon.state)["0"], {"shakeToUndo": False})

    def test_the_context_users_switch_decides(self):
        # root has it off; nobody's app in context keeps it on, so the sensor runs for nobody only.
        with Daemon("--demo") as daemon:
            set_preferences(daemon, shakeToUndo=False)
            root_app = App(daemon, app="org.example.Root")
            root_app.context(focused=True, undo="Typing")
            time.sleep(0.3)
            self.assertFalse(status(daemon)["sensorActive"])

            def nobody_in_front():  # raw calls: the child may not read modules not yet loaded
                stream, calls = Raw(daemon), Raw(daemon)
                token = stream.call(UNDO + ".Subscribe", {"app": "org.example.Nobody", "name": "Nobody"},
                                    more=True)["parameters"]["token"]
                calls.call(UNDO + ".SetContext", {"token": token, "focused": True, "undo": "Typing"})
                deadline = time.monotonic() + 5
                active = False
                while not active and time.monotonic() < deadline:
                    time.sleep(0.05)
                    active = calls.call(UNDO + ".GetStatus")["parameters"]["status"]["sensorActive"]
                return json.dumps(active)

            self.assertTrue(json.loads(run_as(NOBODY, nobody_in_front)))
            root_app.close()


if __name__ == "__main__":
    unittest.main()
