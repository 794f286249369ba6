#!/usr/bin/env python3
"""Connection intake, side by side: N simultaneous new connections (no keep-alive) to /greetings (1 s) against each
sample, once with the starter in virtual mode and once with plain Spring Boot virtual threads
(spring.threads.virtual.enabled=true, the starter's auto-configurations excluded).

    python3 load/intake.py                                 # -n 2700, Tomcat, Jetty, Netty on Spring Boot 4 (target/*.jar)
    python3 load/intake.py --boot 3                        # all four servers on Spring Boot 3.5 (target/boot3/*.jar)
    python3 load/intake.py -n 300 --apps sample-web-tomcat

Uses oha (https://crates.io/crates/oha), the tool of the published runs this answers, so the figures compare with
theirs; it is installed with `cargo install oha --locked` when missing. Each configuration gets one warm-up run of the
same size, then the measured one. In --out: machine.txt, results.md (one row per app and variant), and per app and
variant its log and oha's JSON of both runs. Loopback only; each start on a free port unless --port.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import toolkit  # noqa: E402
from starter_auto_configurations import plain_virtual_arguments  # noqa: E402

# Per Boot line: where the jars are, how to build one, the apps by default (Undertow exists only on Boot 3.5).
LINES = {
    "4": ("target", "./mvnw -B -pl sample-web -am package -DskipTests -P<server> (docs/benchmarks.md)",
          ["sample-web-tomcat", "sample-web-jetty", "sample-reactive"]),
    "3": ("target/boot3", "./mvnw -B -Pboot3 -pl sample-support,sample-web package -DskipTests -P<server> "
          "(docs/benchmarks.md)", ["sample-web-tomcat", "sample-web-jetty", "sample-web-undertow", "sample-reactive"]),
}
SETTLE_S = 2  # after each oha run, so that the server is back at rest (part of the measurement)


def result_row(app: str, variant: str, oha_json: str) -> str:
    s = json.loads(oha_json)["summary"]
    return (f"| {app} | {variant} | {s['successRate'] * 100:.1f} | {s['total']:.2f} | {s['slowest']:.2f} "
            f"| {s['fastest']:.2f} | {s['average']:.2f} | {s['requestsPerSec']:.1f} |")


def find_jar(app: str, jar_dir: str) -> Path | None:
    return next(iter(sorted(ROOT.glob(f"sample-*/{jar_dir}/{app}.jar"))), None)


def one_run(app_name: str, jar: Path, variant: str, a, java: str, oha: str, out: Path) -> str:
    args = ["--app.threads.model=virtual"] if variant == "starter" else plain_virtual_arguments(jar)
    app = toolkit.App([java, "-jar", str(jar)], args, out / f"{app_name}-{variant}.log", port=a.port)
    try:
        app.wait_http("/health", 120, interval=0.5)
        url = f"{app.base}/greetings?name=oha"
        for run in ("warmup", "measured"):
            with open(out / f"{app_name}-{variant}-{run}.json", "w") as result:
                try:
                    subprocess.run([oha, "-n", str(a.n), "-c", str(a.n), "--disable-keepalive", "--no-tui",
                                    "--output-format", "json", url], stdout=result, stderr=subprocess.DEVNULL,
                                   timeout=120)
                except subprocess.TimeoutExpired:
                    pass
            time.sleep(SETTLE_S)
    finally:
        app.stop()
    return result_row(app_name, variant, (out / f"{app_name}-{variant}-measured.json").read_text())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=2700, help="simultaneous requests (2700)")
    p.add_argument("--boot", choices=sorted(LINES), default="4", help="the Spring Boot line of the jars (4, or 3: 3.5)")
    p.add_argument("--apps", nargs="+", help="jar names (default: every server of the line)")
    p.add_argument("--variants", nargs="+", choices=["starter", "plain"], default=["starter", "plain"])
    p.add_argument("--port", type=int, help="the apps' port (default: a free one per start)")
    p.add_argument("--out", type=Path, default=ROOT / "target" / f"intake-{time.strftime('%Y%m%d-%H%M%S')}")
    a = p.parse_args(argv)
    jar_dir, build, default_apps = LINES[a.boot]
    apps = a.apps or default_apps
    if "sample-web-undertow" in apps and a.boot != "3":
        raise SystemExit("sample-web-undertow: Undertow exists only on Spring Boot 3.5: run with --boot 3")
    jars = {app: find_jar(app, jar_dir) for app in apps}
    for app, jar in jars.items():
        if jar is None:
            raise SystemExit(f"no {jar_dir}/{app}.jar: build it first: {build}")
    java, oha = toolkit.java(), toolkit.oha()
    machine = f"N={a.n}, Spring Boot line {a.boot} ({jar_dir}), {toolkit.machine_line()}"
    return toolkit.write_results(a.out, machine, None, (one_run(app, jar, variant, a, java, oha, a.out)
                                                        for app, jar in jars.items() for variant in a.variants))


if __name__ == "__main__":
    sys.exit(main())
