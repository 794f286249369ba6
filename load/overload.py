#!/usr/bin/env python3
"""Overload protection, side by side: a burst of N simultaneous new connections (no keep-alive) to /greetings (1 s)
against sample-web on Tomcat, with a limit of LIMIT requests (10x burst by default), once with the limit answering the
excess 503 + Retry-After ("protected") and once with the same limit queueing without bound ("unprotected"), for each
model. Records 200/503 counts, p50/p99 of each, the heap right after the burst (jcmd GC.heap_info, no GC forced) and
the process's peak RSS (VmHWM).

    python3 load/overload.py                               # --limit 40, -n 400, --rounds 2
    python3 load/overload.py --rounds 1 --variants platform-protected platform-unprotected

Variants (LIMIT split in half for the platform pool: threads + queue):
  platform-protected    max-threads=LIMIT/2, queue-capacity=LIMIT/2
  platform-unprotected  max-threads=LIMIT/2, queue unbounded
  virtual-protected     max-concurrency=LIMIT, queue-timeout=200ms
  virtual-unprotected   max-concurrency=LIMIT, no queue timeout
  virtual-unlimited     no max-concurrency at all (not in the default list)
Rounds interleave the variants. In --out: machine.txt, results.md, and per variant and round its log, oha's JSON,
-heap.txt, -threadmodel.json and -rss.txt. Needs sample-web/target/sample-web-tomcat.jar and oha (installed with cargo
when missing). Loopback only; each start on a free port unless --port.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import toolkit  # noqa: E402

VARIANTS = ["platform-protected", "platform-unprotected", "virtual-protected", "virtual-unprotected",
            "virtual-unlimited"]
HEADER = ("| variant | round | 200 | 503 | errors | 200 p50 ms | 200 p99 ms | 503 p50 ms | 503 p99 ms | total s "
          "| heap used after MB | peak RSS MB | peakRunning | peakQueued | rejected |\n" + "|---" * 15 + "|")
SETTLE_S = 2  # between the warm-up and the burst (part of the measurement)


def variant_args(variant: str, limit: int) -> list[str]:
    return {
        "platform-protected": ["--app.threads.model=platform", f"--app.threads.platform.max-threads={limit // 2}",
                               f"--app.threads.platform.queue-capacity={limit // 2}"],
        "platform-unprotected": ["--app.threads.model=platform", f"--app.threads.platform.max-threads={limit // 2}"],
        "virtual-protected": ["--app.threads.model=virtual", f"--app.threads.virtual.max-concurrency={limit}",
                              "--app.threads.virtual.queue-timeout=200ms"],
        "virtual-unprotected": ["--app.threads.model=virtual", f"--app.threads.virtual.max-concurrency={limit}"],
        "virtual-unlimited": ["--app.threads.model=virtual"],
    }[variant]


def result_row(variant: str, round_: int, oha_json: str, heap_info: str, rss_line: str, threadmodel_text: str,
               oom_lines: int) -> str:
    """One results.md row from oha's JSON, jcmd GC.heap_info, the VmHWM line and the endpoint's JSON."""
    try:
        r = json.loads(oha_json)
    except ValueError:
        return f"| {variant} | {round_} | no result: oha timed out (OutOfMemoryError lines in the log: {oom_lines}) |"
    codes = r.get("statusCodeDistribution", {})

    def pct(key, p):
        v = (r.get(key) or {}).get(f"p{p}")
        return f"{v * 1000:.0f}" if v is not None else "-"
    used = re.search(r"used (\d+)K", heap_info)
    used = f"{int(used.group(1)) / 1024:.0f}" if used else "?"
    rss = re.search(r"(\d+) kB", rss_line)
    rss = f"{int(rss.group(1)) / 1024:.0f}" if rss else "?"
    try:
        tm = json.loads(threadmodel_text)["requests"]
    except (ValueError, KeyError, TypeError):
        tm = {"peakRunning": "?", "peakQueued": "?", "rejected": "?"}
    return (f"| {variant} | {round_} | {codes.get('200', 0)} | {codes.get('503', 0)} "
            f"| {sum(r.get('errorDistribution', {}).values())} "
            f"| {pct('latencyPercentilesSuccessful', 50)} | {pct('latencyPercentilesSuccessful', 99)} "
            f"| {pct('latencyPercentilesNotSuccessful', 50)} | {pct('latencyPercentilesNotSuccessful', 99)} "
            f"| {r['summary']['total']:.2f} | {used} | {rss} | {tm['peakRunning']} | {tm['peakQueued']} "
            f"| {tm['rejected']} |")


def one_run(variant: str, round_: int, a, java_home: Path, oha: str) -> str:
    run = a.out / f"{variant}-{round_}"
    app = toolkit.App([str(java_home / "bin" / "java"), *shlex.split(a.heap), "-jar", str(a.jar)],
                      variant_args(variant, a.limit), Path(f"{run}.log"), port=a.port)
    try:
        app.wait_http("/health", 120, interval=0.5)
        url = f"{app.base}/greetings?name=oha"
        subprocess.run([oha, "-n", str(a.limit), "-c", str(a.limit), "--no-tui", "--output-format", "quiet", url])
        time.sleep(SETTLE_S)
        with open(f"{run}.json", "w") as result:
            try:
                subprocess.run([oha, "-n", str(a.n), "-c", str(a.n), "--disable-keepalive", "--no-tui",
                                "--stats-success-breakdown", "--output-format", "json", url],
                               stdout=result, stderr=subprocess.DEVNULL, timeout=180)
            except subprocess.TimeoutExpired:
                pass
        heap = subprocess.run([str(java_home / "bin" / "jcmd"), str(app.pid), "GC.heap_info"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True).stdout
        Path(f"{run}-heap.txt").write_text(heap)
        _, threadmodel = toolkit.http(f"{app.base}/actuator/threadmodel", timeout=10)
        Path(f"{run}-threadmodel.json").write_bytes(threadmodel)
        peak_kb = toolkit.vm_kb(app.pid, "VmHWM")
        rss = f"VmHWM:\t{peak_kb} kB\n" if peak_kb is not None else ""
        Path(f"{run}-rss.txt").write_text(rss)
    finally:
        # A JVM out of heap may not end on SIGTERM (its shutdown needs heap): 15 s, then SIGKILL.
        app.stop(grace=15)
    oom = app.log_text().count("OutOfMemoryError")
    return result_row(variant, round_, Path(f"{run}.json").read_text(), heap, rss,
                      threadmodel.decode(errors="replace"), oom)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--limit", type=int, default=40, help="the requests the server takes at once (40)")
    p.add_argument("-n", type=int, help="simultaneous requests of the burst (10 x --limit)")
    toolkit.burst_options(p, "overload", 2, VARIANTS, VARIANTS[:4])
    a = toolkit.parse_burst_options(p, argv)
    a.n = a.n or a.limit * 10
    java_home, oha = toolkit.java_home(), toolkit.oha()
    machine = f"N={a.n} LIMIT={a.limit} ROUNDS={a.rounds} HEAP={a.heap}, {toolkit.machine_line()}"
    return toolkit.run_bursts(a, machine, HEADER, lambda round_, variant: one_run(variant, round_, a, java_home, oha))


if __name__ == "__main__":
    sys.exit(main())
