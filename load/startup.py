#!/usr/bin/env python3
"""Startup of each flavour x app x model: medians of N starts, interleaved.

    load/startup.py                    # 5 runs, every JVM flavour
    load/startup.py --runs 7 --flavours jvm,cds,aotcache --apps web --models virtual

Each round starts every configuration once, in a shuffled order (so that a burst of noise from other
processes spreads over the configurations instead of hitting one), and round after round until --runs.
Per start, with no request sent before the application is ready to take connections:
    ready_ms      JVM start -> ApplicationReadyEvent, from /actuator/threadmodel (startup.applicationReadyMs)
    first_200_ms  process start -> the first 200 of GET /greetings, timed by this script (includes the
                  JVM's own launch, which ready_ms does not)
    first_req_ms  how long that first GET /greetings took (the port is polled by TCP connect only, so it
                  is the application's first request: lazy initialisation, cold code)
    peak_rss_mb   VmHWM of the process after the first requests and the endpoint read
The greeting's delay is set to 0 so that it times the application, not the 1 s sleep. Training runs (cds,
aotcache) happen before the first round and are not counted; their time is reported apart.
Writes <out>/<timestamp>/startup.csv (every start), startup.md (medians, ratio to jvm), meta.json.

Standard library only.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import flavours  # noqa: E402
import toolkit  # noqa: E402

JARS = {"web-tomcat": ROOT / "sample-web" / "target" / "sample-web-tomcat.jar",
        "reactive-netty": ROOT / "sample-reactive" / "target" / "sample-reactive.jar"}
JVM_FLAVOURS = [f for f in flavours.FLAVOURS if not flavours.FLAVOURS[f].native]
FIELDS = ["ready_ms", "first_200_ms", "first_req_ms", "peak_rss_mb"]


def measure_once(cmd: list[str], model: str, expected: str, log_path: Path, timeout: float) -> dict:
    app = toolkit.App(cmd, [f"--app.threads.model={model}", "--sample.greetings.delay=0ms"], log_path)
    try:
        app.wait_port(timeout, interval=flavours.PORT_POLL_S)
        url = f"{app.base}/greetings?name=startup"

        def answered_200():
            status, _ = toolkit.http(url, timeout=timeout)
            return time.monotonic() - app.started_at if status == 200 else None
        t = time.monotonic()
        first_200 = answered_200()
        first_req = time.monotonic() - t
        if first_200 is None:
            first_200 = app.wait_until(answered_200, timeout, f"200 from {url}", interval=0.01)
        doc = app.wait_threadmodel(timeout, interval=flavours.ENDPOINT_POLL_S)
        reported = flavours.flavour_name(doc)
        if reported != expected or doc.get("model") != model:
            raise RuntimeError(f"asked flavour {expected} model {model}, the app reports {reported} {doc.get('model')}")
        return {"ready_ms": doc["startup"]["applicationReadyMs"], "first_200_ms": round(first_200 * 1000),
                "first_req_ms": round(first_req * 1000, 1), "peak_rss_mb": round(app.peak_rss_mb() or 0, 1)}
    finally:
        app.stop()


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def table(rows: list[dict], configs: list[tuple], n_runs: int) -> str:
    """Markdown: one row per app x model x flavour, medians, and ready_ms as a ratio of the same app and
    model's jvm flavour."""
    med = {}
    for app, model, flavour in configs:
        runs = [r for r in rows if (r["app"], r["model"], r["flavour"]) == (app, model, flavour) and not r["error"]]
        med[(app, model, flavour)] = ({f: median([r[f] for r in runs]) for f in FIELDS}, len(runs))
    out = [f"| app | model | flavour | ready s | ratio to jvm | first 200 s | first request ms | peak RSS MB | runs |",
           "|---|---|---|---|---|---|---|---|---|"]
    for app, model, flavour in configs:
        m, n = med[(app, model, flavour)]
        base = med.get((app, model, "jvm"), ({}, 0))[0].get("ready_ms")
        ratio = f"{m['ready_ms'] / base:.2f}" if base and m["ready_ms"] is not None else ""
        fmt = lambda v, d=2, scale=1.0: "" if v is None else f"{v / scale:.{d}f}"  # noqa: E731
        out.append(f"| {app} | {model} | {flavour} | {fmt(m['ready_ms'], 2, 1000)} | {ratio} | "
                   f"{fmt(m['first_200_ms'], 2, 1000)} | {fmt(m['first_req_ms'], 0)} | {fmt(m['peak_rss_mb'], 0)} | "
                   f"{n}/{n_runs} |")
    return "\n".join(out) + "\n"


def write(out: Path, rows: list[dict], configs: list[tuple], n_runs: int, meta: dict):
    with open(out / "startup.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["run", "app", "model", "flavour", *FIELDS, "load1", "error"])
        w.writeheader()
        w.writerows(rows)
    (out / "startup.md").write_text(table(rows, configs, n_runs))
    (out / "meta.json").write_text(json.dumps(meta, indent=2))


def main(argv=None) -> int:
    csv_list = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--apps", type=csv_list, default=list(JARS), help=",".join(JARS))
    p.add_argument("--models", type=csv_list, default=["platform", "virtual"])
    p.add_argument("--flavours", type=csv_list, default=JVM_FLAVOURS, help=",".join(flavours.FLAVOURS))
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jvm-arg", action="append", default=[], help="JVM option for training and runs (repeatable)")
    p.add_argument("--timeout", type=float, default=180)
    p.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle")
    p.add_argument("--web-jar", type=Path, default=JARS["web-tomcat"], help="sample-web's Tomcat jar")
    p.add_argument("--reactive-jar", type=Path, default=JARS["reactive-netty"])
    p.add_argument("--out", default=str(ROOT / "results" / "startup"))
    a = p.parse_args(argv)
    jars = {"web-tomcat": a.web_jar, "reactive-netty": a.reactive_jar}
    java = toolkit.java()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(a.out) / stamp
    (out / "logs").mkdir(parents=True)
    meta = {"command": " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
            "machine": f"{os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GB, "
                       f"{platform.system()} {platform.release()}",
            "load_before": os.getloadavg(), "started": stamp, "training_s": {}}
    commands = {}
    for app in a.apps:
        for flavour in a.flavours:
            t = time.monotonic()
            commands[(app, flavour)] = flavours.command(flavour, jars[app], java, a.jvm_arg)
            meta["training_s"][f"{app}-{flavour}"] = round(time.monotonic() - t, 1)
    configs = [(app, model, flavour) for app in a.apps for model in a.models for flavour in a.flavours]
    rows = []
    rng = random.Random(a.seed)
    for run in range(1, a.runs + 1):
        order = configs[:]
        rng.shuffle(order)
        for app, model, flavour in order:
            name = f"{app}-{flavour}-{model}"
            row = {"run": run, "app": app, "model": model, "flavour": flavour, "error": "",
                   "load1": round(os.getloadavg()[0], 2),
                   **{f: None for f in FIELDS}}
            try:
                row.update(measure_once(commands[(app, flavour)], model, flavour,
                                        out / "logs" / f"{name}-{run}.log", a.timeout))
            except Exception as e:  # noqa: BLE001 - one failed start must not stop the rounds
                row["error"] = str(e)
            rows.append(row)
            print(f"[startup {time.strftime('%H:%M:%S')}] run {run} {name}: "
                  + (row["error"] or " ".join(f"{f}={row[f]}" for f in FIELDS)), flush=True)
        meta["load_after"], meta["rounds_done"] = os.getloadavg(), run
        write(out, rows, configs, a.runs, meta)  # an interrupted measurement keeps its finished rounds
    print((out / "startup.md").read_text())
    print(f"results in {out}")
    return 1 if any(r["error"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
