#!/usr/bin/env python3
"""Where the starter's share of startup goes, step by step: the same jar started with and without the starter (as in
versus_plain.py), Spring's startup steps recorded in each start, and the steps compared.

    load/startup_steps.py sample-reactive/target/boot3/sample-reactive.jar --model platform --starts 8
    load/startup_steps.py sample-web/target/sample-web-tomcat.jar --model virtual \\
        --variants plain,starter,starter-without:ThreadModelEndpointAutoConfiguration+ThreadModelMetricsAutoConfiguration

Spring records its startup steps (each bean's creation, the parsing of the configuration classes, ...) only when the
application is given a BufferingApplicationStartup before its context refreshes, which the application's main method
would have to do. So this script compiles a one-class ApplicationContextInitializer against the jar's own Spring jars,
puts it in a directory with a META-INF/spring.factories naming it, and starts the jar with Spring Boot's
PropertiesLauncher and that directory on loader.path: the application is unchanged, and Spring Boot then exposes the
steps at /actuator/startup (added to the exposed endpoints of both variants). The steps cost both variants alike.

Each step's self time is its duration less its children's. Written to <out>/startup-steps-<time>/: summary.md (startup
to ready per variant, the self time of all steps, the steps that only the starter's starts have, and the shared steps
whose self time differs most) and per start its app log and /actuator/startup answer.
Variants: plain, starter, and starter-without:<auto-configuration>[+<auto-configuration>...] (simple names of the
starter's auto-configurations, excluded from the starter). Standard library only; loopback only.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import toolkit  # noqa: E402
from starter_auto_configurations import (EXPOSURE, application_exclusions, application_exposure,  # noqa: E402
                                         plain_exposure, starter_auto_configurations)
from versus_plain import variant_args  # noqa: E402

LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher"
INITIALIZER = "threadmodel.startupsteps.BufferingStartupInitializer"
INITIALIZER_SOURCE = """package threadmodel.startupsteps;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

public class BufferingStartupInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		BufferingApplicationStartup startup = new BufferingApplicationStartup(100_000);
		context.setApplicationStartup(startup);
		context.getBeanFactory().setApplicationStartup(startup);
	}

}
"""
# The Spring jars the initializer compiles against, by the start of their file name in BOOT-INF/lib.
COMPILE_JARS = ("spring-boot-", "spring-context-", "spring-beans-", "spring-core-", "spring-jcl-")
WITHOUT = "starter-without:"
IDENTITY_HASH = re.compile(r"@[0-9a-f]+$")


# ---------------------------------------------------------------- steps (pure)

def step_key(step: dict) -> str:
    """A name for a step that is the same in every start and variant: a bean's creation by its bean name, others by
    their name and tags, without counts (the number of configuration classes parsed differs with the starter) and
    without an object's identity hash."""
    tags = {t["key"]: t["value"] for t in step.get("tags", [])}
    if step["name"] == "spring.beans.instantiate":
        return "bean " + tags.get("beanName", "?")
    detail = ",".join(f"{k}={IDENTITY_HASH.sub('', v)}" for k, v in tags.items()
                      if k != "beanType" and not v.isdigit())
    return f"{step['name']} {detail}".strip()


def _seconds(timestamp: str) -> float:
    return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()


def self_times(startup: dict) -> dict[str, float]:
    """Seconds of self time per step key (summed over steps of one key) from an /actuator/startup answer."""
    steps = {}
    for event in startup["timeline"]["events"]:
        step = event["startupStep"]
        steps[step["id"]] = (step_key(step), step.get("parentId"),
                             _seconds(event["endTime"]) - _seconds(event["startTime"]))
    children = defaultdict(float)
    for _, parent, duration in steps.values():
        if parent is not None:
            children[parent] += duration
    out = defaultdict(float)
    for step_id, (key, _, duration) in steps.items():
        out[key] += duration - children[step_id]
    return dict(out)


def compare(base: list[dict[str, float]], other: list[dict[str, float]], top: int = 15) -> dict:
    """Medians over the starts of two variants: the self time of all steps, the steps that only `other` has (with their
    sum), and the shared steps whose median self time differs most, either way."""
    def median_of(runs, key):
        return statistics.median(run.get(key, 0.0) for run in runs)
    base_keys = set().union(*base) if base else set()
    other_keys = set().union(*other) if other else set()
    only = sorted(((k, median_of(other, k)) for k in other_keys - base_keys), key=lambda kv: -kv[1])
    shared = [(k, median_of(base, k), median_of(other, k)) for k in base_keys & other_keys]
    shared.sort(key=lambda row: -abs(row[2] - row[1]))
    return {
        "total": (statistics.median(sum(run.values()) for run in base),
                  statistics.median(sum(run.values()) for run in other)),
        "only": only,
        "only_sum": statistics.median(sum(v for k, v in run.items() if k not in base_keys) for run in other),
        "shared": shared[:top],
    }


def summary_markdown(command: str, machine: str, started: dict[str, list[float]], base: str,
                     comparisons: dict[str, dict]) -> str:
    lines = [f"# Startup steps, {dt.datetime.now():%Y-%m-%d %H:%M}", "", f"Command: `{command}`", "", f"Machine: {machine}",
             "", "| variant | starts | startup to ready, median (s) | per start (s) |", "|---|---:|---:|---|"]
    for variant, values in started.items():
        lines.append(f"| {variant} | {len(values)} | {statistics.median(values):.3f} | "
                     f"{', '.join(f'{v:.2f}' for v in values)} |")
    for variant, c in comparisons.items():
        lines += ["", f"## {base} → {variant}", "",
                  f"Self time of all steps (medians): {base} {c['total'][0] * 1000:.0f} ms, {variant} "
                  f"{c['total'][1] * 1000:.0f} ms. Steps only {variant} has: {c['only_sum'] * 1000:.1f} ms in all.", "",
                  "| steps only the variant has | ms |", "|---|---:|"]
        lines += [f"| {k} | {v * 1000:.1f} |" for k, v in c["only"] if v >= 0.0005]
        lines += ["", f"| shared step | {base} ms | {variant} ms | difference ms |", "|---|---:|---:|---:|"]
        lines += [f"| {k} | {b * 1000:.1f} | {o * 1000:.1f} | {(o - b) * 1000:+.1f} |" for k, b, o in c["shared"]]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- starts

def build_initializer(jar: Path, into: Path) -> Path:
    """Compiles the initializer against the jar's Spring jars into `into` with its META-INF/spring.factories."""
    libs = into / "lib"
    libs.mkdir(parents=True)
    with zipfile.ZipFile(jar) as app:
        for entry in app.namelist():
            name = entry.rsplit("/", 1)[-1]
            if entry.startswith("BOOT-INF/lib/") and name.startswith(COMPILE_JARS) and name.endswith(".jar"):
                (libs / name).write_bytes(app.read(entry))
    classes = into / "classes"
    source = into / "src" / (INITIALIZER.replace(".", "/") + ".java")
    source.parent.mkdir(parents=True)
    source.write_text(INITIALIZER_SOURCE)
    javac = str(Path(toolkit.java()).with_name("javac"))
    subprocess.run([javac, "--release", "21", "-cp", str(libs / "*"), "-d", str(classes), str(source)], check=True)
    factories = classes / "META-INF" / "spring.factories"
    factories.parent.mkdir(parents=True)
    factories.write_text(f"org.springframework.context.ApplicationContextInitializer={INITIALIZER}\n")
    return classes


def args_for(variant: str, model: str, jar: Path) -> list[str]:
    """versus_plain's arguments for plain and starter; a starter without some of its auto-configurations; each with
    /actuator/startup exposed besides what the variant exposes."""
    if variant == "plain":
        exposed = plain_exposure(jar)
        args = variant_args("plain", model, jar)
    elif variant != "starter" and not variant.startswith(WITHOUT):
        raise SystemExit(f"unknown variant {variant!r}: plain, starter or {WITHOUT}<auto-configuration>[+...]")
    else:
        exposed = application_exposure(jar)
        args = variant_args("starter", model, jar)
        if variant.startswith(WITHOUT):
            by_simple_name = {name.rsplit(".", 1)[-1]: name for name in starter_auto_configurations(jar)}
            names = variant[len(WITHOUT):].split("+")
            unknown = [n for n in names if n not in by_simple_name]
            if unknown:
                raise SystemExit(f"not an auto-configuration of the starter in {jar}: {', '.join(unknown)}")
            excluded = application_exclusions(jar) + [by_simple_name[n] for n in names]
            args.append(f"--spring.autoconfigure.exclude={','.join(excluded)}")
    args = [a for a in args if not a.startswith(f"--{EXPOSURE}=")]
    return args + [f"--{EXPOSURE}={','.join(dict.fromkeys(exposed + ['startup']))}"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("jar", type=Path, help="a Spring Boot jar with the starter inside (the samples, or your own)")
    p.add_argument("--model", choices=("platform", "virtual"), default="platform")
    p.add_argument("--starts", type=int, default=8, help="starts of each variant, interleaved (default 8)")
    p.add_argument("--variants", default="plain,starter", help="comma-separated; the first is the base (default "
                                                                "plain,starter)")
    p.add_argument("--top", type=int, default=15, help="shared steps listed per comparison (default 15)")
    p.add_argument("--out", default=str(HERE.parent / "results"))
    return p.parse_args(argv)


def main(argv=None) -> int:
    a = parse_args(argv)
    variants = [v.strip() for v in a.variants.split(",") if v.strip()]
    if not a.jar.exists():
        raise SystemExit(f"missing jar: {a.jar}")
    jar = a.jar.resolve()
    arguments = {v: args_for(v, a.model, jar) for v in variants}  # a wrong variant stops the run before any start
    root = Path(a.out) / f"startup-steps-{dt.datetime.now():%Y%m%d-%H%M%S}"
    root.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        loader_path = build_initializer(jar, Path(tmp))
        started, steps = defaultdict(list), defaultdict(list)
        for start in range(a.starts):
            for variant in (variants if start % 2 == 0 else variants[::-1]):
                out = root / f"{start + 1}-{variant.replace(':', '-').replace('+', '-')}"
                out.mkdir()
                command = [toolkit.java(), f"-Dloader.path={loader_path}", "-cp", str(jar), LAUNCHER]
                app = toolkit.App(command, arguments[variant], out / "app.log", cwd=out)
                try:
                    app.wait_http("/actuator/health", 180)
                    answer = toolkit.http_body(f"{app.base}/actuator/startup")
                    (out / "startup.json").write_bytes(answer)
                    started[variant].append(toolkit.started_seconds(app.log_text()))
                    steps[variant].append(self_times(json.loads(answer)))
                    print(f"start {start + 1}: {variant} {started[variant][-1]:.3f} s", flush=True)
                finally:
                    app.stop()
    command = shlex.join(["load/startup_steps.py", *(argv if argv is not None else sys.argv[1:])])
    comparisons = {v: compare(steps[variants[0]], steps[v], a.top) for v in variants[1:]}
    machine = bench.machine_info(k6="")
    text = summary_markdown(command, f"{machine['machine']}; {machine['java']}", dict(started), variants[0],
                            comparisons)
    (root / "summary.md").write_text(text)
    print(text)
    print(f"-> {root / 'summary.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
