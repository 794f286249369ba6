#!/usr/bin/env python3
"""A burst of N simultaneous new connections (no keep-alive) to /greetings (1 s) against sample-web on Tomcat with a
small heap, with the starter's defaults in virtual mode (the adaptive limit), as plain Spring Boot virtual threads
(spring.threads.virtual.enabled=true, the starter's auto-configurations excluded) and, on demand, with the starter and
no limit (app.threads.virtual.admission=unlimited). Variants interleave, --rounds times; each start gets one warm-up
burst, then the measured one. docs/overload.md#adaptive-admission has the figures.

    python3 load/heap_burst.py                                # -n 2700, -XX:MaxRAM=1024m (a 256 MB heap), 3 rounds
    python3 load/heap_burst.py -n 3000 --heap=-Xmx128m
    python3 load/heap_burst.py --variants starter unlimited --rounds 1
    python3 load/heap_burst.py -n 2000 --heap=-Xmx256m --path '/heavy?kb=512&ms=2000'   # requests that hold heap

Per run: hey's figures, whether /actuator/health answered afterwards, OutOfMemoryError lines in the log, whether the
JVM stopped within 30 s of SIGTERM (it is killed otherwise), peak RSS, and the endpoint's admission section. In --out:
machine.txt, results.md, and per run <round>-<variant>.log, -warmup.txt, -measured.txt (hey's output) and
-threadmodel.json. Uses hey (go install github.com/rakyll/hey@v0.1.5 when missing). Loopback only; each start on a free
port unless --port.
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
from starter_auto_configurations import plain_virtual_arguments  # noqa: E402

VARIANTS = ["starter", "unlimited", "plain"]
HEADER = ("| round | variant | 200 | 503 | errors | total s | average s | slowest s | req/s | health after | OOM lines "
          "| stopped on SIGTERM | peak RSS MB | limit after |\n" + "|---" * 14 + "|")
# Between the bursts and after the last one, so that the server is back at rest (part of the measurement).
SETTLE_S = 2


def variant_args(variant: str, jar: Path) -> list[str]:
    if variant == "starter":
        return ["--app.threads.model=virtual"]
    if variant == "unlimited":
        return ["--app.threads.model=virtual", "--app.threads.virtual.admission=unlimited"]
    return plain_virtual_arguments(jar)


def hey_figures(text: str) -> dict:
    """From hey's report: the status counts, the errors (its error distribution) and its summary figures ('-' when
    missing)."""
    def figure(name):
        match = re.search(name + r":\s+([0-9.]+)", text)
        return match.group(1) if match else "-"
    codes = {code: int(n) for code, n in re.findall(r"\[(\d{3})\]\s+(\d+) responses", text)}
    errors = sum(int(n) for n in re.findall(r"^\s+\[(\d+)\]\s+\w+", text.split("Error distribution:")[1], re.M)) \
        if "Error distribution:" in text else 0
    return {"200": codes.get("200", 0), "503": codes.get("503", 0), "errors": errors, "total": figure("Total"),
            "average": figure("Average"), "slowest": figure("Slowest"), "rps": figure("Requests/sec")}


def admission_limit(threadmodel_text: str):
    try:
        return json.loads(threadmodel_text)["admission"]["limit"]
    except (ValueError, KeyError, TypeError):
        return "-"


def result_row(round_: int, variant: str, hey_text: str, health, oom_lines: int, stopped: bool, peak_rss_mb,
               threadmodel_text: str) -> str:
    f = hey_figures(hey_text)
    return (f"| {round_} | {variant} | {f['200']} | {f['503']} | {f['errors']} | {f['total']} | {f['average']} "
            f"| {f['slowest']} | {f['rps']} | {health} | {oom_lines} | {'yes' if stopped else 'no'} "
            f"| {peak_rss_mb} | {admission_limit(threadmodel_text)} |")


def one_run(round_: int, variant: str, a, java: str, hey: str) -> str:
    run = a.out / f"{round_}-{variant}"
    app = toolkit.App([java, *shlex.split(a.heap), "-jar", str(a.jar)],
                      ["--management.endpoints.web.exposure.include=health,threadmodel", *variant_args(variant, a.jar)],
                      Path(f"{run}.log"), port=a.port)
    try:
        app.wait_http("/actuator/health", 120, interval=0.5)
        url = app.base + a.path
        for burst in ("warmup", "measured"):
            with open(f"{run}-{burst}.txt", "w") as report:
                try:
                    subprocess.run([hey, "-n", str(a.n), "-c", str(a.n), "-disable-keepalive", "-t", str(a.timeout),
                                    url], stdout=report, stderr=subprocess.STDOUT, timeout=a.timeout + 30)
                except subprocess.TimeoutExpired:
                    print(f"hey killed after {a.timeout + 30}s", file=report)
            time.sleep(SETTLE_S)
        status, _ = toolkit.http(f"{app.base}/actuator/health", timeout=10)
        _, threadmodel = toolkit.http(f"{app.base}/actuator/threadmodel", timeout=10)
        Path(f"{run}-threadmodel.json").write_bytes(threadmodel)
        peak = app.peak_rss_mb()
    finally:
        stopped = app.stop(grace=30)
    oom = app.log_text().count("OutOfMemoryError")
    return result_row(round_, variant, Path(f"{run}-measured.txt").read_text(errors="replace"), status or "000", oom,
                      stopped, int(peak) if peak is not None else "?", threadmodel.decode(errors="replace"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=2700, help="simultaneous requests per burst (2700)")
    p.add_argument("--timeout", type=int, default=120, help="hey's per-request timeout, seconds (120)")
    p.add_argument("--path", default="/greetings?name=hey",
                   help="what each request asks for (/greetings?name=hey; /heavy?kb=512&ms=2000 holds heap)")
    toolkit.burst_options(p, "heap-burst", 3, VARIANTS, ["starter", "plain"])
    a = toolkit.parse_burst_options(p, argv)
    java, hey = toolkit.java(), toolkit.hey()
    machine = f"N={a.n}, {a.path}, {a.heap}, {toolkit.machine_line()}, {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}"
    return toolkit.run_bursts(a, machine, HEADER, lambda round_, variant: one_run(round_, variant, a, java, hey))


if __name__ == "__main__":
    sys.exit(main())
