"""What cancels an open prompt: focus loss, disconnect, timeout, another app taking the context."""

import os
import socket
import time
import unittest

from shaked_harness.daemon import TRACES, UNDO, App, Daemon, prompt

socket.setdefaulttimeout(20)
TRACE = os.path.join(TRACES, "qt_shake_left.csv")


class CancellationTest(unittest.TestCase):
    expect_agent = False

    def open_prompt(self, daemon, app):
        with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
            intent = tool.RequestIntent()["intent"]
        self.assertEqual(app.next_event()["intent"], intent)
        answered = app.calls.AnswerIntent(token=app.token, intent=intent, prompt=prompt())
        self.assertEqual(answered["agent"], self.expect_agent)
        return intent

    def status(self, daemon):
        with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
            return tool.GetStatus()["status"]

    def test_focus_loss(self):
        with Daemon("--replay", TRACE) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            intent = self.open_prompt(daemon, app)
            app.context(focused=False, undo="Typing")
            event = app.next_event()
            self.assertEqual((event["kind"], event["reason"], event["intent"]), ("cancelled", "focusLost", intent))
            self.assertNotIn("openIntent", self.status(daemon))
            app.close()

    def test_another_app_takes_the_context(self):
        with Daemon("--replay", TRACE) as daemon:
            notes, mail = App(daemon, "org.example.Notes", "Notes"), App(daemon, "org.example.Mail", "Mail")
            notes.context(focused=True, undo="Typing")
            self.open_prompt(daemon, notes)
            mail.context(focused=True, undo="Delete Message")
            event = notes.next_event()
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "contextChanged"))
            self.assertEqual(self.status(daemon)["currentApp"], "org.example.Mail")
            notes.close()
            mail.close()

    def test_disconnect(self):
        with Daemon("--replay", TRACE) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            with daemon.client() as client, client.open(UNDO, namespaced=False) as watcher:
                monitor = watcher.Monitor(_more=True)
                self.assertEqual(next(monitor)["event"]["kind"], "started")
                self.open_prompt(daemon, app)
                app.close()
                self.assertEqual(next(monitor)["event"]["outcome"], "cancelled")
            status = self.status(daemon)
            self.assertNotIn("openIntent", status)
            self.assertEqual(status["subscribers"], 0)

    def test_timeout(self):
        with Daemon("--replay", TRACE, "--prompt-timeout", "1") as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            started = time.monotonic()
            self.open_prompt(daemon, app)
            event = app.next_event()
            waited = time.monotonic() - started
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "timeout"))
            self.assertGreaterEqual(waited, 0.9)
            app.close()

    def test_shutdown_tells_the_app(self):
        daemon = Daemon("--replay", TRACE)
        with daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            self.open_prompt(daemon, app)
            daemon.process.terminate()
            event = app.next_event()
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "shuttingDown"))
            self.assertEqual(daemon.process.wait(timeout=5), 0)
            self.assertFalse(os.path.exists(daemon.socket), "the socket file is removed")
            app.close()


class AgentTest(unittest.TestCase):
    expect_agent = True

    def test_prompts_go_to_the_agent(self):
        with Daemon("--replay", TRACE) as daemon:
            with daemon.client() as client, client.open(UNDO, namespaced=False) as agent_con:
                agent = agent_con.RegisterAgent(name="shell", _more=True)
                agent_token = next(agent)["token"]
                app = App(daemon)
                app.context(focused=True, undo="Typing")
                intent = CancellationTest.open_prompt(self, daemon, app)
                shown = next(agent)["prompt"]
                self.assertEqual((shown["intent"], shown["appName"], shown["prompt"]["title"]),
                                 (intent, "Notes", "Undo Typing"))
                with client.open(UNDO, namespaced=False) as calls:
                    calls.Choose(token=agent_token, intent=intent, choice="undo")
                self.assertEqual(app.next_event()["kind"], "perform")
                app.calls.ReportResult(token=app.token, intent=intent, summary="Removed line 2")
                self.assertEqual(next(agent)["summary"], "Removed line 2")
                app.close()


if __name__ == "__main__":
    unittest.main()
