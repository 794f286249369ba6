#!/usr/bin/env python3
"""A fleet switches its thread model together: one configuration edit, one POST /actuator/busrefresh, every instance
switched within seconds, under load, with no failed request (docs/fleet.md).

    bash .ci/rabbitmq.sh                                                      # RabbitMQ on 127.0.0.1:5672
    ./mvnw -B -ntp -Pfleet -pl sample-config-server,sample-web -am package -DskipTests
    python3 load/fleet_switch.py                                              # ~2 minutes
    python3 load/fleet_switch.py --instances 5 --vus 50 --out /tmp/fleet

What it does, every server on a free 127.0.0.1 port:
  1. copies sample-config-server/config/ to OUT/config and starts the Config Server (native backend) on it;
  2. starts --instances sample-web instances (target/fleet/sample-web-fleet.jar: Config client + Spring Cloud Bus over
     the RabbitMQ on 127.0.0.1:5672, guest/guest), which read app.threads.model=platform from the Config Server;
  3. runs load/k6/fleet.js across all of them (each request to the next instance in turn);
  4. once every instance is answering the load, rewrites app.threads.model in OUT/config (platform -> virtual),
     POSTs /actuator/busrefresh to the first instance only, and polls each instance's /actuator/env/app.threads.model
     (the Environment has the new value: the bus carried the refresh), its log (Spring Cloud Bus's "Keys refreshed
     [app.threads.model]": the refresh published the EnvironmentChangeEvent) and /actuator/threadmodel (the model
     switched, and the endpoint records the configuration as the switch's source) until all three show it;
  5. the same back (virtual -> platform), then lets k6 finish.

Exits non-zero when an instance's Environment, event or model does not follow within --within seconds, the
endpoint names another source for the switch, busrefresh is
refused, k6 counts a single failed request (or any threshold fails), an instance got no load, or something does not
start. Per instance and switch it prints the seconds from the POST until the Environment had the new value and until
the model had switched, and k6's requests and failures; OUT/fleet.md and OUT/fleet.json keep them.
Standard library only; loopback only; every wait is bounded; every process it started is stopped.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "load"))
import toolkit  # noqa: E402

PROPERTY = "app.threads.model"
CONFIG_DIR = ROOT / "sample-config-server" / "config"
CONFIG_FILE = "sample-web.properties"
CONFIG_SERVER_JAR = ROOT / "sample-config-server" / "target" / "sample-config-server.jar"
FLEET_JAR = ROOT / "sample-web" / "target" / "fleet" / "sample-web-fleet.jar"
BUILD = "./mvnw -B -ntp -Pfleet -pl sample-config-server,sample-web -am package -DskipTests"
RABBITMQ = ("127.0.0.1", 5672)


def set_property(path: Path, key: str, value: str):
    """Sets `key=value` in a .properties file: the line that sets `key` is replaced (appended when there is none).
    Written to a temporary file and renamed, so that the Config Server never reads half a file."""
    lines = path.read_text().splitlines() if path.exists() else []
    written = False
    for i, line in enumerate(lines):
        if line.split("=", 1)[0].strip() == key:
            lines[i] = f"{key}={value}"
            written = True
    if not written:
        lines.append(f"{key}={value}")
    partial = path.with_suffix(path.suffix + ".partial")
    partial.write_text("\n".join(lines) + "\n")
    os.replace(partial, path)


def env_value(base: str, key: str = PROPERTY) -> tuple[str | None, str | None]:
    """(value, property source) of `key` in an instance's Environment (GET /actuator/env/{key}); (None, None) when it
    does not answer or does not have it."""
    status, body = toolkit.http(f"{base}/actuator/env/{key}", timeout=5)
    if status != 200:
        return None, None
    prop = json.loads(body).get("property") or {}
    return prop.get("value"), prop.get("source")


def threadmodel(base: str) -> dict | None:
    """GET /actuator/threadmodel as JSON; None when it does not answer 200."""
    status, body = toolkit.http(f"{base}/actuator/threadmodel", timeout=5)
    return json.loads(body) if status == 200 else None


def completed(base: str) -> int:
    """Requests the instance has completed (the endpoint's requests.completed); -1 when it does not answer."""
    doc = threadmodel(base)
    return doc["requests"]["completed"] if doc else -1


def instance_counts(summary: dict, instances: int) -> list[dict]:
    """Per instance, from k6's summary (load/k6/fleet.js): requests and failed requests."""
    metrics = summary["k6"]["metrics"]
    rows = []
    for i in range(instances):
        reqs = metrics.get(f"http_reqs{{instance:{i}}}", {}).get("values", {})
        failed = metrics.get(f"http_req_failed{{instance:{i}}}", {}).get("values", {})
        rows.append({"instance": i, "requests": int(reqs.get("count", 0)), "failed": int(failed.get("passes", 0))})
    return rows


def wait_for_load(bases: list[str], k6_run, at_least: int, timeout: float):
    """Waits until every instance has completed `at_least` more requests than now: the load reaches all of them."""
    start = [completed(b) for b in bases]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if k6_run.poll() is not None:
            raise SystemExit("k6 ended before the switches were done (see k6.txt; raise --duration)")
        if all(completed(b) >= s + at_least for b, s in zip(bases, start)):
            return
        time.sleep(0.2)
    raise SystemExit(f"the load did not reach every instance ({at_least} requests each) within {timeout:.0f}s")


# What Spring Cloud Bus's RefreshListener logs after ContextRefresher.refresh(): the keys of the EnvironmentChangeEvent
# that the refresh published.
KEYS_REFRESHED = re.compile(r"Keys refreshed \[(?:[^\]]*, )?" + re.escape(PROPERTY) + r"[,\]]")


def events(app: toolkit.App) -> int:
    """EnvironmentChangeEvents naming the property that the instance has published so far (from its log)."""
    return len(KEYS_REFRESHED.findall(app.log_text()))


def switch(config: Path, instances: list[toolkit.App], target: str, within: float) -> list[dict]:
    """Edits the configuration to `target`, POSTs busrefresh to the first instance, and returns per instance the
    seconds from the POST until its Environment had the value (env_s), until it had published the
    EnvironmentChangeEvent naming the property (event_s) and until its model had switched (model_s), None for what
    did not happen within `within` seconds."""
    events_before = [events(app) for app in instances]
    set_property(config, PROPERTY, target)
    posted = time.monotonic()
    status, body = toolkit.http(f"{instances[0].base}/actuator/busrefresh", method="POST", timeout=30)
    if status is None or not 200 <= status < 300:
        raise SystemExit(f"POST /actuator/busrefresh answered {status}: {body[:300]!r}")
    rows = [{"env_s": None, "event_s": None, "model_s": None, "source": None, "switched_by": None}
            for _ in instances]
    while time.monotonic() < posted + within and any(None in (r["env_s"], r["event_s"], r["model_s"]) for r in rows):
        for app, before, row in zip(instances, events_before, rows):
            if row["env_s"] is None:
                value, source = env_value(app.base)
                if value == target:
                    row["env_s"], row["source"] = time.monotonic() - posted, source
            if row["event_s"] is None and events(app) > before:
                row["event_s"] = time.monotonic() - posted
            if row["model_s"] is None:
                doc = threadmodel(app.base)
                if doc and doc.get("model") == target:
                    row["model_s"] = time.monotonic() - posted
                    # Who made the switch, as the endpoint records it: the configuration, not the endpoint or auto.
                    row["switched_by"] = (doc.get("switches") or [{}])[0].get("source")
        time.sleep(0.1)
    return rows


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def markdown(switches: list[dict], counts: list[dict]) -> str:
    """Per instance: for each switch the seconds from the POST until the Environment had the new value, the
    EnvironmentChangeEvent was published and the model had switched; k6's requests and failures."""
    lines = ["| instance | " + " | ".join(f"{s['from']}→{s['to']}: Environment s | event s | model s" for s in switches)
             + " | requests | failed |",
             "|---|" + "---|---|---|" * len(switches) + "---|---|"]
    for i, count in enumerate(counts):
        cells = " | ".join(" | ".join(seconds(s["instances"][i][k]) for k in ("env_s", "event_s", "model_s"))
                           for s in switches)
        lines.append(f"| {i}{' (busrefresh)' if i == 0 else ''} | {cells} | {count['requests']} | {count['failed']} |")
    return "\n".join(lines) + "\n"


def rabbitmq_answers() -> bool:
    try:
        with socket.create_connection(RABBITMQ, timeout=2):
            return True
    except OSError:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--vus", type=int, default=30, help="k6 virtual users across all instances")
    parser.add_argument("--duration", default="30s", help="k6's run; both switches must happen within it")
    parser.add_argument("--endpoint", default="/products/1")
    parser.add_argument("--within", type=float, default=15.0,
                        help="seconds every instance has, from the POST, to show the new value and model")
    parser.add_argument("--out", default=str(ROOT / "target" / "fleet-switch"))
    args = parser.parse_args()

    for jar in (CONFIG_SERVER_JAR, FLEET_JAR):
        if not jar.exists():
            raise SystemExit(f"{jar} is missing: build it with {BUILD}")
    if not rabbitmq_answers():
        raise SystemExit(f"RabbitMQ does not answer on {RABBITMQ[0]}:{RABBITMQ[1]}: start it with bash .ci/rabbitmq.sh")
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(CONFIG_DIR, out / "config")
    config = out / "config" / CONFIG_FILE

    java = toolkit.java()
    k6 = toolkit.k6()
    toolkit.stop_on_sigterm()
    apps: list[toolkit.App] = []
    try:
        t0 = time.monotonic()
        server = toolkit.App([java, "-jar", str(CONFIG_SERVER_JAR)],
                             [f"--spring.cloud.config.server.native.search-locations=file:{out / 'config'}/"],
                             out / "config-server.log")
        apps.append(server)
        server.wait_http("/sample-web/default", timeout=180, interval=0.25)
        print(f"Config Server on {server.base} in {time.monotonic() - t0:.1f}s, serving {out / 'config'}")

        t0 = time.monotonic()
        instance_args = [f"--spring.config.import=configserver:{server.base}",
                         f"--spring.rabbitmq.host={RABBITMQ[0]}", f"--spring.rabbitmq.port={RABBITMQ[1]}",
                         "--management.endpoints.web.exposure.include=health,threadmodel,env,busrefresh",
                         # Loopback only, for the check: the Environment's values are what it reads.
                         "--management.endpoint.env.show-values=always"]
        # C1 only: the instances start side by side on a small machine (2 cores in CI) in about half the time; the
        # check is about switching, not throughput.
        command = [java, "-XX:TieredStopAtLevel=1", "-jar", str(FLEET_JAR)]
        for i in range(args.instances):
            apps.append(toolkit.App(command, instance_args, out / f"instance-{i}.log"))
        instances = apps[1:]
        bases = [app.base for app in instances]
        for app in instances:
            app.wait_threadmodel(240, interval=0.5)
        print(f"{args.instances} instances ready in {time.monotonic() - t0:.1f}s: {', '.join(bases)}")
        for base in bases:
            value, source = env_value(base)
            model = threadmodel(base)["model"]
            if value != "platform" or not (source or "").startswith("configserver:") or model != "platform":
                raise SystemExit(f"{base} starts with {PROPERTY}={value} from {source}, model {model}: expected "
                                 "platform from the Config Server")

        k6_run = toolkit.K6Run(k6, "fleet", out, {"BASE_URLS": ",".join(bases), "ENDPOINT": args.endpoint,
                                                  "VUS": args.vus, "DURATION": args.duration}, log="k6.txt")
        try:
            switches = []
            for source_model, target in (("platform", "virtual"), ("virtual", "platform")):
                wait_for_load(bases, k6_run, at_least=20, timeout=60)
                rows = switch(config, instances, target, args.within)
                switches.append({"from": source_model, "to": target, "instances": rows})
                for i, row in enumerate(rows):
                    print(f"  {source_model}→{target} instance {i}: Environment {seconds(row['env_s'])} s "
                          f"({row['source']}), EnvironmentChangeEvent {seconds(row['event_s'])} s, "
                          f"model {seconds(row['model_s'])} s (switched by {row['switched_by']})")
                if any(None in (r["env_s"], r["event_s"], r["model_s"]) for r in rows):
                    break  # the way back would start from a model that never changed
            # The new model under load, too, before k6 ends.
            wait_for_load(bases, k6_run, at_least=20, timeout=60)
            if k6_run.wait(600) == k6_run.KILLED:
                raise SystemExit("k6 ran past its 600 s")
        finally:
            k6_run.kill()

        summary = json.loads((out / "fleet-summary.json").read_text())
        counts = instance_counts(summary, args.instances)
        total = summary["k6"]["metrics"]["http_reqs"]["values"]["count"]
        failed = summary["k6"]["metrics"]["http_req_failed"]["values"].get("passes", 0)
        table = markdown(switches, counts)
        (out / "fleet.md").write_text(table)
        (out / "fleet.json").write_text(json.dumps({"switches": switches, "requests": counts, "total": total,
                                                    "failed": failed}, indent=2))
        print()
        print(table)
        print(f"k6: {total} requests, {failed} failed, exit {k6_run.returncode}, "
              f"thresholds failed: {summary['thresholds_failed'] or 'none'}")

        problems = []
        for s in switches:
            for i, row in enumerate(s["instances"]):
                if row["env_s"] is None:
                    problems.append(f"{s['from']}→{s['to']}: instance {i}'s Environment did not get "
                                    f"{PROPERTY}={s['to']} within {args.within:.0f}s (the bus refresh did not reach it)")
                if row["event_s"] is None:
                    problems.append(f"{s['from']}→{s['to']}: instance {i} published no EnvironmentChangeEvent "
                                    f"naming {PROPERTY} within {args.within:.0f}s")
                if row["model_s"] is None:
                    problems.append(f"{s['from']}→{s['to']}: instance {i} did not switch to {s['to']} within "
                                    f"{args.within:.0f}s")
                elif row["switched_by"] != "configuration":
                    problems.append(f"{s['from']}→{s['to']}: instance {i}'s endpoint says the switch came from "
                                    f"{row['switched_by']}, not from the configuration")
        if k6_run.returncode != 0 or failed:
            problems.append(f"k6 exited {k6_run.returncode}, {failed} failed requests "
                            f"(thresholds: {summary['thresholds_failed']})")
        problems += [f"instance {c['instance']} got no load" for c in counts if not c["requests"]]
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        print(f"OK: one busrefresh switched all {args.instances} instances, both ways, with no failed request")
        return 0
    finally:
        for app in reversed(apps):
            app.stop(grace=30)


if __name__ == "__main__":
    sys.exit(main())
