#!/usr/bin/env python3
"""What every load script shares: a free port, the JDK, k6 and every run of it (K6Run, run_k6), hey and oha, HTTP, a
started application it can wait for, measure and stop, and a measurement's machine.txt and results.md.

From Python (load/ is on sys.path of every script here):

    import toolkit
    app = toolkit.App([toolkit.java(), "-jar", jar], ["--app.threads.model=virtual"], out / "app.log")
    app.wait_http("/actuator/health", timeout=120)
    run = toolkit.run_k6(toolkit.k6(), "ramp", out, {"BASE_URL": app.base, "STAGE_SCALE": 0.05}, time_limit=120)
    run.returncode, run.summary()                  # k6's exit status, out/ramp-summary.json
    app.stop()

From a shell script:

    JAVA=$(python3 load/toolkit.py java)           # the java executable of a JDK >= 21
    JAVA_HOME=$(python3 load/toolkit.py java-home)
    K6=$(python3 load/toolkit.py k6)               # $K6, or installs k6 (load/install-k6.sh) when missing
    PORT=$(python3 load/toolkit.py free-port)      # a TCP port free on 127.0.0.1

The JDK is $JAVA_HOME when that is a JDK 21 or newer, otherwise the newest JDK 21+ under /usr/lib/jvm (the project
builds for 21 and is tested on 25; a machine's default java may be older). Standard library only.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.client import HTTPException
from pathlib import Path

import report  # the /proc parsing, beside this file like every caller of this module

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIN_JAVA = 21
JDK_DIRS = Path("/usr/lib/jvm")


# ---------------------------------------------------------------- CPUs

class Pinning:
    """The server on CPUs of its own, the load generator on the others: on these 2-core machines k6 and the server
    otherwise share both cores, and a comparison swings by a third from one run to the next (issue 38). The CPUs are
    split as taskset(1) would pin them (the same call, sched_setaffinity(2), which children inherit): this process, and
    so every k6 run it starts, on the lower half; each server, through `server_preexec`, on the upper half, its JVM
    told how many it has (-XX:ActiveProcessorCount; with one CPU the JVM picks the serial collector, as it does in a
    one-CPU pod), except its JIT compiler threads, which `free_jit_threads` lets run anywhere. On 2 cores: k6 on
    CPU 0, the server on CPU 1, its compiler threads on both."""

    def __init__(self, server: tuple[int, ...], client: tuple[int, ...]):
        self.server, self.client = tuple(server), tuple(client)

    @classmethod
    def split(cls, cpus=None) -> Pinning | None:
        """The split of `cpus` (default: the CPUs this process may run on), or None with fewer than two."""
        cpus = sorted(cpus if cpus is not None else os.sched_getaffinity(0))
        if len(cpus) < 2:
            return None
        half = len(cpus) // 2
        return cls(server=tuple(cpus[half:]), client=tuple(cpus[:half]))

    def jvm_options(self) -> list[str]:
        return [f"-XX:ActiveProcessorCount={len(self.server)}"]

    def pin_this_process(self):
        """This process and every process it starts from now on (k6) on the client's CPUs."""
        os.sched_setaffinity(0, self.client)

    def server_preexec(self):
        """For subprocess's preexec_fn: the started server on the server's CPUs."""
        server = self.server
        return lambda: os.sched_setaffinity(0, server)

    def free_jit_threads(self, pid: int) -> int:
        """Lets the JVM's JIT compiler threads (jit_cpu_seconds) run on every CPU; the number of threads freed. On the
        server's one CPU, compiling was still a quarter to a third of the server's CPU time 40 s into /ping and two
        starts of the same jar measured 79 and 94 µs of CPU a request: each start was measured at another point of its
        compiling. A compiler thread that HotSpot adds later is started by one of these and inherits their CPUs."""
        freed = 0
        for task in jit_tasks(pid):
            try:
                os.sched_setaffinity(int(task.name), self.server + self.client)
                freed += 1
            except OSError:  # the thread ended meanwhile
                continue
        return freed

    def describe(self) -> str:
        return (f"the server pinned to CPU {cpu_list(self.server)} (-XX:ActiveProcessorCount={len(self.server)}; its "
                f"JIT compiler threads on every CPU), k6 to CPU {cpu_list(self.client)}")


def stat_cpu_seconds(stat: Path) -> float | None:
    """utime + stime of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat file in seconds, or None once it is gone."""
    try:
        return report.parse_proc_stat_ticks(stat.read_text()) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def process_cpu_seconds(pid: int) -> float | None:
    """The CPU time of a process, every thread, ended ones too; None when the process is gone."""
    return stat_cpu_seconds(Path(f"/proc/{pid}/stat"))


JIT_THREADS = ("C1 CompilerThre", "C2 CompilerThre")  # as /proc shows a HotSpot compiler thread's name (15 chars)


def jit_tasks(pid: int):
    """The /proc/<pid>/task/<tid> directories of the JVM's JIT compiler threads (none once the process is gone)."""
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            if (task / "comm").read_text().startswith(JIT_THREADS):
                yield task
        except OSError:  # the thread ended meanwhile
            continue


def jit_cpu_seconds(pid: int) -> float:
    """The CPU time of the JVM's JIT compiler threads (0 for a process that has none, or is gone): compiling is a
    warm-up cost, which a measure of a request's cost leaves out. HotSpot keeps at least one of each kind alive, so
    their time does not vanish from the sum while a run is measured."""
    return sum(stat_cpu_seconds(task / "stat") or 0.0 for task in jit_tasks(pid))


def cpu_list(cpus) -> str:
    """(0, 1, 2, 5) -> "0-2,5", as taskset -c writes them."""
    ranges, cpus = [], sorted(cpus)
    for cpu in cpus:
        if ranges and cpu == ranges[-1][1] + 1:
            ranges[-1][1] = cpu
        else:
            ranges.append([cpu, cpu])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


# ---------------------------------------------------------------- ports

def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- the JDK

def jdk_feature(home: Path) -> int | None:
    """The feature release (21, 25, ...) of the JDK at `home` from its `release` file; None when it is not a JDK."""
    if not (home / "bin" / "java").exists():
        return None
    try:
        text = (home / "release").read_text()
    except OSError:
        return None
    match = re.search(r'^JAVA_VERSION="(\d+)(?:\.(\d+))?', text, re.M)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 else major  # "1.8.0" is 8


def java_home(environ=None, jdk_dirs: Path = JDK_DIRS) -> Path:
    """$JAVA_HOME when it is a JDK >= 21, else the newest JDK >= 21 in `jdk_dirs`; SystemExit naming both when none."""
    environ = os.environ if environ is None else environ
    given = environ.get("JAVA_HOME")
    if given and (jdk_feature(Path(given)) or 0) >= MIN_JAVA:
        return Path(given)
    found = []
    if jdk_dirs.is_dir():
        for home in jdk_dirs.iterdir():
            feature = jdk_feature(home)
            if feature and feature >= MIN_JAVA and not home.is_symlink():
                found.append((feature, home.name, home))
    if not found:
        why = f"JAVA_HOME={given} is not a JDK {MIN_JAVA}+; " if given else ""
        raise SystemExit(f"{why}no JDK {MIN_JAVA} or newer under {jdk_dirs}: install one (Temurin 25) or set JAVA_HOME")
    return max(found)[2]


def java(environ=None) -> str:
    """The java executable of java_home()."""
    return str(java_home(environ) / "bin" / "java")


def java_feature(java_executable: str) -> int:
    """The feature release of any java executable, asked of the executable itself."""
    out = subprocess.run([java_executable, "-XshowSettings:properties", "-version"], stderr=subprocess.PIPE,
                         text=True, timeout=60).stderr
    for line in out.splitlines():
        if line.strip().startswith("java.specification.version"):
            version = line.split("=")[1].strip()
            return int(version[2:] if version.startswith("1.") else version.split(".")[0])
    raise RuntimeError(f"cannot tell the Java version of {java_executable}")


# ---------------------------------------------------------------- k6

def k6(install: bool = True) -> str:
    """$K6, or the pinned k6 that load/install-k6.sh builds when missing (install=False: whatever k6 is found)."""
    if os.environ.get("K6"):
        return os.environ["K6"]
    if install:
        return subprocess.run(["bash", str(HERE / "install-k6.sh")], check=True, stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    for candidate in (os.path.expanduser("~/go/bin/k6"), "/usr/local/bin/k6", "/usr/bin/k6"):
        if os.access(candidate, os.X_OK):
            return candidate
    return "k6"


K6_SCRIPTS = HERE / "k6"


class K6Run:
    """One run of a k6 script of load/k6/, started at once; every k6 run of the load scripts goes through here.

    `script`: the script's name ("ramp"). `env`: its variables (BASE_URL, ...) over this process's environment. Its
    summaries go to `out` (created): SUMMARY_DIR=out, SUMMARY_NAME=`name` (default the script's name), so
    `out`/<name>-summary.json; k6's own output to `out`/`log` (default <name>-k6.log). `args`: more `k6 run` options
    (--out csv=...). k6's REST API listens on a port of the kernel's choice, so that runs never collide on 6565. The
    run has a process group of its own, killed with it."""

    KILLED = -9

    def __init__(self, k6: str, script: str, out: Path, env: dict | None = None, name: str | None = None,
                 log: str | None = None, args: tuple | list = ()):
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.script, self.name = script, name or script
        self.log_path = self.out / (log or f"{self.name}-k6.log")
        self.env = {**os.environ, "SUMMARY_DIR": str(self.out), "SUMMARY_NAME": self.name, "K6_NO_USAGE_REPORT": "true",
                    **{key: str(value) for key, value in (env or {}).items()}}
        self.command = [k6, "run", "--quiet", "--no-color", "--address", "127.0.0.1:0", *args,
                        str(K6_SCRIPTS / f"{script}.js")]
        with open(self.log_path, "wb") as log_file:
            self.proc = subprocess.Popen(self.command, env=self.env, stdout=log_file, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def poll(self) -> int | None:
        return self.proc.poll()

    def wait(self, time_limit: float | None = None) -> int:
        """k6's exit status (99: a threshold missed); KILLED when it ran past `time_limit` seconds and was killed. An
        interruption (Ctrl-C, SIGTERM through stop_on_sigterm) kills it, too."""
        try:
            return self.proc.wait(timeout=time_limit)
        except subprocess.TimeoutExpired:
            self.kill()
            self.proc.returncode = self.KILLED
            return self.KILLED
        except BaseException:
            self.kill()
            raise

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def summary_path(self) -> Path:
        return self.out / f"{self.name}-summary.json"

    def summary(self) -> dict | None:
        """The script's summary JSON (handleSummary's); None when k6 wrote none (it failed before the end)."""
        try:
            return json.loads(self.summary_path().read_text())
        except (OSError, ValueError):
            return None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


def run_k6(k6: str, script: str, out: Path, env: dict | None = None, time_limit: float | None = None,
           **options) -> K6Run:
    """Runs one k6 script to its end (K6Run, `options` its name, log and args) and returns the finished run."""
    run = K6Run(k6, script, out, env, **options)
    run.wait(time_limit)
    return run


# ---------------------------------------------------------------- other load generators

def tool(name: str, candidates: list[str], install: list[str] | None = None) -> str:
    """The executable `name`: on PATH, else the first of `candidates` that exists; else, with an `install` command,
    installed by it (its output on stderr) and found again. SystemExit naming the install command when none."""
    found = shutil.which(name) or next((c for c in candidates if os.access(c, os.X_OK)), None)
    if found or not install:
        if found:
            return found
        raise SystemExit(f"no {name} on PATH or at {', '.join(candidates)}")
    print(f"installing {name}: {' '.join(install)}", file=sys.stderr, flush=True)
    if subprocess.run(install, stdout=2).returncode != 0:  # its progress on our stderr, stdout kept clean
        raise SystemExit(f"could not install {name} ({' '.join(install)})")
    return tool(name, candidates)


def hey() -> str:
    """hey (github.com/rakyll/hey), installed with go when missing."""
    gopath = os.environ.get("GOPATH") or os.path.expanduser("~/go")
    return tool("hey", [f"{gopath}/bin/hey"], ["go", "install", "github.com/rakyll/hey@v0.1.5"])


def oha() -> str:
    """oha (crates.io/crates/oha, the tool of the published runs), installed with cargo when missing (minutes)."""
    return tool("oha", [os.path.expanduser("~/.cargo/bin/oha")], ["cargo", "install", "oha", "--locked"])


def machine_line() -> str:
    """Cores, load average and the accept backlog cap of this machine, for a run's machine.txt."""
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    somaxconn = Path("/proc/sys/net/core/somaxconn").read_text().strip()
    return f"{len(os.sched_getaffinity(0))} cores, load average {load}, somaxconn {somaxconn}"


SAMPLE_WEB_JAR = ROOT / "sample-web" / "target" / "sample-web-tomcat.jar"


def burst_options(parser, name: str, rounds: int, variants: list[str], default_variants: list[str]):
    """The options of a measurement that starts sample-web's Tomcat jar with a small heap once per variant and round,
    variants interleaved: --rounds, --variants, --heap, --jar, --port, --out (target/<name>-<time>)."""
    parser.add_argument("--rounds", type=int, default=rounds, help=f"({rounds})")
    parser.add_argument("--variants", nargs="+", choices=variants, default=default_variants,
                        help=f"({' '.join(default_variants)})")
    parser.add_argument("--heap", default="-XX:MaxRAM=1024m", help="the JVM's heap options (-XX:MaxRAM=1024m: a 256 MB heap)")
    parser.add_argument("--jar", type=Path, default=SAMPLE_WEB_JAR)
    parser.add_argument("--port", type=int, help="the app's port (default: a free one per start)")
    parser.add_argument("--out", type=Path, default=ROOT / "target" / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}")


def parse_burst_options(parser, argv):
    """The arguments, once the jar is known to exist."""
    args = parser.parse_args(argv)
    if not args.jar.is_file():
        raise SystemExit(f"no {args.jar}: build it first: ./mvnw -B -pl sample-web -am package -DskipTests")
    return args


def each_round(args, run):
    """run(round, variant) for each round of args.rounds and each of args.variants in it (variants interleave)."""
    return (run(round_, variant) for round_ in range(1, args.rounds + 1) for variant in args.variants)


def run_bursts(args, machine: str, header: str, run) -> int:
    """A burst measurement: run(round, variant) for each round and variant (each_round), each row written as its run
    ends (write_results) into args.out. 0, for the script's exit."""
    return write_results(args.out, machine, header, each_round(args, run))


def write_results(out: Path, machine: str, header: str | None, rows) -> int:
    """A measurement's files in `out`: machine.txt with `machine`, and results.md with `header` (when given) and each
    row `rows` yields (each from a run as it ends), all shown on stdout as they come; SIGTERM stops the apps started
    (stop_on_sigterm). 0, for the script's exit."""
    stop_on_sigterm()
    out.mkdir(parents=True, exist_ok=True)
    (out / "machine.txt").write_text(machine + "\n")
    print(machine, flush=True)
    with open(out / "results.md", "w") as results:
        for row in itertools.chain([header] if header else [], rows):  # each row written as its run ends
            print(row, flush=True)
            results.write(row + "\n")
            results.flush()
    print(f"results in {out}")
    return 0


# ---------------------------------------------------------------- HTTP

def http(url: str, body: bytes | dict | None = None, method: str | None = None, timeout: float = 10.0,
         headers: dict | None = None) -> tuple[int | None, bytes]:
    """One request; (status, body) for any HTTP answer, (None, the error's text) when there is none. A dict body is
    sent as JSON."""
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except (urllib.error.URLError, OSError, ValueError, HTTPException) as e:
        return None, (str(e) or type(e).__name__).encode()


def http_body(url: str, body: bytes | dict | None = None, timeout: float = 10.0) -> bytes:
    """The body an URL answers with 2xx; RuntimeError otherwise."""
    status, content = http(url, body, timeout=timeout)
    if status is None or not 200 <= status < 300:
        raise RuntimeError(f"{url} answered {status}: {content[:200]!r}")
    return content


def http_json(url: str, body: bytes | dict | None = None, timeout: float = 10.0):
    """The JSON an URL answers with 2xx; RuntimeError otherwise."""
    return json.loads(http_body(url, body, timeout))


# ---------------------------------------------------------------- an application

def vm_kb(pid: int, field: str) -> int | None:
    """A /proc/<pid>/status field in kB (VmRSS now, VmHWM the peak so far); None once the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


STARTED_LINE = re.compile(r"Started \S+ in ([0-9.]+) seconds \(process running for ([0-9.]+)\)")


def started_seconds(log_text: str) -> float | None:
    """'process running for' of Spring Boot's "Started X in N seconds" line: the JVM's age when the application was
    ready, the same figure with or without the starter."""
    match = STARTED_LINE.search(log_text)
    return float(match.group(2)) if match else None


def app_command(command: list[str], args: list[str], port: int) -> list[str]:
    """The command line App runs: `command`, the port and address on 127.0.0.1, then `args`."""
    return [*command, f"--server.port={port}", "--server.address=127.0.0.1", *args]


def stop_on_sigterm():
    """Makes SIGTERM raise SystemExit(143) in the main thread, so that the script's `finally` blocks stop the apps it
    started: they run in process groups of their own and would outlive a script the signal ended at once. The exit
    status is the one a shell sees for a process SIGTERM ended (128 + 15)."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)


class App:
    """One application process on a free 127.0.0.1 port (its own process group, output in `log_path`).

    `command` starts it (java and its options, or a native executable); `--server.port` and `--server.address` are
    added before `args` (app_command)."""

    def __init__(self, command: list[str], args: list[str], log_path: Path, cwd: Path | None = None,
                 preexec_fn=None, port: int | None = None):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.command = app_command(command, args, self.port)
        self.log_path = Path(log_path)
        self.started_at = time.monotonic()
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         cwd=str(cwd) if cwd else None, start_new_session=True, preexec_fn=preexec_fn)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_until(self, probe, timeout: float, what: str, interval: float = 0.05):
        """Calls probe() every `interval` seconds until it returns something other than None or False and returns
        that; RuntimeError when the process exits first or `timeout` seconds (from the start) pass."""
        deadline = self.started_at + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"exited with {self.proc.returncode} before {what} (see {self.log_path})")
            result = probe()
            if result is not None and result is not False:
                return result
            time.sleep(interval)
        raise RuntimeError(f"no {what} within {timeout:.0f}s (see {self.log_path})")

    def wait_port(self, timeout: float, interval: float = 0.05) -> float:
        """Seconds from the start until the port takes connections (no request is sent)."""
        def open_():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return time.monotonic() - self.started_at
            except OSError:
                return None
        return self.wait_until(open_, timeout, f"open port {self.port}", interval)

    def wait_http(self, path: str, timeout: float, status: int = 200, interval: float = 0.05) -> bytes:
        """The body of the first `status` answer to GET `path`."""
        def answered():
            code, body = http(self.base + path, timeout=2)
            return body if code == status else None
        return self.wait_until(answered, timeout, f"{status} from {path}", interval)

    def wait_threadmodel(self, timeout: float, base: str | None = None, not_ready_after: float | None = None,
                         interval: float = 0.2) -> dict:
        """The JSON of GET /actuator/threadmodel once it says the application is ready (startup.applicationReadyMs
        set: the endpoint answers a moment before). `base`: where the actuator answers when not on the app's own port
        (a management port). `not_ready_after`: seconds the endpoint may answer without being ready before its JSON
        is returned as it is. RuntimeError as wait_until."""
        url = (base or self.base) + "/actuator/threadmodel"
        first_answer = None

        def ready():
            nonlocal first_answer
            status, body = http(url, timeout=2)
            try:
                doc = json.loads(body) if status == 200 else None
            except ValueError:
                doc = None
            if not isinstance(doc, dict):
                return None
            if (doc.get("startup") or {}).get("applicationReadyMs") is not None:
                return doc
            first_answer = first_answer or time.monotonic()
            if not_ready_after is not None and time.monotonic() >= first_answer + not_ready_after:
                return doc
            return None
        return self.wait_until(ready, timeout, f"{url} reporting ready", interval)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def rss_mb(self) -> float | None:
        kb = vm_kb(self.pid, "VmRSS")
        return None if kb is None else kb / 1024.0

    def cpu_seconds(self) -> float | None:
        """The CPU time the process has used so far, user and system, every thread (/proc/<pid>/stat), less what the
        JVM's JIT compiler threads used (see jit_cpu_seconds): what serving requests costs once the code is compiled."""
        total = process_cpu_seconds(self.pid)
        return None if total is None else total - jit_cpu_seconds(self.pid)

    def collect_garbage(self) -> bool:
        """A full collection now (`jcmd <pid> GC.run`, the jcmd of java_home()), so that what comes next starts from
        an empty young generation whatever the process allocated before; True when jcmd answered."""
        jcmd = java_home() / "bin" / "jcmd"
        try:
            return subprocess.run([str(jcmd), str(self.pid), "GC.run"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    def peak_rss_mb(self) -> float | None:
        """VmHWM: the most resident memory the process has had (read it before stop())."""
        kb = vm_kb(self.pid, "VmHWM")
        return None if kb is None else kb / 1024.0

    def stop(self, grace: float = 30.0) -> bool:
        """SIGTERM to the process group, SIGKILL after `grace` seconds; True when it stopped on SIGTERM."""
        if not self.alive():
            return True
        try:
            os.killpg(self.pid, signal.SIGTERM)
            self.proc.wait(timeout=grace)
            return True
        except ProcessLookupError:
            return True
        except subprocess.TimeoutExpired:
            os.killpg(self.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            return False


def main(argv: list[str]) -> int:
    """java, java-home, k6 or free-port: prints it (for shell scripts); 1 with the reason on stderr when there is
    none (no JDK 21+, k6 not installed)."""
    commands = {"java": lambda: print(java()), "java-home": lambda: print(java_home()), "k6": lambda: print(k6()),
                "free-port": lambda: print(free_port())}
    if len(argv) != 1 or argv[0] not in commands:
        print(f"usage: toolkit.py {'|'.join(commands)}", file=sys.stderr)
        return 2
    try:
        commands[argv[0]]()
    except subprocess.CalledProcessError as e:
        print(f"toolkit.py {argv[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
