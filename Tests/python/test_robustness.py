"""Bad input, limits and other users: each gets a varlink error, and the daemon keeps serving."""

import os
import socket
import tempfile
import time
import unittest

from shaked_harness.daemon import TRACES, UNDO, App, Daemon, Raw, error_of, needs_root, prompt, run_as

socket.setdefaulttimeout(20)
TRACE = os.path.join(TRACES, "qt_shake_left.csv")
NOBODY = 65534

BAD_INPUT = [
    # (what, bytes sent, expected error, expected parameter)
    ("truncated JSON", b'{"method": "io.shaked.Undo.GetStatus"', "org.varlink.service.InvalidParameter", "message"),
    ("not UTF-8", b'\xff\xfe{"method": "io.shaked.Undo.GetStatus"}', "org.varlink.service.InvalidParameter",
     "message"),
    ("not an object", b"[1, 2, 3]", "org.varlink.service.InvalidParameter", "message"),
    ("method not a string", b'{"method": 42}', "org.varlink.service.InvalidParameter", "message"),
    ("wrong type", b'{"method": "io.shaked.Undo.SetContext", "parameters": {"token": 5, "focused": true}}',
     "org.varlink.service.InvalidParameter", "token"),
    ("missing field", b'{"method": "io.shaked.Undo.Choose", "parameters": {"token": "t", "intent": "i"}}',
     "org.varlink.service.InvalidParameter", "choice"),
    ("bad enum", b'{"method": "io.shaked.Undo.RequestIntent", "parameters": {"operation": "delete"}}',
     "org.varlink.service.InvalidParameter", "operation"),
    ("unknown method", b'{"method": "io.shaked.Undo.Frobnicate"}', "org.varlink.service.MethodNotFound", None),
    ("unknown interface", b'{"method": "org.example.Thing.Do"}', "org.varlink.service.InterfaceNotFound", None),
    ("demo without --demo", b'{"method": "io.shaked.Demo.Shake"}', "org.varlink.service.InterfaceNotFound", None),
    ("stream without more", b'{"method": "io.shaked.Undo.Subscribe", "parameters": {"app": "a", "name": "A"}}',
     "org.varlink.service.ExpectedMore", None),
    ("call before Subscribe",
     b'{"method": "io.shaked.Undo.SetContext", "parameters": {"token": "' + b"0" * 32 + b'", "focused": true}}',
     "io.shaked.Undo.UnknownToken", None),
    ("answer before Subscribe",
     b'{"method": "io.shaked.Undo.AnswerIntent", "parameters": {"token": "' + b"0" * 32 + b'", "intent": "intent-1",'
     b' "prompt": {"title": "Undo Typing", "actions": []}}}', "io.shaked.Undo.UnknownToken", None),
    ("malformed token",
     b'{"method": "io.shaked.Undo.SetContext", "parameters": {"token": "nope", "focused": true}}',
     "org.varlink.service.InvalidParameter", "token"),
]


class BadInputTest(unittest.TestCase):
    def test_bad_input_gets_errors_while_another_clients_flow_completes(self):
        with Daemon("--replay", TRACE) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            stalled = Raw(daemon)
            stalled.send(b'{"method": "io.shaked.Undo.GetStatus"}')  # no NUL: the daemon must not wait on it
            raw = Raw(daemon)
            for what, data, error, parameter in BAD_INPUT:
                with self.subTest(what):
                    raw.send(data + b"\0")
                    reply = raw.reply()
                    self.assertIsNotNone(reply, "the daemon closed the connection")
                    self.assertEqual(reply.get("error"), error, reply)
                    if parameter:
                        self.assertEqual(reply["parameters"]["parameter"], parameter)
                    # The same connection still works.
                    self.assertIn("status", raw.call("io.shaked.Undo.GetStatus")["parameters"])

            big = Raw(daemon)
            try:
                big.send(b'{"method": "io.shaked.Undo.GetStatus", "parameters": {"x": "' + b"a" * (1 << 20) + b'"}}\0')
            except (BrokenPipeError, ConnectionResetError):
                pass  # the daemon stopped reading at 64 KiB and closed; its reply is already here
            reply = big.reply()
            self.assertEqual(reply["error"], "io.shaked.Undo.LimitReached")
            self.assertIn("message-size", reply["parameters"]["limit"])
            self.assertIsNone(big.reply(), "a 1 MiB message closes its connection")

            # Someone else's token.
            def steal(token):
                r = Raw(daemon)
                return r.call(UNDO + ".SetContext", {"token": token, "focused": False}).get("error")
            if os.geteuid() == 0:  # another user needs root to become (setuid)
                self.assertEqual(run_as(NOBODY, steal, app.token), "io.shaked.Undo.UnknownToken")

            # Meanwhile, the app's flow runs to the end.
            with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
                intent = tool.RequestIntent(operation="undo")["intent"]
            event = app.next_event()
            self.assertEqual(event["intent"], intent)
            app.calls.AnswerIntent(token=app.token, intent=intent, prompt=prompt())
            app.calls.Choose(token=app.token, intent=intent, choice="undo")
            self.assertEqual(app.next_event()["kind"], "perform")
            app.calls.ReportResult(token=app.token, intent=intent, summary="Removed line 1")
            stalled.close()
            raw.close()
            app.close()
            self.assertTrue(daemon.alive())


class LimitsTest(unittest.TestCase):
    @needs_root
    def test_connections_per_user(self):
        with Daemon("--replay", TRACE) as daemon:
            open_ = []
            for _ in range(32):
                r = Raw(daemon)
                self.assertIn("parameters", r.call("io.shaked.Undo.GetStatus"))
                open_.append(r)
            extra = Raw(daemon)
            reply = extra.reply()
            self.assertEqual(reply["error"], "io.shaked.Undo.LimitReached")
            self.assertEqual(reply["parameters"]["limit"], "connections-per-user")
            # Another user is not affected.
            def status():
                return Raw(daemon).call(UNDO + ".GetStatus")["parameters"]["status"]["subscribers"]
            self.assertEqual(run_as(NOBODY, status), "0")
            open_.pop().close()
            time.sleep(0.2)
            again = Raw(daemon)
            self.assertIn("parameters", again.call("io.shaked.Undo.GetStatus"))

    def test_call_rate(self):
        with Daemon("--replay", TRACE) as daemon:
            raw = Raw(daemon)
            raw.send(b'{"method": "io.shaked.Undo.GetStatus"}\0' * 200)
            replies = [raw.reply() for _ in range(200)]
            limited = [r for r in replies if r.get("error") == "io.shaked.Undo.LimitReached"]
            answered = [r for r in replies if "error" not in r]
            self.assertGreater(len(limited), 0)
            self.assertGreaterEqual(len(answered), 50)
            time.sleep(1.1)
            self.assertNotIn("error", raw.call("io.shaked.Undo.GetStatus"))


@needs_root
class PermissionTest(unittest.TestCase):
    def test_only_root_registers_an_agent_by_default(self):
        with Daemon("--replay", TRACE) as daemon:
            def register():
                reply = Raw(daemon).call(UNDO + ".RegisterAgent", {"name": "shell"}, more=True)
                return "%s %s" % (reply.get("error"), reply.get("parameters", {}).get("action"))
            self.assertEqual(run_as(NOBODY, register), "io.shaked.Undo.NotAllowed agent")

    def test_request_and_monitor_need_the_configured_group(self):
        config = os.path.join(tempfile.mkdtemp(prefix="shaked-conf-"), "shaked.conf")
        with open(config, "w") as f:
            f.write('[Access]\nRequestGroups=root\nMonitorGroups=root\n')
        with Daemon("--replay", TRACE, "--config", config) as daemon:
            def try_calls():
                request = Raw(daemon).call(UNDO + ".RequestIntent")
                monitor = Raw(daemon).call(UNDO + ".Monitor", more=True)
                status = Raw(daemon).call(UNDO + ".GetStatus")
                return "%s %s | %s %s | %s" % (
                    request.get("error"), request.get("parameters", {}).get("action"),
                    monitor.get("error"), monitor.get("parameters", {}).get("action"), "error" in status)
            self.assertEqual(run_as(NOBODY, try_calls),
                             "io.shaked.Undo.NotAllowed request | io.shaked.Undo.NotAllowed monitor | False")
            # Root, in the group, gets past the check (to NoContext: no app is in context).
            self.assertEqual(Raw(daemon).call(UNDO + ".RequestIntent").get("error"), "io.shaked.Undo.NoContext")


if __name__ == "__main__":
    unittest.main()
