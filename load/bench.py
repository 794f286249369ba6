#!/usr/bin/env python3
"""Benchmark runner: app x server x Boot line x model x flavour, each started as a process, loaded with k6.

    load/bench.py --preset quick                     # < 10 min on 2 cores: tomcat both models + reactive
    load/bench.py --preset full                      # every server (Undertow on Boot 3.5), full steps and 7-min ramp
    load/bench.py --preset quick --boots 4,3         # the same configurations on Spring Boot 4 and 3.5
    load/bench.py --apps web --servers jetty,undertow --boots 3 --models virtual --scripts steps --steps 100,300
    load/bench.py --preset quick --mem-mb 1024       # JVM MaxRAM cap, plus a cgroup limit if allowed
    load/bench.py --list                             # print the matrix and exit

Boot lines (--boots, default 4): 4 runs the samples built on Spring Boot 4 (target/*.jar), 3 the ones built
with -Pboot3 on Spring Boot 3.5 (target/boot3/*.jar); Undertow exists only on 3. A configuration's name
carries its line only when it is not 4 (web-tomcat-jvm-virtual, web-tomcat-boot3-jvm-virtual).

For each configuration: builds the jar if missing (./mvnw ... -P<server>), starts it on a free
127.0.0.1 port, reads startup time and flavour from /actuator/threadmodel, runs the chosen k6
scripts, samples the process's CPU % and RSS from /proc while k6 runs (peaks), stops it.
Writes results/<timestamp>/: results.csv, results.md, report.html, meta.json, one folder per
configuration (app log, k6 summaries, k6 web-dashboard HTML of the ramp).

Standard library only. Targets are loopback only; every k6 run and wait has a time limit.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import flavours  # noqa: E402
import report  # noqa: E402
import toolkit  # noqa: E402

SERVERS_BY_APP = {"web": ["tomcat", "jetty", "undertow"], "reactive": ["netty"]}
# The Spring Boot lines the samples build on: "4" (the default build) and "3" (-Pboot3, Spring Boot 3.5).
BOOTS = ["4", "3"]
DEFAULT_BOOT = "4"
SERVERS_BY_BOOT = {"4": {"tomcat", "jetty", "netty"}, "3": {"tomcat", "jetty", "undertow", "netty"}}
BOOT_ALIASES = {"4": "4", "boot4": "4", "3": "3", "3.5": "3", "boot3": "3"}
MODELS = ["platform", "virtual"]
# app.threads.model=auto: asked for by name (--models auto, or a configuration name), never part of the defaults.
AUTO = "auto"
AUTO_SOURCE = "app.threads.model=auto"


# ---------------------------------------------------------------- flavours

# jvm, cds, aot, cds-aot, aotcache, aotcache-aot, native: how each is built and started is in flavours.py
# (the training runs of cds and aotcache happen before the measured start).
FLAVOURS = flavours.FLAVOURS


def jar_path(app: str, server: str, boot: str = DEFAULT_BOOT, root: Path = ROOT) -> Path:
    """Boot 4: <sample>/target/<jar>; Boot 3.5 (-Pboot3 builds under target/boot3): <sample>/target/boot3/<jar>; in
    this checkout or in `root`, another one."""
    target = root / f"sample-{app}" / "target"
    if boot != DEFAULT_BOOT:
        target = target / f"boot{boot}"
    return target / (f"sample-web-{server}.jar" if app == "web" else "sample-reactive.jar")


def build_command(app: str, server: str, boot: str = DEFAULT_BOOT) -> list[str]:
    """Boot 4: the sample and what it needs (-am). Boot 3.5: -Pboot3 with sample-support in the same reactor (its
    jar is line-specific); the Boot 3.5 starter comes from the local repository (./mvnw install once)."""
    module = f"sample-{app}"
    server_profile = [f"-P{server}"] if app == "web" else []
    if boot == DEFAULT_BOOT:
        return ["./mvnw", "-q", "-pl", module, "-am", "package", "-DskipTests", *server_profile]
    return ["./mvnw", "-q", f"-Pboot{boot}", "-pl", f"sample-support,{module}", "package", "-DskipTests",
            *server_profile]


@dataclass
class Config:
    app: str
    server: str
    model: str
    flavour: str
    boot: str = DEFAULT_BOOT

    @property
    def name(self) -> str:
        line = "" if self.boot == DEFAULT_BOOT else f"-boot{self.boot}"
        return f"{self.app}-{self.server}{line}-{self.flavour}-{self.model}"


def lines_for(server: str, boots, fallback: bool = False) -> list[str]:
    """The selected lines that have `server`; with fallback, a server none of them has (Undertow when only
    Boot 4 is selected) runs on the lines that have it."""
    lines = [b for b in boots if server in SERVERS_BY_BOOT[b]]
    if not lines and fallback:
        lines = [b for b in BOOTS if server in SERVERS_BY_BOOT[b]]
    return lines


def matrix(apps, servers, models, flavour_names, boots=(DEFAULT_BOOT,), fallback: bool = False) -> list[Config]:
    """Every valid combination, in a stable order (app, server, flavour, model, Boot line): the same
    configuration on each line side by side, run one after the other."""
    out = []
    for app in apps:
        for server in SERVERS_BY_APP[app]:
            if server not in servers:
                continue
            for flavour in flavour_names:
                for model in models:
                    for boot in lines_for(server, boots, fallback):
                        out.append(Config(app, server, model, flavour, boot))
    return out


def every_config() -> dict:
    """Every configuration that exists, by name (all lines, models with auto, flavours)."""
    return {c.name: c for c in matrix(list(SERVERS_BY_APP), sum(SERVERS_BY_APP.values(), []), MODELS + [AUTO],
                                      list(FLAVOURS), BOOTS)}


PRESETS = {
    # About 6-8 minutes on 2 cores, jars already built.
    # With --boots 4,3 each of them on both lines (twice as long).
    "quick": dict(apps=["web", "reactive"], servers=["tomcat", "netty"], models=MODELS, flavours=["jvm"],
                  configs=["web-tomcat-jvm-platform", "web-tomcat-jvm-virtual", "reactive-netty-jvm-platform"],
                  boots=["4"], scripts=["steps", "ramp"], steps=[100, 300, 900, 2700], stage_scale=0.05),
    # Every server, the published 7-minute ramp: Tomcat, Jetty and Netty on Boot 4 and Undertow on Boot 3.5
    # (the only line that has it), about 75 minutes; with --boots 4,3 every server on both lines (14
    # configurations, about 2 hours).
    "full": dict(apps=["web", "reactive"], servers=["tomcat", "jetty", "undertow", "netty"], models=MODELS,
                 flavours=["jvm"], configs=None, boots=["4"], boot_fallback=True, scripts=["steps", "ramp"],
                 steps=[100, 300, 900, 2700], stage_scale=1.0),
}


# ---------------------------------------------------------------- memory caps

def detect_cgroup() -> tuple[str | None, Path | None, str]:
    """Where a child memory cgroup can be made under this process's own cgroup.
    Returns (kind 'v1'|'v2'|None, parent dir, explanation)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError as e:
        return None, None, f"no /proc/self/cgroup ({e})"
    v1 = [l.split(":", 2)[2] for l in lines if l.split(":", 2)[1] == "memory"]
    if v1:
        parent = Path("/sys/fs/cgroup/memory") / v1[0].lstrip("/")
        if (parent / "memory.limit_in_bytes").exists() and os.access(parent, os.W_OK):
            return "v1", parent, f"cgroup v1 memory controller, under {parent}"
        return None, None, f"cgroup v1 memory controller at {parent} is not writable"
    v2 = [l.split(":", 2)[2] for l in lines if l.startswith("0::")]
    for base in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
        if v2 and (base / "cgroup.controllers").exists():
            parent = base / v2[0].lstrip("/")
            ctrl = (parent / "cgroup.subtree_control")
            try:
                if "memory" in ctrl.read_text().split() and os.access(parent, os.W_OK):
                    return "v2", parent, f"cgroup v2, under {parent}"
            except OSError:
                pass
            return None, None, f"cgroup v2 at {parent} does not delegate the memory controller"
    return None, None, "no writable memory cgroup"


class MemoryCgroup:
    def __init__(self, kind: str, parent: Path, name: str, limit_mb: int):
        self.kind, self.dir, self.limit = kind, parent / name, limit_mb * 1024 * 1024
        self.dir.mkdir()
        limit_file = "memory.limit_in_bytes" if kind == "v1" else "memory.max"
        (self.dir / limit_file).write_text(str(self.limit))
        if kind == "v2":
            try:
                (self.dir / "memory.swap.max").write_text("0")
            except OSError:
                pass

    def join_self(self):  # runs in the child between fork and exec
        with open(self.dir / "cgroup.procs", "w") as f:
            f.write(str(os.getpid()))

    def oom_events(self) -> str:
        """'oom_kill N' when the kernel reports it (v1 memory.oom_control, v2 memory.events)."""
        for name in ("memory.events", "memory.oom_control"):
            try:
                words = (self.dir / name).read_text().split()
            except OSError:
                continue
            if "oom_kill" in words:
                return f"oom_kill {words[words.index('oom_kill') + 1]}"
        return ""

    def remove(self):
        for _ in range(20):
            try:
                self.dir.rmdir()
                return
            except OSError:
                time.sleep(0.25)


# ---------------------------------------------------------------- /proc sampler

class Sampler(threading.Thread):
    """Samples CPU % (utime+stime deltas; 100 % = one core) and RSS of a pid every `interval` s.
    `phase` selects which peak is updated, so idle and load peaks are kept apart."""

    def __init__(self, pid: int, interval: float = 0.5):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.clk = os.sysconf("SC_CLK_TCK")
        self.peaks: dict[str, dict] = {}
        self.phase = "idle"
        self.samples = []
        self._halt = threading.Event()

    def read(self):
        try:
            ticks = report.parse_proc_stat_ticks(Path(f"/proc/{self.pid}/stat").read_text())
            rss = report.parse_vmrss_kb(Path(f"/proc/{self.pid}/status").read_text())
        except (OSError, ValueError, IndexError):
            return None
        return ticks, rss

    def run(self):
        prev, prev_t = self.read(), time.monotonic()
        while not self._halt.wait(self.interval):
            cur, now = self.read(), time.monotonic()
            if cur is None or prev is None:
                break
            cpu = report.cpu_percent(prev[0], cur[0], now - prev_t, self.clk)
            rss_mb = (cur[1] or 0) / 1024.0
            p = self.peaks.setdefault(self.phase, {"cpu": 0.0, "rss_mb": 0.0})
            p["cpu"], p["rss_mb"] = max(p["cpu"], cpu), max(p["rss_mb"], rss_mb)
            self.samples.append((round(now, 2), self.phase, round(cpu, 1), round(rss_mb, 1)))
            prev, prev_t = cur, now

    def stop(self):
        self._halt.set()
        self.join(timeout=5)

    def peak(self, phases=None):
        vals = [v for k, v in self.peaks.items() if phases is None or k in phases]
        if not vals:
            return None, None
        return max(v["cpu"] for v in vals), max(v["rss_mb"] for v in vals)


# ---------------------------------------------------------------- helpers

def log(msg: str):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


@contextlib.contextmanager
def recorded_run(app, name: str, result: dict):
    """One run of a benchmark, the app started in it: the app is always stopped, and a failure,
    of the start or of the run, is written to result["error"] and logged, not raised: one failed
    run must not stop the others."""
    try:
        yield
    except Exception as e:  # noqa: BLE001 - one failed run must not stop the others
        result["error"] = str(e)
        log(f"{name}: ERROR {e}")
    finally:
        app.stop()


def machine_info(k6: str) -> dict:
    cpu_model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 ** 3
    try:
        jv = subprocess.run([toolkit.java(), "-version"], stderr=subprocess.PIPE, text=True,
                            timeout=30).stderr.splitlines()[0]
    except (Exception, SystemExit) as e:  # noqa: BLE001 - no JDK 21+ (a --launch run needs none) is a "?" here
        jv = f"? ({e})"
    try:
        kv = subprocess.run([k6, "version"], stdout=subprocess.PIPE, text=True, timeout=30).stdout.split()[1]
    except Exception:  # noqa: BLE001
        kv = "?"
    return {"machine": f"{os.cpu_count()} cores ({cpu_model}), {mem_gb:.0f} GB RAM, {platform.system()} {platform.release()}",
            "cores": os.cpu_count(), "java": jv, "k6_version": kv, "python": platform.python_version()}


# ---------------------------------------------------------------- one configuration

LIVE_APPS: list = []


def _stop_live_apps(signum=None, frame=None):
    for app in list(LIVE_APPS):
        app.stop()
    if signum is not None:
        raise SystemExit(128 + signum)


class App:
    """One configuration's process (a toolkit.App once started) with its memory cap and cgroup."""

    def __init__(self, cfg: Config, args, outdir: Path, cgroup_info):
        self.cfg, self.args, self.outdir = cfg, args, outdir
        self.port = toolkit.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: toolkit.App | None = None
        self.cgroup = None
        self.cap = "none"
        kind, parent, why = cgroup_info
        if args.mem_mb:
            self.cap = f"-XX:MaxRAM={args.mem_mb}m"
            if args.cgroup != "off":
                if kind:
                    self.cgroup = MemoryCgroup(kind, parent, f"threadmodel-bench-{os.getpid()}-{cfg.name}", args.mem_mb)
                    self.cap += f" + cgroup {kind} limit {args.mem_mb} MB"
                elif args.cgroup == "require":
                    raise RuntimeError(f"--cgroup require, but {why}")
                else:
                    self.cap += f" (no cgroup: {why})"

    @property
    def proc(self) -> subprocess.Popen | None:
        return self.process.proc if self.process else None

    def launcher(self) -> list[str]:
        """What starts the configuration (its flavour's java command, or --launch), before the port and arguments."""
        if self.args.launch:
            return shlex.split(self.args.launch)
        jar = jar_path(self.cfg.app, self.cfg.server, self.cfg.boot)
        mem = [f"-XX:MaxRAM={self.args.mem_mb}m"] if self.args.mem_mb else []
        return flavours.command(self.cfg.flavour, jar, toolkit.java(), [*mem, *self.args.jvm_arg])

    def app_args(self) -> list[str]:
        return [f"--app.threads.model={self.cfg.model}", *self.args.app_arg]

    def command(self) -> list[str]:
        return toolkit.app_command(self.launcher(), self.app_args(), self.port)

    def start(self, timeout: float):
        """Starts it and waits for /actuator/threadmodel to say it is ready (an endpoint that answers without
        applicationReadyMs for 15 s is taken as it is); (the endpoint's fields, seconds from the start)."""
        self.process = toolkit.App(self.launcher(), self.app_args(), self.outdir / "app.log", cwd=self.outdir,
                                   preexec_fn=self.cgroup.join_self if self.cgroup else None, port=self.port)
        (self.outdir / "command.txt").write_text(" ".join(self.process.command) + "\n")
        LIVE_APPS.append(self)
        doc = self.process.wait_threadmodel(timeout, not_ready_after=15, interval=0.2)
        (self.outdir / "threadmodel.json").write_text(json.dumps(doc, indent=2))
        return report.parse_threadmodel(doc), time.monotonic() - self.process.started_at

    def stop(self):
        if self in LIVE_APPS:
            LIVE_APPS.remove(self)
        if self.process:
            self.process.stop(grace=20)
        if self.cgroup:
            ev = self.cgroup.oom_events()
            if ev:
                self.cap += f" ({ev})"
            self.cgroup.remove()
            self.cgroup = None


def run_k6(k6: str, script: str, base: str, env_extra: dict, outdir: Path, time_limit: float, dashboard: bool,
           stats: dict | None = None) -> int:
    """Runs one k6 script (bounded by time_limit; toolkit.K6Run); stats["k6_peak_cpu_pct"] gets k6's own peak CPU."""
    name = str(env_extra.get("SUMMARY_NAME", script))
    env = {"BASE_URL": base, **env_extra}
    if dashboard:
        env.update({"K6_WEB_DASHBOARD": "true", "K6_WEB_DASHBOARD_PORT": "-1", "K6_WEB_DASHBOARD_PERIOD": "2s",
                    "K6_WEB_DASHBOARD_EXPORT": str(outdir / f"{name}-dashboard.html")})
    run = toolkit.K6Run(k6, script, outdir, env, name=name)
    own = Sampler(run.pid, 0.5)
    own.phase = "load"
    own.start()
    try:
        rc = run.wait(time_limit)
        if rc == run.KILLED:
            log(f"k6 {script} killed after its {time_limit:.0f}s limit")
        return rc
    finally:
        own.stop()
        if stats is not None and own.peak()[0] is not None:
            stats["k6_peak_cpu_pct"] = max(stats.get("k6_peak_cpu_pct") or 0.0, own.peak()[0])


def bench_one(cfg: Config, args, k6: str, root: Path, cgroup_info) -> dict:
    outdir = root / cfg.name
    outdir.mkdir(parents=True, exist_ok=True)
    run = {"config": cfg.name, "app": cfg.app, "server": cfg.server, "boot": cfg.boot, "model": cfg.model,
           "flavour": cfg.flavour,
           "reported": {}, "startup_s": None, "peak_cpu_pct": None, "peak_rss_mb": None, "steps": [], "ramp": None,
           "thresholds_ok": True, "error": None, "keep_alive": args.keep_alive, "steps_endpoint": args.steps_endpoint}
    app = None
    sampler = None
    try:
        app = App(cfg, args, outdir, cgroup_info)
        run["mem_cap"] = app.cap
        log(f"{cfg.name}: starting on {app.base}")
        info, wall = app.start(args.start_timeout)
        run["reported"] = {k: info[k] for k in ("model", "server", "flavour")}
        run["startup_s"] = info["startup_s"]
        run["startup_wall_s"] = round(wall, 3)
        run["accept_backlog"] = info.get("accept_backlog")
        log(f"{cfg.name}: ready; reports model={info['model']} server={info['server']} flavour={info['flavour']} "
            f"applicationReady={info['startup_s']}s")
        mismatch = [k for k in ("model", "server", "flavour") if info[k] != getattr(cfg, k)
                    and not (k == "model" and cfg.model == AUTO and info["model_source"] == AUTO_SOURCE)]
        if mismatch:
            run["error"] = "app reports " + ", ".join(f"{k}={info[k]} (asked {getattr(cfg, k)})" for k in mismatch)
            log(f"{cfg.name}: WARNING {run['error']}")
        sampler = Sampler(app.proc.pid, args.sample_interval)
        sampler.start()
        time.sleep(1.0)  # idle baseline
        if "steps" in args.scripts:
            for n in args.steps:
                sampler.phase = "load"
                name = f"steps-{n}"
                rc = run_k6(k6, "steps", app.base,
                            {"STEPS": n, "ENDPOINT": args.steps_endpoint, "KEEP_ALIVE": str(args.keep_alive).lower(),
                             "STEP_WINDOW": args.step_window, "SUMMARY_NAME": name},
                            outdir, args.step_window + 120, dashboard=False, stats=run)
                sampler.phase = "between"
                doc = _read_json(outdir / f"{name}-summary.json")
                rows = report.parse_steps_summary(doc) if doc else []
                run["steps"] += rows
                if rc != 0:
                    run["thresholds_ok"] = False
                for r in rows:
                    log(f"{cfg.name}: steps {n}: success {report.fmt(r['success_pct'], 1)}% total "
                        f"{report.fmt(r['total_s'])}s avg {report.fmt(r['average_s'])}s "
                        f"{report.fmt(r['requests_per_s'], 1)} req/s (k6 exit {rc})")
                if app.proc.poll() is not None:
                    raise RuntimeError(f"app died during steps {n} (exit {app.proc.returncode})")
                time.sleep(args.pause)
        if "ramp" in args.scripts:
            sampler.phase = "load"
            full = 420 * args.stage_scale
            rc = run_k6(k6, "ramp", app.base,
                        {"ENDPOINT": args.ramp_endpoint, "STAGE_SCALE": args.stage_scale, "PEAK_VUS": args.peak_vus,
                         "SUMMARY_NAME": "ramp"},
                        outdir, full + 120, dashboard=not args.no_dashboard, stats=run)
            sampler.phase = "between"
            doc = _read_json(outdir / "ramp-summary.json")
            if doc:
                run["ramp"] = report.parse_ramp_summary(doc)
                m = run["ramp"]
                log(f"{cfg.name}: ramp: {m['requests']} requests, {report.fmt(m['requests_per_s'])} req/s, "
                    f"avg {report.fmt(m['average_ms'], 1)} ms, p95 {report.fmt(m['p95_ms'], 1)} ms (k6 exit {rc})")
            if rc != 0:
                run["thresholds_ok"] = False
            if app.proc.poll() is not None:
                raise RuntimeError(f"app died during the ramp (exit {app.proc.returncode})")
    except Exception as e:  # noqa: BLE001 - one broken configuration must not stop the matrix
        run["error"] = (run["error"] + "; " if run["error"] else "") + str(e)
        log(f"{cfg.name}: ERROR {e}")
    finally:
        try:
            if sampler:
                sampler.stop()
                cpu, rss = sampler.peak({"load"})
                run["peak_cpu_pct"], run["peak_rss_mb"] = cpu, rss
                run["idle_rss_mb"] = sampler.peak({"idle"})[1]
                (outdir / "samples.csv").write_text("t,phase,cpu_pct,rss_mb\n" +
                                                    "".join(f"{t},{p},{c},{r}\n" for t, p, c, r in sampler.samples))
        finally:
            if app:
                app.stop()
                run["mem_cap"] = app.cap
            (outdir / "run.json").write_text(json.dumps(run, indent=2))
    return run


def _read(path: str):
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _read_json(p: Path):
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------- main

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", choices=sorted(PRESETS), default="quick")
    csv_list = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    p.add_argument("--apps", type=csv_list, help="web,reactive")
    p.add_argument("--servers", type=csv_list, help="tomcat,jetty,undertow,netty (undertow: Boot 3.5 only)")
    p.add_argument("--boots", type=csv_list, help="Spring Boot lines: 4 (default), 3 (3.5, built with -Pboot3), "
                   "or 4,3 to compare the same configurations on both")
    p.add_argument("--models", type=csv_list, help="platform,virtual (and auto: app.threads.model=auto)")
    p.add_argument("--flavours", type=csv_list, help=f"any of {','.join(FLAVOURS)}")
    p.add_argument("--configs", type=csv_list, help="exact configuration names, e.g. web-tomcat-jvm-virtual, "
                   "web-undertow-boot3-jvm-virtual; with --boots, each of them on each of those lines")
    p.add_argument("--scripts", type=csv_list, help="steps,ramp")
    p.add_argument("--steps", type=lambda s: [int(x) for x in csv_list(s)], help="concurrency steps, e.g. 100,300")
    p.add_argument("--stage-scale", type=float, help="ramp time scale (1 = 7 minutes)")
    p.add_argument("--peak-vus", type=int, default=35)
    p.add_argument("--steps-endpoint", default="/greetings?name=k6")
    p.add_argument("--ramp-endpoint", default="/products/1")
    p.add_argument("--keep-alive", action="store_true", help="steps with keep-alive (default off, like oha --disable-keepalive)")
    p.add_argument("--step-window", type=int, default=60, help="seconds one step may take")
    p.add_argument("--pause", type=float, default=2.0, help="seconds between steps")
    p.add_argument("--mem-mb", type=int, help="memory cap per app: -XX:MaxRAM and, where allowed, a cgroup limit")
    p.add_argument("--cgroup", choices=["auto", "off", "require"], default="auto")
    p.add_argument("--jvm-arg", action="append", default=[], help="extra JVM option (repeatable)")
    p.add_argument("--app-arg", action="append", default=[], help="extra app argument, e.g. --app-arg=--sample.greetings.delay=200ms")
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--sample-interval", type=float, default=0.5)
    p.add_argument("--launch", help="launch this command instead of the sample jar (the app arguments are "
                   "appended); for trying the runner on a stand-in server, no build")
    p.add_argument("--no-build", action="store_true", help="fail instead of building missing jars")
    p.add_argument("--rebuild", action="store_true", help="build jars even if present")
    p.add_argument("--no-dashboard", action="store_true", help="skip k6's HTML dashboard export")
    p.add_argument("--out", default=str(ROOT / "results"))
    p.add_argument("--list", action="store_true", help="print the selected configurations and exit")
    a = p.parse_args(argv)
    pre = PRESETS[a.preset]
    a.boots_given = a.boots is not None
    if a.boots_given:
        unknown = [b for b in a.boots if b.lower() not in BOOT_ALIASES]
        if unknown or not a.boots:
            p.error(f"unknown Boot line {', '.join(unknown) or '(none)'} (known: 4, 3 = Spring Boot 3.5)")
        a.boots = list(dict.fromkeys(BOOT_ALIASES[b.lower()] for b in a.boots))
    else:
        a.boots = list(pre.get("boots", [DEFAULT_BOOT]))
    # The preset's fallback (full: Undertow on Boot 3.5) holds while neither the lines nor the servers are chosen.
    servers_given = a.servers is not None
    a.boot_fallback = bool(pre.get("boot_fallback")) and not a.boots_given and not servers_given
    # An explicit axis on the command line replaces the preset's shortlist of configurations; the flavour
    # stays jvm unless --flavours names others (each flavour multiplies the matrix).
    explicit_axis = any(getattr(a, k) is not None for k in ("apps", "servers", "models", "flavours"))
    a.selection = "custom" if explicit_axis or a.configs is not None else f"preset {a.preset}"
    every = {"apps": list(SERVERS_BY_APP), "servers": sum(SERVERS_BY_APP.values(), []), "models": MODELS,
             "flavours": ["jvm"], "configs": None}
    for key in ("apps", "servers", "models", "flavours", "configs", "scripts", "steps", "stage_scale"):
        if getattr(a, key) is None:
            setattr(a, key, every[key] if (explicit_axis and key in every) else pre[key])
    for app in a.apps:
        if app not in SERVERS_BY_APP:
            p.error(f"unknown app {app}")
    known_servers = sum(SERVERS_BY_APP.values(), [])
    for s in a.servers:
        if s not in known_servers:
            p.error(f"unknown server {s} (known: {', '.join(known_servers)})")
        if not any(s in SERVERS_BY_APP[app] for app in a.apps) and not servers_given:
            continue
        if not lines_for(s, a.boots, a.boot_fallback):
            have = [b for b in BOOTS if s in SERVERS_BY_BOOT[b]]
            why = (f"{s} runs only on Spring Boot {' and '.join(_line_label(b) for b in have)} (Boot 4 has no "
                   f"Undertow): it needs --boots {','.join(have)} (or --boots 4,{','.join(have)}); selected: --boots "
                   f"{','.join(a.boots)}")
            if servers_given:
                p.error(why)
            print(f"note: {why}; left out", file=sys.stderr)
    for f in a.flavours:
        if f not in FLAVOURS:
            p.error(f"unknown flavour {f} (known: {', '.join(FLAVOURS)})")
    for s in a.scripts:
        if s not in ("steps", "ramp"):
            p.error(f"unknown script {s}")
    return a


def _line_label(boot: str) -> str:
    return "3.5" if boot == "3" else boot


def select(a) -> list[Config]:
    boots = getattr(a, "boots", [DEFAULT_BOOT])
    cfgs = matrix(a.apps, a.servers, a.models, a.flavours, boots, getattr(a, "boot_fallback", False))
    if a.configs:
        known = every_config()
        unknown = [n for n in a.configs if n not in known]
        if unknown:
            hints = [f"{n}: Undertow exists only on Spring Boot 3.5, try {n.replace('-undertow-', '-undertow-boot3-', 1)}"
                     for n in unknown if "-undertow-" in n and "-boot" not in n]
            raise SystemExit(f"unknown configuration(s): {', '.join(unknown)}" + "".join(f"\n  {h}" for h in hints))
        cfgs = [known[n] for n in a.configs]
        if getattr(a, "boots_given", False):
            # --boots with named configurations: each of them on each selected line that has its server.
            cfgs = [Config(c.app, c.server, c.model, c.flavour, b) for c in cfgs for b in boots
                    if c.server in SERVERS_BY_BOOT[b]]
            cfgs = list({c.name: c for c in cfgs}.values())
            if not cfgs:
                raise SystemExit(f"none of {', '.join(a.configs)} exists on --boots {','.join(boots)} "
                                 "(Undertow needs --boots 3)")
    return cfgs


def ensure_jars(cfgs, a):
    env = dict(os.environ)
    if not env.get("JAVA_HOME"):
        try:
            env["JAVA_HOME"] = str(toolkit.java_home())
        except SystemExit:
            pass  # Maven's toolchain finds a JDK 21+ by itself, or says it did not
    done = set()
    for c in cfgs:
        key = (c.app, c.server, c.boot)
        jar = jar_path(*key)
        if key in done or (jar.exists() and not a.rebuild):
            continue
        if a.no_build:
            raise SystemExit(f"{jar} is missing (build it, or drop --no-build)")
        cmd = build_command(*key)
        log(f"building {jar.name}: {' '.join(cmd)}")
        subprocess.run(cmd, cwd=str(ROOT), env=env, check=True, timeout=1800)
        if not jar.exists():
            raise SystemExit(f"the build did not produce {jar}")
        done.add(key)


def main(argv=None) -> int:
    a = parse_args(argv)
    cfgs = select(a)
    if a.list:
        for c in cfgs:
            print(c.name)
        return 0
    if not a.launch:
        ensure_jars(cfgs, a)
    k6 = toolkit.k6()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = Path(a.out) / stamp
    root.mkdir(parents=True, exist_ok=True)
    cgroup_info = detect_cgroup() if a.mem_mb and a.cgroup != "off" else (None, None, "not asked")
    meta = {"timestamp": stamp, "command": " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
            **machine_info(k6), "load_before": os.getloadavg(),
            "note": "The load generator shares the cores with the app; other builds may run too, so expect noise.",
            "cgroup": cgroup_info[2], "selection": a.selection, "boots": sorted({c.boot for c in cfgs}, reverse=True),
            "configs": [c.name for c in cfgs],
            "somaxconn": _read("/proc/sys/net/core/somaxconn")}
    log(f"{len(cfgs)} configuration(s) -> {root}")
    signal.signal(signal.SIGTERM, _stop_live_apps)
    signal.signal(signal.SIGINT, _stop_live_apps)
    t0 = time.monotonic()
    runs = []
    for c in cfgs:
        runs.append(bench_one(c, a, k6, root, cgroup_info))
        write_results(root, runs, meta)  # partial results survive an interrupted matrix
    meta["load_after"] = os.getloadavg()
    meta["duration_s"] = round(time.monotonic() - t0, 1)
    write_results(root, runs, meta)
    log(f"done in {meta['duration_s']}s: {root / 'report.html'}")
    return 1 if any(r.get("error") for r in runs) else 0


def write_results(root: Path, runs, meta):
    links = {}
    for r in runs:
        d = root / r["config"]
        for f in sorted(d.glob("*-dashboard.html")) + sorted(d.glob("*-summary.txt")) + [d / "app.log"]:
            if f.exists():
                links[f"{r['config']}/{f.name}"] = f"{r['config']}/{f.name}"
    report.write_all(root, runs, meta, links)


if __name__ == "__main__":
    sys.exit(main())
