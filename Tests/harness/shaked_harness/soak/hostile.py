"""The soak's hostile clients (scripts/soak), each kind a loop in a forked worker of its own user:

- Hog: takes every connection and subscription its user may have, declares its apps focused (it may
  not hold the context), churns at the limit, and floods calls over several connections, including
  calls it is not allowed to make.
- Junk: oversized messages, malformed JSON, fields that break their rules, connections that never
  complete a call, clients that never read or read slowly, GetStatus looking for other users' data,
  and other users' tokens (handed over by the conductor) used for every call that takes one.

Each reports counters to the conductor, and a "failure" for anything the daemon must never allow.
"""

import asyncio
import json
import random
import socket
import time

from shaked_harness.soak.clients import UNDO, Closed, Connection, Stats, error_name, prompt_for

TOKEN = "0" * 32
MALFORMED = {
    "truncated JSON": b'{"method": "io.shaked.Undo.GetStatus", "parameters": {\0',
    "not JSON": b"GET / HTTP/1.1\r\nHost: shaked\r\n\r\n\0",
    "not UTF-8": b'{"method": "io.shaked.Undo.GetStatus\xff\xfe"}\0',
    "method a number": b'{"method": 5}\0',
    "no method": b'{"parameters": {}}\0',
    "unknown method": b'{"method": "io.shaked.Undo.Format"}\0',
    "unknown interface": b'{"method": "org.example.Evil.Run"}\0',
    "array": b"[1, 2, 3]\0",
    "empty": b"\0",
    "deep nesting": b'{"method": "io.shaked.Undo.GetStatus", "parameters": ' + b"[" * 5000 + b"]" * 5000 + b"}\0",
    "wrong types": b'{"method": "io.shaked.Undo.SetContext", "parameters": {"token": 1, "focused": "yes"}}\0',
    "huge number": b'{"method": "io.shaked.Undo.SetContext", "parameters": {"token": "%s", "focused": 1e999999}}\0'
                   % (b"0" * 32),
    "upgrade": b'{"method": "io.shaked.Undo.GetStatus", "upgrade": true}\0',
    "streaming without more": b'{"method": "io.shaked.Undo.Subscribe", "parameters": {"app": "a.b", "name": "n"}}\0',
}
# (method, parameters, the field InvalidParameter must name); a sample of each rule.
BAD_FIELDS = [
    ("Subscribe", {"app": "notes", "name": "Notes"}, "app"),
    ("Subscribe", {"app": "org." + "a" * 300, "name": "Notes"}, "app"),
    ("Subscribe", {"app": "org.example.Notes", "name": "x\r\n<0>forged"}, "name"),
    ("Subscribe", {"app": "org.example.Notes", "name": "\u001b[2JNotes"}, "name"),
    ("Subscribe", {"app": "org.example.Notes", "name": "Notes\u202etxt.exe"}, "name"),
    ("Subscribe", {"app": "org.example.Notes", "name": "N" * 60000}, "name"),
    ("SetContext", {"token": TOKEN, "focused": True, "undo": "Typ\u2066ing"}, "undo"),
    ("SetContext", {"token": TOKEN, "focused": True, "redo": "R" * 33}, "redo"),
    ("ReportResult", {"token": TOKEN, "intent": "intent-1", "summary": "s\u0000" * 10}, "summary"),
    ("Choose", {"token": TOKEN, "intent": "../../etc", "choice": "undo"}, "intent"),
    ("AnswerIntent", {"token": TOKEN, "intent": "intent-1", "prompt": {**prompt_for("undo", "Typing"),
                                                                       "title": "Undo\nTyping"}}, "prompt.title"),
]


class HostileWorker:
    """Shared parts: the socket, the pipes, counters, and the call counts for the per-user rate check."""

    def __init__(self, number, uid, socket_path, channel, other_uids, options):
        self.number = number
        self.uid = uid
        self.socket = socket_path
        self.channel = channel
        self.other_uids = other_uids  # whether other users' clients run: their checks apply
        self.options = options
        self.stats = Stats()
        self.stopping = False
        self.first_call = None
        self.last_reply = None

    def fail(self, category, what):
        self.stats.add("failures")
        self.channel.report("failure", category=category, what="%s (hostile uid %d)" % (what, self.uid))

    def count(self, reply):
        """Counts a reply: admitted calls (all but those refused by the call rate), for the rate check."""
        self.last_reply = time.monotonic()
        name = error_name(reply)
        if name and name.startswith("LimitReached:call-rate"):
            self.stats.add("refused-" + name.split(":")[1])
        elif not (name and name.startswith("LimitReached:connections")):
            self.stats.add("admitted")
        return name

    async def main(self):
        # Every admitted call comes after this instant, and before the last reply: the window of the rate check.
        self.first_call = time.monotonic()
        tasks = [asyncio.ensure_future(self.guard(loop)) for loop in self.loops()]
        reporter = asyncio.ensure_future(self.report_stats())
        async for command in self.channel.commands():
            if command["cmd"] == "stop":
                break
            asyncio.ensure_future(self.handle(command))
        self.stopping = True
        reporter.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.sleep(0.2)
        self.send_stats(final=True)

    async def guard(self, loop):
        """Runs one attack loop; an exception in it is the soak's bug, reported, not the daemon's."""
        try:
            await loop
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - reported to the conductor
            self.channel.report("failure", category="soak", what="soak bug in hostile loop: %r" % e)

    async def report_stats(self):
        while True:
            await asyncio.sleep(3)
            self.send_stats()

    def send_stats(self, final=False):
        self.channel.report("stats", worker=self.number, uid=self.uid, connected=0, counts=dict(self.stats.counts),
                            errors=dict(self.stats.errors), final=final, hostile=True,
                            rate_window=(self.last_reply - self.first_call) if self.first_call else 0)

    async def handle(self, command):
        result = await getattr(self, "command_" + command["cmd"])(command)
        self.channel.report("reply", id=command["id"], **result)

    async def open(self, on_stream=None):
        return await Connection.open(self.socket, on_stream)


class Hog(HostileWorker):
    def loops(self):
        if self.options.get("hog_fill", True):
            yield self.hog()
        for i in range(self.options["flood_connections"]):
            yield self.flood(i)

    async def hog(self):
        """Holds every connection and subscription the per-user limits allow, and churns at the edge."""
        held = []
        await asyncio.sleep(1)
        while not self.stopping:
            while True:  # open until refused
                c = None
                try:
                    c = await self.open(self.on_event)
                    name = self.count(await c.call(UNDO + "GetStatus"))
                except (OSError, Closed, asyncio.TimeoutError):
                    # Refused before the call went out: the refusal came as a reply to nothing.
                    refusals = [r for r in (c.unsolicited if c else []) if "error" in r]
                    if not refusals:
                        self.stats.add("connect-failed")
                        await asyncio.sleep(0.5)
                        break
                    name = self.count(refusals[0])
                if name is None:
                    c.subscriptions = 0
                    held.append(c)
                    self.stats.counts["held-most"] = max(len(held), self.stats.counts["held-most"])
                    continue
                c.close()
                self.stats.errors[name] += 1
                if name.startswith("LimitReached:call-rate"):
                    await asyncio.sleep(0.2)
                    continue
                if name != "LimitReached:connections-per-user":
                    self.fail("limits", "connection refused with %s, not connections-per-user" % name)
                break
            self.stats.counts["held"] = len(held)
            self.stats.counts["held-most"] = max(len(held), self.stats.counts["held-most"])
            user_full = False
            for c in list(held):  # subscribe until refused, and claim the context on each
                if user_full:
                    break
                n = 0
                while n < 5:
                    n += 1
                    try:
                        reply = await c.call(UNDO + "Subscribe", {"app": "org.hog.App%d" % n, "name": "Hog"},
                                             more=True)
                        name = self.count(reply)
                        token = (reply.get("parameters") or {}).get("token")
                        if name is None and token:
                            c.subscriptions += 1
                            held_now = sum(h.subscriptions for h in held if not h.is_closed)
                            self.stats.counts["subscriptions-most"] = max(held_now,
                                                                          self.stats.counts["subscriptions-most"])
                            focus = await c.call(UNDO + "SetContext", {"token": token, "focused": True,
                                                                       "undo": "Typing"})
                            if self.count(focus) is None:
                                self.stats.add("focus-claims")
                            continue
                        if name is None:  # an event where a reply was due: this connection has a context
                            break
                    except (Closed, asyncio.TimeoutError):
                        self.stats.add("held-closed")
                        break
                    self.stats.errors["Subscribe " + name] += 1
                    if name.startswith("LimitReached:call-rate"):  # its own flood took the user's calls: again
                        n -= 1
                        await asyncio.sleep(0.05)
                        continue
                    if name == "LimitReached:subscriptions-per-user":
                        user_full = True
                    elif name != "LimitReached:subscriptions-per-connection":
                        self.fail("limits", "Subscribe refused with %s" % name)
                    break
            await asyncio.sleep(5)
            random.shuffle(held)
            for c in held[:20]:  # churn: give back a few, take them again
                c.close()
            held = [c for c in held[20:] if not c.is_closed]

    def on_event(self, reply, arrived):
        event = (reply.get("parameters") or {}).get("event")
        if event and event["kind"] == "intent" and self.other_uids:
            self.fail("intents", "an app of a user not allowed the context got intent %s" % event["intent"])

    async def flood(self, number):
        """Bursts of calls as fast as they are answered: mostly GetStatus, and calls this user may not make."""
        sneaky = [("io.shaked.Demo.Shake", None), (UNDO + "RequestIntent", {}), (UNDO + "Monitor", None),
                  (UNDO + "RegisterAgent", {"name": "Shell"})] if self.other_uids else []
        while not self.stopping:
            try:
                c = await self.open()
            except OSError:
                await asyncio.sleep(0.5)
                continue
            while not c.is_closed and not self.stopping:
                calls = [(UNDO + "GetStatus", None)] * self.options["flood_burst"] + sneaky
                futures = [c.send(m, p, more=m.endswith("Monitor") or m.endswith("RegisterAgent")) for m, p in calls]
                try:
                    replies = await asyncio.wait_for(asyncio.gather(*futures), 20)
                except (Closed, asyncio.TimeoutError):
                    self.stats.add("flood-closed")
                    await asyncio.sleep(0.5)
                    break
                for (method, _), (reply, _) in zip(calls, replies):
                    name = self.count(reply)
                    self.stats.add("flood-calls")
                    if method in dict(sneaky) and name is None:
                        self.fail("limits", "%s succeeded without the permission" % method)
                await asyncio.sleep(0.1)
            c.close()


class Junk(HostileWorker):
    def loops(self):
        yield self.repeat(self.oversized, 1.0)
        yield self.repeat(self.malformed, 0.3)
        yield self.repeat(self.bad_fields, 0.5)
        yield self.repeat(self.idle, 0.5)
        yield self.repeat(self.never_reader, 0.5)
        yield self.repeat(self.never_reader, 0.5)
        yield self.repeat(self.slow_reader, 0.5)
        yield self.repeat(self.privacy, 0.5)

    async def repeat(self, attack, pause):
        while not self.stopping:
            try:
                await attack()
            except (OSError, Closed, asyncio.TimeoutError) as e:
                self.stats.errors["%s %s" % (attack.__name__, type(e).__name__)] += 1
            await asyncio.sleep(pause)

    async def raw(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, self.socket)
        return sock

    async def read_all(self, sock, timeout, until_reply=False):
        """Everything the daemon sends until it closes, or `timeout` passes, or (with `until_reply`) a
        whole reply came; (bytes, closed)."""
        loop = asyncio.get_running_loop()
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = await asyncio.wait_for(loop.sock_recv(sock, 65536), deadline - time.monotonic())
            except asyncio.TimeoutError:
                return data, False
            except ConnectionResetError:
                return data, True
            if not chunk:
                return data, True
            data += chunk
            if until_reply and b"\0" in data:
                return data, False
        return data, False

    async def oversized(self):
        """70 KiB without a NUL, or 1 MiB with one: LimitReached message-size, then the connection closes."""
        sock = await self.raw()
        size = random.choice([70 * 1024, 1024 * 1024])
        body = b'{"method": "io.shaked.Undo.Subscribe", "parameters": {"app": "org.x.Y", "name": "' + b"A" * size
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.sock_sendall(sock, body + (b'"}}\0' if size > 100000 else b"")), 10)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data, closed = await self.read_all(sock, 10)
        sock.close()
        if b"message-size" in data and closed:
            self.stats.add("oversized-refused")
        elif closed:
            self.stats.add("oversized-closed-without-reply")
        else:
            self.fail("input", "a %d-byte message was neither refused nor closed" % size)

    async def malformed(self):
        """A malformed message gets an error reply (or the connection closes); never a result."""
        what, payload = random.choice(list(MALFORMED.items()))
        sock = await self.raw()
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, payload)
        data, closed = await self.read_all(sock, 10, until_reply=True)
        sock.close()
        replies = [json.loads(m) for m in data.split(b"\0") if m]
        if any("error" not in r for r in replies):
            self.fail("input", "malformed message (%s) got a result: %r" % (what, data[:200]))
        elif replies:
            self.stats.add("malformed-refused")
            self.stats.errors["malformed %s: %s" % (what, error_name(replies[0]))] += 1
        elif closed:
            self.stats.add("malformed-closed")
            self.stats.errors["malformed %s: closed" % what] += 1
        else:
            self.fail("input", "malformed message (%s) got no answer within 10 s" % what)

    async def bad_fields(self):
        method, parameters, field = random.choice(BAD_FIELDS)
        c = await self.open()
        reply = await c.call(UNDO + method, parameters, more=(method == "Subscribe"))
        c.close()
        name = self.count(reply)
        if name == "InvalidParameter" and reply["parameters"].get("parameter") == field:
            self.stats.add("bad-fields-refused")
        elif name and name.startswith("LimitReached"):
            self.stats.errors["bad fields " + name] += 1
        else:
            self.fail("input", "%s with a bad %s got %s" % (method, field, json.dumps(reply)[:200]))

    async def idle(self):
        """Ten connections at a time that never complete a call."""
        await asyncio.gather(*(self.idle_one() for _ in range(10)))

    async def idle_one(self):
        """Opens a connection that never completes a call (half a message, or nothing); it must be closed."""
        sock = await self.raw()
        opened = time.monotonic()
        if random.random() < 0.5:
            await asyncio.get_running_loop().sock_sendall(sock, b'{"method": "io.shaked.Undo.GetSt')
        data, closed = await self.read_all(sock, self.options["idle_timeout"] + 30)
        sock.close()
        if not closed:
            self.fail("limits", "a connection that never completed a call stayed open %d s"
                      % (self.options["idle_timeout"] + 30))
            return
        took = time.monotonic() - opened
        self.stats.add("idle-closed")
        self.stats.counts["idle-longest-ms"] = max(self.stats.counts["idle-longest-ms"], int(took * 1000))
        if data and b"connections" not in data:
            self.stats.errors["idle got %r" % data[:60]] += 1

    async def never_reader(self):
        """Asks for the interface description (10 KiB) again and again and never reads: the daemon must
        close the connection once its queue passes the high-water mark."""
        sock = await self.raw()
        opened = time.monotonic()
        call = json.dumps({"method": "org.varlink.service.GetInterfaceDescription",
                           "parameters": {"interface": "io.shaked.Undo"}}).encode() + b"\0"
        sent = 0
        loop = asyncio.get_running_loop()
        while time.monotonic() - opened < 120:
            try:
                await asyncio.wait_for(loop.sock_sendall(sock, call), 5)
                sent += 1
            except (BrokenPipeError, ConnectionResetError):
                break
            except asyncio.TimeoutError:
                pass
            await asyncio.sleep(1 / 30)
        sock.close()
        if time.monotonic() - opened >= 120:
            self.fail("limits", "a client that never reads was not disconnected within 120 s")
        else:
            self.stats.add("never-reader-closed")
            self.stats.counts["never-reader-calls"] += sent

    async def slow_reader(self):
        """Subscribes, then asks for 20 KiB a second and reads 10 KiB a second."""
        c = await self.open()
        reply = await c.call(UNDO + "Subscribe", {"app": "org.junk.Slow", "name": "Slow"}, more=True)
        self.count(reply)
        c.transport.pause_reading()
        opened = time.monotonic()
        call = {"interface": "io.shaked.Undo"}
        while not c.is_closed and time.monotonic() - opened < 90:
            for _ in range(2):
                c.send("org.varlink.service.GetInterfaceDescription", call)
            for _ in range(10):
                await asyncio.sleep(0.1)
                if c.is_closed:
                    break
                c.transport.resume_reading()
                await asyncio.sleep(0)
                c.transport.pause_reading()
        self.stats.add("slow-reader-closed" if c.is_closed else "slow-reader-kept-up")
        c.close()

    async def privacy(self):
        """This user holds no app in context and may not monitor: GetStatus shows it no app, no intent."""
        c = await self.open()
        try:
            for _ in range(20):
                reply = await c.call(UNDO + "GetStatus")
                if self.count(reply):
                    await asyncio.sleep(0.5)
                    continue
                status = reply["parameters"]["status"]
                self.stats.add("status-checked")
                if self.other_uids and (status.get("currentApp") or status.get("openIntent")):
                    self.fail("privacy", "GetStatus showed another user's app or intent: %s" % json.dumps(status))
                await asyncio.sleep(0.5)
        finally:
            c.close()

    async def command_steal(self, command):
        """Another user's token and open intent: every call that takes a token must refuse it."""
        token, intent = command["token"], command["intent"]
        c = await self.open()
        attempts = [
            ("SetContext", {"token": token, "focused": False, "undo": None, "redo": None}),
            ("AnswerIntent", {"token": token, "intent": intent, "prompt": prompt_for("undo", "Typing")}),
            ("Choose", {"token": token, "intent": intent, "choice": "undo"}),
            ("Choose", {"token": token, "intent": intent, "choice": "cancel"}),
            ("ReportResult", {"token": token, "intent": intent, "summary": "Stolen"}),
        ]
        results = {}
        for method, parameters in attempts:
            for _ in range(20):
                name = self.count(await c.call(UNDO + method, parameters))
                if not (name and name.startswith("LimitReached:call-rate")):
                    break
                await asyncio.sleep(0.1)
            results[method] = name
            if name != "UnknownToken":
                self.fail("privacy", "%s with another user's token got %s, not UnknownToken" % (method, name))
        c.close()
        self.stats.add("steal-attempts")
        return {"results": results}
