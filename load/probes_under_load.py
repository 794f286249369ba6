#!/usr/bin/env python3
"""Kubernetes-style probes of a sample app while a load keeps its request threads (or admission turns) busy.

    load/probes_under_load.py --jar sample-web/target/sample-web-tomcat.jar                       # every scenario, slow load
    load/probes_under_load.py --jar sample-web/target/sample-web-jetty.jar --load slowbody
    load/probes_under_load.py --jar sample-reactive/target/sample-reactive.jar --scenarios virtual-mc50,plain
    load/probes_under_load.py --jar sample-web/target/sample-web-tomcat.jar --scenarios virtual-mc50 --management-port
    load/probes_under_load.py --jar ... --scenarios virtual-mc50 --expect-no-failures               # CI: exit 1 on a failed probe
    load/probes_under_load.py --jar sample-web/target/sample-web-tomcat.jar --load deep --heap 256m  # 2000 queued, pod heap
    load/probes_under_load.py --jar sample-web/target/sample-web-tomcat.jar --load cpu --clients 200  # CPU-bound requests
    load/probes_under_load.py --jar sample-web/target/sample-web-tomcat.jar --load deep --heap 128m --clients 3000 \
        --load-path '/heavy?kb=300&ms=2000' --seconds 40 --scenarios adaptive --expect-all-answered  # heavy requests
    load/probes_under_load.py --jar petclinic.jar --load-path '/owners?lastName=' --snapshot-path /actuator/threadmodel \
        --scenarios platform-50 --probe-after 15 --app-arg=--app.threads.readiness.refuse-when-shedding=true
    load/probes_under_load.py --table-from DIR [DIR ...]         # one Markdown table from the summary.csv of earlier runs

Each scenario is a fresh start of the jar on a free 127.0.0.1 port (load/toolkit.py), with
`--management.endpoint.health.probes.enabled=true` (and `--management.server.port` on a free port with
--management-port), then, for --seconds (20):

- the probes, as the kubelet sends them: each --probe-path (default /actuator/health/liveness and
  /actuator/health/readiness) is fetched every 200 ms on a new connection (`Connection: close`,
  `User-Agent: kube-probe/...`) with a 1 s timeout for the whole exchange. A probe fails when it times out, gets no
  answer, or its status is outside 200-399. As the kubelet's ticker does, a probe that overruns its period is
  followed at once by one more, then the next ones keep the period; one probe per path is in flight at a time;
- the load, against the same port as the application:
  - slow: 400 clients (--clients), each looping `GET /greetings` (sample-web: Thread.sleep on the request thread) or
    `GET /greetings/blocking` (sample-reactive: a controller method that sleeps on the request executor; its
    /greetings is a Mono.delay that holds no thread) with `--sample.greetings.delay=2s`, on kept-alive connections,
    started over the first second;
  - slowbody: 60 connections (--connections), each looping `POST /echo` (sample-web) with a 5-byte body
    (--body-bytes) sent one byte every 2 s, so each request holds a request thread about 10 s while it reads;
  - cpu: 400 clients (--clients), each looping `GET /cpu?ms=50` (--cpu-ms; both samples: busy-spins the request thread
    50 ms of wall-clock time, no sleeping, no yielding) on kept-alive connections, started over the first second. On
    virtual threads a spinning request keeps its carrier, so whatever else needs a virtual thread waits for one;
  - deep: a deep queue. 2000 clients (--clients) each send one slow request (the slow load's path and delay), all at
    once at the start of the window (no ramp: every connection is opened at once, each on a connection of its own),
    and wait for its answer until the window ends; what is unanswered then counts as in flight at the end. Behind
    max-concurrency=50 and 2-s requests, 25 are answered a second and the queue stays above 1,500 for 20 s. The
    summary says how long the client took to send them all (load_all_sent_s: about 1 s here on 2 cores), when the last
    answer came (load_last_answer_s: the burst's time, once every request is answered) and how late
    its event loop woke at worst (load_loop_lag_ms), to tell the client's own delay from the server's.
  A client answered 503 (the starter's overload answer) or that got no answer waits --refused-pause (1 s, the
  starter's Retry-After) before it asks again, so refusals do not become a busy loop on the machine's two cores.
  --load-path points the slow load at any GET path of any application (the sample's property is passed anyway and
  ignored there), --app-arg passes more arguments to it.

The heap, as a pod gives it: --heap 256m starts the application with -Xmx256m -XX:+ExitOnOutOfMemoryError (what
docs/kubernetes.md recommends), so a heap that runs out ends the JVM instead of leaving it half alive; --jvm-arg
passes any other JVM option. After each run its log is searched for OutOfMemoryError, and the table's last column says
ok, **OOM**, or **died** (the process was gone when the load stopped).

--warm-up runs the same load with --warm-up-clients (16) for that many seconds before the measured window, so the
JIT compiles the application's pages first (a cold application under 400 clients misses probes while it compiles,
with or without the starter); it is counted nowhere. For deep, the warm-up's clients loop the same request (as the
slow load does) instead of sending one each: the application has served what the burst asks for, as a pod has
before a burst.

--probe-after keeps probing that many seconds after the load stopped (to see readiness come back). Each
--snapshot-path (such as /actuator/threadmodel) is fetched on the probes' port right after the load stopped and saved
in the run's folder as the path's name with dashes (actuator-threadmodel.json).

Scenarios (--scenarios, in the order given):
  virtual-mc50        app.threads.model=virtual, virtual.max-concurrency=50
  virtual-mc50-qt200  the same plus virtual.queue-timeout=200ms (what docs/overload.md recommends)
  platform-50         app.threads.model=platform, platform.max-threads=50, platform.queue-capacity=0
  adaptive            app.threads.model=virtual (the default adaptive admission)
  adaptive-max50      the same with virtual.adaptive.max-limit=50, so that the adaptive limit is reached under this
                      load (not in the default order)
  plain               plain Spring Boot on virtual threads, the baseline: the same jar with every auto-configuration
                      of the starter excluded, as load/versus_plain.py runs it (spring.threads.virtual.enabled=true)
The default order puts plain among the starter's scenarios, so that drift on a shared machine touches both. A plain
run with a failed probe is run once more (--no-repeat-baseline: not): on this 2-core machine that is noise of the
machine, and both runs are in the results.

Per scenario and probe path the table gives the probes sent and failed (by kind), the longest streak of failures in a
row and how long it lasted, the probes' p99 (nearest rank: of 100 probes, the second longest) and longest latency (a
timed-out probe counts as the timeout, 1000 ms), the load's answers (2xx, 503, failed) and whether the application
survived. After a run the application gets --stop-grace (30) seconds from SIGTERM before SIGKILL: its graceful
shutdown lets a deep queue run first, which the measurement does not need (CI gives it 5).

Writes into --out: results.md (the table), summary.csv (one row per scenario and probe path, with the load's own
counts and the application's fate), probes.csv (every probe), meta.json, and per run its app log. Exit status: 1 when
--expect-no-failures is given and a probe failed, or the application ran out of heap or died (in the last run of a
scenario), when --expect-survival is given and the application ran out of heap or died (in any run), or when
--expect-all-answered is given and a request of the load got neither a 2xx nor a 503 within the window (in any run); 2 when the
application did not start or answer its probes.
Standard library only; loopback only; every loop is bounded by --seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import datetime as dt
import json
import os
import shlex
import socket
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402  (machine_info: the machine described as by the other load scripts)
import toolkit  # noqa: E402
import versus_plain  # noqa: E402  (plain Spring Boot's arguments, the same as in the comparisons)
from starter_auto_configurations import application_property  # noqa: E402

HOST = "127.0.0.1"
PROBE_PATHS = ("/actuator/health/liveness", "/actuator/health/readiness")
KUBE_PROBE_AGENT = "kube-probe/1.33"
PROBES_ENABLED = "--management.endpoint.health.probes.enabled=true"
LOADS = ("slow", "slowbody", "cpu", "deep")
OOM_MARK = "OutOfMemoryError"


@dataclass(frozen=True)
class Scenario:
    name: str
    label: str
    args: tuple = ()
    baseline: bool = False

    def app_args(self, jar: Path) -> list[str]:
        if self.baseline:
            return versus_plain.variant_args("plain", "virtual", jar)
        return list(self.args)


SCENARIOS = {s.name: s for s in (
    Scenario("virtual-mc50", "virtual, max-concurrency 50",
             ("--app.threads.model=virtual", "--app.threads.virtual.max-concurrency=50")),
    Scenario("virtual-mc50-qt200", "virtual, max-concurrency 50, queue-timeout 200ms",
             ("--app.threads.model=virtual", "--app.threads.virtual.max-concurrency=50",
              "--app.threads.virtual.queue-timeout=200ms")),
    Scenario("platform-50", "platform, max-threads 50, queue-capacity 0",
             ("--app.threads.model=platform", "--app.threads.platform.max-threads=50",
              "--app.threads.platform.queue-capacity=0")),
    Scenario("adaptive", "virtual, adaptive admission (the default)", ("--app.threads.model=virtual",)),
    Scenario("adaptive-max50", "virtual, adaptive admission, max-limit 50",
             ("--app.threads.model=virtual", "--app.threads.virtual.adaptive.max-limit=50")),
    Scenario("plain", "plain Spring Boot, virtual threads", baseline=True),
)}
DEFAULT_ORDER = ["virtual-mc50", "virtual-mc50-qt200", "plain", "platform-50", "adaptive"]


# ---------------------------------------------------------------- HTTP/1.1 answers (pure)

@dataclass
class Answer:
    """What the bytes received so far say: the status, the headers (lower-case names), whether the whole answer is
    there, how many bytes it took, and whether the server closes the connection after it."""
    status: int
    headers: dict
    complete: bool
    length: int
    close: bool


def parse_answer(data: bytes, eof: bool = False) -> Answer | None:
    """The HTTP/1.1 answer at the start of `data`; None while its head is incomplete (or is not HTTP). Its body is
    delimited by Content-Length, by chunked encoding, or, without either, by the end of the connection (`eof`)."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = data[:end].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    status = int(parts[1])
    close = headers.get("connection", "").lower() == "close" or parts[0] == "HTTP/1.0"
    body_start = end + 4
    if status in (204, 304) or 100 <= status < 200:
        return Answer(status, headers, True, body_start, close)
    if "chunked" in headers.get("transfer-encoding", "").lower():
        done = chunked_end(data, body_start)
        return Answer(status, headers, done is not None or eof, done or len(data), close)
    if "content-length" in headers:
        length = body_start + int(headers["content-length"])
        return Answer(status, headers, len(data) >= length or eof, min(length, len(data)), close)
    return Answer(status, headers, eof, len(data), True)


def chunked_end(data: bytes, pos: int) -> int | None:
    """Where a chunked body that starts at `pos` ends (after its last chunk and trailers); None while incomplete."""
    while True:
        line_end = data.find(b"\r\n", pos)
        if line_end < 0:
            return None
        size = int(data[pos:line_end].split(b";")[0].strip() or b"0", 16)
        if size == 0:
            trailers_end = data.find(b"\r\n\r\n", line_end)
            return None if trailers_end < 0 else trailers_end + 4
        pos = line_end + 2 + size + 2
        if pos > len(data):
            return None


# ---------------------------------------------------------------- the probes

@dataclass
class Probe:
    path: str
    sent_at: float  # seconds from the start of the load
    latency_ms: float
    outcome: str  # ok, timeout, status (outside 200-399), error (no answer)
    status: int | None = None
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.outcome != "ok"


def outcome_of(status: int | None) -> str:
    """The kubelet's verdict on an answer: 200-399 passes, any other status fails."""
    return "ok" if status is not None and 200 <= status < 400 else "status"


def probe_request(path: str, port: int) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUser-Agent: {KUBE_PROBE_AGENT}\r\nAccept: */*\r\n"
            "Connection: close\r\n\r\n").encode()


def probe_once(port: int, path: str, timeout: float) -> tuple[str, int | None, float, str]:
    """One probe on a new connection: (outcome, status, latency in ms, detail). The timeout bounds the whole exchange,
    connecting included, as the kubelet's HTTP client does."""
    start = time.monotonic()
    deadline = start + timeout
    data = b""
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as s:
            s.sendall(probe_request(path, port))
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                s.settimeout(remaining)
                chunk = s.recv(65536)
                answer = parse_answer(data + chunk, eof=not chunk)
                data += chunk
                if answer and answer.complete:
                    latency = (time.monotonic() - start) * 1000
                    return outcome_of(answer.status), answer.status, latency, ""
                if not chunk:
                    return "error", None, (time.monotonic() - start) * 1000, "closed without an answer"
    except (TimeoutError, socket.timeout):
        return "timeout", None, timeout * 1000, "no answer within the timeout"
    except OSError as e:
        return "error", None, (time.monotonic() - start) * 1000, type(e).__name__


def next_probe_at(origin: float, period: float, started: float, ended: float) -> float:
    """When the next probe goes, as with the kubelet's ticker (ticks at origin + k*period, one missed tick kept): at
    once when a tick fell while the last probe ran (it started at `started`, ended at `ended`), else the next tick."""
    following = origin + (int((started - origin) / period + 1e-9) + 1) * period  # 1e-9: 1.4 / 0.2 is 6.999...
    if following <= ended:
        return ended
    return following


class Prober(threading.Thread):
    """Probes one path until `until` (monotonic), one probe in flight at a time."""

    def __init__(self, port: int, path: str, origin: float, until: float, period: float, timeout: float):
        super().__init__(name=f"probe {path}", daemon=True)
        self.port, self.path, self.origin, self.until = port, path, origin, until
        self.period, self.timeout = period, timeout
        self.probes: list[Probe] = []

    def run(self):
        at = self.origin
        while at < self.until:
            pause = at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            started = time.monotonic()
            outcome, status, latency, detail = probe_once(self.port, self.path, self.timeout)
            self.probes.append(Probe(self.path, round(started - self.origin, 3), round(latency, 1), outcome, status,
                                     detail))
            at = next_probe_at(self.origin, self.period, started, time.monotonic())


def summarize_probes(probes: list[Probe], period: float) -> dict:
    """sent, failed, timeouts, bad_status, errors, the most failures in a row and how long that stretch lasted (from
    the first failed probe's start to the last one's end, or to the next tick when it failed sooner), the longest, the
    median and the 99th percentile latency (a timed-out probe counts as its timeout)."""
    most, run, stretch_s, run_start = 0, 0, 0.0, 0.0
    for p in probes:
        if p.failed:
            run_start = p.sent_at if run == 0 else run_start
            run += 1
            if run > most:
                most, stretch_s = run, p.sent_at - run_start + max(p.latency_ms / 1000, period)
        else:
            run = 0
    latencies = [p.latency_ms for p in probes]
    return {"sent": len(probes), "failed": sum(p.failed for p in probes),
            "timeouts": sum(p.outcome == "timeout" for p in probes),
            "bad_status": sum(p.outcome == "status" for p in probes),
            "errors": sum(p.outcome == "error" for p in probes),
            "statuses": " ".join(f"{s}x{n}" for s, n in sorted(count_statuses(probes).items())),
            "most_in_a_row": most, "failing_s": round(stretch_s, 1),
            "longest_ms": round(max(latencies), 1) if latencies else None,
            "median_ms": round(statistics.median(latencies), 1) if latencies else None,
            "p99_ms": round(percentile(latencies, 99), 1) if latencies else None}


def percentile(values: list, pct: float) -> float:
    """The nearest-rank percentile (the value at rank ceil(pct/100 * n)): of 100 probes, p99 is the second
    longest. A timed-out probe counts as the timeout."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]


def count_statuses(probes: list[Probe]) -> dict:
    out: dict = {}
    for p in probes:
        if p.outcome == "status":
            out[p.status] = out.get(p.status, 0) + 1
    return out


# ---------------------------------------------------------------- the load

@dataclass
class LoadCounts:
    answered: int = 0  # 2xx
    refused: int = 0  # 503
    other_status: int = 0
    errors: int = 0  # no answer: reset, closed, timed out
    unfinished: int = 0  # in flight when the load stopped
    latencies_ms: list = field(default_factory=list)
    all_sent_s: float | None = None  # deep: seconds from the window's start until every client had sent its request
    last_answer_s: float | None = None  # deep: seconds from the window's start until the last answer came (the burst's time)
    loop_lag_ms: float = 0.0  # the longest the load's event loop was late for a 50 ms tick: the client's own delay

    @property
    def failed(self) -> int:
        return self.other_status + self.errors

    def count(self, status: int | None):
        if status is None:
            self.errors += 1
        elif 200 <= status < 300:
            self.answered += 1
        elif status == 503:
            self.refused += 1
        else:
            self.other_status += 1


class Load(threading.Thread):
    """The load, on an event loop of its own: `clients` clients until `until` (monotonic), then every one is cut."""

    def __init__(self, kind: str, port: int, path: str, clients: int, until: float, a):
        super().__init__(name=f"load {kind}", daemon=True)
        self.kind, self.port, self.path, self.clients, self.until, self.a = kind, port, path, clients, until, a
        self.counts = LoadCounts()
        self.started, self.sent = time.monotonic(), 0  # deep: when the clients started, how many have sent

    def run(self):
        asyncio.run(self.main())

    async def main(self):
        client = self.slowbody_client if self.kind == "slowbody" else self.deep_client if self.kind == "deep" \
            else self.slow_client
        self.started = time.monotonic()
        ticker = asyncio.create_task(self.watch_loop())
        tasks = [asyncio.create_task(client(i)) for i in range(self.clients)]
        await asyncio.sleep(max(0.0, self.until - time.monotonic()))
        for t in [*tasks, ticker]:
            t.cancel()
        await asyncio.gather(*tasks, ticker, return_exceptions=True)

    async def watch_loop(self, tick: float = 0.05):
        """How late the event loop wakes for a 50 ms tick, the longest kept (counts.loop_lag_ms): when the clients
        themselves are the bottleneck (2000 connections on one thread), this is where it shows."""
        while time.monotonic() < self.until:
            before = time.monotonic()
            await asyncio.sleep(tick)
            late = (time.monotonic() - before - tick) * 1000
            self.counts.loop_lag_ms = round(max(self.counts.loop_lag_ms, late), 1)

    def request(self) -> bytes:
        return (f"GET {self.path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nUser-Agent: probes-under-load\r\n"
                "Accept: */*\r\n\r\n").encode()

    async def slow_client(self, i: int):
        """slow and cpu: GET the path again and again on a kept-alive connection."""
        request = self.request()

        async def exchange(conn):
            conn[1].write(request)
            return await asyncio.wait_for(read_answer(conn[0]), self.a.request_timeout)
        await self.loop_requests(i, exchange)

    async def deep_client(self, i: int):
        """deep: one request, sent by every client at once at the window's start (no ramp); the client waits for its
        answer until the end of the window (in flight then: unfinished), then does nothing more."""
        conn = None
        try:
            conn = await asyncio.open_connection(HOST, self.port)
            conn[1].write(self.request())
            await conn[1].drain()
            self.sent += 1
            if self.sent == self.clients:
                self.counts.all_sent_s = round(time.monotonic() - self.started, 2)
            answer = await asyncio.wait_for(read_answer(conn[0]), max(0.1, self.until - time.monotonic()))
            self.counts.count(answer.status)
            self.counts.last_answer_s = round(time.monotonic() - self.started, 2)
        except asyncio.TimeoutError:
            self.counts.unfinished += 1
        except asyncio.CancelledError:
            self.counts.unfinished += 1
            raise
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.counts.count(None)
        finally:
            close(conn)

    async def slowbody_client(self, i: int):
        body = (b"abcdefghijklmnopqrstuvwxyz" * (self.a.body_bytes // 26 + 1))[:self.a.body_bytes]
        head = (f"POST {self.path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nUser-Agent: probes-under-load\r\n"
                f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\nAccept: text/plain\r\n\r\n").encode()
        await self.loop_requests(i, lambda conn: self.send_slowly(conn, head, body))

    async def loop_requests(self, i: int, exchange):
        """One client: starts at its place in the ramp, then asks again and again on a kept-alive connection (a new
        one when the server closed it, or answered with an error, which may come before a body was read). After a
        2xx answer it asks again at once; after anything else it waits --refused-pause. It stops by itself at `until`
        too: before Python 3.12, asyncio.wait_for loses a cancellation that arrives as the answer does, and such a
        client would go on asking after the run (seen: the load outlived its window by 90 s)."""
        await asyncio.sleep(self.a.ramp * i / self.clients)
        conn = None
        in_flight = False
        try:
            while time.monotonic() < self.until:
                in_flight = True
                try:
                    if conn is None:
                        conn = await asyncio.open_connection(HOST, self.port)
                    answer = await exchange(conn)
                    status = answer.status
                    if answer.close or status >= 400:
                        conn = close(conn)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
                    status = None
                    conn = close(conn)
                in_flight = False
                self.counts.count(status)
                if status is None or not 200 <= status < 300:
                    await asyncio.sleep(self.a.refused_pause)
        except asyncio.CancelledError:
            if in_flight:
                self.counts.unfinished += 1
            raise
        finally:
            close(conn)

    async def send_slowly(self, conn, head: bytes, body: bytes) -> Answer:
        """The head at once, then one byte of the body every --body-interval seconds; an answer that comes before the
        body is whole (a 503, say) ends the request."""
        reader, writer = conn
        writer.write(head)
        data = b""
        for i in range(len(body)):
            try:
                chunk = await asyncio.wait_for(reader.read(65536), self.a.body_interval)
            except asyncio.TimeoutError:
                writer.write(body[i:i + 1])
                await writer.drain()
                continue
            if not chunk:
                raise ConnectionResetError("closed while the body was sent")
            data += chunk
            answer = parse_answer(data)
            if answer and answer.complete:
                return answer
        return await asyncio.wait_for(read_answer(reader, data), self.a.request_timeout)


async def read_answer(reader: asyncio.StreamReader, data: bytes = b"") -> Answer:
    while True:
        answer = parse_answer(data)
        if answer and answer.complete:
            return answer
        chunk = await reader.read(65536)
        if not chunk:
            answer = parse_answer(data, eof=True)
            if answer:
                return answer
            raise ConnectionResetError("closed without an answer")
        data += chunk


def close(conn):
    if conn is not None:
        conn[1].close()
    return None


# ---------------------------------------------------------------- one run

@dataclass
class Run:
    scenario: str
    attempt: int
    load: str
    server: str
    probes: list
    counts: LoadCounts
    loadavg: float
    args: list = field(default_factory=list)
    note: str = ""
    heap: str = ""  # --heap, when given
    alive: bool = True  # the application still ran when the load stopped
    oom: bool = False  # an OutOfMemoryError in its log


def saw_oom(log_text: str) -> bool:
    """Whether the application's log shows an OutOfMemoryError (with -XX:+ExitOnOutOfMemoryError the JVM prints
    "Terminating due to java.lang.OutOfMemoryError: ..." and exits)."""
    return OOM_MARK in log_text


def application_name(jar: Path) -> str:
    return application_property(jar, "spring.application.name") or jar.stem


def warm_up_kind(load: str) -> str:
    """The load that warms the application up for `load`: the same, but for a deep queue its clients loop the burst's
    request (as the slow load does) instead of sending one each, so the application has served what the burst asks
    for, as a pod has before a burst."""
    return "slow" if load == "deep" else load


def load_path(a) -> str:
    """What the load asks for: --load-path, or the sample's slow endpoint (see the module's docstring)."""
    if a.load_path:
        return a.load_path
    reactive = application_name(a.jar) == "sample-reactive"
    if a.load == "cpu":
        return f"/cpu?ms={a.cpu_ms}"
    if a.load == "slowbody":
        if reactive:
            raise SystemExit("slowbody needs a sample-web jar (POST /echo), or --load-path naming an endpoint of "
                             "yours that reads a request body on the request thread")
        return "/echo"
    return "/greetings/blocking" if reactive else "/greetings"


def run_args(a, scenario: Scenario, management_port: int | None) -> list[str]:
    args = [*scenario.app_args(a.jar), PROBES_ENABLED, f"--sample.greetings.delay={a.delay}"]
    if management_port:
        args += [f"--management.server.port={management_port}", f"--management.server.address={HOST}"]
    return args + list(a.app_arg)


def jvm_options(a) -> list[str]:
    """The JVM's options: --heap as -Xmx (a pod's heap) with -XX:+ExitOnOutOfMemoryError, then each --jvm-arg."""
    heap = [f"-Xmx{a.heap}", "-XX:+ExitOnOutOfMemoryError"] if a.heap else []
    return heap + list(a.jvm_arg)


def run_once(a, scenario: Scenario, attempt: int, root: Path) -> Run:
    outdir = root / (scenario.name if attempt == 1 else f"{scenario.name}-run{attempt}")
    outdir.mkdir(parents=True, exist_ok=True)
    management_port = (a.management_port or toolkit.free_port()) if a.management_port is not None else None
    app = toolkit.App([toolkit.java(), *jvm_options(a), "-jar", str(a.jar)], run_args(a, scenario, management_port),
                      outdir / "app.log", cwd=outdir)
    probe_port = management_port or app.port
    try:
        for path in a.probe_path:
            status_base = f"http://{HOST}:{probe_port}"
            app.wait_until(lambda p=path: toolkit.http(status_base + p, timeout=2)[0] == 200, a.start_timeout,
                           f"200 from {path} on port {probe_port}", interval=0.2)
        if a.warm_up:
            warm = Load(warm_up_kind(a.load), app.port, load_path(a), a.warm_up_clients, time.monotonic() + a.warm_up,
                        a)
            warm.start()
            warm.join(a.warm_up + a.request_timeout + 30)
        loadavg = os.getloadavg()[0]
        origin = time.monotonic() + 0.1
        until = origin + a.seconds
        load = Load(a.load, app.port, load_path(a), a.connections if a.load == "slowbody" else a.clients, until, a)
        probers = [Prober(probe_port, path, origin, until + a.probe_after, a.probe_period, a.probe_timeout)
                   for path in a.probe_path]
        load.start()
        for p in probers:
            p.start()
        load.join(a.seconds + a.request_timeout + 30)
        alive = app.alive()
        save_snapshots(a.snapshot_path, probe_port, outdir)
        for p in probers:
            p.join(a.seconds + a.probe_after + a.request_timeout + 30)
        probes = sorted((p for pr in probers for p in pr.probes), key=lambda p: p.sent_at)
        return Run(scenario.name, attempt, a.load, a.server, probes, load.counts, loadavg,
                   app.command[app.command.index("-jar") + 2:], alive=alive and app.alive(),
                   oom=saw_oom(app.log_text()))
    finally:
        if not app.stop(a.stop_grace):
            log(f"{outdir.name}: did not stop within {a.stop_grace:g} s of SIGTERM; killed")


def snapshot_file(path: str) -> str:
    """/actuator/threadmodel is saved as actuator-threadmodel.json."""
    return path.split("?", 1)[0].strip("/").replace("/", "-") + ".json"


def save_snapshots(paths: list[str], port: int, outdir: Path):
    """Each path's answer as it is, whatever its status (a plain application answers 404 for the starter's); a 503
    (the starter still shedding what the load left in flight) is asked again up to 5 times, 1 s apart."""
    for path in paths:
        for _ in range(6):
            status, body = toolkit.http(f"http://{HOST}:{port}{path}", timeout=5)
            if status != 503:
                break
            time.sleep(1)
        (outdir / snapshot_file(path)).write_bytes(body)
        log(f"  {path}: {status}")


# ---------------------------------------------------------------- results (pure)

SUMMARY_COLUMNS = ["server", "load", "scenario", "attempt", "probe", "sent", "failed", "timeouts", "bad_status",
                   "errors", "statuses", "most_in_a_row", "failing_s", "longest_ms", "median_ms", "p99_ms",
                   "load_answered", "load_refused", "load_failed", "load_unfinished", "load_all_sent_s", "load_last_answer_s",
                   "load_loop_lag_ms", "alive", "oom", "heap", "loadavg", "note"]
PROBE_COLUMNS = ["server", "load", "scenario", "attempt", "path", "sent_at", "latency_ms", "outcome", "status", "detail"]


def summary_rows(run: Run, paths: list[str], period: float) -> list[dict]:
    rows = []
    for path in paths:
        s = summarize_probes([p for p in run.probes if p.path == path], period)
        rows.append({"server": run.server, "load": run.load, "scenario": run.scenario, "attempt": run.attempt,
                     "probe": path, **s, "load_answered": run.counts.answered, "load_refused": run.counts.refused,
                     "load_failed": run.counts.failed, "load_unfinished": run.counts.unfinished,
                     "load_all_sent_s": run.counts.all_sent_s, "load_last_answer_s": run.counts.last_answer_s,
                     "load_loop_lag_ms": run.counts.loop_lag_ms,
                     "alive": run.alive, "oom": run.oom, "heap": run.heap,
                     "loadavg": round(run.loadavg, 2), "note": run.note})
    return rows


def short_probe(path: str) -> str:
    """/actuator/health/liveness reads liveness; other paths as they are."""
    return path.rsplit("/", 1)[-1] if path.startswith("/actuator/health/") else path


def scenario_label(name: str) -> str:
    return SCENARIOS[name].label if name in SCENARIOS else name


def markdown(rows: list[dict]) -> str:
    """One line per run and probe path; the load's counts on the first line of each run."""
    lines = ["| server | load | scenario | probe | sent | failed | timeouts | non-2xx/3xx | no answer | most in a row "
             "| p99 ms | longest ms | load: 2xx | 503 | failed | app |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    previous = None
    for r in rows:
        key = (r["server"], r["load"], r["scenario"], str(r["attempt"]))
        first = key != previous
        previous = key
        scenario = scenario_label(r["scenario"]) + ("" if str(r["attempt"]) == "1" else f" (run {r['attempt']})")
        failed = f"**{r['failed']}**" if int(r["failed"]) else "0"
        bad = str(r["bad_status"]) + (f" ({r['statuses']})" if r.get("statuses") else "")
        row = [r["server"], r["load"], scenario] if first else ["", "", ""]
        row += [short_probe(r["probe"]), str(r["sent"]), failed, str(r["timeouts"]), bad, str(r["errors"]),
                f"{r['most_in_a_row']} ({r['failing_s']} s)" if int(r["most_in_a_row"]) else "0",
                fmt_ms(r.get("p99_ms")), fmt_ms(r["longest_ms"])]
        row += [str(r["load_answered"]), str(r["load_refused"]), str(r["load_failed"]), app_state(r)] if first \
            else ["", "", "", ""]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def fmt_ms(v) -> str:
    return "—" if v in (None, "") else f"{float(v):.0f}"


def truth(v) -> bool | None:
    """A flag as written to summary.csv ("True", "False") or as it is; None when absent (an older summary.csv)."""
    if v in (None, ""):
        return None
    return v if isinstance(v, bool) else str(v) == "True"


def app_state(r: dict) -> str:
    """ok; **OOM** (an OutOfMemoryError in its log); **died** (not running when the load stopped); — when unknown."""
    oom, alive = truth(r.get("oom")), truth(r.get("alive"))
    if oom:
        return "**OOM**"
    if alive is False:
        return "**died**"
    return "—" if alive is None else "ok"


def failed_scenarios(rows: list[dict]) -> list[str]:
    """The scenarios (server, load, name) whose last run had a failed probe, or whose application ran out of heap or
    died."""
    last: dict = {}
    for r in rows:
        key = (r["server"], r["load"], r["scenario"])
        last[key] = max(last.get(key, 0), int(r["attempt"]))
    failed = {(r["server"], r["load"], r["scenario"]) for r in rows
              if int(r["attempt"]) == last[(r["server"], r["load"], r["scenario"])]
              and (int(r["failed"]) or app_state(r) in ("**OOM**", "**died**"))}
    return [" ".join(k) for k in last if k in failed]


def scenarios_where(rows: list[dict], happened) -> list[str]:
    """The scenarios (server, load, name), in order, in any run of which `happened(row)` is true."""
    return list(dict.fromkeys(" ".join((r["server"], r["load"], r["scenario"])) for r in rows if happened(r)))


def unanswered_scenarios(rows: list[dict]) -> list[str]:
    """The scenarios in any run of which a request of the load got no answer (2xx or 503) within the window: it failed,
    or was still in flight when the window ended."""
    return scenarios_where(rows, lambda r: int(r["load_failed"]) or int(r["load_unfinished"]))


def died_scenarios(rows: list[dict]) -> list[str]:
    """The scenarios whose application ran out of heap or died, in any run."""
    return scenarios_where(rows, lambda r: app_state(r) in ("**OOM**", "**died**"))


def write_csv(path: Path, rows: list[dict], columns: list[str]):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def read_summaries(dirs: list[str]) -> list[dict]:
    rows = []
    for d in dirs:
        with open(Path(d) / "summary.csv", newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


def write_results(root: Path, rows: list[dict], probes: list[dict], meta: dict):
    write_csv(root / "summary.csv", rows, SUMMARY_COLUMNS)
    write_csv(root / "probes.csv", probes, PROBE_COLUMNS)
    (root / "meta.json").write_text(json.dumps(meta, indent=2, default=str))
    (root / "results.md").write_text(
        f"# Probes under load, {meta['timestamp']}\n\nCommand: `{meta['command']}`\n\n"
        f"Machine: {meta['machine']}; {meta['java']}"
        + (f", -Xmx{meta['heap']} -XX:+ExitOnOutOfMemoryError" if meta.get("heap") else "")
        + f". Probes: every {meta['probe_period_s']} s per path, "
        f"{meta['probe_timeout_s']} s timeout, a new connection each; failed = timed out, no answer, or a status "
        f"outside 200-399. Load: {meta['load_description']}, {meta['seconds']} s per run.\n\n" + markdown(rows))


# ---------------------------------------------------------------- main

def log(msg: str):
    print(f"[probes {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def load_description(a) -> str:
    if a.load == "slow":
        return f"{a.clients} clients looping GET {load_path(a)}" + ("" if a.load_path else f" ({a.delay} each)")
    if a.load == "cpu":
        return f"{a.clients} clients looping GET {load_path(a)} (busy-spinning the request thread)"
    if a.load == "deep":
        return (f"{a.clients} clients each sending one GET {load_path(a)}" + ("" if a.load_path else f" ({a.delay})")
                + " at once")
    return (f"{a.connections} connections looping POST {load_path(a)} with a {a.body_bytes}-byte body sent one byte "
            f"every {a.body_interval:g} s")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", type=Path, help="the application jar (sample-web or sample-reactive)")
    p.add_argument("--server", help="the server's label in the results (default: from the jar's name)")
    p.add_argument("--scenarios", default=",".join(DEFAULT_ORDER),
                   help=f"comma-separated, run in this order: {', '.join(SCENARIOS)} (default: {','.join(DEFAULT_ORDER)})")
    p.add_argument("--load", choices=LOADS, default="slow")
    p.add_argument("--seconds", type=float, default=20, help="seconds of load and probes per run")
    p.add_argument("--probe-path", action="append", help="a path to probe (repeatable; default the liveness and "
                   "readiness groups)")
    p.add_argument("--probe-period", type=float, default=0.2)
    p.add_argument("--warm-up", type=float, default=0, help="seconds of warm-up load before the measured window")
    p.add_argument("--warm-up-clients", type=int, default=16, help="clients of the warm-up load")
    p.add_argument("--probe-after", type=float, default=0, help="seconds of probing after the load stopped")
    p.add_argument("--snapshot-path", action="append", default=[],
                   help="a path fetched right after the load stopped and saved in the run's folder (repeatable)")
    p.add_argument("--probe-timeout", type=float, default=1.0)
    p.add_argument("--management-port", type=int, nargs="?", const=0,
                   help="serve the actuator on management.server.port (a free port, or the one given) and probe there")
    p.add_argument("--clients", type=int, help="slow, cpu: concurrent clients (400); deep: simultaneous requests (2000)")
    p.add_argument("--cpu-ms", type=int, default=50, help="cpu: milliseconds each request busy-spins (GET /cpu?ms=)")
    p.add_argument("--heap", help="the application's heap, as a pod gives it: -Xmx<HEAP> -XX:+ExitOnOutOfMemoryError "
                   "(e.g. 256m)")
    p.add_argument("--jvm-arg", action="append", default=[], help="one more JVM option for the application "
                   "(repeatable)")
    p.add_argument("--delay", default="2s", help="slow: sample.greetings.delay")
    p.add_argument("--connections", type=int, default=60, help="slowbody: concurrent connections")
    p.add_argument("--body-bytes", type=int, default=5, help="slowbody: the body's length")
    p.add_argument("--body-interval", type=float, default=2.0, help="slowbody: seconds between the body's bytes")
    p.add_argument("--load-path", help="what the load asks for (default: the sample's slow endpoint)")
    p.add_argument("--ramp", type=float, default=1.0, help="seconds over which the load's clients start")
    p.add_argument("--refused-pause", type=float, default=1.0,
                   help="seconds a client waits after a 503 or no answer before asking again")
    p.add_argument("--request-timeout", type=float, default=60.0, help="longest wait of the load for one answer")
    p.add_argument("--app-arg", action="append", default=[], help="one more argument for the application (repeatable)")
    p.add_argument("--no-repeat-baseline", dest="repeat_baseline", action="store_false",
                   help="do not run plain Spring Boot once more when one of its probes failed")
    p.add_argument("--expect-no-failures", action="store_true",
                   help="exit 1 when a probe failed or the application ran out of heap or died")
    p.add_argument("--expect-all-answered", action="store_true",
                   help="exit 1 when a request of the load got no answer (2xx or 503) within the window, in any run "
                        "(for the deep load: give --seconds past the queue timeout)")
    p.add_argument("--expect-survival", action="store_true",
                   help="exit 1 when the application ran out of heap or died (failed probes are only reported)")
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--stop-grace", type=float, default=30, help="seconds from SIGTERM to SIGKILL after a run (the "
                   "application's graceful shutdown lets a deep queue run first)")
    p.add_argument("--out", type=Path, help="where the results go (default results/probes-under-load-<time>)")
    p.add_argument("--table-from", nargs="+", metavar="DIR", help="print one Markdown table of earlier runs and exit")
    a = p.parse_args(argv)
    if a.table_from:
        return a
    if not a.jar:
        p.error("--jar is required")
    a.scenarios = [s.strip() for s in a.scenarios.split(",") if s.strip()]
    for s in a.scenarios:
        if s not in SCENARIOS:
            p.error(f"unknown scenario {s} (known: {', '.join(SCENARIOS)})")
    if not a.scenarios:
        p.error("no scenario chosen")
    a.jar = a.jar.resolve()  # each run starts in a folder of its own
    a.probe_path = a.probe_path or list(PROBE_PATHS)
    a.clients = a.clients or (2000 if a.load == "deep" else 400)
    a.server = a.server or a.jar.stem.replace("sample-web-", "").replace("sample-", "")
    for name in ("seconds", "probe_period", "probe_timeout", "body_interval"):
        if getattr(a, name) <= 0:
            p.error(f"--{name.replace('_', '-')} must be above 0")
    for name in ("probe_after", "warm_up"):
        if getattr(a, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be 0 or more")
    if a.heap and not a.heap[:-1].isdigit() and not a.heap.isdigit():
        p.error(f"--heap {a.heap}: a size as -Xmx takes it (256m, 1g)")
    for name in ("clients", "connections", "body_bytes", "warm_up_clients", "cpu_ms"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return a


def main(argv=None) -> int:
    a = parse_args(argv)
    if a.table_from:
        print(markdown(read_summaries(a.table_from)), end="")
        return 0
    if not a.jar.exists():
        raise SystemExit(f"no jar {a.jar} (build it first: docs/samples.md)")
    toolkit.stop_on_sigterm()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = a.out or toolkit.ROOT / "results" / f"probes-under-load-{stamp}"
    root.mkdir(parents=True, exist_ok=True)
    meta = {"timestamp": stamp, "command": shlex.join(["load/probes_under_load.py",
                                                       *(argv if argv is not None else sys.argv[1:])]),
            **bench.machine_info("k6"), "jar": str(a.jar), "server": a.server, "load": a.load,
            "load_description": load_description(a), "seconds": a.seconds, "probe_paths": a.probe_path,
            "probe_period_s": a.probe_period, "probe_timeout_s": a.probe_timeout, "probe_after_s": a.probe_after,
            "warm_up_s": a.warm_up, "warm_up_clients": a.warm_up_clients, "heap": a.heap,
            "jvm_options": jvm_options(a),
            "management_port": a.management_port is not None, "scenarios": a.scenarios, "runs": []}
    rows, probes = [], []
    for name in a.scenarios:
        scenario = SCENARIOS[name]
        attempt = 1
        while True:
            log(f"{a.server}, {a.load}: {scenario.label}" + ("" if attempt == 1 else f", run {attempt}"))
            try:
                run = run_once(a, scenario, attempt, root)
                run.heap = a.heap or ""
            except RuntimeError as e:
                log(f"{name}: {e}")
                write_results(root, rows, probes, meta)
                return 2
            if scenario.baseline and attempt == 1 and any(p.failed for p in run.probes) and a.repeat_baseline:
                run.note = "plain Spring Boot failed a probe: run once more"
            new_rows = summary_rows(run, a.probe_path, a.probe_period)
            rows += new_rows
            probes += [{"server": run.server, "load": run.load, "scenario": name, "attempt": attempt,
                        **asdict(p)} for p in run.probes]
            meta["runs"].append({"scenario": name, "attempt": attempt, "args": run.args,
                                 "loadavg_1m": run.loadavg, "load_unfinished": run.counts.unfinished,
                                 "alive": run.alive, "oom": run.oom})
            for r in new_rows:
                log(f"  {short_probe(r['probe'])}: {r['failed']} of {r['sent']} failed ({r['timeouts']} timeouts, "
                    f"{r['bad_status']} bad status, {r['errors']} no answer), p99 {fmt_ms(r['p99_ms'])} ms, "
                    f"longest {fmt_ms(r['longest_ms'])} ms")
            c = run.counts
            log(f"  load: {c.answered} answered, {c.refused} refused (503), {c.failed} failed, {c.unfinished} "
                f"in flight at the end" + ("" if c.all_sent_s is None else f", all sent within {c.all_sent_s} s")
                + ("" if c.last_answer_s is None else f", the last answer at {c.last_answer_s} s")
                + f", client loop late by at most {c.loop_lag_ms} ms")
            log("  app: " + ("OutOfMemoryError in its log" if run.oom else "running" if run.alive else "exited"))
            write_results(root, rows, probes, meta)
            if not run.note:
                break
            attempt += 1
    log(f"results: {root / 'results.md'}")
    failed = failed_scenarios(rows)
    if failed and a.expect_no_failures:
        log(f"probes failed (or the app ran out of heap) in: {', '.join(failed)}")
        return 1
    died = died_scenarios(rows)
    if died and a.expect_survival:
        log(f"the application ran out of heap or died in: {', '.join(died)}")
        return 1
    unanswered = unanswered_scenarios(rows)
    if unanswered and a.expect_all_answered:
        log(f"requests of the load got no answer within the window in: {', '.join(unanswered)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
