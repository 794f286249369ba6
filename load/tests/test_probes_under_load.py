"""Unit tests of load/probes_under_load.py: reading HTTP answers, the kubelet's probe schedule, the summary and its
table, the arguments, and the probes and the loads against a small server in this process.

    python3 -m unittest discover -s load/tests -v
"""

import asyncio
import http.server
import io
import sys
import tempfile
import threading
import time
import unittest
import zipfile
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import probes_under_load as pul  # noqa: E402
import toolkit  # noqa: E402


class ParseAnswer(unittest.TestCase):
    def test_a_head_without_its_end_is_not_an_answer_yet(self):
        self.assertIsNone(pul.parse_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"))
        self.assertIsNone(pul.parse_answer(b"garbage\r\n\r\n"))

    def test_content_length_delimits_the_body(self):
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n"
        self.assertFalse(pul.parse_answer(head + b"ab").complete)
        answer = pul.parse_answer(head + b"abcdHTTP/1.1")
        self.assertEqual((answer.status, answer.complete, answer.length, answer.close), (200, True, len(head) + 4, False))

    def test_chunked_bodies_end_with_the_last_chunk(self):
        head = b"HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        self.assertFalse(pul.parse_answer(head + b"5\r\nhello\r\n").complete)
        answer = pul.parse_answer(head + b"5\r\nhello\r\n0\r\n\r\n")
        self.assertEqual((answer.status, answer.complete, answer.close), (503, True, True))

    def test_a_body_without_length_ends_with_the_connection(self):
        data = b"HTTP/1.1 200 OK\r\n\r\nbody"
        self.assertFalse(pul.parse_answer(data).complete)
        self.assertTrue(pul.parse_answer(data, eof=True).complete)

    def test_kubelet_verdict_passes_200_to_399(self):
        self.assertEqual([pul.outcome_of(s) for s in (200, 302, 399, 400, 503, None)],
                         ["ok", "ok", "ok", "status", "status", "status"])


class WarmUp(unittest.TestCase):
    def test_a_deep_queue_is_warmed_up_by_clients_looping_its_request(self):
        self.assertEqual(pul.warm_up_kind("deep"), "slow")

    def test_other_loads_are_warmed_up_by_themselves(self):
        for load in ("slow", "slowbody", "cpu"):
            self.assertEqual(pul.warm_up_kind(load), load)


class ProbeSchedule(unittest.TestCase):
    def test_a_quick_probe_waits_for_the_next_tick(self):
        self.assertAlmostEqual(pul.next_probe_at(0.0, 0.2, 0.4, 0.45), 0.6)

    def test_a_probe_that_overran_its_period_is_followed_at_once_then_the_ticks_resume(self):
        self.assertEqual(pul.next_probe_at(0.0, 0.2, 0.4, 1.4), 1.4)
        self.assertAlmostEqual(pul.next_probe_at(0.0, 0.2, 1.4, 1.41), 1.6)


def probe(at, outcome="ok", latency=5.0, status=200, path="/live"):
    return pul.Probe(path, at, latency, outcome, status)


class Summary(unittest.TestCase):
    def test_counts_failures_by_kind_and_the_longest_run_of_them(self):
        probes = [probe(0.0), probe(0.2, "timeout", 1000.0, None), probe(1.2, "timeout", 1000.0, None),
                  probe(2.2, "status", 12.0, 503), probe(2.4), probe(2.6, "error", 1.0, None), probe(2.8, latency=7.0)]
        s = pul.summarize_probes(probes, 0.2)
        self.assertEqual((s["sent"], s["failed"], s["timeouts"], s["bad_status"], s["errors"]), (7, 4, 2, 1, 1))
        self.assertEqual((s["most_in_a_row"], s["failing_s"]), (3, 2.2))
        self.assertEqual((s["longest_ms"], s["median_ms"], s["statuses"]), (1000.0, 7.0, "503x1"))
        self.assertEqual(s["p99_ms"], 1000.0)

    def test_p99_is_the_nearest_rank(self):
        latencies = [float(i) for i in range(1, 101)]  # 100 probes: p99 is the second longest
        self.assertEqual(pul.percentile(latencies, 99), 99.0)
        self.assertEqual(pul.percentile(latencies[:50], 99), 50.0)  # fewer than 100: the longest
        self.assertEqual(pul.percentile([3.0], 99), 3.0)
        s = pul.summarize_probes([probe(0.2 * i, latency=float(i)) for i in range(200)], 0.2)
        self.assertEqual((s["p99_ms"], s["longest_ms"]), (197.0, 199.0))

    def test_no_probes_no_failures(self):
        s = pul.summarize_probes([], 0.2)
        self.assertEqual((s["sent"], s["failed"], s["most_in_a_row"], s["longest_ms"], s["p99_ms"]),
                         (0, 0, 0, None, None))

    def run_of(self, scenario, attempt, failed_probes, **state):
        probes = [probe(0.1 * i, "timeout" if i < failed_probes else "ok") for i in range(10)]
        counts = pul.LoadCounts(answered=40, refused=350)
        return pul.Run(scenario, attempt, "slow", "tomcat", probes, counts, 1.5, **state)

    def test_the_table_names_the_scenario_once_with_the_loads_counts(self):
        rows = pul.summary_rows(self.run_of("virtual-mc50", 1, 3), ["/live", "/actuator/health/readiness"], 0.2)
        table = pul.markdown(rows).splitlines()
        self.assertEqual(len(table), 4)
        self.assertIn("| tomcat | slow | virtual, max-concurrency 50 | /live | 10 | **3** | 3 | 0 | 0 | 3 (0.4 s) "
                      "| 5 | 5 |", table[2])
        self.assertTrue(table[2].endswith("| 40 | 350 | 0 | ok |"))
        self.assertTrue(table[3].startswith("|  |  |  | readiness | 0 | 0 |"))

    def test_an_application_that_ran_out_of_heap_or_died_fails_its_scenario(self):
        rows = []
        for run in (self.run_of("adaptive", 1, 0, oom=True, alive=False), self.run_of("plain", 1, 0, alive=False),
                    self.run_of("virtual-mc50", 1, 0)):
            rows += pul.summary_rows(run, ["/live"], 0.2)
        self.assertEqual(pul.failed_scenarios(rows), ["tomcat slow adaptive", "tomcat slow plain"])
        self.assertEqual(pul.died_scenarios(rows), ["tomcat slow adaptive", "tomcat slow plain"])
        survived = pul.summary_rows(self.run_of("virtual-mc50", 1, 3), ["/live"], 0.2)
        self.assertEqual((pul.failed_scenarios(survived), pul.died_scenarios(survived)), (["tomcat slow virtual-mc50"], []))
        table = pul.markdown(rows).splitlines()
        self.assertEqual([line.rsplit("|", 2)[1].strip() for line in table[2:]], ["**OOM**", "**died**", "ok"])

    def test_a_request_of_the_load_left_unanswered_fails_its_scenario_with_expect_all_answered(self):
        rows = []
        for scenario, counts in (("adaptive", pul.LoadCounts(answered=425, refused=2575)),
                                 ("plain", pul.LoadCounts(errors=3000)),
                                 ("virtual-mc50", pul.LoadCounts(answered=200, unfinished=1800))):
            rows += pul.summary_rows(pul.Run(scenario, 1, "deep", "tomcat", [probe(0.1, "ok")], counts, 1.5), ["/live"],
                                     0.2)
        self.assertEqual(pul.unanswered_scenarios(rows), ["tomcat deep plain", "tomcat deep virtual-mc50"])
        self.assertEqual(pul.died_scenarios(rows), [])

    def test_the_log_tells_an_out_of_memory_error(self):
        self.assertTrue(pul.saw_oom("Terminating due to java.lang.OutOfMemoryError: Java heap space\n"))
        self.assertFalse(pul.saw_oom("Started SampleWebApplication in 3.2 seconds\n"))

    def test_the_last_run_of_a_scenario_decides_whether_it_failed(self):
        rows = []
        for run in (self.run_of("plain", 1, 2), self.run_of("plain", 2, 0), self.run_of("virtual-mc50", 1, 1)):
            rows += pul.summary_rows(run, ["/live"], 0.2)
        self.assertEqual(pul.failed_scenarios(rows), ["tomcat slow virtual-mc50"])

    def test_the_table_reads_back_from_the_csv(self):
        out = Path(tempfile.mkdtemp())
        rows = pul.summary_rows(self.run_of("adaptive", 1, 0), ["/live"], 0.2)
        pul.write_csv(out / "summary.csv", rows, pul.SUMMARY_COLUMNS)
        self.assertEqual(pul.markdown(pul.read_summaries([str(out)])), pul.markdown(rows))

    def test_a_summary_of_an_earlier_version_still_reads(self):
        out = Path(tempfile.mkdtemp())
        old = [c for c in pul.SUMMARY_COLUMNS if c not in ("p99_ms", "load_all_sent_s", "load_loop_lag_ms", "alive",
                                                             "oom", "heap")]
        pul.write_csv(out / "summary.csv", pul.summary_rows(self.run_of("plain", 1, 1), ["/live"], 0.2), old)
        rows = pul.read_summaries([str(out)])
        self.assertTrue(pul.markdown(rows).splitlines()[2].endswith("| — | 5 | 40 | 350 | 0 | — |"))
        self.assertEqual(pul.failed_scenarios(rows), ["tomcat slow plain"])


def sample_jar(directory: Path, name: str) -> Path:
    jar = directory / f"{name}.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("BOOT-INF/classes/application.properties", f"spring.application.name={name}\n")
    return jar


class Arguments(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())

    def test_defaults(self):
        a = pul.parse_args(["--jar", str(sample_jar(self.dir, "sample-web-jetty"))])
        self.assertEqual((a.server, a.load, a.seconds, a.scenarios), ("jetty", "slow", 20, pul.DEFAULT_ORDER))
        self.assertEqual(a.probe_path, list(pul.PROBE_PATHS))
        self.assertIsNone(a.management_port)
        self.assertEqual((a.probe_after, a.snapshot_path), (0, []))
        self.assertIn("plain", a.scenarios[1:-1])  # among the starter's, not first or last
        self.assertEqual((a.clients, a.heap, pul.jvm_options(a), a.stop_grace), (400, None, [], 30))

    def test_the_deep_queue_sends_2000_and_a_heap_is_a_pods(self):
        a = pul.parse_args(["--jar", str(sample_jar(self.dir, "sample-web")), "--load", "deep", "--heap", "256m",
                            "--jvm-arg=-XX:TieredStopAtLevel=1"])
        self.assertEqual((a.clients, pul.load_path(a)), (2000, "/greetings"))
        self.assertEqual(pul.jvm_options(a), ["-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1"])
        self.assertIn("2000 clients each sending one GET /greetings (2s) at once", pul.load_description(a))
        self.assertEqual(pul.parse_args(["--jar", "x.jar", "--load", "deep", "--clients", "10"]).clients, 10)

    def test_the_cpu_load_spins_for_cpu_ms(self):
        jar = str(sample_jar(self.dir, "sample-web"))
        a = pul.parse_args(["--jar", jar, "--load", "cpu", "--clients", "200"])
        self.assertEqual((a.clients, pul.load_path(a)), (200, "/cpu?ms=50"))
        self.assertEqual(pul.load_path(pul.parse_args(["--jar", jar, "--load", "cpu", "--cpu-ms", "20"])), "/cpu?ms=20")
        reactive = str(sample_jar(self.dir, "sample-reactive"))
        self.assertEqual(pul.load_path(pul.parse_args(["--jar", reactive, "--load", "cpu"])), "/cpu?ms=50")

    def test_a_heap_must_read_as_a_size(self):
        with self.assertRaises(SystemExit), io.StringIO() as err:
            sys.stderr, saved = err, sys.stderr
            try:
                pul.parse_args(["--jar", "x.jar", "--heap", "-Xmx256m"])
            finally:
                sys.stderr = saved

    def test_snapshots_are_saved_under_the_paths_name(self):
        self.assertEqual(pul.snapshot_file("/actuator/threadmodel"), "actuator-threadmodel.json")
        self.assertEqual(pul.snapshot_file("/actuator/metrics/x.y?tag=a:b"), "actuator-metrics-x.y.json")
        with self.assertRaises(SystemExit), io.StringIO() as err:
            sys.stderr, saved = err, sys.stderr
            try:
                pul.parse_args(["--jar", "x.jar", "--probe-after", "-1"])
            finally:
                sys.stderr = saved

    def test_management_port_without_a_value_means_a_free_one(self):
        a = pul.parse_args(["--jar", "x.jar", "--management-port", "--probe-path", "/livez"])
        self.assertEqual((a.management_port, a.probe_path), (0, ["/livez"]))

    def test_an_unknown_scenario_stops(self):
        with self.assertRaises(SystemExit), io.StringIO() as err:
            sys.stderr, saved = err, sys.stderr
            try:
                pul.parse_args(["--jar", "x.jar", "--scenarios", "virtual-mc50,nope"])
            finally:
                sys.stderr = saved

    def test_each_sample_has_its_slow_endpoint_and_slow_bodies_need_sample_web(self):
        web, reactive = sample_jar(self.dir, "sample-web"), sample_jar(self.dir, "sample-reactive")
        self.assertEqual(pul.load_path(pul.parse_args(["--jar", str(web)])), "/greetings")
        self.assertEqual(pul.load_path(pul.parse_args(["--jar", str(web), "--load", "slowbody"])), "/echo")
        self.assertEqual(pul.load_path(pul.parse_args(["--jar", str(reactive)])), "/greetings/blocking")
        with self.assertRaisesRegex(SystemExit, "slowbody needs a sample-web jar"):
            pul.load_path(pul.parse_args(["--jar", str(reactive), "--load", "slowbody"]))

    def test_each_run_exposes_the_probes_and_plain_boot_leaves_the_starter_out(self):
        jar = sample_jar(self.dir, "sample-web")
        a = pul.parse_args(["--jar", str(jar), "--app-arg=--debug"])
        args = pul.run_args(a, pul.SCENARIOS["platform-50"], 8081)
        self.assertIn(pul.PROBES_ENABLED, args)
        self.assertIn("--app.threads.platform.queue-capacity=0", args)
        self.assertIn("--management.server.port=8081", args)
        self.assertEqual(args[-1], "--debug")
        plain = pul.run_args(a, pul.SCENARIOS["plain"], None)
        self.assertIn("--spring.threads.virtual.enabled=true", plain)
        self.assertFalse([x for x in plain if x.startswith("--app.threads") or x.startswith("--management.server")])


class StandIn(http.server.BaseHTTPRequestHandler):
    """liveness 200, readiness 503, /stuck answers after 1.5 s, /greetings after 50 ms on a kept-alive connection,
    /busy 503 and closes, POST /echo reads its body (Content-Length) and sends it back."""
    protocol_version = "HTTP/1.1"

    def answer(self, status, body=b"{}", close=False):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = close

    def do_GET(self):
        if self.path == "/stuck":
            time.sleep(1.5)
        elif self.path == "/greetings":
            time.sleep(0.05)
        self.answer({"/live": 200, "/ready": 503, "/stuck": 200, "/greetings": 200}.get(self.path, 503),
                    close=self.path == "/busy")

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.answer(200, body)

    def log_message(self, *a):
        pass


class AgainstAServer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer((pul.HOST, 0), StandIn)
        cls.server.daemon_threads = True
        cls.port = cls.server.server_address[1]
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def test_probes_pass_fail_on_status_time_out_and_find_nothing(self):
        self.assertEqual(pul.probe_once(self.port, "/live", 1.0)[:2], ("ok", 200))
        self.assertEqual(pul.probe_once(self.port, "/ready", 1.0)[:2], ("status", 503))
        outcome, status, latency, _ = pul.probe_once(self.port, "/stuck", 0.3)
        self.assertEqual((outcome, status, latency), ("timeout", None, 300.0))
        self.assertEqual(pul.probe_once(toolkit.free_port(), "/live", 1.0)[0], "error")

    def test_a_prober_keeps_the_period_and_sends_one_probe_at_a_time(self):
        origin = time.monotonic()
        live = pul.Prober(self.port, "/live", origin, origin + 1.0, 0.2, 1.0)
        stuck = pul.Prober(self.port, "/stuck", origin, origin + 1.0, 0.2, 1.0)
        for p in (live, stuck):
            p.start()
        for p in (live, stuck):
            p.join(10)
        self.assertEqual(len(live.probes), 5)
        self.assertTrue(all(not p.failed for p in live.probes))
        self.assertEqual([p.outcome for p in stuck.probes], ["timeout"])  # the next tick fell after the end

    def load(self, kind, path, **options):
        a = SimpleNamespace(ramp=0.1, refused_pause=0.3, request_timeout=5.0, body_bytes=3, body_interval=0.1,
                            **options)
        load = pul.Load(kind, self.port, path, 4, time.monotonic() + 1.0, a)
        load.start()
        load.join(10)
        return load.counts

    def test_the_slow_load_loops_on_kept_alive_connections(self):
        counts = self.load("slow", "/greetings")
        self.assertGreater(counts.answered, 20)
        self.assertEqual((counts.refused, counts.failed), (0, 0))

    def test_a_client_stops_at_the_end_of_the_run_without_being_cancelled(self):
        a = SimpleNamespace(ramp=0.0, refused_pause=0.3, request_timeout=5.0)
        load = pul.Load("slow", self.port, "/greetings", 1, time.monotonic() + 0.5, a)
        asyncio.run(asyncio.wait_for(load.slow_client(0), 3.0))  # would loop until the timeout before the fix
        self.assertGreater(load.counts.answered, 2)

    def test_refused_clients_pause_before_asking_again(self):
        counts = self.load("slow", "/busy")
        self.assertEqual(counts.answered, 0)
        self.assertTrue(4 <= counts.refused <= 16, counts.refused)  # 4 clients, at most one try per 0.3 s

    def test_the_deep_queue_sends_one_request_per_client_all_at_once(self):
        a = SimpleNamespace(ramp=1.0, refused_pause=0.3, request_timeout=5.0)
        load = pul.Load("deep", self.port, "/greetings", 5, time.monotonic() + 1.0, a)  # the stand-in backlog: 5
        load.start()
        load.join(10)
        self.assertEqual((load.counts.answered, load.counts.failed, load.counts.unfinished), (5, 0, 0))
        self.assertLess(load.counts.all_sent_s, 0.9)  # no ramp
        self.assertGreaterEqual(load.counts.loop_lag_ms, 0.0)

    def test_a_deep_queue_request_unanswered_at_the_end_is_unfinished(self):
        a = SimpleNamespace(ramp=0.0, refused_pause=0.3, request_timeout=5.0)
        load = pul.Load("deep", self.port, "/stuck", 3, time.monotonic() + 0.5, a)
        load.start()
        load.join(10)
        self.assertEqual((load.counts.answered, load.counts.unfinished), (0, 3))

    def test_slow_bodies_are_sent_byte_by_byte(self):
        counts = self.load("slowbody", "/echo")
        self.assertTrue(4 <= counts.answered <= 12, counts.answered)  # 0.3 s per body, 4 connections, 1 s
        self.assertEqual(counts.failed, 0)


if __name__ == "__main__":
    unittest.main()
