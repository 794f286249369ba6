#!/usr/bin/env python3
"""A light burst right after a heavy one, on a pod's heap: how fast the adaptive limit lets the light one through.

    load/after_burst.py --jar sample-web/target/sample-web-tomcat.jar --heap 256m
    load/after_burst.py --jar sample-web/target/sample-web-tomcat.jar --heap 256m --jvm-arg=-XX:+DisableExplicitGC

The case the adaptive limit's stale-pressure check is for (docs/overload.md, "A stale pressure is checked"): a heavy
burst (--heavy-clients simultaneous --heavy-path requests, 2000 x /heavy?kb=300&ms=2000) leaves the limit low and the
old generation full of what its requests left; then a light burst (--light-clients simultaneous --light-path
requests, 2000 x /greetings with sample.greetings.delay=2s) allocates too little for a collection to come soon, so
the last collection's reading, heap pressure, stays the only one. The check asks for a full collection
(System.gc()) when that reading is more than a second old while requests wait; -XX:+DisableExplicitGC turns the call
into nothing, which is the A/B.

One fresh start of the jar per run (default admission: app.threads.model=virtual), --heavy-seconds of heavy burst
(its window: what is unanswered then counts as unanswered), then at once --light-seconds of light burst, while
/actuator/threadmodel is read every 0.5 s for the admission limit. Prints one JSON line per run: the light burst's
answers (200, 503, failed, unanswered), the seconds until its last answer, the limit when it started and its
highest during it, and how many full collections the limit asked for (its DEBUG log line). --out keeps the app log.
Standard library only; loopback only.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import probes_under_load as pul  # noqa: E402  (the deep load: every client sends one request at once)
import toolkit  # noqa: E402

FULL_COLLECTION_MARK = "asking for a full collection"


def admission_limit(port: int) -> int | None:
    status, body = toolkit.http(f"http://{pul.HOST}:{port}/actuator/threadmodel", timeout=2)
    if status != 200:
        return None
    return (json.loads(body).get("admission") or {}).get("limit")


class LimitWatch(threading.Thread):
    """Reads the admission limit every `period` seconds until stopped."""

    def __init__(self, port: int, period: float = 0.5):
        super().__init__(name="limit watch", daemon=True)
        self.port, self.period, self.limits, self.stopped = port, period, [], threading.Event()

    def run(self):
        while not self.stopped.wait(self.period):
            try:
                self.limits.append(admission_limit(self.port))
            except OSError:
                self.limits.append(None)


def burst(port: int, path: str, clients: int, seconds: float, a) -> tuple[pul.Load, float | None]:
    """One deep load; returns it and the seconds until every request was answered (None: not all in the window)."""
    started = time.monotonic()
    load = pul.Load("deep", port, path, clients, started + seconds, a)
    load.start()
    done_at = None
    while load.is_alive():
        c = load.counts
        if done_at is None and c.answered + c.refused + c.failed >= clients:
            done_at = time.monotonic() - started
        load.join(0.1)
    c = load.counts
    if done_at is None and c.answered + c.refused + c.failed >= clients:
        done_at = seconds
    return load, done_at


def run_once(a, outdir: Path) -> dict:
    outdir.mkdir(parents=True, exist_ok=True)
    jvm = [f"-Xmx{a.heap}", "-XX:+ExitOnOutOfMemoryError", *a.jvm_arg]
    args = ["--app.threads.model=virtual", f"--sample.greetings.delay={a.delay}",
            "--logging.level.io.github.threadmodel.executor.AdaptiveLimiter=debug", *a.app_arg]
    app = toolkit.App([toolkit.java(), *jvm, "-jar", str(a.jar)], args, outdir / "app.log", cwd=outdir)
    try:
        app.wait_until(lambda: admission_limit(app.port) is not None, a.start_timeout, "/actuator/threadmodel")
        heavy, _ = burst(app.port, a.heavy_path, a.heavy_clients, a.heavy_seconds, a)
        before = app.log_text().count(FULL_COLLECTION_MARK)
        start_limit = admission_limit(app.port)
        watch = LimitWatch(app.port)
        watch.start()
        light, done_s = burst(app.port, a.light_path, a.light_clients, a.light_seconds, a)
        watch.stopped.set()
        watch.join(5)
        limits = [v for v in watch.limits if v is not None]
        return {"jvm_args": a.jvm_arg, "heavy_200": heavy.counts.answered, "heavy_503": heavy.counts.refused,
                "heavy_unanswered": heavy.counts.unfinished + heavy.counts.failed,
                "light_200": light.counts.answered, "light_503": light.counts.refused,
                "light_failed": light.counts.failed, "light_unanswered": light.counts.unfinished,
                "light_all_answered_s": None if done_s is None else round(done_s, 1),
                "limit_at_light_start": start_limit, "limit_max_during_light": max(limits, default=None),
                "full_collections_asked_during_light": app.log_text().count(FULL_COLLECTION_MARK) - before,
                "alive": app.alive(), "oom": pul.saw_oom(app.log_text())}
    finally:
        app.stop(a.stop_grace)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", type=Path, required=True, help="a sample-web jar (/heavy and /greetings)")
    p.add_argument("--heap", default="256m", help="-Xmx of the application (a pod's heap)")
    p.add_argument("--jvm-arg", action="append", default=[], help="one more JVM option (repeatable)")
    p.add_argument("--app-arg", action="append", default=[], help="one more application argument (repeatable)")
    p.add_argument("--heavy-path", default="/heavy?kb=300&ms=2000")
    p.add_argument("--heavy-clients", type=int, default=2000)
    p.add_argument("--heavy-seconds", type=float, default=40, help="the heavy burst's window (past the 30 s queue "
                   "timeout, so that every request is answered in it)")
    p.add_argument("--light-path", default="/greetings")
    p.add_argument("--delay", default="2s", help="sample.greetings.delay: how long a light request sleeps")
    p.add_argument("--light-clients", type=int, default=2000)
    p.add_argument("--light-seconds", type=float, default=40)
    p.add_argument("--request-timeout", type=float, default=60.0)
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--stop-grace", type=float, default=5)
    p.add_argument("--out", type=Path, help="where the app log goes (default results/after-burst-<time>)")
    a = p.parse_args(argv)
    a.jar = a.jar.resolve()
    return a


def main(argv=None) -> int:
    a = parse_args(argv)
    out = a.out or Path("results") / time.strftime("after-burst-%Y%m%d-%H%M%S")
    print(json.dumps(run_once(a, out.resolve())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
