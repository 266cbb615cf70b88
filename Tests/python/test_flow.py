"""The whole flow through the Python varlink package, a third-party client, against the real daemon."""

import json
import os
import socket
import subprocess
import sys
import unittest

from shaked_harness.daemon import SHAKED, TRACES, UNDO, App, Daemon, error_of, prompt

socket.setdefaulttimeout(20)


class ReplayFlowTest(unittest.TestCase):
    def test_a_replayed_shake_becomes_a_confirmed_undo(self):
        trace = os.path.join(TRACES, "qt_shake_left.csv")
        with Daemon("--replay", trace) as daemon:
            app = App(daemon)
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                idle = tool.GetStatus()["status"]
                self.assertFalse(idle["sensorActive"], "no context yet: the sensor is off")
                self.assertEqual(idle["samplesRead"], 0, "no context yet: nothing read")
                monitor_con = client.open(UNDO, namespaced=False)
                monitor = monitor_con.Monitor(_more=True)
                self.assertEqual(next(monitor)["event"]["kind"], "started")
                app.context(focused=True, undo="Typing")
                intent = app.next_event()
                self.assertEqual(intent["kind"], "intent")
                self.assertEqual(intent["operation"], "undo")
                self.assertEqual(intent["actionName"], "Typing")
                # The shake begins, and is answered when the hand stops: the monitor hears both, in order.
                began = next(monitor)["event"]
                self.assertEqual(began["kind"], "began")
                self.assertGreaterEqual(began["reversals"], 3)
                shake = next(monitor)["event"]
                self.assertEqual(shake["kind"], "shake")
                self.assertGreaterEqual(shake["reversals"], began["reversals"])
                self.assertGreater(shake["time"], began["time"])

                app.calls.AnswerIntent(token=app.token, intent=intent["intent"], prompt=prompt("Undo Typing"))
                status = tool.GetStatus()["status"]
                self.assertEqual(status["openIntent"], intent["intent"])
                self.assertEqual(status["currentApp"], "org.example.Notes")
                self.assertTrue(status["sensorActive"])
                self.assertGreater(status["samplesRead"], 10)
                app.calls.Choose(token=app.token, intent=intent["intent"], choice="undo")
                perform = app.next_event()
                self.assertEqual((perform["kind"], perform["operation"]), ("perform", "undo"))
                self.assertEqual(perform["intent"], intent["intent"])
                app.calls.ReportResult(token=app.token, intent=intent["intent"], summary="Removed line 3")
                self.assertEqual(next(monitor)["event"]["outcome"], "performed")
                self.assertNotIn("openIntent", tool.GetStatus()["status"])
                monitor_con.close()
            app.close()
            self.assertTrue(daemon.alive())


    def test_a_near_miss_reaches_a_monitor_with_the_rule_that_stopped_it(self):
        # A walking wrist with shakes spliced in: some of its chains come close to a shake and are
        # stopped by one rule. The daemon tells a monitor so, with the rule that shakectl names for
        # the same trace, so a person whose shake was missed can see why.
        trace = os.path.join(TRACES, "spliced_dev_03_pebble_walk_100_heather_1.csv")
        shakectl = os.path.join(os.path.dirname(SHAKED), "shakectl")
        phases = subprocess.run([shakectl, "detect", trace, "--phases", "--format", "json"], capture_output=True,
                                text=True, timeout=120)
        self.assertEqual(phases.returncode, 0, phases.stderr)
        reasons = [o.get("reason") for o in map(json.loads, phases.stdout.splitlines()) if o["phase"] == "nearMiss"]
        self.assertTrue(reasons, "shakectl detect --phases finds no near miss in " + trace)
        with Daemon("--replay", trace) as daemon:
            app = App(daemon)
            with daemon.client() as client, client.open(UNDO, namespaced=False) as monitor_con:
                monitor = monitor_con.Monitor(_more=True)
                self.assertEqual(next(monitor)["event"]["kind"], "started")
                app.context(focused=True, undo="Typing")
                kinds = []
                for reply in monitor:
                    event = reply["event"]
                    kinds.append(event["kind"])
                    if event["kind"] == "nearMiss":
                        break
                    self.assertLess(len(kinds), 200, "no near miss among " + ", ".join(kinds))
                self.assertEqual(event["reason"], reasons[0])
                self.assertGreaterEqual(event["reversals"], 2)
            app.close()
            self.assertTrue(daemon.alive())


class ToolsTest(unittest.TestCase):
    def run_cli(self, *args):
        result = subprocess.run([sys.executable, "-m", "varlink.cli", *args], capture_output=True, text=True,
                                timeout=30)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr.strip(), "")
        return result.stdout

    def test_varlink_cli_info_and_help(self):
        with Daemon("--replay", os.path.join(TRACES, "qt_shake_left.csv")) as daemon:
            info = self.run_cli("info", daemon.address)
            self.assertIn("io.shaked.Undo", info)
            self.assertIn("org.varlink.service", info)
            self.assertNotIn("io.shaked.Demo", info, "the demo interface is served only with --demo")
            help_text = self.run_cli("help", daemon.address + "/io.shaked.Undo")
            for method in ("Subscribe", "SetContext", "AnswerIntent", "Choose", "ReportResult", "RequestIntent",
                           "GetStatus", "Monitor", "RegisterAgent"):
                self.assertIn("method " + method, help_text)
            self.assertIn("error PromptRejected", help_text)

    def test_served_description_is_the_interface_file(self):
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            "Sources", "UndoProtocol", "io.shaked.Undo.varlink")
        with open(path) as f:
            text = f.read()
        with Daemon("--replay", os.path.join(TRACES, "qt_shake_left.csv")) as daemon:
            with daemon.client() as client, client.open("org.varlink.service", namespaced=False) as service:
                served = service.GetInterfaceDescription(interface="io.shaked.Undo")["description"]
                self.assertEqual(served.strip(), text.strip())
                name, params = error_of(lambda: service.GetInterfaceDescription(interface="io.example.Nope"))
                self.assertEqual(name, "org.varlink.service.InterfaceNotFound")


class PromptRulesTest(unittest.TestCase):
    """The bad-prompt table: each broken guideline is refused with its rule named."""

    BAD = [
        ("title-prefix", prompt("Revert Typing")),
        ("title-prefix", prompt("Redo Typing")),
        ("title-words", prompt("Undo Typing of Text")),
        ("title-capitalization", prompt("Undo typing")),
        ("title-punctuation", prompt("Undo Typing?")),
        ("title-length", prompt("Undo " + "Supercalifragilistic" * 2)),
        ("message-sentences", prompt(message="your typing will go")),
        ("message-length", prompt(message="This removes what you typed. " * 6)),
        ("cancel-missing", prompt(actions=[("undo", "Undo")])),
        ("cancel-label", prompt(actions=[("cancel", "Dismiss"), ("undo", "Undo")])),
        ("cancel-position", prompt(actions=[("undo", "Undo"), ("cancel", "Cancel")])),
        ("button-count", prompt(actions=[("cancel", "Cancel"), ("undo", "Undo"), ("undo", "Undo Again")])),
        ("yes-no-label", prompt(actions=[("cancel", "Cancel"), ("undo", "Yes")])),
        ("destructive-default", prompt(actions=[("cancel", "Cancel"), ("undo", "Undo", True, True)])),
        ("operation-missing", prompt(actions=[("cancel", "Cancel"), ("redo", "Redo")])),
    ]

    def test_each_broken_rule_is_named(self):
        with Daemon("--replay", os.path.join(TRACES, "qt_shake_left.csv")) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing", redo="Bold")
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                requested = tool.RequestIntent(operation="undo")
            intent = app.next_event()["intent"]
            self.assertEqual(requested["intent"], intent)
            for rule, bad in self.BAD:
                with self.subTest(rule=rule):
                    name, params = error_of(
                        lambda: app.calls.AnswerIntent(token=app.token, intent=intent, prompt=bad))
                    self.assertEqual(name, "io.shaked.Undo.PromptRejected")
                    self.assertEqual(params["rule"], rule, params)
                    self.assertTrue(params["detail"])
            # A good one (three buttons: both undo and redo offered; Korean works too) is taken.
            good = prompt("Undo Typing", actions=[("cancel", "Cancel"), ("undo", "Undo"), ("redo", "Redo")],
                          message="The text you typed will be removed.")
            app.calls.AnswerIntent(token=app.token, intent=intent, prompt=good)
            app.close()

    def test_korean_prompt(self):
        with Daemon("--replay", os.path.join(TRACES, "qt_shake_left.csv")) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="입력")
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                tool.RequestIntent()
            intent = app.next_event()["intent"]
            name, params = error_of(lambda: app.calls.AnswerIntent(
                token=app.token, intent=intent, prompt=prompt("실행 취소 입력", [("cancel", "Cancel"), ("undo", "실행 취소")])))
            self.assertEqual(params["rule"], "cancel-label")
            app.calls.AnswerIntent(token=app.token, intent=intent,
                                   prompt=prompt("실행 취소 입력", [("cancel", "취소"), ("undo", "실행 취소")]))
            app.close()


if __name__ == "__main__":
    unittest.main()
