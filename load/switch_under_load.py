#!/usr/bin/env python3
"""Switches the thread model of a running sample app while k6's ramp loads it.

    load/switch_under_load.py                                  # CI smoke: ~40 s ramp, a switch every 3 s
    load/switch_under_load.py --stage-scale 0.5 --switch-every 20 --max-threads 10 --out docs-run

Starts the app (sample-web's Tomcat jar by default) on a free 127.0.0.1 port with writes to
/actuator/threadmodel allowed, runs load/k6/ramp.js against it (per-request results as CSV), and
while k6 runs, polls /actuator/threadmodel every 0.25 s (model, running, queued) and POSTs a switch
to the other model every --switch-every seconds. Afterwards it writes, per time window, the
requests, failures, p50/p95 latency, the highest queue depth and the models seen, as a Markdown
table (switching.md) and CSV, into --out.

Exits non-zero when k6's thresholds fail, any request failed, a switch was refused, or the app
did not start. Standard library only; loopback only; every wait is bounded.
"""
import argparse
import csv
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "load"))
import toolkit  # noqa: E402


def threadmodel(base, body=None):
    """(status, JSON) of GET /actuator/threadmodel, or of POSTing `body` to it (a switch); SystemExit when nothing
    answers (a poll or a switch that did not happen must not pass unseen)."""
    status, content = toolkit.http(f"{base}/actuator/threadmodel", body, timeout=5)
    if status is None:
        raise SystemExit(f"/actuator/threadmodel did not answer: {content.decode(errors='replace')}")
    try:
        return status, json.loads(content or b"null")
    except ValueError:
        return status, content.decode(errors="replace")


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def read_requests(csv_path):
    """The app's requests from k6's CSV output: [(epoch ms, duration ms)] and [epoch ms of each failure]."""
    durations, failures = [], []
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if "/actuator/" in row["url"]:
                continue
            if row["metric_name"] == "http_req_duration":
                durations.append((int(row["timestamp"]), float(row["metric_value"])))
            elif row["metric_name"] == "http_req_failed" and float(row["metric_value"]) > 0:
                failures.append(int(row["timestamp"]))
    return durations, failures


def windows(requests, samples, switches, start_ms, window_s):
    """Per window: requests, failures, p50/p95 ms, highest queue depth, models seen, switches."""
    durations, failures = requests
    rows = []
    end_ms = max([d[0] for d in durations] + [s["t_ms"] for s in samples] + [start_ms])
    t = start_ms
    while t <= end_ms:
        upper = t + window_s * 1000
        in_window = [d[1] for d in durations if t <= d[0] < upper]
        polled = [s for s in samples if t <= s["t_ms"] < upper]
        rows.append({
            "from_s": round((t - start_ms) / 1000),
            "to_s": round((upper - start_ms) / 1000),
            "requests": len(in_window),
            "failed": sum(1 for f in failures if t <= f < upper),
            "p50_ms": percentile(in_window, 0.50),
            "p95_ms": percentile(in_window, 0.95),
            "max_queued": max((s["queued"] for s in polled), default=None),
            "max_running": max((s["running"] for s in polled), default=None),
            "models": "/".join(sorted({s["model"] for s in polled})) or "-",
            "switches": " ".join(f"{s['from']}→{s['to']}" for s in switches if t <= s["t_ms"] < upper),
        })
        t = upper
    return rows


def markdown(rows):
    def fmt(v):
        return "-" if v is None else (f"{v:.0f}" if isinstance(v, float) else str(v))
    lines = ["| window s | requests | failed | p50 ms | p95 ms | max queued | max running | model | switch |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['from_s']}–{r['to_s']} | {r['requests']} | {r['failed']} | {fmt(r['p50_ms'])} | "
                     f"{fmt(r['p95_ms'])} | {fmt(r['max_queued'])} | {fmt(r['max_running'])} | {r['models']} | "
                     f"{r['switches']} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jar", default=str(ROOT / "sample-web" / "target" / "sample-web-tomcat.jar"))
    parser.add_argument("--endpoint", default="/products/1")
    parser.add_argument("--stage-scale", type=float, default=0.1, help="ramp time scale (1 = 7 minutes)")
    parser.add_argument("--peak-vus", type=int, default=35)
    parser.add_argument("--switch-every", type=float, default=3.0, help="seconds between switches")
    parser.add_argument("--start-model", default="platform", choices=["platform", "virtual"])
    parser.add_argument("--max-threads", type=int, help="app.threads.platform.max-threads of the app")
    parser.add_argument("--window", type=float, default=None, help="table window in seconds (default: switch interval)")
    parser.add_argument("--out", default=str(ROOT / "target" / "switch-under-load"))
    args = parser.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app_args = [f"--app.threads.model={args.start_model}",
                "--management.endpoint.threadmodel.access=unrestricted",
                "--management.endpoints.web.exposure.include=health,threadmodel"]
    if args.max_threads:
        app_args.append(f"--app.threads.platform.max-threads={args.max_threads}")
    java = toolkit.java()
    k6 = toolkit.k6()
    toolkit.stop_on_sigterm()
    app = toolkit.App([java, "-jar", args.jar], app_args, out / "app.log")
    base = app.base
    k6_run = None
    try:
        try:
            app.wait_threadmodel(120, interval=0.5)
        except RuntimeError as e:
            raise SystemExit(f"the app did not become ready: {e}")
        k6_run = toolkit.K6Run(k6, "ramp", out, {"BASE_URL": base, "ENDPOINT": args.endpoint,
                                                 "STAGE_SCALE": args.stage_scale, "PEAK_VUS": args.peak_vus,
                                                 "K6_CSV_TIME_FORMAT": "unix_milli"},
                               log="k6.txt", args=["--out", f"csv={out / 'requests.csv'}"])
        start_ms = int(time.time() * 1000)
        limit = time.monotonic() + 7 * 60 * args.stage_scale + 120
        samples, switches, refused = [], [], []
        model = args.start_model
        next_switch = time.monotonic() + args.switch_every
        while k6_run.poll() is None:
            if time.monotonic() > limit:
                k6_run.kill()
                raise SystemExit("k6 ran past its time limit")
            status, body = threadmodel(base)
            if status == 200:
                samples.append({"t_ms": int(time.time() * 1000), "model": body["model"],
                                "running": body["requests"]["running"], "queued": body["requests"]["queued"]})
            if time.monotonic() >= next_switch:
                target = "virtual" if model == "platform" else "platform"
                status, body = threadmodel(base, {"model": target})
                if status == 200:
                    switches.append({"t_ms": int(time.time() * 1000), "from": model, "to": target})
                    model = target
                else:
                    refused.append(f"{status} {body}")
                next_switch = time.monotonic() + args.switch_every
            time.sleep(0.25)
        summary = json.loads((out / "ramp-summary.json").read_text())
        failed_rate = summary["k6"]["metrics"]["http_req_failed"]["values"]["rate"]
        rows = windows(read_requests(out / "requests.csv"), samples, switches, start_ms,
                       args.window or args.switch_every)
        table = markdown(rows)
        (out / "switching.md").write_text(table)
        with open(out / "windows.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)
        print(table)
        total = sum(r["requests"] for r in rows)
        print(f"{len(switches)} switches, {total} requests, k6 http_req_failed rate {failed_rate}, "
              f"k6 exit {k6_run.returncode}, thresholds failed: {summary['thresholds_failed'] or 'none'}")
        problems = []
        if k6_run.returncode != 0:
            problems.append(f"k6 exited {k6_run.returncode} (thresholds: {summary['thresholds_failed']})")
        if failed_rate > 0:
            problems.append(f"failed requests: rate {failed_rate}")
        if refused:
            problems.append(f"refused switches: {refused}")
        if len(switches) < 2:
            problems.append("fewer than 2 switches happened")
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        print("OK: thresholds held and no request failed while the model switched")
        return 0
    finally:
        if k6_run:
            k6_run.kill()
        app.stop(grace=30)


if __name__ == "__main__":
    sys.exit(main())
