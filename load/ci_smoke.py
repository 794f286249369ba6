#!/usr/bin/env python3
"""CI smoke test of the load scripts, after the Maven build has produced the jars:
  the runner's unit tests (load/tests), then
  sample-web (Tomcat jar) in the platform model, the same in the virtual model, and sample-reactive,
  each started on a free 127.0.0.1 port, then
  - load/k6/ramp.js  scaled down (--stage-scale, ~21 s) against /products/1, and
  - load/k6/steps.js scaled down (--steps 10,30, a 5-s window each; greetings delay 200ms) against /greetings.
Fails (exit 1) when any k6 threshold fails, an app does not start, or an app reports another thread model than the one
asked for. Always stops the apps it started.

    python3 load/ci_smoke.py                                  # jars in */target/, output in target/load-smoke
    python3 load/ci_smoke.py --web-jar sample-web/target/boot3/sample-web-tomcat.jar \\
        --reactive-jar sample-reactive/target/boot3/sample-reactive.jar --out target/load-smoke-boot3

Per app, in <out>/<app>/: app.log, ramp.log and steps.log (k6's output), ramp-summary.json/.txt and
steps-summary.json/.txt. Java (JAVA_HOME when it is a JDK 21+, else the newest JDK 21+ installed), k6 ($K6, else
installed when missing), free ports and every k6 run come from load/toolkit.py.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import toolkit  # noqa: E402

T0 = time.monotonic()
# The three apps: name, which jar, the model asked for.
APPS = [("web-tomcat-platform", "web", "platform"), ("web-tomcat-virtual", "web", "virtual"),
        ("reactive-netty-platform", "reactive", "platform")]
K6_TIME_LIMIT = 120


def log(message: str):
    print(f"[ci-smoke +{time.monotonic() - T0:.0f}s] {message}", flush=True)


def indented(lines) -> str:
    return "\n".join("    " + line for line in lines)


def ramp_lines(output: str) -> list[str]:
    """The lines of ramp.js's output CI shows: whether the thresholds held, the requests and response times."""
    return [line for line in output.splitlines()
            if re.search(r"THRESHOLDS FAILED|all thresholds passed|requests\.\.\.|response_time\.\.\.", line)]


def steps_lines(output: str) -> list[str]:
    """steps.js's table, from its heading to the end."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if "steps (keep-alive" in line), len(lines))
    return lines[start:]


def failure_lines(output: str) -> list[str]:
    """Why a k6 run failed: its distinct errors, most frequent first (a script error repeats once per VU), then the
    summary's checks and thresholds."""
    errors = Counter(re.sub(r'^time="[^"]*" ', "", line) for line in output.splitlines() if "level=error" in line)
    shown = [f"{count:7d} {line}" for line, count in errors.most_common(5)]
    summary = [line for line in output.splitlines()
               if re.match(r"^ *[✓✗] ", line) or "THRESHOLDS FAILED" in line or "FAIL " in line]
    return shown + summary[:30]


def startup_failure_lines(app_log: str) -> list[str]:
    """The last causes in an app's log, then its last lines."""
    lines = app_log.splitlines()
    causes = [line for line in lines if re.match(r"^(Caused by|[A-Za-z.]*(Exception|Error))", line)]
    return causes[-3:] + lines[-5:]


def described(doc: dict) -> str:
    flavour = (doc.get("runtime") or {}).get("flavour")
    flavour = flavour.get("name") if isinstance(flavour, dict) else flavour
    ready = (doc.get("startup") or {}).get("applicationReadyMs")
    return f"model={doc.get('model')} server={doc.get('server')} flavour={flavour} applicationReadyMs={ready}"


def k6_script(name: str, k6: str, script: str, directory: Path, env: dict, shown) -> bool:
    """Runs load/k6/<script>.js against one app (its output in <script>.log), shows what `shown` picks from that
    output, and why it failed when it did; whether it passed."""
    run = toolkit.run_k6(k6, script, directory, env, time_limit=K6_TIME_LIMIT, log=f"{script}.log")
    print(indented(shown(run.log_text())))
    if run.returncode != 0:
        log(f"FAIL {name}: {script}.js exit {run.returncode}")
        print(indented(failure_lines(run.log_text())))
    return run.returncode == 0


def smoke(name: str, jar: Path, model: str, a, java: str, k6: str, out: Path) -> list[str]:
    """One app through both scripts; the names of what failed."""
    directory = out / name
    directory.mkdir(parents=True)
    app = toolkit.App([java, "-XX:TieredStopAtLevel=1", "-jar", str(jar)],
                      [f"--app.threads.model={model}", f"--sample.greetings.delay={a.greetings_delay}"],
                      directory / "app.log")
    log(f"{name}: starting {jar.name} --app.threads.model={model} on 127.0.0.1:{app.port}")
    failed = []
    try:
        try:
            doc = app.wait_threadmodel(120)
        except RuntimeError as e:
            log(f"FAIL {name}: not ready: {e}")
            print(indented(startup_failure_lines(app.log_text())))
            return [f"{name}:start"]
        log(f"{name}: {described(doc)}")
        if doc.get("model") != model:
            log(f"FAIL {name}: the app reports model {doc.get('model')}, not {model}")
            return [f"{name}:start"]

        env = {"BASE_URL": app.base}
        if not k6_script(name, k6, "ramp", directory, {**env, "STAGE_SCALE": a.stage_scale}, ramp_lines):
            failed.append(f"{name}:ramp")
        if not k6_script(name, k6, "steps", directory, {**env, "STEPS": a.steps, "STEP_WINDOW": a.step_window},
                         steps_lines):
            failed.append(f"{name}:steps")
    finally:
        app.stop(grace=20)
    problems = [line for line in app.log_text().splitlines() if re.search(r"OutOfMemoryError|Exception in thread", line)]
    if problems:
        log(f"note {name}: the app log has errors:")
        print("\n".join(problems[:5]))
    return failed


def unit_tests() -> bool:
    """The runner's own unit tests (about fifteen seconds against stand-in servers, no JVM needed)."""
    result = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", str(HERE / "tests")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("\n".join(result.stdout.splitlines()[-3:]))
    return result.returncode == 0


def build_hint(jar: Path) -> str:
    if "boot3" in jar.parts:
        return "./mvnw -B -ntp -Pboot3 -pl sample-support,sample-web,sample-reactive -am package -DskipTests"
    return "./mvnw -B -ntp package -DskipTests"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--web-jar", type=Path, default=ROOT / "sample-web" / "target" / "sample-web-tomcat.jar")
    p.add_argument("--reactive-jar", type=Path, default=ROOT / "sample-reactive" / "target" / "sample-reactive.jar")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "load-smoke",
                   help="where logs and k6 summaries go (emptied first)")
    p.add_argument("--stage-scale", type=float, default=0.05, help="ramp.js's STAGE_SCALE")
    p.add_argument("--steps", default="10,30", help="steps.js's STEPS")
    # Each step's requests must all be answered within its window (a request then gets window - 1 s). 5 s is ten
    # times the slowest seen here on a loaded machine; a longer window only makes the next step start later.
    p.add_argument("--step-window", type=float, default=5, help="steps.js's STEP_WINDOW, seconds (5)")
    p.add_argument("--greetings-delay", default="200ms", help="the apps' sample.greetings.delay")
    a = p.parse_args(argv)

    if not unit_tests():
        log("FAIL: load/tests unit tests")
        return 1
    java = toolkit.java()
    k6 = toolkit.k6()
    version = subprocess.run([k6, "version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()[:1]
    log(f"k6: {k6} ({''.join(version)})")
    jars = {"web": a.web_jar, "reactive": a.reactive_jar}
    for jar in jars.values():
        if not jar.is_file():
            log(f"FAIL: {jar} is missing (build the samples first, e.g. {build_hint(jar)})")
            return 1

    shutil.rmtree(a.out, ignore_errors=True)
    a.out.mkdir(parents=True)
    toolkit.stop_on_sigterm()
    failed = []
    for name, app, model in APPS:
        failed += smoke(name, jars[app], model, a, java, k6, a.out)

    log(f"done in {time.monotonic() - T0:.0f}s; summaries in {a.out}")
    if failed:
        log(f"FAILED: {' '.join(failed)}")
        return 1
    log(f"load smoke passed: ramp.js and steps.js thresholds held on {len(APPS)} apps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
