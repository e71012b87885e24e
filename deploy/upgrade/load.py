#!/usr/bin/env python3
"""Steady load for the upgrade test (deploy/upgrade/test.sh), through the proxy in front of the API nodes, and a
record of everything it saw, for deploy/upgrade/audit.py.

It runs until the stop file appears, then stops starting work, lets what it started end (retries answered, streams
followed to their end) and writes its record (JSON) to --out. What runs meanwhile:

- **Submitters** (`diag.echo` of an unmetered tenant, each input carrying a token of its own): every submission has an
  `Idempotency-Key`; an answer lost (a connection cut, a 5xx) is asked again with the same key and body until it comes.
  Some are sent a second time after they were accepted (a replay: the same job must come back), some are read back
  with `GET /v1/jobs/{id}`, some have a `delay_seconds` or a priority.
- **Followers**: `diag.generate` jobs that stream their text as `delta` events, followed with
  `GET /v1/jobs/{id}/events`; a stream that ends before the job does (a node draining) or is cut is resumed with
  `Last-Event-ID` on whichever node the proxy picks. Once the job ended, its whole stream is read again from the start,
  for the audit to compare with what the follower read.
- **Long jobs**: a `video.chat_export` (like up.sh's, longer) and a `diag.sleep` with progress, one of each at all
  times, followed the same way.
- **Metered identities** of the `loadtest` tenant (trusted server: `Kiln-Identity` and `Kiln-Tier`):
  `limit-50` identities submitting every second or two (cost 1 and 2) until they run into their daily quota;
  bursts of concurrent submissions of fresh `limit-3` and `limit-1` identities (exactly 3 and 1 fit); bursts of fresh
  devices (`Kiln-Device`) of `cooldown` identities (one submission a device fits, its cooldown refuses the rest).
  Every decision is recorded with the quota headers or the refusal's numbers.

Every HTTP exchange is recorded (time, phase, what, status or the connection error, whether a Retry-After came).
The phase is read from --phase-file, which test.sh writes as it rolls the fleet.

Python 3.11, the standard library only: raw HTTP/1.1 over asyncio streams, one connection a request
(`Connection: close`), so the proxy balances every request and a draining node holds no idle connection.
"""

import argparse
import asyncio
import json
import os
import random
import sys
import time
import uuid
from urllib.parse import urlsplit

TERMINAL = {"succeeded", "failed", "dead", "cancelled"}


class Lost(Exception):
    """No whole answer: the connection was refused, cut or timed out."""


class Load:
    def __init__(self, args):
        self.args = args
        u = urlsplit(args.url)
        self.host, self.port = u.hostname, u.port or 80
        self.run = args.run_id or uuid.uuid4().hex[:8]
        self.stopping = False
        self.exchanges = []  # [t, phase, op, status or "conn:<error>", retry_after?]
        self.submissions = []
        self.followers = []
        self.tasks = set()
        self.seq = 0
        self._phase = ("start", 0.0)
        self.started = time.time()

    # ---- bookkeeping -------------------------------------------------------------------------------------------

    def phase(self):
        name, checked = self._phase
        now = time.monotonic()
        if now - checked > 0.5:
            try:
                with open(self.args.phase_file) as f:
                    name = f.read().strip() or name
            except (FileNotFoundError, TypeError):
                pass
            self._phase = (name, now)
        return name

    def token(self, prefix):
        self.seq += 1
        return f"{self.run}-{prefix}-{self.seq}"

    def spawn(self, coro):
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task):
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            print(f"load: a task failed: {exc!r}", file=sys.stderr, flush=True)
            self.exchanges.append([time.time(), self.phase(), "task", f"crash:{type(exc).__name__}:{exc}", False])

    def record(self, op, status, retry_after=False):
        self.exchanges.append([round(time.time(), 3), self.phase(), op, status, bool(retry_after)])

    # ---- HTTP ----------------------------------------------------------------------------------------------------

    def head(self, method, path, headers, body):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close"]
        for k, v in headers.items():
            lines.append(f"{k}: {v}")
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")

    async def open(self):
        try:
            return await asyncio.wait_for(asyncio.open_connection(self.host, self.port), 10)
        except (OSError, asyncio.TimeoutError) as e:
            raise Lost(f"connect: {type(e).__name__}") from e

    @staticmethod
    async def read_head(reader):
        line = await reader.readline()
        if not line:
            raise Lost("closed before the answer")
        try:
            status = int(line.split(b" ", 2)[1])
        except (IndexError, ValueError) as e:
            raise Lost(f"bad status line {line[:60]!r}") from e
        headers = {}
        while True:
            h = await reader.readline()
            if not h:
                raise Lost("closed in the headers")
            if h in (b"\r\n", b"\n"):
                break
            k, _, v = h.decode("latin-1").partition(":")
            headers[k.strip().lower()] = v.strip()
        return status, headers

    @staticmethod
    async def read_chunk(reader):
        """One chunk of a chunked body; b"" at its end."""
        size_line = await reader.readline()
        if not size_line:
            raise Lost("closed inside a chunked body")
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while True:  # trailers, then the blank line
                t = await reader.readline()
                if t in (b"\r\n", b"\n", b""):
                    return b""
        data = await reader.readexactly(size)
        await reader.readexactly(2)
        return data

    async def request(self, op, method, path, headers, body=None, timeout=None):
        """One exchange; returns (status, headers, body bytes) or raises Lost. Records it either way."""
        timeout = timeout or self.args.request_timeout

        async def exchange():
            reader, writer = await self.open()
            try:
                writer.write(self.head(method, path, headers, body))
                await writer.drain()
                status, hdrs = await self.read_head(reader)
                if hdrs.get("transfer-encoding", "").lower() == "chunked":
                    parts = []
                    while (chunk := await self.read_chunk(reader)) != b"":
                        parts.append(chunk)
                    data = b"".join(parts)
                elif "content-length" in hdrs:
                    data = await reader.readexactly(int(hdrs["content-length"]))
                else:
                    data = await reader.read()
                return status, hdrs, data
            except (OSError, asyncio.IncompleteReadError) as e:
                raise Lost(f"{type(e).__name__}") from e
            finally:
                writer.transport.abort()

        try:
            status, hdrs, data = await asyncio.wait_for(exchange(), timeout)
        except asyncio.TimeoutError as e:
            self.record(op, "conn:timeout")
            raise Lost("timeout") from e
        except Lost as e:
            self.record(op, f"conn:{e}")
            raise
        self.record(op, status, "retry-after" in hdrs)
        return status, hdrs, data

    def auth(self, metered, identity, tier=None, device=None):
        h = {"Authorization": f"Bearer {self.args.key_metered if metered else self.args.key_plain}",
             "Kiln-Identity": identity}
        if tier:
            h["Kiln-Tier"] = tier
        if device:
            h["Kiln-Device"] = device
        return h

    # ---- submitting ----------------------------------------------------------------------------------------------

    async def submit(self, sub, headers, body):
        """Posts until an answer that is not a 5xx comes (the same key and body each time); fills in `sub`."""
        deadline = time.monotonic() + self.args.submit_budget
        payload = json.dumps(body).encode()
        h = dict(headers, **{"Idempotency-Key": sub["key"], "Content-Type": "application/json"})
        sub["t_sent"] = round(time.time(), 3)
        sub["phase"] = self.phase()
        while True:
            sub["tries"] += 1
            try:
                status, hdrs, data = await self.request("submit", "POST", "/v1/jobs", h, payload)
            except Lost as e:
                sub["lost"].append(str(e))
                if time.monotonic() > deadline:
                    sub["status"] = "unanswered"
                    return sub
                await asyncio.sleep(0.3 + random.random() * 0.5)
                continue
            sub["answers"].append(status)
            if status >= 500:
                if time.monotonic() > deadline:
                    sub["status"] = status
                    return sub
                await asyncio.sleep(min(float(hdrs.get("retry-after", "1") or 1), 5))
                continue
            break
        sub["t_recv"] = round(time.time(), 3)
        sub["status"] = status
        sub["retry_after"] = hdrs.get("retry-after")
        try:
            doc = json.loads(data) if data else {}
        except ValueError:
            doc = {"unreadable": data[:200].decode("latin-1")}
        if status == 202 or status == 200:
            sub["job_id"] = doc.get("id")
            sub["quota"] = {k: hdrs.get(f"kiln-quota-{k}") for k in ("class", "limit", "remaining", "reset")}
        else:
            sub["code"] = doc.get("code")
            sub["problem"] = {k: doc.get(k) for k in (
                "reason", "quota_class", "tier", "limit", "used", "pending", "remaining", "reset_at", "retry_after_s")}
        return sub

    def new_sub(self, group, identity, kind, cost, token, **extra):
        sub = {"key": str(uuid.uuid4()), "group": group, "identity": identity, "kind": kind, "cost": cost,
               "token": token, "tries": 0, "lost": [], "answers": [], "status": None, "job_id": None}
        sub.update(extra)
        self.submissions.append(sub)
        return sub

    async def plain(self):
        identity = f"{self.run}-u{random.randrange(20)}"
        token = self.token("echo")
        body = {"kind": "diag.echo", "input": {"message": token}}
        r = random.random()
        if r < 0.05:
            body["delay_seconds"] = random.randint(1, 3)
        if random.random() < 0.3:
            body["priority"] = random.choice(["high", "low"])
        sub = self.new_sub("plain", identity, "diag.echo", 0, token, tenant="upgrade")
        headers = self.auth(False, identity)
        await self.submit(sub, headers, body)
        if sub["status"] != 202:
            return
        if random.random() < 0.05:  # the same key and body again, later, probably on the other node
            await asyncio.sleep(random.uniform(0.5, 5))
            replay = {"key": sub["key"], "tries": 0, "lost": [], "answers": [], "status": None, "job_id": None}
            await self.submit(replay, headers, body)
            sub["replay"] = {"status": replay["status"], "job_id": replay["job_id"], "code": replay.get("code")}
        if random.random() < 0.1:  # read it back
            await asyncio.sleep(random.uniform(0.2, 3))
            try:
                status, _, data = await self.request("get", "GET", f"/v1/jobs/{sub['job_id']}", headers)
                sub["get"] = {"status": status, "job_status": json.loads(data).get("status") if status == 200 else None}
            except (Lost, ValueError) as e:
                sub["get"] = {"status": f"lost: {e}"}

    async def plain_loop(self):
        while not self.stopping:
            self.spawn(self.plain())
            await asyncio.sleep(random.expovariate(self.args.rate))

    # ---- following events ----------------------------------------------------------------------------------------

    async def stream(self, path, headers, last_id, on_event):
        """Reads one event stream until it ends; returns "ended" (the answer ended), or raises Lost. Records the
        exchange's status."""
        h = dict(headers, Accept="text/event-stream")
        if last_id:
            h["Last-Event-ID"] = last_id
        reader, writer = await self.open()
        try:
            writer.write(self.head("GET", path, h, None))
            await writer.drain()
            try:
                status, hdrs = await asyncio.wait_for(self.read_head(reader), self.args.request_timeout)
            except asyncio.TimeoutError as e:
                raise Lost("timeout") from e
            self.record("events", status, "retry-after" in hdrs)
            if status != 200:
                data = b""
                if "content-length" in hdrs:
                    data = await reader.readexactly(int(hdrs["content-length"]))
                return status, hdrs, data
            chunked = hdrs.get("transfer-encoding", "").lower() == "chunked"
            buf = ""
            while True:
                try:
                    if chunked:
                        data = await asyncio.wait_for(self.read_chunk(reader), self.args.stream_idle)
                    else:
                        data = await asyncio.wait_for(reader.read(65536), self.args.stream_idle)
                except asyncio.TimeoutError as e:
                    raise Lost("stream idle") from e
                if data == b"":
                    return "ended", hdrs, b""
                buf += data.decode("utf-8")
                buf = buf.replace("\r\n", "\n")
                while "\n\n" in buf:
                    block, buf = buf.split("\n\n", 1)
                    ev = {"id": None, "event": "message", "data": []}
                    for line in block.split("\n"):
                        if line.startswith(":") or not line:
                            continue
                        field, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if field == "data":
                            ev["data"].append(value)
                        elif field in ("id", "event"):
                            ev[field] = value
                    if ev["id"] is None and not ev["data"]:
                        continue
                    on_event([ev["id"], ev["event"], "\n".join(ev["data"])])
        except (OSError, asyncio.IncompleteReadError, UnicodeDecodeError) as e:
            raise Lost(type(e).__name__) from e
        finally:
            writer.transport.abort()

    async def follow(self, kind, body, group):
        identity = f"{self.run}-f{random.randrange(8)}"
        headers = self.auth(False, identity)
        sub = self.new_sub(group, identity, kind, 0, body.get("_token"), tenant="upgrade")
        body = {k: v for k, v in body.items() if k != "_token"}
        await self.submit(sub, headers, body)
        if sub["status"] != 202:
            return
        f = {"job_id": sub["job_id"], "kind": kind, "key": sub["key"], "events": [], "connections": 0,
             "resumes": 0, "clean_ends": 0, "cuts": [], "answers": [], "terminal": None, "replay": None,
             "phases": []}
        self.followers.append(f)
        path = f"/v1/jobs/{sub['job_id']}/events"
        deadline = time.monotonic() + self.args.follow_budget

        def on_event(ev):
            f["events"].append(ev)
            if ev[1] == "status":
                try:
                    state = json.loads(ev[2]).get("state")
                except ValueError:
                    state = None
                if state in TERMINAL:
                    f["terminal"] = state

        while f["terminal"] is None and time.monotonic() < deadline:
            last = f["events"][-1][0] if f["events"] else None
            if f["connections"]:
                f["resumes"] += 1
            f["connections"] += 1
            f["phases"].append(self.phase())
            try:
                result, hdrs, data = await self.stream(path, headers, last, on_event)
            except Lost as e:
                self.record("events", f"conn:{e}")
                f["cuts"].append(str(e))
                await asyncio.sleep(0.2 + random.random() * 0.3)
                continue
            if result == "ended":
                if f["terminal"] is None:
                    f["clean_ends"] += 1
                continue
            f["answers"].append(result)
            await asyncio.sleep(min(float(hdrs.get("retry-after", "1") or 1), 5) if result >= 500 else 1)
        # The whole stream again from its start, for the audit to compare with what was followed.
        if f["terminal"] is not None:
            for _ in range(20):
                replay = []
                try:
                    result, hdrs, _ = await self.stream(path, headers, None, replay.append)
                except Lost:
                    await asyncio.sleep(0.5)
                    continue
                if result == "ended":
                    f["replay"] = replay
                    break
                await asyncio.sleep(1)

    async def follow_loop(self, make):
        while not self.stopping:
            kind, body, group = make()
            await self.follow(kind, body, group)

    def generate_job(self):
        token = self.token("gen")
        return "diag.generate", {"kind": "diag.generate", "_token": token,
                                 "input": {"prompt": f"Tell a short story ({token})", "stream": True}}, "follow"

    def video_job(self):
        token = self.token("video")
        messages = [{"character": "sam" if i % 2 else "me",
                     "text": f"Message {i} of {token}: are we still meeting at the old lighthouse tonight?"}
                    for i in range(self.args.video_messages)]
        return "video.chat_export", {"kind": "video.chat_export", "_token": token, "input": {
            "conversation": {"characters": [{"id": "me", "name": "Me", "color": "#0A84FF", "avatar": "😎"},
                                            {"id": "sam", "name": "Sam", "color": "#34C759", "avatar": "🦊"}],
                             "messages": messages},
            "settings": {"format": "1:1", "fps": 30, "typing_speed": "normal"}}}, "long"

    def sleep_job(self):
        token = self.token("sleep")
        return "diag.sleep", {"kind": "diag.sleep", "_token": token,
                              "input": {"seconds": self.args.sleep_seconds, "progress_steps": 10}}, "long"

    # ---- metered identities --------------------------------------------------------------------------------------

    def metered_sub(self, scenario, identity, tier, kind, device=None):
        cost = 2 if kind == "diag.sleep" else 1
        token = self.token(scenario)
        sub = self.new_sub("metered", identity, kind, cost, token, tenant="loadtest", tier=tier, device=device,
                           scenario=scenario)
        body = {"kind": kind, "input": {"message": token} if kind == "diag.echo" else {"seconds": 0}}
        return sub, self.auth(True, identity, tier, device), body

    async def paced(self, n):
        identity = f"{self.run}-p{n}"
        refusals = 0
        while not self.stopping and refusals < 4:
            kind = "diag.sleep" if random.random() < 0.4 else "diag.echo"
            sub, headers, body = self.metered_sub("limit-50", identity, "limit-50", kind)
            await self.submit(sub, headers, body)
            if sub["status"] == 429:
                refusals += 1
            await asyncio.sleep(random.uniform(0.7, 1.5))

    async def paced_loop(self):
        n = 0
        while not self.stopping:
            n += 1
            self.spawn(self.paced(n))
            await asyncio.sleep(self.args.paced_every)

    async def burst(self, scenario, tier, count, kinds):
        identity = f"{self.run}-{scenario}-{self.token('id')}"
        subs = [self.metered_sub(scenario, identity, tier, random.choice(kinds)) for _ in range(count)]
        await asyncio.gather(*(self.submit(*s) for s in subs))

    async def devices(self, n):
        identity = f"{self.run}-cd{n // 4}"  # four devices an identity: within max_devices_per_day
        device = f"{self.run}-dev{n}"
        subs = [self.metered_sub("cooldown", identity, "cooldown", "diag.echo", device) for _ in range(3)]
        await asyncio.gather(*(self.submit(*s) for s in subs))
        await asyncio.sleep(random.uniform(1, 3))
        await self.submit(*self.metered_sub("cooldown", identity, "cooldown", "diag.echo", device))

    async def burst_loop(self):
        n = 0
        while not self.stopping:
            n += 1
            self.spawn(self.burst("limit-3", "limit-3", 6, ["diag.echo"]))
            if n % 2 == 0:
                self.spawn(self.burst("limit-1", "limit-1", 3, ["diag.echo", "diag.echo", "diag.sleep"]))
            if n % 2 == 1:
                self.spawn(self.devices(n))
            await asyncio.sleep(self.args.burst_every)

    # ---- the run -------------------------------------------------------------------------------------------------

    async def progress(self):
        while True:
            await asyncio.sleep(self.args.progress_every)
            self.print_progress()

    def print_progress(self):
        answered = [s for s in self.submissions if isinstance(s["status"], int)]
        accepted = sum(1 for s in answered if s["status"] == 202)
        refused = sum(1 for s in answered if s["status"] == 429)
        errors = sum(1 for e in self.exchanges if not (isinstance(e[3], int) and e[3] < 500))
        events = sum(len(f["events"]) for f in self.followers)
        resumes = sum(f["resumes"] for f in self.followers)
        print(f"{time.strftime('%H:%M:%S')} load [{self.phase()}]: {len(self.submissions)} submitted, {accepted} "
              f"accepted, {refused} refused (429), {errors} errors or lost answers, {len(self.followers)} followed "
              f"({events} events, {resumes} resumes), {len(self.tasks)} tasks", flush=True)

    async def main(self):
        print(f"load: run {self.run} through {self.args.url}", flush=True)
        loops = [self.spawn(self.plain_loop()), self.spawn(self.paced_loop()), self.spawn(self.burst_loop())]
        for _ in range(self.args.followers):
            loops.append(self.spawn(self.follow_loop(self.generate_job)))
        if self.args.video_messages > 0:
            loops.append(self.spawn(self.follow_loop(self.video_job)))
        if self.args.sleep_seconds > 0:
            loops.append(self.spawn(self.follow_loop(self.sleep_job)))
        reporter = asyncio.create_task(self.progress())
        while not os.path.exists(self.args.stop_file):
            await asyncio.sleep(0.2)
        self.stopping = True
        stopped = time.time()
        print(f"{time.strftime('%H:%M:%S')} load: stopping; waiting for {len(self.tasks)} tasks to end", flush=True)
        deadline = time.monotonic() + self.args.drain_timeout
        while self.tasks and time.monotonic() < deadline:
            await asyncio.wait(set(self.tasks), timeout=1)
        leftover = len(self.tasks)
        for t in list(self.tasks):
            t.cancel()
        reporter.cancel()
        self.print_progress()
        doc = {"run": self.run, "url": self.args.url, "started": self.started, "stopped": stopped,
               "ended": time.time(), "leftover_tasks": leftover, "exchanges": self.exchanges,
               "submissions": self.submissions, "followers": self.followers}
        tmp = self.args.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f)
        os.replace(tmp, self.args.out)
        print(f"load: wrote {self.args.out}" + (f"; {leftover} tasks had not ended" if leftover else ""), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:18800")
    p.add_argument("--key-plain", required=True, help="API key of the unmetered tenant (diagnostics enabled)")
    p.add_argument("--key-metered", required=True, help="API key of the metered `loadtest` tenant")
    p.add_argument("--out", required=True)
    p.add_argument("--stop-file", required=True)
    p.add_argument("--phase-file")
    p.add_argument("--run-id")
    p.add_argument("--rate", type=float, default=8, help="plain submissions a second")
    p.add_argument("--followers", type=int, default=4, help="streamed jobs followed at once")
    p.add_argument("--video-messages", type=int, default=8, help="messages of the long chat video; 0: none")
    p.add_argument("--sleep-seconds", type=int, default=20, help="the long diag.sleep's seconds; 0: none")
    p.add_argument("--paced-every", type=float, default=10, help="seconds between new limit-50 identities")
    p.add_argument("--burst-every", type=float, default=3, help="seconds between bursts of fresh identities/devices")
    p.add_argument("--request-timeout", type=float, default=30)
    p.add_argument("--stream-idle", type=float, default=90, help="a stream silent this long is resumed")
    p.add_argument("--submit-budget", type=float, default=120, help="seconds a submission is retried")
    p.add_argument("--follow-budget", type=float, default=600, help="seconds a job is followed")
    p.add_argument("--drain-timeout", type=float, default=420, help="seconds to let started work end after stop")
    p.add_argument("--progress-every", type=float, default=10)
    args = p.parse_args()
    asyncio.run(Load(args).main())


if __name__ == "__main__":
    main()
