#!/usr/bin/env python3
"""app.threads.model=auto beside the two fixed models: four workloads x {platform, virtual, auto} on sample-web
(Tomcat), one fresh app per run, the models interleaved (their order rotates from workload to workload).

    load/auto_bench.py                                   # every workload, stage scale 0.3 (~28 min on 2 cores)
    load/auto_bench.py --workloads mix --stage-scale 0.1 # one workload, short
    load/auto_bench.py --app-arg=--app.threads.auto.min-dwell=10s
    load/auto_bench.py --rounds 2 --stage-scale 0.2     # twice each, shorter; the table shows medians

Workloads (k6 scripts in load/k6/):
  ping       ramp.js  /ping, 35 VUs at peak, no think time (CPU-bound on the machine: raw efficiency)
  greetings  ramp.js  /greetings (blocks 1 s), 400 VUs at peak: more than the 200 platform threads
  products   ramp.js  /products/1 (four parallel back-end calls of 50-400 ms on the task executor), 400 VUs
  mix        mix.js   8 clients calling /cpu?ms=20 back to back + 8 clients calling /ping (0.05 s think time)
Every run lasts 420 s x stage scale (the ramp's 6 stages; the mix at constant load for as long).

Reports per workload and model: requests/s, p99 (of the fast /ping requests in the mix), auto's ratio to the better
fixed model, and whether the goal is met (throughput >= 95 % of the better fixed model's, p99 <= 110 %); auto's
switches (from /actuator/threadmodel at the end of its run). Writes results/auto-<timestamp>/: results.json,
results.md, one folder per run (app log, k6 summary, threadmodel.json).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import toolkit  # noqa: E402

MODELS = ["platform", "virtual", "auto"]
WORKLOADS = {
    "ping": dict(script="ramp", env={"ENDPOINT": "/ping", "PEAK_VUS": 35, "SLEEP_S": 0}),
    "greetings": dict(script="ramp", env={"ENDPOINT": "/greetings?name=k6", "PEAK_VUS": 400}),
    "products": dict(script="ramp", env={"ENDPOINT": "/products/1", "PEAK_VUS": 400}),
    "mix": dict(script="mix", env={"CPU_VUS": 8, "CPU_MS": 20, "FAST_VUS": 8, "SLEEP_S": 0.05}),
}
THROUGHPUT_GOAL = 0.95
P99_GOAL = 1.10


def figures(summary: dict, script: str) -> dict:
    """requests/s, and the p99 that counts: every request's in a ramp, the fast requests' in the mix."""
    metrics = summary["k6"]["metrics"]
    trend = metrics["fast_response_time" if script == "mix" else "response_time"]["values"]
    errors = metrics.get("errors", {}).get("values", {}).get("rate")
    return {"requests": int(metrics["requests"]["values"]["count"]),
            "requests_per_s": metrics["requests"]["values"]["rate"],
            "p99_ms": trend["p(99)"], "median_ms": trend["med"],
            "error_pct": None if errors is None else 100.0 * errors}


def run_one(workload: str, model: str, round_: int, a, k6: str, root: Path) -> dict:
    spec = WORKLOADS[workload]
    name = f"{workload}-{model}" + (f"-{round_ + 1}" if a.rounds > 1 else "")
    outdir = root / name
    outdir.mkdir(parents=True)
    cfg = bench.Config("web", "tomcat", model, "jvm")
    app_args = SimpleNamespace(mem_mb=a.mem_mb, cgroup="auto", app_arg=a.app_arg, launch=None, jvm_arg=a.jvm_arg)
    cgroup = bench.detect_cgroup() if a.mem_mb else (None, None, "not asked")
    app = bench.App(cfg, app_args, outdir, cgroup)
    result = {"workload": workload, "model": model, "round": round_ + 1, "error": None}
    bench.log(f"{name}: starting on {app.base}")
    with bench.recorded_run(app, name, result):
        app.start(a.start_timeout)
        time.sleep(1.0)
        seconds = 420 * a.stage_scale
        env = {**spec["env"], "SUMMARY_NAME": spec["script"]}
        env.update({"STAGE_SCALE": a.stage_scale} if spec["script"] == "ramp" else {"DURATION": round(seconds)})
        rc = bench.run_k6(k6, spec["script"], app.base, env, outdir, seconds + 120, dashboard=False)
        summary = json.loads((outdir / f"{spec['script']}-summary.json").read_text())
        result.update(figures(summary, spec["script"]), k6_exit=rc)
        doc = toolkit.http_json(f"{app.base}/actuator/threadmodel", timeout=10)
        (outdir / "threadmodel.json").write_text(json.dumps(doc, indent=2))
        result["switches"] = [f"{s['from']}->{s['to']} at {s['at']}: {s['requestedBy']}"
                              for s in reversed(doc.get("switches") or [])]
        result["final_model"] = doc.get("model")
        bench.log(f"{name}: {result['requests_per_s']:.1f} req/s, p99 {result['p99_ms']:.1f} ms, "
                  f"{len(result['switches'])} switch(es), ends on {result['final_model']}")
    return result


def median(values: list[float]) -> float:
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def combine(runs: list[dict]) -> dict:
    """One workload x model over its rounds: the median of each figure, and the spread (max/min) as the noise."""
    rps = [r["requests_per_s"] for r in runs]
    p99 = [r["p99_ms"] for r in runs]
    return {"requests_per_s": median(rps), "p99_ms": median(p99), "rounds": len(runs),
            "rps_spread": max(rps) / min(rps), "p99_spread": max(p99) / min(p99),
            "switches": [s for r in runs for s in r.get("switches") or []]}


def compare(results: list[dict]) -> list[dict]:
    rows = []
    for workload in WORKLOADS:
        by_model = {}
        for m in MODELS:
            runs = [r for r in results if r["workload"] == workload and r["model"] == m and not r["error"]]
            if runs:
                by_model[m] = combine(runs)
        if not by_model:
            continue
        row = {"workload": workload, **{f"{m}_rps": by_model.get(m, {}).get("requests_per_s") for m in MODELS},
               **{f"{m}_p99": by_model.get(m, {}).get("p99_ms") for m in MODELS},
               **{f"{m}_rounds": by_model.get(m, {}).get("rounds") for m in MODELS},
               **{f"{m}_rps_spread": by_model.get(m, {}).get("rps_spread") for m in MODELS},
               **{f"{m}_p99_spread": by_model.get(m, {}).get("p99_spread") for m in MODELS},
               "auto_switches": by_model.get("auto", {}).get("switches")}
        fixed = [by_model[m] for m in ("platform", "virtual") if m in by_model]
        if "auto" in by_model and len(fixed) == 2:
            best_rps = max(r["requests_per_s"] for r in fixed)
            best_p99 = min(r["p99_ms"] for r in fixed)
            row["rps_ratio"] = by_model["auto"]["requests_per_s"] / best_rps
            row["p99_ratio"] = by_model["auto"]["p99_ms"] / best_p99
            row["goal_met"] = row["rps_ratio"] >= THROUGHPUT_GOAL and row["p99_ratio"] <= P99_GOAL
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    f = lambda v, d=1: "—" if v is None else f"{v:.{d}f}"  # noqa: E731
    lines = ["| workload | req/s platform | req/s virtual | req/s auto | auto / best | p99 ms platform | "
             "p99 ms virtual | p99 ms auto | auto / best | goal met |", "|---" * 10 + "|"]
    for r in rows:
        met = {True: "yes", False: "**no**"}.get(r.get("goal_met"), "—")
        lines.append(f"| {r['workload']} | {f(r['platform_rps'])} | {f(r['virtual_rps'])} | {f(r['auto_rps'])} | "
                     f"{f(r.get('rps_ratio'), 2)} | {f(r['platform_p99'])} | {f(r['virtual_p99'])} | "
                     f"{f(r['auto_p99'])} | {f(r.get('p99_ratio'), 2)} | {met} |")
    lines.append("")
    if any((r.get("platform_rounds") or 0) > 1 for r in rows):
        lines += ["Medians over rounds; noise = max/min of a figure over its rounds (req/s; p99):", ""]
        for r in rows:
            lines.append(f"- {r['workload']}: " + ", ".join(
                f"{m} {f(r.get(m + '_rps_spread'), 2)}; {f(r.get(m + '_p99_spread'), 2)}" for m in MODELS
                if r.get(m + "_rounds")))
        lines.append("")
    for r in rows:
        for s in r.get("auto_switches") or []:
            lines.append(f"- {r['workload']}, auto: {s}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    csv_list = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    p.add_argument("--workloads", type=csv_list, default=list(WORKLOADS))
    p.add_argument("--models", type=csv_list, default=MODELS)
    p.add_argument("--stage-scale", type=float, default=0.3, help="run length: 420 s x this")
    p.add_argument("--rounds", type=int, default=1, help="run every workload x model this many times; "
                   "the table shows medians")
    p.add_argument("--mem-mb", type=int)
    p.add_argument("--jvm-arg", action="append", default=[])
    p.add_argument("--app-arg", action="append", default=[])
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--out", default=str(toolkit.ROOT / "results"))
    a = p.parse_args(argv)
    for w in a.workloads:
        if w not in WORKLOADS:
            p.error(f"unknown workload {w} (known: {', '.join(WORKLOADS)})")
    jar = bench.jar_path("web", "tomcat")
    if not jar.exists():
        raise SystemExit(f"{jar} is missing: ./mvnw -pl sample-web -am package -DskipTests")
    k6 = toolkit.k6()
    root = Path(a.out) / f"auto-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    root.mkdir(parents=True)
    meta = {"command": " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
            **bench.machine_info(k6), "load_before": os.getloadavg(), "workloads": WORKLOADS}
    t0 = time.monotonic()
    results = []
    order = [(round_, w) for round_ in range(a.rounds) for w in a.workloads]
    for i, (round_, workload) in enumerate(order):
        models = a.models[i % len(a.models):] + a.models[:i % len(a.models)]  # interleave: rotate the order
        for model in models:
            results.append(run_one(workload, model, round_, a, k6, root))
            rows = compare(results)
            (root / "results.json").write_text(json.dumps({"meta": meta, "runs": results, "rows": rows}, indent=2))
            (root / "results.md").write_text(markdown(rows))
    meta.update(load_after=os.getloadavg(), duration_s=round(time.monotonic() - t0, 1))
    (root / "results.json").write_text(json.dumps({"meta": meta, "runs": results, "rows": compare(results)}, indent=2))
    print(markdown(compare(results)))
    bench.log(f"done in {meta['duration_s']} s: {root / 'results.md'}")
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
