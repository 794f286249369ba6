"""Unit tests of load/toolkit.py: the JDK it picks, HTTP, and an application it starts, waits for and stops.

    python3 -m unittest discover -s load/tests -v
"""

import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import toolkit  # noqa: E402

# A stand-in application: serves GET /ready as 200 after --delay seconds, /other as 404, takes --server.port and
# --server.address like a Spring Boot app, and with --stubborn ignores SIGTERM.
STAND_IN = textwrap.dedent("""
    import http.server, signal, sys, time
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
    if "--stubborn" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(float(args.get("delay", "0")))
    print("Started StandIn in 0.25 seconds (process running for 0.5)", flush=True)
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/ready" else 404)
            self.end_headers()
            self.wfile.write(b"ok" if self.path == "/ready" else b"no")
        def log_message(self, *a):
            pass
    http.server.HTTPServer((args["server.address"], int(args["server.port"])), Handler).serve_forever()
""")


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
        fake_jdk(self.dirs, "temurin-21", "21.0.4")
        newest = fake_jdk(self.dirs, "temurin-25", "25.0.1")
        self.assertEqual(toolkit.java_home({}, self.dirs), newest)

    def test_java_home_wins_when_it_is_21_or_later(self):
        given = fake_jdk(self.dirs, "temurin-21", "21.0.4")
        fake_jdk(self.dirs, "temurin-25", "25.0.1")
        self.assertEqual(toolkit.java_home({"JAVA_HOME": str(given)}, self.dirs), given)

    def test_an_older_java_home_is_passed_over(self):
        old = fake_jdk(self.dirs, "java-17-openjdk", "17.0.12")
        newest = fake_jdk(self.dirs, "temurin-25", "25")
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
        (self.dir / "stand_in.py").write_text(STAND_IN)
        self.apps = []

    def tearDown(self):
        for app in self.apps:
            app.stop(grace=1)

    def start(self, *args):
        app = toolkit.App([sys.executable, str(self.dir / "stand_in.py")], list(args), self.dir / "app.log")
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


class StartedLine(unittest.TestCase):
    def test_reads_the_jvm_age_at_ready_from_spring_boots_line(self):
        line = ("2026-11-24T10:00:00.000Z  INFO 1 --- [main] c.e.SampleWebApplication : Started SampleWebApplication "
                "in 2.345 seconds (process running for 2.789)")
        self.assertEqual(toolkit.started_seconds(line), 2.789)
        self.assertIsNone(toolkit.started_seconds("Starting SampleWebApplication"))


if __name__ == "__main__":
    unittest.main()
