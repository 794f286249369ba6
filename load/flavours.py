#!/usr/bin/env python3
"""Build flavours of the sample jars: one command per flavour, for use by hand, by bench.py and by CI.

    load/flavours.py run cds sample-web/target/sample-web-tomcat.jar --app.threads.model=virtual
    load/flavours.py prepare aotcache sample-reactive/target/sample-reactive.jar   # extract + train only
    load/flavours.py command cds-aot sample-web/target/sample-web-tomcat.jar        # print the java command
    load/flavours.py check                       # CI: cds, aot, aotcache of sample-web (Tomcat) and
                                                 # sample-reactive start, serve /greetings, report the flavour;
                                                 # process-aot wrote the starter's native hints; without
                                                 # GraalVM, -Pnative stops with its one line

Flavours (docs/flavours.md):
    jvm           java -jar app.jar
    aot           java -Dspring.aot.enabled=true -jar app.jar   (the jar carries Spring AOT's code: process-aot)
    cds           extracted layout (-Djarmode=tools extract), a dynamic CDS archive from a training run
                  (-XX:ArchiveClassesAtExit, -Dspring.context.exit=onRefresh), run with -XX:SharedArchiveFile
    cds-aot       both: the archive is trained with Spring AOT on
    aotcache      extracted layout, a JDK AOT cache (JEP 483/514/515, JDK 25) from a training run
                  (-XX:AOTCacheOutput), run with -XX:AOTCache
    aotcache-aot  the same with Spring AOT on, in training and run
    native        a GraalVM native image: ./mvnw -Pnative -pl <sample> -am package (needs GraalVM)

Prepared files go next to the jar, in target/flavours/<jar name>/: the extracted layout and one archive per
flavour and JVM-option set. A jar newer than its extraction is extracted and trained again. The training
run gets the same JVM options as the measured run (archives depend on the JVM's configuration, e.g. the
collector and heap size), so give them both through --jvm-arg.

Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import toolkit  # noqa: E402


@dataclass(frozen=True)
class Flavour:
    name: str
    description: str
    archive: str | None = None      # "cds" or "aotcache": trained from the extracted layout
    spring_aot: bool = False        # -Dspring.aot.enabled=true, in training and run
    native: bool = False


FLAVOURS = {f.name: f for f in [
    Flavour("jvm", "java -jar on the JDK"),
    Flavour("cds", "extracted jar + dynamic CDS archive (-XX:SharedArchiveFile)", archive="cds"),
    Flavour("aot", "java -jar with Spring AOT's generated code (-Dspring.aot.enabled=true)", spring_aot=True),
    Flavour("cds-aot", "extracted jar + CDS archive + Spring AOT", archive="cds", spring_aot=True),
    Flavour("aotcache", "extracted jar + JDK AOT cache (-XX:AOTCache, JDK 25)", archive="aotcache"),
    Flavour("aotcache-aot", "extracted jar + JDK AOT cache + Spring AOT", archive="aotcache", spring_aot=True),
    Flavour("native", "GraalVM native image (./mvnw -Pnative)", native=True),
]}

# The flavours CI builds and starts (the list); the others are measured by hand (load/startup.py).
CI_FLAVOURS = ["cds", "aot", "aotcache"]


def log(msg: str):
    print(f"[flavours {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def native_executable(jar: Path) -> Path:
    """Where ./mvnw -Pnative puts the image: target/<jar name without .jar>."""
    return jar.with_suffix("")


def workdir(jar: Path) -> Path:
    return jar.parent / "flavours" / jar.stem


def extracted(jar: Path, java: str) -> Path:
    """The jar's extracted layout (Spring Boot's -Djarmode=tools extract), redone when the jar is newer."""
    wd = workdir(jar)
    target = wd / "app"
    stamp = wd / "extracted-from.json"
    source = {"jar": str(jar.resolve()), "mtime_ns": jar.stat().st_mtime_ns, "size": jar.stat().st_size}
    if target.exists() and stamp.exists() and json.loads(stamp.read_text()) == source:
        return target / jar.name
    if wd.exists():
        shutil.rmtree(wd)  # its archives belong to the old jar
    wd.mkdir(parents=True)
    log(f"extracting {jar.name} -> {target}")
    subprocess.run([java, "-Djarmode=tools", "-jar", str(jar), "extract", "--destination", str(target)],
                   check=True, stdout=subprocess.DEVNULL, timeout=300)
    stamp.write_text(json.dumps(source))
    return target / jar.name


def archive_path(jar: Path, flavour: Flavour, jvm_args: list[str]) -> Path:
    suffix = "jsa" if flavour.archive == "cds" else "aot"
    tag = hashlib.sha1("\0".join(jvm_args).encode()).hexdigest()[:8] if jvm_args else "default"
    return workdir(jar) / f"{flavour.name}-{tag}.{suffix}"


def train(app_jar: Path, archive: Path, flavour: Flavour, java: str, jvm_args: list[str]):
    """One training run: the application starts, refreshes its context and exits (spring.context.exit=
    onRefresh); the JVM writes the archive as it exits."""
    option = (f"-XX:ArchiveClassesAtExit={archive}" if flavour.archive == "cds" else f"-XX:AOTCacheOutput={archive}")
    cmd = [java, option, *jvm_args, *(["-Dspring.aot.enabled=true"] if flavour.spring_aot else []),
           "-Dspring.context.exit=onRefresh", "-jar", str(app_jar), "--server.port=0"]
    logf = archive.with_suffix(archive.suffix + ".training.log")
    log(f"training {flavour.name}: {' '.join(cmd)}")
    t0 = time.monotonic()
    with open(logf, "wb") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=str(app_jar.parent), timeout=600).returncode
    if rc != 0 or not archive.exists():
        raise RuntimeError(f"training for {flavour.name} failed (exit {rc}, see {logf})")
    log(f"trained {flavour.name} in {time.monotonic() - t0:.1f}s: {archive} ({archive.stat().st_size // 2**20} MB)")


def command(name: str, jar: Path, java: str | None = None, jvm_args: list[str] | None = None) -> list[str]:
    """The command that starts `jar` as flavour `name` (application arguments go after it). Extracts and
    trains first when needed; the training is not part of the command."""
    flavour = FLAVOURS[name]
    java = java or toolkit.java()
    jvm_args = list(jvm_args or [])
    jar = Path(jar).resolve()
    if flavour.native:
        exe = native_executable(jar)
        if not exe.exists():
            raise RuntimeError(f"{exe} is missing: build it with ./mvnw -Pnative (needs GraalVM, see docs/flavours.md)")
        return [str(exe)]
    if not jar.exists():
        build = ("./mvnw -B -Pboot3 -pl sample-support,sample-web,sample-reactive package -DskipTests"
                 if jar.parent.name == "boot3" else "./mvnw -B package -DskipTests")
        raise RuntimeError(f"{jar} is missing (build the samples first: {build})")
    aot = ["-Dspring.aot.enabled=true"] if flavour.spring_aot else []
    if not flavour.archive:
        return [java, *jvm_args, *aot, "-jar", str(jar)]
    if flavour.archive == "aotcache" and toolkit.java_feature(java) < 25:
        raise RuntimeError(f"the {name} flavour needs JDK 25 (-XX:AOTCacheOutput); {java} is older")
    app_jar = extracted(jar, java)
    archive = archive_path(jar, flavour, jvm_args)
    if not archive.exists():
        train(app_jar, archive, flavour, java, jvm_args)
    option = f"-XX:SharedArchiveFile={archive}" if flavour.archive == "cds" else f"-XX:AOTCache={archive}"
    return [java, option, *jvm_args, *aot, "-jar", str(app_jar)]


# ---------------------------------------------------------------- starting one and checking it

# How often a start is polled: the port every 10 ms (load/startup.py times the first request after it), the endpoint
# every 100 ms.
PORT_POLL_S = 0.01
ENDPOINT_POLL_S = 0.1


def flavour_name(doc: dict) -> str | None:
    flavour = (doc.get("runtime") or {}).get("flavour")
    return flavour.get("name") if isinstance(flavour, dict) else flavour


def check_one(label: str, cmd: list[str], expected: str, out: Path, timeout: float) -> str | None:
    """Starts, checks GET /greetings is 200 and the endpoint reports `expected`; None when it passed."""
    app = toolkit.App(cmd, ["--sample.greetings.delay=0ms"], out / f"{label}.log")
    try:
        app.wait_port(timeout, interval=PORT_POLL_S)
        status, body = toolkit.http(f"{app.base}/greetings?name=ci")
        doc = app.wait_threadmodel(timeout, interval=ENDPOINT_POLL_S)
        reported = flavour_name(doc)
        ready = (doc.get("startup") or {}).get("applicationReadyMs")
        log(f"{label}: /greetings {status} {body.decode(errors='replace').strip()!r}, reports flavour {reported}, "
            f"ready after {ready} ms")
        if status != 200:
            return f"{label}: /greetings answered {status}"
        if reported != expected:
            return f"{label}: reports flavour {reported}, expected {expected} ({doc.get('runtime')})"
        return None
    except Exception as e:  # noqa: BLE001 - one failure must not hide the others
        return f"{label}: {e}"
    finally:
        app.stop()


# What a native image of each sample needs from the starter, written by the build's process-aot from the
# starter's RuntimeHints (the file native-image reads): the endpoint's body types.
NATIVE_HINTS = ["io.github.threadmodel.actuate.ThreadModelDescriptor",
                "io.github.threadmodel.actuate.ThreadModelEndpoint$SwitchRefused",
                "io.github.threadmodel.actuate.ThreadModelDescriptor$FlavourDescriptor"]


def reflected_types(directory: Path) -> tuple[Path, set]:
    """The types a native image may reflect on, from Spring Framework 7's reachability-metadata.json (Boot 4:
    {"reflection": [{"type": ...}]}) or Spring Framework 6's reflect-config.json (Boot 3.5: [{"name": ...}])."""
    unified = directory / "reachability-metadata.json"
    if unified.exists():
        entries = json.loads(unified.read_text()).get("reflection", [])
        return unified, {entry["type"] for entry in entries if isinstance(entry.get("type"), str)}
    legacy = directory / "reflect-config.json"
    return legacy, {entry.get("name") for entry in json.loads(legacy.read_text())}


def check_hints(module: str, artifact: str) -> str | None:
    directory = (ROOT / module / "target" / "spring-aot" / "main" / "resources" / "META-INF" / "native-image"
                 / "io.github.threadmodel" / artifact)
    try:
        config, names = reflected_types(directory)
    except (OSError, ValueError) as e:
        return f"{module}: no native reflection config from process-aot ({e})"
    missing = [n for n in NATIVE_HINTS if n not in names]
    log(f"{module}: {config.name} has {len(names)} types, the endpoint's bodies "
        + ("included" if not missing else f"missing: {', '.join(missing)}"))
    return f"{module}: {config} lacks {', '.join(missing)}" if missing else None


def check_native_refusal(java: str) -> str | None:
    """Without GraalVM, `-Pnative` must stop at once with its one line (the root profile's enforcer rule)."""
    if (Path(java).parent / "native-image").exists() or os.environ.get("GRAALVM_HOME"):
        log("native: GraalVM present, the refusal is not checked")
        return None
    env = dict(os.environ, JAVA_HOME=str(Path(java).resolve().parent.parent))
    result = subprocess.run([str(ROOT / "mvnw"), "-B", "-q", "-N", "-Pnative", "validate"], cwd=str(ROOT), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    line = next((l for l in result.stdout.splitlines() if "The native flavour needs GraalVM" in l), None)
    log(f"native without GraalVM: exit {result.returncode}, says: {line}")
    return None if result.returncode != 0 and line else "native: -Pnative did not stop with its GraalVM line"


def check(args) -> int:
    java = args.java or toolkit.java()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    jars = {"web-tomcat": ROOT / "sample-web" / "target" / "sample-web-tomcat.jar",
            "reactive": ROOT / "sample-reactive" / "target" / "sample-reactive.jar"}
    failures, passed = [], 0
    for module in ("sample-web", "sample-reactive"):
        problem = check_hints(module, module)
        failures += [problem] if problem else []
        passed += 0 if problem else 1
    problem = check_native_refusal(java)
    failures += [problem] if problem else []
    passed += 0 if problem else 1
    for app, jar in jars.items():
        for name in args.flavours:
            label = f"{app}-{name}"
            try:
                cmd = command(name, jar, java)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{label}: could not build the flavour: {e}")
                continue
            problem = check_one(label, cmd, name, out, args.timeout)
            failures += [problem] if problem else []
            passed += 0 if problem else 1
    if args.stale_check:
        # An archive the JVM cannot use (trained on another class path) is ignored by the JVM, which then
        # runs as plain jvm: the endpoint must say jvm, not cds.
        web = jars["web-tomcat"]
        other = archive_path(jars["reactive"], FLAVOURS["cds"], [])
        if other.exists():
            cmd = [java, f"-XX:SharedArchiveFile={other}", "-jar",
                   str(extracted(web, java))]
            problem = check_one("web-tomcat-cds-archive-of-another-app", cmd, "jvm", out, args.timeout)
            failures += [problem] if problem else []
            passed += 0 if problem else 1
    for f in failures:
        log(f"FAIL {f}")
    log(f"done in {time.monotonic() - t0:.0f}s; logs in {out}")
    print(f"flavours: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="action", required=True)
    for action in ("run", "prepare", "command"):
        s = sub.add_parser(action)
        s.add_argument("flavour", choices=list(FLAVOURS))
        s.add_argument("jar", type=Path)
        s.add_argument("--jvm-arg", action="append", default=[], help="JVM option for training and run (repeatable)")
        s.add_argument("--java", help="java executable (default: $JAVA_HOME's when it is a JDK 21+, else the newest "
                       "JDK 21+ installed: load/toolkit.py java)")
        if action == "run":
            s.add_argument("app_args", nargs=argparse.REMAINDER, help="application arguments")
    c = sub.add_parser("check")
    c.add_argument("--flavours", type=lambda s: [x for x in s.split(",") if x], default=CI_FLAVOURS)
    c.add_argument("--no-stale-check", dest="stale_check", action="store_false",
                   help="skip starting sample-web with sample-reactive's CDS archive (must report jvm)")
    c.add_argument("--timeout", type=float, default=180)
    c.add_argument("--java")
    c.add_argument("--out", default=str(ROOT / "target" / "flavours-check"))
    a = p.parse_args(argv)
    if a.action == "check":
        return check(a)
    try:
        cmd = command(a.flavour, a.jar, a.java, a.jvm_arg)
    except RuntimeError as e:
        print(f"flavours: {e}", file=sys.stderr)
        return 1
    if a.action == "command":
        print(" ".join(cmd))
    elif a.action == "run":
        os.execvp(cmd[0], [*cmd, *a.app_args])
    return 0


if __name__ == "__main__":
    sys.exit(main())
