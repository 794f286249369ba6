"""Unit tests of load/toolkit.py: the JDK it picks, HTTP, and an application it starts, waits for and stops.

    python3 -m unittest discover -s load/tests -v
"""

import contextlib
import io
import json
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import toolkit  # noqa: E402

# A stand-in application: serves GET /ready as 200 after --delay seconds, /other as 404, takes --server.port and
# --server.address like a Spring Boot app, and with --stubborn ignores SIGTERM. /actuator/threadmodel answers JSON whose
# startup.applicationReadyMs is null for --ready seconds after the port opens (with --never-ready, always), with the
# model of --app.threads.model (virtual) and the flavour of --flavour (jvm); /greetings answers 200; /garbage answers
# no HTTP at all.
STAND_IN = textwrap.dedent("""
    import http.server, json, signal, sys, time
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
    if "--stubborn" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(float(args.get("delay", "0")))
    print("Started StandIn in 0.25 seconds (process running for 0.5)", flush=True)
    opened = time.monotonic()
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/garbage":
                self.wfile.write(b"garbage\\r\\n\\r\\n")
                return
            if self.path == "/actuator/threadmodel":
                ready = "--never-ready" not in sys.argv and time.monotonic() >= opened + float(args.get("ready", "0"))
                body = json.dumps({"model": args.get("app.threads.model", "virtual"),
                                   "runtime": {"flavour": {"name": args.get("flavour", "jvm")}},
                                   "startup": {"applicationReadyMs": 250 if ready else None}})
                self.send_response(200)
                self.end_headers()
                self.wfile.write(body.encode())
                return
            found = self.path == "/ready" or self.path.startswith("/greetings")
            self.send_response(200 if found else 404)
            self.end_headers()
            self.wfile.write(b"ok" if found else b"no")
        def log_message(self, *a):
            pass
    http.server.HTTPServer((args["server.address"], int(args["server.port"])), Handler).serve_forever()
""")


def stand_in_command(directory: Path) -> list[str]:
    """Writes the stand-in into `directory` and returns the command that starts it."""
    script = Path(directory) / "stand_in.py"
    script.write_text(STAND_IN)
    return [sys.executable, str(script)]


def fake_jdk(parent: Path, name: str, version: str) -> Path:
    home = parent / name
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("")
    (home / "release").write_text(f'IMPLEMENTOR="x"\nJAVA_VERSION="{version}"\n')
    return home


class Jdk(unittest.TestCase):
    def setUp(self):
        self.dirs = Path(tempfile.mkdtemp())

    def test_the_newest_jdk_21_or_later_when_java_home_is_unset(self):
        fake_jdk(self.dirs, "java-17-openjdk", "17.0.12")
        fake_jdk(self.dirs, "jdk-21", "21.0.4")
        newest = fake_jdk(self.dirs, "jdk-25", "25.0.1")
        self.assertEqual(toolkit.java_home({}, self.dirs), newest)

    def test_java_home_wins_when_it_is_21_or_later(self):
        given = fake_jdk(self.dirs, "jdk-21", "21.0.4")
        fake_jdk(self.dirs, "jdk-25", "25.0.1")
        self.assertEqual(toolkit.java_home({"JAVA_HOME": str(given)}, self.dirs), given)

    def test_an_older_java_home_is_passed_over(self):
        old = fake_jdk(self.dirs, "java-17-openjdk", "17.0.12")
        newest = fake_jdk(self.dirs, "jdk-25", "25")
        self.assertEqual(toolkit.java_home({"JAVA_HOME": str(old)}, self.dirs), newest)

    def test_no_jdk_21_says_what_was_looked_at(self):
        old = fake_jdk(self.dirs, "java-8", "1.8.0_402")
        with self.assertRaises(SystemExit) as raised:
            toolkit.java_home({"JAVA_HOME": str(old)}, self.dirs)
        self.assertIn(f"JAVA_HOME={old} is not a JDK 21+", str(raised.exception))
        self.assertIn(str(self.dirs), str(raised.exception))

    def test_a_directory_without_a_release_file_is_not_a_jdk(self):
        (self.dirs / "jre" / "bin").mkdir(parents=True)
        (self.dirs / "jre" / "bin" / "java").write_text("")
        self.assertIsNone(toolkit.jdk_feature(self.dirs / "jre"))
        self.assertEqual(toolkit.jdk_feature(fake_jdk(self.dirs, "j8", "1.8.0_402")), 8)


class Application(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.command = stand_in_command(self.dir)
        self.apps = []

    def tearDown(self):
        for app in self.apps:
            app.stop(grace=1)

    def start(self, *args):
        app = toolkit.App(self.command, list(args), self.dir / "app.log")
        self.apps.append(app)
        return app

    def test_waits_until_the_path_answers_then_reads_it_stops_on_sigterm(self):
        app = self.start("--delay=0.5")
        self.assertEqual(app.wait_http("/ready", timeout=20), b"ok")
        self.assertGreaterEqual(app.wait_port(timeout=20), 0.5)
        self.assertEqual(toolkit.http(app.base + "/other"), (404, b"no"))
        self.assertEqual(toolkit.started_seconds(app.log_text()), 0.5)
        self.assertGreater(app.peak_rss_mb(), 1)
        self.assertGreaterEqual(app.peak_rss_mb(), app.rss_mb())
        self.assertTrue(app.stop())
        self.assertFalse(app.alive())

    def test_an_app_that_ignores_sigterm_is_killed(self):
        app = self.start("--stubborn")
        app.wait_http("/ready", timeout=20)
        self.assertFalse(app.stop(grace=1))
        self.assertFalse(app.alive())

    def test_an_app_that_exits_while_starting_is_reported_with_its_log(self):
        app = toolkit.App([sys.executable, "-c", "import sys; sys.exit(3)"], [], self.dir / "exit.log")
        with self.assertRaisesRegex(RuntimeError, "exited with 3 before 200 from /ready .*exit.log"):
            app.wait_http("/ready", timeout=20)

    def test_waiting_is_bounded(self):
        app = self.start("--delay=30")
        with self.assertRaisesRegex(RuntimeError, "no 200 from /ready within 1s"):
            app.wait_http("/ready", timeout=1)

    def test_no_answer_is_none_and_the_error(self):
        status, body = toolkit.http(f"http://127.0.0.1:{toolkit.free_port()}/", timeout=2)
        self.assertIsNone(status)
        self.assertIn(b"refused", body.lower())

    def test_an_answer_that_is_not_http_is_none_and_the_error(self):
        app = self.start()
        app.wait_http("/ready", timeout=20)
        status, body = toolkit.http(app.base + "/garbage", timeout=5)
        self.assertIsNone(status)
        self.assertIn(b"garbage", body)

    def test_http_body_and_json_take_only_2xx(self):
        app = self.start()
        app.wait_http("/ready", timeout=20)
        self.assertEqual(toolkit.http_body(app.base + "/ready"), b"ok")
        self.assertEqual(toolkit.http_json(app.base + "/actuator/threadmodel")["model"], "virtual")
        with self.assertRaisesRegex(RuntimeError, "/other answered 404: b'no'"):
            toolkit.http_body(app.base + "/other")
        with self.assertRaisesRegex(RuntimeError, "answered None"):
            toolkit.http_json(f"http://127.0.0.1:{toolkit.free_port()}/", timeout=2)

    def test_the_port_and_address_go_between_the_command_and_the_arguments(self):
        self.assertEqual(toolkit.app_command(["java", "-jar", "app.jar"], ["--app.threads.model=virtual"], 8081),
                         ["java", "-jar", "app.jar", "--server.port=8081", "--server.address=127.0.0.1",
                          "--app.threads.model=virtual"])
        app = self.start("--delay=0")
        self.assertEqual(app.command[-3:], [f"--server.port={app.port}", "--server.address=127.0.0.1", "--delay=0"])

    def test_waiting_polls_at_the_interval_asked_for(self):
        app = self.start()
        calls = []
        took = time.monotonic()
        result = app.wait_until(lambda: calls.append(1) or (len(calls) >= 3 and "done"), timeout=20, what="x",
                                interval=0.3)
        self.assertEqual(result, "done")
        self.assertEqual(len(calls), 3)
        self.assertGreaterEqual(time.monotonic() - took, 0.6)

    def test_threadmodel_is_awaited_until_the_application_is_ready(self):
        app = self.start("--ready=0.6")
        doc = app.wait_threadmodel(timeout=20, interval=0.05)
        self.assertEqual(doc["startup"]["applicationReadyMs"], 250)
        self.assertGreaterEqual(time.monotonic() - app.started_at, 0.6)

    def test_threadmodel_not_ready_is_returned_after_the_grace_or_fails_at_the_timeout(self):
        app = self.start("--never-ready")
        doc = app.wait_threadmodel(timeout=20, not_ready_after=0.5, interval=0.05)
        self.assertIsNone(doc["startup"]["applicationReadyMs"])
        with self.assertRaisesRegex(RuntimeError, "no .*/actuator/threadmodel reporting ready within 2s"):
            app.wait_threadmodel(timeout=2, interval=0.1)

    def test_threadmodel_on_a_management_port_of_its_own(self):
        app = self.start("--never-ready")
        management = self.start()
        doc = app.wait_threadmodel(timeout=20, base=management.base, interval=0.05)
        self.assertEqual(doc["startup"]["applicationReadyMs"], 250)

    def test_an_app_that_exits_while_awaited_is_reported(self):
        app = toolkit.App([sys.executable, "-c", "import sys; sys.exit(4)"], [], self.dir / "exit.log")
        with self.assertRaisesRegex(RuntimeError, "exited with 4 before .*/actuator/threadmodel reporting ready"):
            app.wait_threadmodel(timeout=20)


class Termination(unittest.TestCase):
    def test_sigterm_runs_the_scripts_finally_and_exits_143(self):
        script = textwrap.dedent(f"""
            import sys, time
            sys.path.insert(0, {str(HERE.parent)!r})
            import toolkit
            toolkit.stop_on_sigterm()
            try:
                print("started", flush=True)
                time.sleep(30)
            finally:
                print("stopped the apps", flush=True)
        """)
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        self.assertEqual(proc.stdout.readline().strip(), "started")
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        self.assertEqual(proc.returncode, 143)
        self.assertIn("stopped the apps", out)


class Cli(unittest.TestCase):
    def run_main(self, *argv):
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            rc = toolkit.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def test_prints_a_free_port(self):
        rc, out, _ = self.run_main("free-port")
        self.assertEqual(rc, 0)
        self.assertTrue(1 <= int(out) <= 65535)

    def test_prints_the_jdk(self):
        with mock.patch.object(toolkit, "java_home", return_value=Path("/opt/jdk-25")):
            self.assertEqual(self.run_main("java-home")[:2], (0, "/opt/jdk-25\n"))
            self.assertEqual(self.run_main("java")[:2], (0, "/opt/jdk-25/bin/java\n"))

    def test_k6_from_the_environment_or_a_failed_install(self):
        with mock.patch.dict(toolkit.os.environ, {"K6": "/opt/k6"}):
            self.assertEqual(self.run_main("k6")[:2], (0, "/opt/k6\n"))
        failed = subprocess.CalledProcessError(1, ["bash", "install-k6.sh"])
        with mock.patch.dict(toolkit.os.environ, {"K6": ""}), \
                mock.patch.object(toolkit.subprocess, "run", side_effect=failed):
            rc, out, err = self.run_main("k6")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("install-k6.sh", err)

    def test_an_unknown_command_prints_the_usage(self):
        rc, _, err = self.run_main("jdk")
        self.assertEqual(rc, 2)
        self.assertIn("java|java-home|k6|free-port", err)


# A stand-in k6: `run ... <script>` writes what it was given into $SUMMARY_DIR/$SUMMARY_NAME-summary.json, prints
# a line, and exits with $FAKE_EXIT; with FAKE_SLEEP it first sleeps that long.
FAKE_K6 = textwrap.dedent("""
    import json, os, sys, time
    time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
    doc = {"argv": sys.argv[1:], "base": os.environ.get("BASE_URL"), "usage": os.environ.get("K6_NO_USAGE_REPORT")}
    path = os.path.join(os.environ["SUMMARY_DIR"], os.environ["SUMMARY_NAME"] + "-summary.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    print("k6 output")
    sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
""")


class K6Runs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name) / "out"
        script = Path(self.tmp.name) / "k6"
        script.write_text("#!" + sys.executable + "\n" + FAKE_K6)
        script.chmod(0o755)
        self.k6 = str(script)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_script_of_load_k6_with_its_summary_and_output_in_the_folder_given(self):
        run = toolkit.run_k6(self.k6, "ramp", self.out, {"BASE_URL": "http://127.0.0.1:1", "FAKE_EXIT": 99},
                             time_limit=30)
        self.assertEqual(run.returncode, 99)
        summary = run.summary()
        self.assertEqual(summary["argv"][-1], str(toolkit.HERE / "k6" / "ramp.js"))
        self.assertEqual((summary["base"], summary["usage"]), ("http://127.0.0.1:1", "true"))
        self.assertEqual(run.summary_path(), self.out / "ramp-summary.json")
        self.assertEqual((self.out / "ramp-k6.log").read_text(), "k6 output\n")

    def test_a_name_and_log_of_its_own_and_more_options(self):
        run = toolkit.run_k6(self.k6, "steps", self.out, {}, time_limit=30, name="steps-100", log="steps.log",
                             args=["--out", "csv=requests.csv"])
        self.assertEqual(run.returncode, 0)
        self.assertEqual(run.log_text(), "k6 output\n")
        argv = json.loads((self.out / "steps-100-summary.json").read_text())["argv"]
        self.assertEqual(argv[:2], ["run", "--quiet"])
        # k6's REST API on a port of the kernel's choice: runs at the same time never collide on 6565.
        self.assertEqual(argv[argv.index("--address") + 1], "127.0.0.1:0")
        self.assertEqual(argv[-3:-1], ["--out", "csv=requests.csv"])

    def test_a_run_past_its_time_limit_is_killed(self):
        started = time.monotonic()
        run = toolkit.run_k6(self.k6, "ramp", self.out, {"FAKE_SLEEP": 30}, time_limit=0.5)
        self.assertEqual(run.returncode, toolkit.K6Run.KILLED)
        self.assertLess(time.monotonic() - started, 10)
        self.assertIsNone(run.summary())

    def test_a_run_started_is_polled_and_killed(self):
        run = toolkit.K6Run(self.k6, "fleet", self.out, {"FAKE_SLEEP": 30})
        self.assertIsNone(run.poll())
        run.kill()
        self.assertIsNotNone(run.poll())


class Tools(unittest.TestCase):
    def test_found_on_the_path_or_where_it_is_installed(self):
        with tempfile.TemporaryDirectory() as tmp:
            oha = Path(tmp) / "oha"
            oha.write_text("")
            oha.chmod(0o755)
            with mock.patch.object(toolkit.shutil, "which", return_value="/usr/bin/oha"):
                self.assertEqual(toolkit.tool("oha", [str(oha)], ["false"]), "/usr/bin/oha")
            with mock.patch.object(toolkit.shutil, "which", return_value=None):
                self.assertEqual(toolkit.tool("oha", ["/nowhere/oha", str(oha)], ["false"]), str(oha))

    def test_installed_when_missing_or_the_install_command_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            hey = Path(tmp) / "hey"
            install = ["sh", "-c", f"printf '' > {hey} && chmod +x {hey}"]
            with mock.patch.object(toolkit.shutil, "which", return_value=None), \
                    contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(toolkit.tool("hey", [str(hey)], install), str(hey))
                with self.assertRaisesRegex(SystemExit, "could not install hey \\(false\\)"):
                    toolkit.tool("hey", [str(Path(tmp) / "missing")], ["false"])


class Measurements(unittest.TestCase):
    def test_variants_interleave_round_by_round(self):
        args = mock.Mock(rounds=2, variants=["starter", "plain"])
        self.assertEqual(list(toolkit.each_round(args, lambda r, v: f"{r}-{v}")),
                         ["1-starter", "1-plain", "2-starter", "2-plain"])

    def test_the_machine_and_each_row_as_it_comes_in_files_and_on_stdout(self):
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()) as shown, \
                mock.patch.object(toolkit, "stop_on_sigterm"):
            out = Path(tmp) / "run"
            seen = []

            def rows():
                for row in ("| 1 |", "| 2 |"):
                    # the results so far are on disk before the next run starts
                    seen.append((out / "results.md").read_text())
                    yield row
            self.assertEqual(toolkit.write_results(out, "2 cores", "| n |", rows()), 0)
            self.assertEqual((out / "machine.txt").read_text(), "2 cores\n")
            self.assertEqual((out / "results.md").read_text(), "| n |\n| 1 |\n| 2 |\n")
        self.assertEqual(seen, ["| n |\n", "| n |\n| 1 |\n"])
        self.assertEqual(shown.getvalue().splitlines(), ["2 cores", "| n |", "| 1 |", "| 2 |", f"results in {out}"])

    def test_a_burst_measurement_writes_a_row_per_round_and_variant_into_its_out_folder(self):
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()), \
                mock.patch.object(toolkit, "stop_on_sigterm"):
            args = mock.Mock(rounds=2, variants=["starter", "plain"], out=Path(tmp) / "burst")
            self.assertEqual(toolkit.run_bursts(args, "2 cores", "| round | variant |",
                                                lambda r, v: f"| {r} | {v} |"), 0)
            self.assertEqual((args.out / "results.md").read_text().splitlines(),
                             ["| round | variant |", "| 1 | starter |", "| 1 | plain |", "| 2 | starter |",
                              "| 2 | plain |"])


class StartedLine(unittest.TestCase):
    def test_reads_the_jvm_age_at_ready_from_spring_boots_line(self):
        line = ("2026-11-24T10:00:00.000Z  INFO 1 --- [main] c.e.SampleWebApplication : Started SampleWebApplication "
                "in 2.345 seconds (process running for 2.789)")
        self.assertEqual(toolkit.started_seconds(line), 2.789)
        self.assertIsNone(toolkit.started_seconds("Starting SampleWebApplication"))


if __name__ == "__main__":
    unittest.main()
