"""The soak's clients (scripts/soak): a cheap asyncio varlink connection, and the worker that runs
one user's well-behaved app clients in a forked process.

A worker talks to the conductor over two pipes, one JSON object a line: commands in ("focus",
"unfocus", "drop", "choose", "request", "status", "stop"), reports out ("intent", "flow",
"cancelled", "stats", "failure", "reply"). The conductor decides everything that changes which
app holds the context, so it always knows which app every intent must reach.
"""

import asyncio
import collections
import json
import os
import random
import time

UNDO = "io.shaked.Undo."
ACTION_NAMES = ["Typing", "Bold", "Paste", "Delete Line", "Move Files", "Rename"]
SUMMARIES = ["Restored line 3", "Removed bold", "Put back 2 files"]


class Closed(Exception):
    """The daemon closed the connection (or it failed) before the reply came."""


class Connection(asyncio.Protocol):
    """One varlink connection. Replies to calls come in order; a reply that answers no call (the
    later replies of a streaming call, or a refusal sent on connect) goes to `on_stream`, with the
    CLOCK_MONOTONIC time its bytes were read."""

    def __init__(self, on_stream=None, on_close=None):
        self.buffer = bytearray()
        self.pending = collections.deque()
        self.on_stream = on_stream
        self.on_close = on_close
        self.transport = None
        self.is_closed = False
        self.closed_by_us = False
        self.unsolicited = []  # replies to no call and no stream, such as a refusal on connect

    @classmethod
    async def open(cls, path, on_stream=None, on_close=None):
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_unix_connection(lambda: cls(on_stream, on_close), path)
        return connection

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        arrived = time.monotonic()
        self.buffer += data
        while True:
            end = self.buffer.find(b"\0")
            if end < 0:
                return
            message = bytes(self.buffer[:end])
            del self.buffer[:end + 1]
            try:
                reply = json.loads(message)
            except ValueError:
                reply = {"error": "soak.UnparsableReply", "parameters": {"bytes": len(message)}}
            if self.pending:
                future = self.pending.popleft()
                if not future.done():
                    future.set_result((reply, arrived))
                continue
            if "error" in reply:
                self.unsolicited.append(reply)
            if self.on_stream:
                self.on_stream(reply, arrived)

    def connection_lost(self, exc):
        self.is_closed = True
        while self.pending:
            future = self.pending.popleft()
            if not future.done():
                future.set_exception(Closed())
        if self.on_close:
            self.on_close(self)

    def send(self, method, parameters=None, more=False):
        """Writes one call; returns the future of its reply (reply, arrival time)."""
        message = {"method": method}
        if parameters is not None:
            message["parameters"] = parameters
        if more:
            message["more"] = True
        future = asyncio.get_running_loop().create_future()
        if self.is_closed:
            future.set_exception(Closed())
            return future
        self.pending.append(future)
        self.transport.write(json.dumps(message).encode() + b"\0")
        return future

    async def call(self, method, parameters=None, more=False, timeout=15):
        """The reply to one call, as a dict (with "error" when it failed)."""
        reply, _ = await asyncio.wait_for(self.send(method, parameters, more), timeout)
        return reply

    def close(self):
        self.closed_by_us = True
        if self.transport:
            self.transport.close()


def error_name(reply):
    """A reply's error, with the limit for LimitReached ("LimitReached:call-rate"); None on success."""
    error = reply.get("error")
    if error is None:
        return None
    short = error.rsplit(".", 1)[-1]
    limit = (reply.get("parameters") or {}).get("limit")
    return "%s:%s" % (short, limit) if limit else short


def prompt_for(operation, action_name):
    """A prompt that keeps every guideline: "Undo Typing", Cancel then Undo."""
    verb = "Undo" if operation == "undo" else "Redo"
    return {"title": "%s %s" % (verb, action_name), "actions": [
        {"role": "cancel", "label": "Cancel", "destructive": False, "preferred": False},
        {"role": operation, "label": verb, "destructive": False, "preferred": False}]}


class Channel:
    """The worker's end of its pipes to the conductor."""

    def __init__(self, commands_fd, reports_fd):
        self.commands_fd = commands_fd
        self.reports_fd = reports_fd

    def report(self, kind, **fields):
        fields["type"] = kind
        data = (json.dumps(fields) + "\n").encode()
        while data:
            data = data[os.write(self.reports_fd, data):]

    async def commands(self):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(self.commands_fd, "rb"))
        while True:
            line = await reader.readline()
            if not line:
                return
            yield json.loads(line)


class Stats:
    """Counters a worker sends to the conductor every few seconds."""

    def __init__(self):
        self.counts = collections.Counter()
        self.errors = collections.Counter()

    def add(self, key, n=1):
        self.counts[key] += n


class AppClient:
    """One well-behaved app: subscribes on one connection, calls on another, publishes unfocused
    undo and redo names now and then, disconnects at random and comes back. While the conductor
    has focused it ("pinned"), only the conductor's commands change it."""

    def __init__(self, worker, index):
        self.worker = worker
        self.index = index
        self.app = "org.soak.u%d.c%d" % (worker.uid, index)
        self.stream = None
        self.calls = None
        self.token = None
        self.pinned = False
        self.lock = asyncio.Lock()
        self.waiting = {}  # intent id -> future of its next event after "intent"
        self.state = "new"

    @property
    def connected(self):
        return all(c is not None and not c.is_closed for c in (self.stream, self.calls))

    async def call(self, method, parameters=None):
        """A call that retries when the call rate is reached, as a client should; returns the reply."""
        stats = self.worker.stats
        for _ in range(50):
            reply = await self.calls.call(method, parameters)
            stats.add("calls")
            name = error_name(reply)
            if name is None or not name.startswith("LimitReached:call-rate"):
                if name:
                    stats.errors[name] += 1
                return reply
            stats.add("rate-retries")
            await asyncio.sleep(0.05 + random.random() * 0.1)
        return reply

    async def connect(self):
        path = self.worker.socket
        self.stream = await Connection.open(path, self.on_event, self.on_close)
        self.calls = await Connection.open(path, None, self.on_close)
        reply = None
        for _ in range(50):
            reply = await self.stream.call(UNDO + "Subscribe", {"app": self.app, "name": "Soak %d" % self.index},
                                           more=True)
            self.worker.stats.add("calls")
            name = error_name(reply)
            if name is None or not name.startswith("LimitReached:call-rate"):
                break
            self.worker.stats.add("rate-retries")
            await asyncio.sleep(0.05 + random.random() * 0.1)
        name = error_name(reply)
        if name:
            self.worker.stats.errors["Subscribe " + name] += 1
            self.disconnect()
            return False
        self.token = reply["parameters"]["token"]
        self.worker.stats.add("subscribed")
        return await self.publish(focused=False)

    async def publish(self, focused, undo=None, redo=None):
        if not focused:
            undo = random.choice(ACTION_NAMES + [None])
            redo = random.choice(ACTION_NAMES + [None, None, None])
        reply = await self.call(UNDO + "SetContext", {"token": self.token, "focused": focused, "undo": undo,
                                                      "redo": redo})
        return "error" not in reply

    def disconnect(self):
        for connection in (self.stream, self.calls):
            if connection is not None:
                connection.close()

    def on_close(self, connection):
        if not connection.closed_by_us and not self.worker.stopping:
            # A well-behaved client reads everything and keeps every limit: the daemon has no reason to close it.
            self.worker.stats.add("closed-by-daemon")
            self.worker.channel.report("failure", category="well-behaved",
                                       what="the daemon closed a connection of well-behaved %s" % self.app)
        if connection is self.stream:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(Closed())
        if self.pinned and not connection.closed_by_us:
            self.worker.channel.report("lost", app=self.app)

    def on_event(self, reply, arrived):
        event = (reply.get("parameters") or {}).get("event")
        if not event:
            self.worker.stats.errors["unexpected reply " + str(error_name(reply))] += 1
            return
        if event["kind"] == "intent":
            self.worker.stats.add("intents")
            self.worker.channel.report("intent", app=self.app, uid=self.worker.uid, intent=event["intent"],
                                       operation=event["operation"], actionName=event["actionName"],
                                       arrived=arrived, pinned=self.pinned)
            self.waiting[event["intent"]] = asyncio.get_running_loop().create_future()
            asyncio.ensure_future(self.answer(event))
        else:
            if event["kind"] == "cancelled":
                self.worker.channel.report("cancelled", app=self.app, intent=event["intent"], reason=event["reason"])
            future = self.waiting.get(event["intent"])
            if future is not None and not future.done():
                future.set_result(event)

    async def answer(self, event):
        """Answers at once with a correct prompt; the choice waits for the conductor's "choose"."""
        intent = event["intent"]
        try:
            reply = await self.call(UNDO + "AnswerIntent", {"token": self.token, "intent": intent,
                                                            "prompt": prompt_for(event["operation"],
                                                                                 event["actionName"])})
            if "error" in reply or reply["parameters"].get("agent") is not False:
                self.worker.channel.report("flow", intent=intent, app=self.app, result="error",
                                           detail="AnswerIntent: %s" % json.dumps(reply))
        except (Closed, asyncio.TimeoutError) as e:
            self.worker.channel.report("flow", intent=intent, app=self.app, result="error",
                                       detail="AnswerIntent: %r" % e)

    async def choose(self, intent, choice):
        """The person's choice: "undo"/"redo" (then perform and report), "cancel", or "drop" (the app
        disconnects with its prompt open)."""
        future = self.waiting.get(intent)
        try:
            if choice == "drop":
                self.pinned = False
                self.disconnect()
                return "dropped"
            reply = await self.call(UNDO + "Choose", {"token": self.token, "intent": intent, "choice": choice})
            if "error" in reply:
                return "error: Choose %s" % json.dumps(reply)
            event = await asyncio.wait_for(future, 15)
            if choice == "cancel":
                if event["kind"] == "cancelled" and event.get("reason") == "declined":
                    return "declined"
                return "error: after cancel %s" % json.dumps(event)
            if event["kind"] != "perform" or event["operation"] != choice:
                return "error: after %s %s" % (choice, json.dumps(event))
            reply = await self.call(UNDO + "ReportResult", {"token": self.token, "intent": intent,
                                                            "summary": random.choice(SUMMARIES)})
            return "performed" if "error" not in reply else "error: ReportResult %s" % json.dumps(reply)
        except (Closed, asyncio.TimeoutError) as e:
            return "error: %r" % e
        finally:
            self.waiting.pop(intent, None)

    async def run(self, start_delay):
        await asyncio.sleep(start_delay)
        worker = self.worker
        while not worker.stopping:
            async with self.lock:
                self.state = "connecting"
                try:
                    ok = await self.connect()
                except (OSError, Closed, asyncio.TimeoutError) as e:
                    if not worker.stopping:  # stopping closes connections half-way through connecting
                        worker.stats.errors["connect %s" % type(e).__name__] += 1
                    ok = False
            self.state = "connected"
            if ok:
                worker.stats.add("connects")
                deadline = time.monotonic() + random.uniform(5, 60)
                while not worker.stopping and self.connected:
                    await asyncio.sleep(random.uniform(2, 12))
                    if self.pinned or not self.connected:
                        continue
                    async with self.lock:
                        if self.pinned or not self.connected:
                            continue
                        if time.monotonic() >= deadline:
                            break
                        try:
                            await self.publish(focused=False)
                        except (Closed, asyncio.TimeoutError):
                            break
                while self.pinned and not worker.stopping:
                    await asyncio.sleep(0.5)
                async with self.lock:
                    self.disconnect()
            self.state = "away"
            await asyncio.sleep(random.uniform(0.1, 2.0))
        self.disconnect()


class AppWorker:
    """One user's well-behaved app clients, in one process with one event loop."""

    def __init__(self, number, uid, socket_path, clients, ramp, channel, may_request):
        self.number = number
        self.uid = uid
        self.socket = socket_path
        self.channel = channel
        self.may_request = may_request
        self.stats = Stats()
        self.stopping = False
        self.clients = [AppClient(self, i) for i in range(clients)]
        self.ramp = ramp

    async def main(self):
        tasks = [asyncio.ensure_future(c.run(self.ramp * i / max(1, len(self.clients))))
                 for i, c in enumerate(self.clients)]
        reporter = asyncio.ensure_future(self.report_stats())
        async for command in self.channel.commands():
            if command["cmd"] == "stop":
                break
            asyncio.ensure_future(self.handle(command))
        self.stopping = True
        for c in self.clients:
            c.disconnect()
        reporter.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.sleep(0.2)
        self.send_stats(final=True)

    async def report_stats(self):
        while True:
            await asyncio.sleep(3)
            try:
                self.send_stats()
            except Exception as e:  # noqa: BLE001 - the soak's own bug: say so, keep reporting
                self.channel.report("failure", category="soak", what="stats: %r" % e)

    def send_stats(self, final=False):
        connected = sum(1 for c in self.clients if c.connected)
        states = collections.Counter(c.state for c in self.clients)
        self.channel.report("stats", worker=self.number, uid=self.uid, connected=connected, states=states,
                            counts=dict(self.stats.counts), errors=dict(self.stats.errors), final=final)

    async def handle(self, command):
        name = command["cmd"]
        try:
            result = await getattr(self, "command_" + name)(command)
        except (Closed, asyncio.TimeoutError, OSError) as e:
            result = {"error": "%s: %r" % (name, e)}
        self.channel.report("reply", id=command["id"], **result)

    async def command_focus(self, command):
        """Focuses an idle, connected client with undo (or only redo) names; it is pinned until unfocused."""
        candidates = [c for c in self.clients if c.connected and not c.pinned and not c.lock.locked()]
        random.shuffle(candidates)
        for client in candidates[:10]:
            async with client.lock:
                if not client.connected or client.pinned:
                    continue
                client.pinned = True
                undo = random.choice(ACTION_NAMES) if random.random() < 0.8 else None
                redo = random.choice(ACTION_NAMES) if undo is None or random.random() < 0.3 else None
                if await client.publish(focused=True, undo=undo, redo=redo):
                    return {"client": client.index, "app": client.app, "uid": self.uid, "token": client.token,
                            "undo": undo, "redo": redo}
                client.pinned = False
        return {"error": "no idle connected client"}

    async def command_unfocus(self, command):
        client = self.clients[command["client"]]
        async with client.lock:
            ok = client.connected and await client.publish(focused=False)
            client.pinned = False
        return {} if ok else {"error": "unfocus failed"}

    async def command_drop(self, command):
        client = self.clients[command["client"]]
        async with client.lock:
            client.pinned = False
            client.disconnect()
        return {}

    async def command_choose(self, command):
        client = self.clients[command["client"]]
        return {"result": await client.choose(command["intent"], command["choice"])}

    async def probe(self, method, parameters=None):
        """One call on a connection of its own, as a status tool or a shortcut helper would make it."""
        connection = await Connection.open(self.socket)
        try:
            for _ in range(20):
                reply = await connection.call(method, parameters)
                if not (error_name(reply) or "").startswith("LimitReached:call-rate"):
                    return reply
                await asyncio.sleep(0.1)
            return reply
        finally:
            connection.close()

    async def command_request(self, command):
        reply = await self.probe(UNDO + "RequestIntent", {})
        if "error" in reply:
            return {"error": error_name(reply)}
        return {"intent": reply["parameters"]["intent"], "app": reply["parameters"].get("app")}

    async def command_status(self, command):
        reply = await self.probe(UNDO + "GetStatus")
        if "error" in reply:
            return {"error": error_name(reply)}
        status = reply["parameters"]["status"]
        return {"currentApp": status.get("currentApp"), "openIntent": status.get("openIntent"), "uid": self.uid}
