"""Unit tests of what the scripts around the load tools read: from a running app (load/switch_under_load.py, against a
stand-in server), from k6's output (load/ci_smoke.py) and from the load generators' reports (load/heap_burst.py: hey;
load/intake.py and load/overload.py: oha; load/burst_bound.py: its own runs). CI runs ci_smoke.py and switch_under_load.py against the samples.

    python3 -m unittest discover -s load/tests -v
"""

import json
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import burst_bound  # noqa: E402
import ci_smoke  # noqa: E402
import heap_burst  # noqa: E402
import intake  # noqa: E402
import overload  # noqa: E402
import switch_under_load  # noqa: E402
import toolkit  # noqa: E402
from test_toolkit import stand_in_command  # noqa: E402  (a stand-in for an application)
from test_versus_plain import app_jar  # noqa: E402  (an application jar with the starter in it)


class SwitchUnderLoad(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.app = toolkit.App(stand_in_command(self.tmp.name), [], Path(self.tmp.name) / "app.log")

    def tearDown(self):
        self.app.stop(grace=1)
        self.tmp.cleanup()

    def test_the_endpoint_is_read_as_json(self):
        self.app.wait_threadmodel(timeout=20, interval=0.05)
        status, doc = switch_under_load.threadmodel(self.app.base)
        self.assertEqual((status, doc["model"]), (200, "virtual"))

    def test_an_endpoint_that_does_not_answer_ends_the_run(self):
        with self.assertRaisesRegex(SystemExit, "/actuator/threadmodel did not answer"):
            switch_under_load.threadmodel(f"http://127.0.0.1:{toolkit.free_port()}")


# Parts of what k6 prints with ramp.js and steps.js (load/k6/lib/common.js's text summary).
RAMP_OUTPUT = textwrap.dedent("""\
    time="2026-11-26T15:00:00Z" level=info msg="ramp: http://127.0.0.1:1/products/1 model=virtual" source=console
       ✓ errors.................................. 0.00% (0 of 983)
           ok   rate<0.10
         http_reqs............................... 984 (46.34/s)
       ✓ requests................................ 983 (46.29/s)
       ✓ response_time........................... avg=321.42ms min=164.37ms
       all thresholds passed
       summary: target/load-smoke/web/ramp-summary.json, .txt
""")
FAILED_OUTPUT = textwrap.dedent("""\
    time="2026-11-26T15:00:01Z" level=error msg="TypeError: x is undefined" source=console
    time="2026-11-26T15:00:02Z" level=error msg="TypeError: x is undefined" source=console
    time="2026-11-26T15:00:03Z" level=error msg="request timeout" source=console
       ✗ errors.................................. 100.00% (3 of 3)
           FAIL rate<0.10
       THRESHOLDS FAILED: errors
""")
STEPS_OUTPUT = textwrap.dedent("""\
       ✓ requests................................ 40 (2.30/s)

         steps (keep-alive off)
         requests  concurrency  success %  total s
               10           10     100.00    0.287
       all thresholds passed
""")


class CiSmoke(unittest.TestCase):
    def test_shows_whether_the_ramp_held_and_its_requests_and_times(self):
        self.assertEqual([line.split()[:2] for line in ci_smoke.ramp_lines(RAMP_OUTPUT)],
                         [["✓", "requests................................"],
                          ["✓", "response_time..........................."], ["all", "thresholds"]])

    def test_shows_the_steps_table_to_the_end(self):
        lines = ci_smoke.steps_lines(STEPS_OUTPUT)
        self.assertEqual((lines[0].strip(), lines[-1].strip()), ("steps (keep-alive off)", "all thresholds passed"))

    def test_a_failure_shows_each_error_once_with_its_count_then_the_thresholds(self):
        lines = ci_smoke.failure_lines(FAILED_OUTPUT)
        self.assertEqual([line.split(None, 1)[0] for line in lines[:2]], ["2", "1"])
        self.assertIn('msg="TypeError: x is undefined"', lines[0])
        self.assertEqual([line.strip()[:9] for line in lines[2:]], ["✗ errors.", "FAIL rate", "THRESHOLD"])

    def test_a_failed_start_shows_the_last_causes_and_the_last_lines(self):
        log = "\n".join(["Starting", "java.lang.IllegalStateException: no", "Caused by: port in use",
                         *[f"line {i}" for i in range(6)]])
        self.assertEqual(ci_smoke.startup_failure_lines(log),
                         ["java.lang.IllegalStateException: no", "Caused by: port in use",
                          "line 1", "line 2", "line 3", "line 4", "line 5"])


HEY_OUTPUT = textwrap.dedent("""\
    Summary:
      Total:\t12.5001 secs
      Slowest:\t11.2000 secs
      Fastest:\t1.0010 secs
      Average:\t4.1000 secs
      Requests/sec:\t216.0

      Total data:\t6700 bytes

    Status code distribution:
      [200]\t2600 responses
      [503]\t90 responses

    Error distribution:
      [7]\tGet "http://127.0.0.1:1/greetings?name=hey": context deadline exceeded
      [3]\tGet "http://127.0.0.1:1/greetings?name=hey": EOF
""")


class LoadGeneratorReports(unittest.TestCase):
    def test_a_heap_burst_row_from_hey_and_the_endpoint(self):
        row = heap_burst.result_row(2, "starter", HEY_OUTPUT, 200, 0, True, 231, '{"admission": {"limit": 120}}')
        self.assertEqual(row, "| 2 | starter | 2600 | 90 | 10 | 12.5001 | 4.1000 | 11.2000 | 216.0 | 200 | 0 | yes "
                              "| 231 | 120 |")

    def test_a_heap_burst_row_when_hey_and_the_endpoint_had_nothing(self):
        row = heap_burst.result_row(1, "plain", "", "000", 3, False, "?", "")
        self.assertEqual(row, "| 1 | plain | 0 | 0 | 0 | - | - | - | - | 000 | 3 | no | ? | - |")

    def test_an_intake_row_from_ohas_summary(self):
        summary = {"summary": {"successRate": 0.9963, "total": 3.456, "slowest": 2.5, "fastest": 1.0, "average": 1.5,
                               "requestsPerSec": 781.25}}
        self.assertEqual(intake.result_row("sample-web-tomcat", "starter", json.dumps(summary)),
                         "| sample-web-tomcat | starter | 99.6 | 3.46 | 2.50 | 1.00 | 1.50 | 781.2 |")

    def test_an_overload_row_from_oha_jcmd_the_peak_rss_and_the_endpoint(self):
        oha = {"summary": {"total": 2.345}, "statusCodeDistribution": {"200": 40, "503": 360},
               "errorDistribution": {"aborted": 2},
               "latencyPercentilesSuccessful": {"p50": 1.002, "p99": 1.2},
               "latencyPercentilesNotSuccessful": {"p50": 0.004, "p99": None}}
        row = overload.result_row("virtual-protected", 1, json.dumps(oha), " garbage-first heap   total 262144K, used 51200K",
                                  "VmHWM:\t307200 kB\n",
                                  '{"requests": {"peakRunning": 40, "peakQueued": 12, "rejected": 360}}', 0)
        self.assertEqual(row, "| virtual-protected | 1 | 40 | 360 | 2 | 1002 | 1200 | 4 | - | 2.35 | 50 | 300 | 40 | 12 "
                              "| 360 |")

    def test_an_overload_run_without_ohas_answer(self):
        self.assertEqual(overload.result_row("platform-unprotected", 2, "", "", "", "", 4),
                         "| platform-unprotected | 2 | no result: oha timed out (OutOfMemoryError lines in the log: 4) |")


class BurstBound(unittest.TestCase):
    JAR = Path("sample-web-tomcat.jar")

    def test_plain_runs_without_the_starter_and_exposes_only_health(self):
        with tempfile.TemporaryDirectory() as tmp:
            args = burst_bound.variant_args("plain", app_jar(Path(tmp)))
        self.assertIn("--spring.threads.virtual.enabled=true", args)
        self.assertTrue(any(a.startswith("--spring.autoconfigure.exclude=") for a in args))
        self.assertEqual([a for a in args if a.startswith("--management.endpoints.web.exposure.include=")],
                         ["--management.endpoints.web.exposure.include=health"])

    def test_a_bound_starts_at_a_fixed_limit_that_the_endpoint_may_raise(self):
        args = burst_bound.variant_args("bound-170", self.JAR)
        self.assertIn("--app.threads.virtual.max-concurrency=170", args)
        self.assertIn("--management.endpoint.threadmodel.access=unrestricted", args)
        self.assertIn("--app.threads.virtual.max-concurrency=600", burst_bound.variant_args("fixed-600", self.JAR))
        self.assertNotIn("--app.threads.virtual.max-concurrency=170", burst_bound.variant_args("adaptive", self.JAR))
        self.assertEqual(burst_bound.variant_args("baseline", self.JAR), burst_bound.variant_args("adaptive", self.JAR))

    def test_a_baseline_needs_its_jar(self):
        with tempfile.TemporaryDirectory() as tmp, self.assertRaises(SystemExit):
            burst_bound.main(["--variants", "adaptive,baseline", "--out", tmp])

    def test_an_unknown_variant_stops_before_any_run(self):
        for variant in ("bound-", "bound-x", "fixed", "unlimited"):
            with self.assertRaises(SystemExit):
                burst_bound.variant_args(variant, self.JAR)

    def test_the_table_takes_medians_of_full_runs_and_ratios_to_plain_in_the_same_round(self):
        def run(rnd, variant, last, ok=4, oom=False):
            return {"round": rnd, "variant": variant, "clients": 4, "ok": ok, "last_s": last, "average_s": last / 2,
                    "oom": oom}
        runs = [run(1, "plain", 4.0), run(1, "adaptive", 8.0), run(2, "adaptive", 9.0), run(2, "plain", 5.0),
                run(3, "plain", 6.0), run(3, "adaptive", 3.0, ok=1, oom=True)]
        lines = burst_bound.table(runs).splitlines()
        self.assertEqual(lines[2], "| plain | 3 | 3 | 0 | 5.00 | 2.50 | - | - |")
        self.assertEqual(lines[3], "| adaptive | 3 | 2 | 1 | 8.50 | 4.25 | 2.00 · 1.80 | 1.90 |")


if __name__ == "__main__":
    unittest.main()
