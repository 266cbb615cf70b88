"""Hostile local clients: field rules, limits per user, who may hold the context, what status
shows to whom, log forging, and the daemon's start-up and shutdown edges."""

import json
import os
import signal
import socket
import struct
import subprocess
import tempfile
import time
import unittest

from shaked_harness.daemon import SHAKED, TRACES, UNDO, App, Daemon, Raw, needs_root, prompt, run_as, write_config

socket.setdefaulttimeout(20)
TRACE = os.path.join(TRACES, "qt_shake_left.csv")
NOBODY = 65534
TOKEN = "0" * 32

# (what, method, parameters, the field InvalidParameter must name)
FIELDS = [
    ("app id not reverse-DNS", "Subscribe", {"app": "notes", "name": "Notes"}, "app"),
    ("app id with a space", "Subscribe", {"app": "org.example.My Notes", "name": "Notes"}, "app"),
    ("app id of 300 bytes", "Subscribe", {"app": "org." + "a" * 296, "name": "Notes"}, "app"),
    ("name with NUL", "Subscribe", {"app": "org.example.Notes", "name": "No\u0000tes"}, "name"),
    ("name with CR and a forged record", "Subscribe", {"app": "org.example.Notes", "name": "x\r\n<0>forged"},
     "name"),
    ("name with ESC", "Subscribe", {"app": "org.example.Notes", "name": "\u001b[2JNotes"}, "name"),
    ("name with right-to-left override", "Subscribe", {"app": "org.example.Notes", "name": "Notes\u202etxt.exe"},
     "name"),
    ("name of 60 KB", "Subscribe", {"app": "org.example.Notes", "name": "N" * 60000}, "name"),
    ("name only spaces", "Subscribe", {"app": "org.example.Notes", "name": "   "}, "name"),
    ("undo name with bidi isolate", "SetContext", {"token": TOKEN, "focused": True, "undo": "Typ\u2066ing"}, "undo"),
    ("redo name of 33 characters", "SetContext", {"token": TOKEN, "focused": True, "redo": "R" * 33}, "redo"),
    ("summary of 121 characters", "ReportResult", {"token": TOKEN, "intent": "intent-1", "summary": "s" * 121},
     "summary"),
    ("intent not an intent id", "Choose", {"token": TOKEN, "intent": "../../etc", "choice": "undo"}, "intent"),
    ("title with a line feed", "AnswerIntent",
     {"token": TOKEN, "intent": "intent-1", "prompt": prompt(title="Undo\nTyping")}, "prompt.title"),
    ("message with DEL", "AnswerIntent",
     {"token": TOKEN, "intent": "intent-1", "prompt": prompt(message="Gone.\u007f")}, "prompt.message"),
    ("label with a left-to-right mark", "AnswerIntent",
     {"token": TOKEN, "intent": "intent-1", "prompt": prompt(actions=[("cancel", "Cancel"), ("undo", "Undo\u200e")])},
     "prompt.actions.label"),
    ("nine actions", "AnswerIntent",
     {"token": TOKEN, "intent": "intent-1", "prompt": prompt(actions=[("cancel", "Cancel")] * 9)},
     "prompt.actions"),
    ("agent name with C1 control", "RegisterAgent", {"name": "shell\u0085"}, "name"),
]


class FieldRulesTest(unittest.TestCase):
    def test_each_broken_field_is_named_and_nothing_raw_reaches_the_log(self):
        with Daemon("--replay", TRACE) as daemon:
            raw = Raw(daemon)
            for what, method, parameters, field in FIELDS:
                with self.subTest(what):
                    streams = method in ("Subscribe", "RegisterAgent")
                    reply = raw.call(UNDO + "." + method, parameters, **({"more": True} if streams else {}))
                    self.assertEqual(reply.get("error"), "org.varlink.service.InvalidParameter", reply)
                    self.assertEqual(reply["parameters"]["parameter"], field)
                    time.sleep(0.03)  # stay under the call rate
            self.assertTrue(daemon.alive())
            log = daemon.output()
            for bad in ("\x00", "\r", "\x1b", "\u202e", "\u2066", "<0>forged", "N" * 100):
                self.assertNotIn(bad, log)

    def test_a_button_must_say_what_it_does(self):
        with Daemon("--replay", TRACE) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            intent = raw_request(daemon)
            self.assertEqual(app.next_event()["kind"], "intent")
            reply = Raw(daemon).call(UNDO + ".AnswerIntent", {
                "token": app.token, "intent": intent,
                "prompt": prompt(actions=[("cancel", "Cancel"), ("undo", "Delete All")])})
            self.assertEqual(reply.get("error"), "io.shaked.Undo.PromptRejected")
            self.assertEqual(reply["parameters"]["rule"], "action-label")
            # "Undo Typing" on the button is fine.
            app.calls.AnswerIntent(token=app.token, intent=intent,
                                   prompt=prompt(actions=[("cancel", "Cancel"), ("undo", "Undo Typing")]))
            app.close()


def raw_request(daemon):
    reply = Raw(daemon).call(UNDO + ".RequestIntent")
    assert "error" not in reply, reply
    return reply["parameters"]["intent"]


SMALL_LIMITS = """
[Limits]
Connections=8
ConnectionsPerUser=5
Subscriptions=6
SubscriptionsPerUser=3
SubscriptionsPerConnection=2
CallsPerSecond=1000
CallsPerSecondPerUser=30
IdleTimeout=1
"""


def subscribe(raw, app="org.example.Notes"):
    reply = raw.call(UNDO + ".Subscribe", {"app": app, "name": "Notes"}, more=True)
    return reply.get("parameters", {}).get("limit") or reply.get("error") or "ok"


class LimitsPerUserTest(unittest.TestCase):
    def test_subscriptions_per_connection(self):
        with Daemon("--replay", TRACE, "--config", write_config(SMALL_LIMITS)) as daemon:
            raw = Raw(daemon)
            self.assertEqual([subscribe(raw) for _ in range(3)], ["ok", "ok", "subscriptions-per-connection"])

    @needs_root
    def test_one_user_cannot_take_every_subscription_or_connection(self):
        with Daemon("--replay", TRACE, "--config", write_config(SMALL_LIMITS)) as daemon:
            def hog():
                conns = [Raw(daemon) for _ in range(5)]
                subs = [subscribe(c) for c in conns[:2]] + [subscribe(conns[2]), subscribe(conns[2])]
                # A sixth connection is refused on connect with the per-user limit.
                return json.dumps([subs, Raw(daemon).reply()["parameters"]["limit"]])
            result = run_as(NOBODY, hog)
            self.assertTrue(result.startswith("["), result)
            subs, refused = json.loads(result)
            self.assertEqual(subs, ["ok", "ok", "ok", "subscriptions-per-user"])
            self.assertEqual(refused, "connections-per-user")
            # Root, another user, still subscribes while nobody's are held open in another process.
            self.assertEqual(subscribe(Raw(daemon)), "ok")

    @needs_root
    def test_total_connections(self):
        config = write_config(SMALL_LIMITS.replace("IdleTimeout=1", "IdleTimeout=60"))
        with Daemon("--replay", TRACE, "--config", config) as daemon:
            held = [Raw(daemon) for _ in range(5)]
            for r in held:
                self.assertIn("parameters", r.call(UNDO + ".GetStatus"))
            time.sleep(0.5)  # the harness's probe connection is closed and uncounted by now

            def three_more():
                results, conns = [], [Raw(daemon) for _ in range(3)]
                for c in conns:  # five of root's and these three make the total of eight
                    results.append((c.call(UNDO + ".GetStatus").get("parameters") or {}).get("limit", "ok"))
                conns.append(Raw(daemon))
                results.append(conns[-1].reply()["parameters"]["limit"])
                return json.dumps(results)
            result = run_as(NOBODY, three_more)
            self.assertEqual(json.loads(result) if result.startswith("[") else result,
                             ["ok", "ok", "ok", "connections"])

    def test_call_rate_per_user_over_many_connections(self):
        with Daemon("--replay", TRACE, "--config", write_config(SMALL_LIMITS)) as daemon:
            conns = [Raw(daemon) for _ in range(4)]
            for c in conns:
                c.send(b'{"method": "io.shaked.Undo.GetStatus"}\0' * 20)
            replies = [c.reply() for c in conns for _ in range(20)]
            limited = [r for r in replies if (r.get("parameters") or {}).get("limit") == "call-rate-per-user"]
            self.assertGreater(len(limited), 0, "80 calls in a burst from one user with a rate of 30 a second")
            self.assertLessEqual(len(replies) - len(limited), 40)

    def test_idle_connections_are_closed_but_working_ones_stay(self):
        with Daemon("--replay", TRACE, "--config", write_config(SMALL_LIMITS)) as daemon:
            idle = Raw(daemon)
            idle.send(b'{"method": "io.shaked.Undo.GetStatus"')  # never completed
            busy = Raw(daemon)
            self.assertIn("parameters", busy.call(UNDO + ".GetStatus"))
            time.sleep(1.6)
            self.assertIsNone(idle.reply(), "an idle connection is closed after idle-timeout")
            self.assertIn("parameters", busy.call(UNDO + ".GetStatus"))

    def test_reload_applies_limits(self):
        config = write_config(SMALL_LIMITS)
        with Daemon("--replay", TRACE, "--config", config) as daemon:
            raw = Raw(daemon)
            self.assertEqual([subscribe(raw) for _ in range(3)], ["ok", "ok", "subscriptions-per-connection"])
            with open(config, "w") as f:
                f.write(SMALL_LIMITS.replace("SubscriptionsPerConnection=2", "SubscriptionsPerConnection=1"))
            daemon.process.send_signal(signal.SIGHUP)
            wait_for(lambda: "configuration reloaded" in daemon.output())
            fresh = Raw(daemon)
            self.assertEqual([subscribe(fresh) for _ in range(2)], ["ok", "subscriptions-per-connection"])


def wait_for(predicate, seconds=10):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


@needs_root
class PrivacyTest(unittest.TestCase):
    CONFIG = '[Access]\nRequestUsers=*\nMonitorGroups=root\n'

    def test_status_and_request_hide_another_users_app(self):
        with Daemon("--replay", TRACE, "--config", write_config(self.CONFIG)) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")

            def look():
                status = Raw(daemon).call(UNDO + ".GetStatus")["parameters"]["status"]
                request = Raw(daemon).call(UNDO + ".RequestIntent")["parameters"]
                return json.dumps([status.get("currentApp"), status.get("openIntent"), request.get("app"),
                                   request["intent"]])
            current, open_intent, named, intent = json.loads(run_as(NOBODY, look))
            self.assertEqual((current, open_intent, named), (None, None, None))
            # Root may monitor, and the intent went to root's app: both see it.
            status = Raw(daemon).call(UNDO + ".GetStatus")["parameters"]["status"]
            self.assertEqual((status["currentApp"], status["openIntent"]), ("org.example.Notes", intent))
            app.close()


@needs_root
class ContextHolderTest(unittest.TestCase):
    def test_without_logind_the_configuration_decides(self):
        config = write_config('[Access]\nContextUsers=root\nRequestUsers=*\n')
        with Daemon("--replay", TRACE, "--config", config) as daemon:
            def focus_and_request():
                stream, calls = Raw(daemon), Raw(daemon)
                token = stream.call(UNDO + ".Subscribe", {"app": "org.example.Other", "name": "Other"},
                                    more=True)["parameters"]["token"]
                calls.call(UNDO + ".SetContext", {"token": token, "focused": True, "undo": "Typing"})
                return Raw(daemon).call(UNDO + ".RequestIntent").get("error")
            self.assertEqual(run_as(NOBODY, focus_and_request), "io.shaked.Undo.NoContext")
            root_app = App(daemon)
            root_app.context(focused=True, undo="Typing")
            self.assertNotIn("error", Raw(daemon).call(UNDO + ".RequestIntent"))
            root_app.close()

    def test_with_logind_only_the_seats_active_user(self):
        with FakeLogind(active_uid=NOBODY) as logind, \
                Daemon("--replay", TRACE, wrapper=logind.wrapper) as daemon:
            root_app = App(daemon)
            root_app.context(focused=True, undo="Typing")
            # Root's app is focused, but root is not the seat's user: no context.
            self.assertEqual(Raw(daemon).call(UNDO + ".RequestIntent").get("error"), "io.shaked.Undo.NoContext")

            # The seat passes to root (as logind would, rewriting its state file): root's app gets it.
            logind.set_active(daemon.process.pid, 0)
            wait_for(lambda: "error" not in Raw(daemon).call(UNDO + ".GetStatus")
                     and Raw(daemon).call(UNDO + ".GetStatus")["parameters"]["status"].get("currentApp"))
            intent = raw_request(daemon)
            self.assertEqual(root_app.next_event(), {"kind": "intent", "intent": intent, "operation": "undo",
                                                     "actionName": "Typing"})
            # And back to nobody: root's open prompt is cancelled, since root lost the seat.
            logind.set_active(daemon.process.pid, NOBODY)
            event = root_app.next_event()
            self.assertEqual((event["kind"], event["reason"]), ("cancelled", "contextChanged"))
            root_app.close()


class FakeLogind:
    """logind's state files in a private mount namespace (tmpfs over /run/systemd), so the daemon's
    real sd-login reads a seat whose active user the test chooses. Needs root (unshare)."""

    def __init__(self, active_uid):
        self.active_uid = active_uid

    def __enter__(self):
        self.wrapper = (
            "mount -t tmpfs tmpfs /run/systemd && "
            "mkdir -p /run/systemd/system /run/systemd/seats /run/systemd/users /run/systemd/sessions && "
            "printf 'ACTIVE=c1\\nACTIVE_UID=%d\\n' > /run/systemd/seats/seat0 && "
            "printf 'STATE=active\\n' > /run/systemd/users/%d && "
            "printf 'STATE=active\\n' > /run/systemd/users/0 && exec \"$@\"" % (self.active_uid, self.active_uid))
        self.wrapper = "exec unshare --mount --propagation private sh -c '%s' sh \"$@\"" % self.wrapper.replace(
            "'", "'\"'\"'")
        return self

    def set_active(self, pid, uid):
        """Rewrites seat0 in the daemon's namespace (through /proc/PID/root), atomically as logind does."""
        root = "/proc/%d/root/run/systemd" % pid
        with open(root + "/users/%d" % uid, "w") as f:
            f.write("STATE=active\n")
        with open(root + "/seats/.seat0", "w") as f:
            f.write("ACTIVE=c2\nACTIVE_UID=%d\n" % uid)
        os.rename(root + "/seats/.seat0", root + "/seats/seat0")

    def __exit__(self, *exc):
        pass


@needs_root
class JournalTest(unittest.TestCase):
    def test_client_text_goes_in_its_own_field_never_the_message(self):
        directory = tempfile.mkdtemp(prefix="shaked-journal-")
        path = os.path.join(directory, "socket")
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        receiver.bind(path)
        receiver.settimeout(0.5)
        # In a private mount namespace, the journal's socket is ours; stderr is "the journal's"
        # (JOURNAL_STREAM names it), so the daemon logs natively with sd_journal_sendv.
        inner = ("mkdir -p /run/systemd/journal && mount -t tmpfs tmpfs /run/systemd/journal && "
                 "touch /run/systemd/journal/socket && mount --bind %s /run/systemd/journal/socket && "
                 "JOURNAL_STREAM=$(stat -L -c %%d:%%i /proc/self/fd/2) exec \"$@\"" % path)
        wrapper = "exec unshare --mount --propagation private sh -c '%s' sh \"$@\"" % inner
        with Daemon("--replay", TRACE, wrapper=wrapper) as daemon:
            app = App(daemon, app="org.example.Notes", name="Notes \u00e9t\u00e9")
            app.context(focused=True, undo="Typing")
            app.close()
            records = []
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not any(r.get("MESSAGE") == "subscribed" for r in records):
                try:
                    records.append(parse_native(receiver.recv(65536)))
                except socket.timeout:
                    pass
        subscribed = [r for r in records if r.get("MESSAGE") == "subscribed"]
        self.assertTrue(subscribed, records)
        self.assertEqual(subscribed[0]["SHAKED_APP"], "org.example.Notes")
        self.assertEqual(subscribed[0]["PRIORITY"], "6")
        self.assertNotIn("org.example.Notes", subscribed[0]["MESSAGE"])
        self.assertNotIn("subscribed", daemon.output(), "records went to the journal, not to stderr")


def parse_native(data):
    """One datagram of the journal's native protocol: KEY=value lines, or KEY, a length and binary data."""
    fields = {}
    while data:
        newline = data.index(b"\n")
        line = data[:newline]
        if b"=" in line:
            key, value = line.split(b"=", 1)
            data = data[newline + 1:]
        else:
            key = line
            (size,) = struct.unpack("<Q", data[newline + 1:newline + 9])
            value = data[newline + 9:newline + 9 + size]
            data = data[newline + 9 + size + 1:]
        fields[key.decode()] = value.decode()
    return fields


class StartupTest(unittest.TestCase):
    def test_sighup_before_ready_does_not_kill(self):
        directory = tempfile.mkdtemp(prefix="shaked-hup-")
        notify_path = os.path.join(directory, "notify")
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        notify.setblocking(False)
        empty = os.path.join(directory, "empty.conf")
        open(empty, "w").close()
        process = subprocess.Popen(
            [SHAKED, "--config", empty, "--demo", "--socket", os.path.join(directory, "sock")],
            env=dict(os.environ, NOTIFY_SOCKET=notify_path), stderr=subprocess.DEVNULL)
        # Once main has started (SIGHUP shows as ignored in /proc), signal until READY=1.
        wait_for(lambda: sighup_ignored(process.pid))
        hups, ready = 0, False
        while not ready and process.poll() is None:
            process.send_signal(signal.SIGHUP)
            hups += 1
            try:
                ready = b"READY=1" in notify.recv(4096)
            except BlockingIOError:
                time.sleep(0.001)
        self.assertIsNone(process.poll(), "SIGHUP before READY killed the daemon")
        self.assertTrue(ready)
        self.assertGreater(hups, 0)
        process.terminate()
        process.wait(5)

    def test_no_ready_after_a_failed_bind(self):
        directory = tempfile.mkdtemp(prefix="shaked-bind-")
        notify_path = os.path.join(directory, "notify")
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        notify.settimeout(0.3)
        blocker = os.path.join(directory, "not-a-dir")
        open(blocker, "w").close()
        empty = os.path.join(directory, "empty.conf")
        open(empty, "w").close()
        result = subprocess.run(
            [SHAKED, "--config", empty, "--demo", "--socket", os.path.join(blocker, "sock")],
            env=dict(os.environ, NOTIFY_SOCKET=notify_path), capture_output=True, text=True, timeout=20)
        self.assertNotEqual(result.returncode, 0)
        messages = []
        try:
            while True:
                messages.append(notify.recv(4096))
        except socket.timeout:
            pass
        self.assertFalse(any(b"READY=1" in m for m in messages), messages)
        self.assertIn("not-a-dir", result.stderr)


def sighup_ignored(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            # Ignored from the start of main, then caught by the reload loop.
            if line.startswith("SigIgn:") or line.startswith("SigCgt:"):
                if int(line.split()[1], 16) & (1 << (signal.SIGHUP - 1)):
                    return True
    return False


class AgentRaceTest(unittest.TestCase):
    def test_an_agent_registering_while_the_app_draws_does_not_leave_its_prompt_hanging(self):
        with Daemon("--replay", TRACE) as daemon:
            app = App(daemon)
            app.context(focused=True, undo="Typing")
            intent = raw_request(daemon)
            app.next_event()
            self.assertEqual(app.calls.AnswerIntent(token=app.token, intent=intent, prompt=prompt()), {"agent": False})
            agent = Raw(daemon)
            self.assertIn("token", agent.call(UNDO + ".RegisterAgent", {"name": "shell"}, more=True)["parameters"])
            # The app drew the prompt, so the app's choice counts.
            app.calls.Choose(token=app.token, intent=intent, choice="undo")
            self.assertEqual(app.next_event()["kind"], "perform")
            app.close()


if __name__ == "__main__":
    unittest.main()
