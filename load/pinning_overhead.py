#!/usr/bin/env python3
"""What pinning detection costs: sample-web (Tomcat jar, virtual threads) with app.threads.pinning.enabled on and off,
interleaved (on, off, on, off). Each run: a warm-up (15 s), then the process's CPU time (/proc/<pid>/stat) idle for
60 s and under 30 s of k6 load (load/k6/throughput.js: 200 keep-alive clients on /greetings, no warm-up of its own),
then the endpoint's 'pinning' section.

    python3 load/pinning_overhead.py
    python3 load/pinning_overhead.py --warmup 1 --idle 2 --load 2 --variants on off     # a quick try of the script

One line per run on stdout; the app logs and k6's summaries in --out. Java, k6, each run's free port and the k6 run
come from load/toolkit.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import report  # noqa: E402
import toolkit  # noqa: E402

CLIENTS = 200


def cpu_ms(pid: int) -> int:
    """The CPU time (user + system) the process has used so far, in ms."""
    ticks = report.parse_proc_stat_ticks(Path(f"/proc/{pid}/stat").read_text())
    return ticks * 1000 // os.sysconf("SC_CLK_TCK")


def pinning_section(doc) -> dict | None:
    pinning = (doc or {}).get("pinning")
    return pinning and {key: pinning[key] for key in ("count", "totalTimeMs")}


def one_run(index: int, variant: str, a, java: str, k6: str) -> str:
    flag = ["--app.threads.pinning.enabled=false"] if variant == "off" else []
    out = a.out / f"{index}-{variant}"
    out.mkdir(parents=True, exist_ok=True)
    app = toolkit.App([java, "-jar", str(a.jar)], ["--app.threads.model=virtual", *flag, "--logging.level.root=WARN"],
                      out / "app.log")
    try:
        app.wait_http("/ping", 120, interval=0.5)
        time.sleep(a.warmup)  # the measured idle minute starts after the start's own work has settled
        c0 = cpu_ms(app.pid)
        time.sleep(a.idle)
        c1 = cpu_ms(app.pid)
        run = toolkit.run_k6(k6, "throughput", out, {"BASE_URL": app.base, "ENDPOINT": "/greetings?name=k6",
                                                      "VUS": CLIENTS, "WARMUP": 0, "DURATION": a.load},
                             time_limit=a.load + 60)
        c2 = cpu_ms(app.pid)
        requests = ((run.summary() or {}).get("row") or {}).get("requests")
        status, body = toolkit.http(f"{app.base}/actuator/threadmodel")
        pinning = pinning_section(json.loads(body)) if status == 200 else f"none ({status})"
    finally:
        app.stop()
    return (f"pinning {variant}: idle {a.idle:.0f} s {c1 - c0} ms CPU; {a.load:.0f} s load {c2 - c1} ms CPU, "
            f"{requests} requests; pinning {pinning}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", type=Path, default=toolkit.SAMPLE_WEB_JAR)
    p.add_argument("--variants", nargs="+", choices=["on", "off"], default=["on", "off", "on", "off"])
    p.add_argument("--warmup", type=float, default=15, help="seconds after the start before measuring (15)")
    p.add_argument("--idle", type=float, default=60, help="seconds measured idle (60)")
    p.add_argument("--load", type=float, default=30, help="seconds measured under load (30)")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "pinning-overhead")
    a = p.parse_args(argv)
    java, k6 = toolkit.java(), toolkit.k6()
    toolkit.stop_on_sigterm()
    print(toolkit.machine_line(), flush=True)
    for index, variant in enumerate(a.variants, 1):
        print(one_run(index, variant, a, java, k6), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
