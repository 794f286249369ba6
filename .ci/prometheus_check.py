#!/usr/bin/env python3
"""Checks the starter's meters and the Grafana dashboard against a real Prometheus.

    .ci/install-prometheus.sh && .ci/prometheus_check.py              # CI: ~75 s
    .ci/prometheus_check.py --jar sample-web/target/boot3/sample-web-tomcat.jar --seconds 120 --out docs-run

Starts sample-web's jar on free 127.0.0.1 ports (the management server on a port of its own, so that
scrapes and switches are neither served by the request executor nor counted as requests) and a
Prometheus (the `prometheus` on the PATH, Debian's package in CI) that scrapes /actuator/prometheus
every second. Then loads the app with blocking and quick requests on kept-alive connections, from more
clients than the limits let through, while it switches the model platform <-> virtual every
--switch-every seconds through POST /actuator/threadmodel. Afterwards, through Prometheus' HTTP API:

- every query of every panel of docs/grafana/*.json (dashboard variables set to match everything)
  returns data over the run;
- resets() of every threadmodel_* and executor_* counter over the run is 0: no counter restarted;
- every threadmodel_* and executor_* gauge kept its series: as many series over the run as at its end;
- threadmodel_switches_total adds up to the switches made, threadmodel_requests_received_total and
  completed_total to the answers the clients got, threadmodel_requests_rejected_total to the 503s.

Writes the app's log, Prometheus' log, the endpoint's JSON, the meters' Prometheus text and a summary
into --out. Exits non-zero on any failed check. Standard library only; loopback only; bounded waits.
"""
import argparse
import glob
import http.client
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "load"))
import toolkit  # noqa: E402

COUNTER = re.compile(r"^(threadmodel|executor)_.*(_total|_count|_sum)$")
OURS = re.compile(r"^(threadmodel|executor)_")


def wait_for(what, seconds, probe):
    """Prometheus' readiness: probe() every 0.5 s until it is true (its errors count as not yet)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if probe():
                return
        except (OSError, ValueError, KeyError, RuntimeError):
            pass
        time.sleep(0.5)
    raise SystemExit(f"{what} not ready within {seconds} s")


class Load:
    """Clients on kept-alive connections (http.client reconnects when the server closes one), each
    sending requests one after the other; counts the answers by status. After a 503 a client waits a
    little, as Retry-After asks, so that it does not spin."""

    def __init__(self, port, clients):
        self.port = port
        self.clients = clients
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.statuses = {}
        self.errors = 0
        self.threads = [threading.Thread(target=self.client, args=(i,), daemon=True) for i in range(clients)]

    def client(self, index):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        n = 0
        while not self.stop.is_set():
            # three blocking requests (sample.greetings.delay) for one quick one
            path = "/ping" if n % 4 == 3 else f"/greetings?name=c{index}"
            n += 1
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                connection.close()
                with self.lock:
                    self.errors += 1
                continue
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 503:
                self.stop.wait(0.2)
        connection.close()

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=40)


class Prometheus:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def api(self, path, **params):
        body = toolkit.http_json(f"{self.base}/api/v1/{path}?{urllib.parse.urlencode(params)}", timeout=30)
        if body.get("status") != "success":
            raise RuntimeError(f"{path} {params}: {body}")
        return body["data"]

    def query(self, expr, at):
        return self.api("query", query=expr, time=f"{at:.3f}")["result"]

    def query_range(self, expr, start, end, step):
        return self.api("query_range", query=expr, start=f"{start:.3f}", end=f"{end:.3f}", step=step)["result"]


def panel_queries(dashboards):
    """(dashboard file, panel title, expression) of every target of every panel, rows' panels included."""
    for path in dashboards:
        dashboard = json.loads(Path(path).read_text())
        stack = list(dashboard.get("panels", []))
        while stack:
            panel = stack.pop(0)
            stack.extend(panel.get("panels", []))
            for target in panel.get("targets", []):
                if target.get("expr"):
                    yield Path(path).name, panel.get("title", "?"), target["expr"]


def substitute(expr):
    """The dashboard's variables as Grafana would fill them with 'All' selected and a 1 s scrape."""
    for name in ("job", "instance", "server"):
        expr = expr.replace(f"${name}", ".*").replace(f"${{{name}}}", ".*")
    return expr.replace("$__rate_interval", "5s").replace("$__interval", "2s")


def values(result):
    return [float(v[1]) for series in result for v in (series.get("values") or [series.get("value")])]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jar", default=str(ROOT / "sample-web" / "target" / "sample-web-tomcat.jar"))
    parser.add_argument("--dashboards", default=str(ROOT / "docs" / "grafana" / "*.json"))
    parser.add_argument("--seconds", type=float, default=48, help="how long the load runs")
    parser.add_argument("--switch-every", type=float, default=8)
    parser.add_argument("--clients", type=int, default=28)
    parser.add_argument("--out", default=str(ROOT / "target" / "prometheus-check"))
    args = parser.parse_args()
    prometheus_binary = shutil.which("prometheus")
    if not prometheus_binary:
        raise SystemExit("no prometheus on the PATH: run .ci/install-prometheus.sh")
    java = toolkit.java()
    dashboards = sorted(glob.glob(args.dashboards))
    if not dashboards:
        raise SystemExit(f"no dashboard matches {args.dashboards}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app_port, management_port, prometheus_port = toolkit.free_port(), toolkit.free_port(), toolkit.free_port()
    management_url = f"http://127.0.0.1:{management_port}"
    toolkit.stop_on_sigterm()
    work = Path(tempfile.mkdtemp(prefix="prometheus-check-"))
    (work / "prometheus.yml").write_text(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: sample-web
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ["127.0.0.1:{management_port}"]
""")
    app = prometheus = None
    try:
        app = toolkit.App([java, "-jar", args.jar],
                          [f"--management.server.port={management_port}",
                           "--management.server.address=127.0.0.1",
                           "--management.endpoints.web.exposure.include=health,prometheus,threadmodel",
                           "--management.endpoint.threadmodel.access=unrestricted",
                           "--app.threads.model=platform", "--app.threads.platform.max-threads=8",
                           "--app.threads.platform.queue-capacity=8",
                           "--app.threads.virtual.max-concurrency=16",
                           "--app.threads.virtual.queue-timeout=300ms",
                           "--sample.greetings.delay=300ms"],
                          out / "app.log", port=app_port)
        with open(out / "prometheus.log", "w") as log:
            prometheus = subprocess.Popen([prometheus_binary, f"--config.file={work / 'prometheus.yml'}",
                                           f"--storage.tsdb.path={work / 'data'}",
                                           f"--web.listen-address=127.0.0.1:{prometheus_port}"],
                                          stdout=log, stderr=subprocess.STDOUT)
        prom = Prometheus(prometheus_port)
        try:
            app.wait_threadmodel(120, base=management_url, interval=0.5)
        except RuntimeError as e:
            raise SystemExit(f"the app not ready: {e}")
        wait_for("Prometheus", 60, lambda: b"Ready" in toolkit.http_body(f"{prom.base}/-/ready", timeout=5))
        wait_for("Prometheus' first scrape", 30,
                 lambda: values(prom.query('up{job="sample-web"}', time.time())) == [1.0])

        start = time.time()
        load = Load(app_port, args.clients)
        load.start()
        model, switches, refused = "platform", 0, []
        next_switch = time.monotonic() + args.switch_every
        end_at = time.monotonic() + args.seconds
        while time.monotonic() < end_at:
            if not app.alive():
                raise SystemExit(f"the app exited (code {app.proc.returncode})")
            if time.monotonic() >= next_switch:
                target = "virtual" if model == "platform" else "platform"
                status, body = toolkit.http(f"{management_url}/actuator/threadmodel", {"model": target})
                if status is None:
                    raise SystemExit(f"the switch to {target} got no answer: {body.decode(errors='replace')}")
                if status == 200:
                    model, switches = target, switches + 1
                else:
                    refused.append(f"{status} {body.decode(errors='replace')[:200]}")
                next_switch += args.switch_every
            time.sleep(0.1)
        load.finish()
        # the last answers counted, and scraped
        time.sleep(3)
        end = time.time()
        run = f"{math.ceil(end - start) + 5}s"
        (out / "threadmodel.json").write_text(
            toolkit.http_body(f"{management_url}/actuator/threadmodel", timeout=5).decode())
        (out / "prometheus.txt").write_text("".join(line + "\n" for line in toolkit.http_body(
            f"{management_url}/actuator/prometheus", timeout=5).decode().splitlines()
            if OURS.match(line) or "pinned" in line))

        problems, lines = [], []
        answers = sum(load.statuses.values())
        lines.append(f"load: {answers} answers {dict(sorted(load.statuses.items()))}, {load.errors} connection "
                     f"errors, {switches} switches in {end - start:.0f} s")
        if refused:
            problems.append(f"refused switches: {refused}")
        if switches < 3:
            problems.append(f"only {switches} switches")

        lines.append("panels (query_range over the run, step 2s):")
        for dashboard, title, expr in panel_queries(dashboards):
            result = prom.query_range(substitute(expr), start, end, "2s")
            finite = [v for v in values(result) if not math.isnan(v)]
            ok = bool(finite)
            lines.append(f"  {'ok ' if ok else 'NO DATA'} {dashboard} / {title}: {len(result)} series, "
                         + (f"max {max(finite):.4g}" if finite else "no value") + f"  [{expr[:90]}...]")
            if not ok:
                problems.append(f"panel '{title}' has no data: {expr}")

        names = [n for n in prom.api("label/__name__/values") if OURS.match(n)]
        counters = [n for n in names if COUNTER.match(n)]
        gauges = [n for n in names if not COUNTER.match(n)]
        lines.append(f"counters, resets() over the last {run}:")
        for name in counters:
            result = prom.query(f'resets({{__name__="{name}"}}[{run}])', end)
            resets = values(result)
            ok = bool(resets) and all(v == 0 for v in resets)
            lines.append(f"  {'ok ' if ok else 'FAIL'} {name}: {len(result)} series, resets {sum(resets):.0f}")
            if not ok:
                problems.append(f"{name} restarted ({sum(resets):.0f} resets over {len(result)} series)")
        lines.append(f"gauges, series over the last {run} vs at the end:")
        for name in gauges:
            over_run = len(prom.query(f'count_over_time({{__name__="{name}"}}[{run}])', end))
            now = len(prom.query(f'{{__name__="{name}"}}', end))
            ok = over_run == now and now > 0
            lines.append(f"  {'ok ' if ok else 'FAIL'} {name}: {over_run} series over the run, {now} at the end")
            if not ok:
                problems.append(f"{name} changed series: {over_run} over the run, {now} at the end")

        def total(expr):
            return sum(values(prom.query(expr, end)))

        for label, expr, expected in [
                ("switches", "sum(threadmodel_switches_total)", switches),
                ("requests received", "sum(threadmodel_requests_received_total)", answers),
                ("requests completed", "sum(threadmodel_requests_completed_total)", answers),
                ("requests rejected (503)", "sum(threadmodel_requests_rejected_total)", load.statuses.get(503, 0))]:
            counted = total(expr)
            ok = counted == expected
            lines.append(f"{'ok ' if ok else 'FAIL'} {label}: Prometheus {counted:.0f}, clients/endpoint {expected}")
            if not ok:
                problems.append(f"{label}: Prometheus says {counted:.0f}, expected {expected}")
        if load.errors:
            lines.append(f"note: {load.errors} requests failed on a connection the server had closed (not sent)")

        report = "\n".join(lines)
        print(report)
        (out / "summary.txt").write_text(report + "\n")
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        print("OK: every panel has data, no counter restarted, no gauge changed series, the counts match")
        return 0
    finally:
        if app is not None:
            app.stop(grace=30)
        if prometheus is not None and prometheus.poll() is None:
            prometheus.terminate()
            try:
                prometheus.wait(timeout=30)
            except subprocess.TimeoutExpired:
                prometheus.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
