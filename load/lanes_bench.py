#!/usr/bin/env python3
"""Lanes under a mixed load: CPU-bound (or carrier-pinning) requests beside I/O-bound ones on sample-web, the I/O
route's latency with the heavy route in a lane of platform threads, against everything on virtual threads and
everything on platform threads.

    load/lanes_bench.py                                     # Tomcat and Jetty, 3 rounds, 15 s a run (~10 min)
    load/lanes_bench.py --servers tomcat --rounds 1 --seconds 10
    JAVA_HOME=$(.ci/install-jdk21.sh) load/lanes_bench.py --route pinned   # the pinning route, on JDK 21

--route chooses the heavy route: cpu (/cpu, CPU_MS of busy spinning; in the cpu lane of 2 platform threads) or pinned
(/pinned, a sleep of CPU_MS holding a monitor, which pins a virtual thread's carrier on JDK 21 to 23; in the pinning
lane of up to 200 platform threads).

The load (load/k6/mix.js): CPU_VUS clients call the heavy route (for CPU_MS each) back to back while FAST_VUS
clients call /greetings, which sleeps --io-ms (the I/O route). Variants, each a fresh sample-web on --heap:
  virtual   app.threads.model=virtual, the heavy route (/cpu) on the request threads
  lane      app.threads.model=virtual, the heavy route in its lane (/lanes/cpu; sample-web's profile lanes, which
            every variant runs with)
  platform  app.threads.model=platform (200 threads), the heavy route (/cpu) on the request threads
The variants are interleaved (their order rotates from round to round). Reports per server and variant the medians over
the rounds of the I/O route's p50 and p99, the heavy route's requests per second, and the requests not answered 200;
and whether the lane meets the target: the I/O route's p99 at most a fifth of its all-virtual p99, every request 200.
Writes results/lanes-<timestamp>/: results.json, results.md, one folder per run (app log, k6 summary).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import toolkit  # noqa: E402

VARIANTS = {"virtual": "virtual", "lane": "virtual", "platform": "platform"}  # the server's model in each
ROUTES = {"cpu": "/cpu", "pinned": "/pinned"}  # the heavy routes; each has its laned twin under /lanes


def heavy_path(route: str, variant: str) -> str:
    """The heavy route's path in a variant: in its lane for the variant lane, on the request threads otherwise."""
    return ("/lanes" if variant == "lane" else "") + ROUTES[route]
P99_TARGET = 0.2


def figures(summary: dict) -> dict:
    """The I/O route's p50 and p99, the CPU route's rate, and the requests not answered 200."""
    metrics = summary["k6"]["metrics"]
    fast = metrics["fast_response_time"]["values"]
    cpu = metrics["cpu_response_time"]["values"]
    duration_s = summary.get("duration_s") or summary["k6"]["state"]["testRunDurationMs"] / 1000
    failed = metrics.get("errors", {}).get("values", {}).get("passes", 0)
    return {"io_p50_ms": fast["med"], "io_p99_ms": fast["p(99)"], "io_requests": int(fast.get("count", 0) or 0),
            "cpu_per_s": (cpu.get("count") or 0) / duration_s, "not_200": int(failed)}


def run_one(server: str, variant: str, round_: int, a, k6: str, root: Path) -> dict:
    name = f"{server}-{variant}-{round_ + 1}"
    outdir = root / name
    outdir.mkdir(parents=True)
    cfg = bench.Config("web", server, VARIANTS[variant], "jvm")
    app_args = SimpleNamespace(mem_mb=None, cgroup="off", launch=None, jvm_arg=[f"-Xmx{a.heap}"],
                               app_arg=[f"--sample.greetings.delay={a.io_ms}ms", "--spring.profiles.active=lanes"])
    app = bench.App(cfg, app_args, outdir, (None, None, "not asked"))
    result = {"server": server, "variant": variant, "round": round_ + 1, "error": None}
    with bench.recorded_run(app, name, result):
        app.start(a.start_timeout)
        env = {"SUMMARY_NAME": "mix", "DURATION": a.seconds, "CPU_VUS": a.cpu_vus, "CPU_MS": a.cpu_ms,
               "CPU_PATH": heavy_path(a.route, variant), "FAST_VUS": a.io_vus, "FAST_ENDPOINT": "/greetings?name=k6",
               "SLEEP_S": 0}
        result["k6_exit"] = bench.run_k6(k6, "mix", app.base, env, outdir, a.seconds + 90, dashboard=False)
        result.update(figures(json.loads((outdir / "mix-summary.json").read_text())))
        bench.log(f"{name}: I/O p50 {result['io_p50_ms']:.0f} ms, p99 {result['io_p99_ms']:.0f} ms, "
                  f"CPU {result['cpu_per_s']:.1f}/s, not 200: {result['not_200']}")
    return result


def rows(results: list[dict], servers: list[str]) -> list[dict]:
    out = []
    for server in servers:
        by_variant = {}
        for variant in VARIANTS:
            runs = [r for r in results if r["server"] == server and r["variant"] == variant and not r["error"]]
            if runs:
                by_variant[variant] = {key: statistics.median(r[key] for r in runs)
                                       for key in ("io_p50_ms", "io_p99_ms", "cpu_per_s")}
                by_variant[variant].update(not_200=sum(r["not_200"] for r in runs), rounds=len(runs),
                                           io_p99_each=[round(r["io_p99_ms"]) for r in runs])
        row = {"server": server, "variants": by_variant}
        if "lane" in by_variant and "virtual" in by_variant:
            row["lane_p99_ratio"] = by_variant["lane"]["io_p99_ms"] / by_variant["virtual"]["io_p99_ms"]
            row["target_met"] = row["lane_p99_ratio"] <= P99_TARGET and by_variant["lane"]["not_200"] == 0
        out.append(row)
    return out


def markdown(table: list[dict]) -> str:
    lines = ["| server | variant | I/O p50 (ms) | I/O p99 (ms) | I/O p99 each round | heavy route req/s | not 200 |",
             "|---|---|---:|---:|---|---:|---:|"]
    for row in table:
        for variant, v in row["variants"].items():
            lines.append(f"| {row['server']} | {variant} | {v['io_p50_ms']:.0f} | {v['io_p99_ms']:.0f} | "
                         f"{', '.join(map(str, v['io_p99_each']))} | {v['cpu_per_s']:.1f} | {v['not_200']} |")
    lines.append("")
    for row in table:
        if "lane_p99_ratio" in row:
            met = "met" if row["target_met"] else "**not met**"
            lines.append(f"- {row['server']}: lane / all-virtual I/O p99 = {row['lane_p99_ratio']:.3f} "
                         f"(target at most {P99_TARGET}, every request 200): {met}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    csv_list = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    p.add_argument("--servers", type=csv_list, default=["tomcat", "jetty"])
    p.add_argument("--variants", type=csv_list, default=list(VARIANTS))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=15, help="how long each run's load lasts")
    p.add_argument("--route", choices=list(ROUTES), default="cpu", help="the heavy route (see above)")
    p.add_argument("--cpu-vus", type=int, default=100, help="clients of the heavy route")
    p.add_argument("--cpu-ms", type=int, default=50, help="the heavy route's ms: busy (cpu) or asleep pinned (pinned)")
    p.add_argument("--io-vus", type=int, default=100)
    p.add_argument("--io-ms", type=int, default=100)
    p.add_argument("--heap", default="512m", help="the server's -Xmx")
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--out", default=str(toolkit.ROOT / "results"))
    a = p.parse_args(argv)
    for variant in a.variants:
        if variant not in VARIANTS:
            p.error(f"unknown variant {variant} (known: {', '.join(VARIANTS)})")
    for server in a.servers:
        if not bench.jar_path("web", server).exists():
            raise SystemExit(f"{bench.jar_path('web', server)} is missing: "
                             f"./mvnw -pl sample-web -am package -DskipTests -P{server}")
    k6 = toolkit.k6()
    root = Path(a.out) / f"lanes-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    root.mkdir(parents=True)
    meta = {"command": " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
            **bench.machine_info(k6)}
    t0 = time.monotonic()
    results = []
    for round_ in range(a.rounds):
        for i, server in enumerate(a.servers):
            shift = (round_ + i) % len(a.variants)
            for variant in a.variants[shift:] + a.variants[:shift]:  # interleaved: the order rotates
                results.append(run_one(server, variant, round_, a, k6, root))
                table = rows(results, a.servers)
                (root / "results.json").write_text(json.dumps({"meta": meta, "runs": results, "rows": table},
                                                              indent=2))
                (root / "results.md").write_text(markdown(table))
    meta["duration_s"] = round(time.monotonic() - t0, 1)
    table = rows(results, a.servers)
    (root / "results.json").write_text(json.dumps({"meta": meta, "runs": results, "rows": table}, indent=2))
    print(markdown(table))
    bench.log(f"done in {meta['duration_s']} s: {root / 'results.md'}")
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
