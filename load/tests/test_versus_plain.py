"""Unit tests of load/versus_plain.py (plan, plain's arguments, medians, ratios, verdicts, tables, --baseline) and of
what plain Spring Boot excludes (load/starter_auto_configurations.py).

    python3 -m unittest discover -s load/tests -v
"""

import io
import sys
import tempfile
import unittest
from unittest import mock
import zipfile
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent  # a git checkout: a baseline for parse_args
sys.path.insert(0, str(HERE.parent))

import starter_auto_configurations as sac  # noqa: E402
import versus_plain as vp  # noqa: E402

IMPORTS = "io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration\n# a comment\n" \
          "io.github.threadmodel.boot4.ThreadModelWebServerAutoConfiguration\n"
PROPERTIES = "app.threads.model=platform\nmanagement.endpoints.web.exposure.include=health,threadmodel,prometheus\n# Redis only with the redis profile\nspring.autoconfigure.exclude=a.Redis,\\\n" \
             "  b.RedisReactive\nother=1\n"


def app_jar(directory: Path, properties: str | None = PROPERTIES) -> Path:
    """A Spring Boot jar with the starter's imports in a nested threadmodel jar and, optionally, application.properties."""
    nested = io.BytesIO()
    with zipfile.ZipFile(nested, "w") as lib:
        lib.writestr(sac.IMPORTS, IMPORTS)
    jar = directory / "app.jar"
    with zipfile.ZipFile(jar, "w") as app:
        app.writestr("BOOT-INF/lib/threadmodel-spring-boot-autoconfigure-0.1.jar", nested.getvalue())
        app.writestr("BOOT-INF/lib/spring-core-7.0.jar", b"not a threadmodel jar")
        if properties is not None:
            app.writestr(sac.APPLICATION_PROPERTIES, properties)
    return jar


def measurement(round_, variant, value, metric=vp.step_metric(2700), server="tomcat", phase="virtual", boot="4", note=""):
    return {"round": round_, "boot": boot, "server": server, "variant": variant, "phase": phase, "metric": metric.key,
            "label": metric.label, "unit": metric.unit, "higher_is_better": metric.higher_is_better, "value": value,
            "note": note}


class PlainExclusions(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())

    def test_the_applications_own_exclusions_are_kept_before_the_starters(self):
        self.assertEqual(sac.plain_exclusions(app_jar(self.dir)),
                         ["a.Redis", "b.RedisReactive", "io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration",
                          "io.github.threadmodel.boot4.ThreadModelWebServerAutoConfiguration"])

    def test_an_application_without_properties_excludes_only_the_starter(self):
        self.assertEqual(len(sac.plain_exclusions(app_jar(self.dir, properties=None))), 2)

    def test_plain_exposes_the_applications_endpoints_without_the_starters(self):
        self.assertEqual(sac.plain_exposure(app_jar(self.dir)), ["health", "prometheus"])
        self.assertEqual(sac.plain_exposure(app_jar(self.dir, properties="other=1\n")), ["health"])
        self.assertEqual(sac.plain_exposure(app_jar(self.dir, properties=None)), ["health"])

    def test_properties_join_continued_lines_and_skip_comments(self):
        self.assertEqual(sac.properties("# x=1\n! y=2\na = 1\nb: two\nc=x,\\\n   y\n"), {"a": "1", "b": "two", "c": "x,y"})

    def test_plain_runs_without_the_starter_on_the_same_threads(self):
        jar = app_jar(self.dir)
        self.assertEqual(vp.variant_args("starter", "virtual", jar), ["--app.threads.model=virtual"])
        plain = vp.variant_args("plain", "virtual", jar)
        self.assertIn("--spring.threads.virtual.enabled=true", plain)
        self.assertIn("--management.endpoints.web.exposure.include=health,prometheus", plain)
        self.assertIn("--spring.autoconfigure.exclude=a.Redis,b.RedisReactive,io.github", "\n".join(plain))
        self.assertIn("--spring.threads.virtual.enabled=false", vp.variant_args("plain", "platform", jar))


class Plan(unittest.TestCase):
    def test_rounds_interleave_servers_and_alternate_who_goes_first(self):
        targets = [vp.Target("4", "tomcat"), vp.Target("4", "netty")]
        order = [(r, t.server, v) for r, t, v in vp.plan(targets, 2)]
        self.assertEqual(order, [(1, "tomcat", "starter"), (1, "tomcat", "plain"), (1, "netty", "starter"),
                                 (1, "netty", "plain"), (2, "tomcat", "plain"), (2, "tomcat", "starter"),
                                 (2, "netty", "plain"), (2, "netty", "starter")])

    def test_every_server_of_each_line_and_undertow_only_on_3_5(self):
        a = vp.parse_args([])
        self.assertEqual([t.label for t in a.targets], ["Boot 4 tomcat", "Boot 4 jetty", "Boot 4 netty",
                                                        "Boot 3.5 tomcat", "Boot 3.5 jetty", "Boot 3.5 undertow",
                                                        "Boot 3.5 netty"])
        self.assertEqual(vp.Target("3", "netty").jar.parts[-3:], ("target", "boot3", "sample-reactive.jar"))
        with self.assertRaises(SystemExit):
            vp.parse_args(["--boots", "4", "--servers", "undertow"])

    def test_a_run_may_leave_out_starts_and_is_shorter_for_it(self):
        every = vp.parse_args([])
        ping_only = vp.parse_args(["--phases", "virtual,platform", "--steps", ""])
        self.assertEqual(every.phases, ["virtual", "virtual-256m", "platform"])
        self.assertEqual(ping_only.steps, [])
        self.assertLess(vp.estimate_minutes(ping_only, ping_only.targets), vp.estimate_minutes(every, every.targets))
        with self.assertRaises(SystemExit):
            vp.parse_args(["--phases", "virtual,ping"])
        with self.assertRaises(SystemExit):
            vp.parse_args(["--phases", ""])


class Aggregate(unittest.TestCase):
    def test_medians_ratio_of_medians_and_range_of_per_round_ratios(self):
        ms = [measurement(1, "starter", 2.0), measurement(1, "plain", 2.0), measurement(2, "starter", 1.8),
              measurement(2, "plain", 2.4), measurement(3, "starter", 3.0), measurement(3, "plain", 2.2)]
        [row] = vp.aggregate(ms)
        self.assertEqual((row["starter"], row["plain"]), (2.0, 2.2))
        self.assertAlmostEqual(row["ratio"], 2.0 / 2.2)
        self.assertAlmostEqual(row["ratio_min"], 0.75)
        self.assertAlmostEqual(row["ratio_max"], 3.0 / 2.2)
        self.assertEqual(row["verdict"], "meets")

    def test_ping_has_warmed_up_once_its_rate_stops_climbing_twice_in_a_row(self):
        self.assertFalse(vp.settled([], 0.05))
        self.assertFalse(vp.settled([9000, 9000], 0.05))
        self.assertFalse(vp.settled([2276, 4890, 8477], 0.05))
        self.assertFalse(vp.settled([2276, 4890, 8477, 12233, 12484], 0.05), "one flat window after a climb")
        self.assertTrue(vp.settled([2276, 4890, 8477, 12233, 12484, 12400], 0.05))
        self.assertFalse(vp.settled([11777, 15259, 15501, 18168], 0.05), "flat once, then climbing again")
        self.assertTrue(vp.settled([14000, 13404, 12749], 0.05), "windows below the one before are noise, not warm-up")
        self.assertFalse(vp.settled([12000, 12100, 13000], 0.05))
        self.assertFalse(vp.settled([0, 0, 0], 0.05), "a window without answers says nothing")

    def test_worse_only_beyond_the_noise_in_every_round(self):
        worse = [measurement(r, v, x) for r, (s, p) in enumerate([(1.10, 1.0), (1.06, 1.0)], 1)
                 for v, x in (("starter", s), ("plain", p))]
        self.assertEqual(vp.aggregate(worse)[0]["verdict"], "worse")
        one_round_better = [measurement(r, v, x) for r, (s, p) in enumerate([(1.20, 1.0), (0.95, 1.0), (1.1, 1.0)], 1)
                            for v, x in (("starter", s), ("plain", p))]
        self.assertEqual(vp.aggregate(one_round_better)[0]["verdict"], "noise")
        slightly = [measurement(1, "starter", 1.02), measurement(1, "plain", 1.0)]
        self.assertEqual(vp.aggregate(slightly)[0]["verdict"], "noise")

    def test_requests_per_second_are_better_higher(self):
        ping = vp.ping_metric(16)
        more = [measurement(1, "starter", 1100.0, ping), measurement(1, "plain", 1000.0, ping)]
        self.assertEqual(vp.aggregate(more)[0]["verdict"], "meets")
        fewer = [measurement(1, "starter", 900.0, ping), measurement(1, "plain", 1000.0, ping)]
        self.assertEqual(vp.aggregate(fewer)[0]["verdict"], "worse")

    def test_a_variant_that_did_not_answer_is_named_with_its_note(self):
        ms = [measurement(1, "starter", 4.9), measurement(1, "plain", None, note="25 of 2700 answered")]
        [row] = vp.aggregate(ms)
        self.assertEqual(row["verdict"], "plain failed")
        self.assertEqual(row["notes"]["plain"], ["round 1: 25 of 2700 answered"])
        self.assertIsNone(row["ratio"])
        md = vp.markdown([row], [], {})
        self.assertIn("| 4 | tomcat | virtual | 2700 at once, average (s) | 4.90 | — | — | — | plain failed |", md)
        self.assertIn("Not answered in full:\n\n- 4 tomcat virtual, 2700 at once, average: plain, round 1: "
                      "25 of 2700 answered", md)

    def test_servlet_servers_against_the_webflux_floor_of_their_line(self):
        ms = [measurement(1, v, x) for v, x in (("starter", 1.66), ("plain", 2.0))]
        ms += [measurement(1, v, x, server="netty") for v, x in (("starter", 1.62), ("plain", 1.60))]
        ms += [measurement(1, v, 1.0, server="jetty", boot="3") for v in vp.VARIANTS]  # no floor on 3.5 in this run
        floors = vp.floor_rows(vp.aggregate(ms))
        self.assertEqual([(f["server"], f["variant"], f["verdict"]) for f in floors],
                         [("tomcat", "starter", "meets"), ("tomcat", "plain", "above")])
        self.assertAlmostEqual(floors[0]["ratio"], 1.66 / 1.60)


class Tables(unittest.TestCase):
    def test_markdown_csv_and_html_carry_every_row(self):
        ms = [measurement(1, "starter", 1.9), measurement(1, "plain", 2.0),
              measurement(1, "starter", 250.0, vp.PEAK_RSS, phase="virtual-256m"),
              measurement(1, "plain", 240.0, vp.PEAK_RSS, phase="virtual-256m")]
        rows = vp.aggregate(ms)
        md = vp.markdown(rows, [], {"machine": "2 cores", "rounds": 1})
        self.assertIn("| 4 | tomcat | virtual | 2700 at once, average (s) | 1.90 | 2.00 | **0.95** | 0.95–0.95 | meets |", md)
        self.assertIn("| 4 | tomcat | virtual, 256 MB heap | peak RSS (MB) | 250 | 240 | **1.04** |", md)
        csv_text = vp.to_csv(rows, vp.RESULT_COLUMNS)
        self.assertEqual(csv_text.splitlines()[0], ",".join(vp.RESULT_COLUMNS))
        self.assertEqual(len(csv_text.splitlines()), 3)
        page = vp.html(rows, [], {"timestamp": "t", "command": "load/versus_plain.py"})
        self.assertIn('id="ratio-virtual"', page)
        self.assertIn('id="ratio-virtual-256m"', page)
        self.assertIn("<td><b>0.95</b></td>", page)


class Pinned(unittest.TestCase):
    def test_the_server_gets_the_upper_cpus_and_k6_the_lower(self):
        two = vp.toolkit.Pinning.split([0, 1])
        self.assertEqual((two.server, two.client), ((1,), (0,)))
        self.assertEqual(two.jvm_options(), ["-XX:ActiveProcessorCount=1"])
        four = vp.toolkit.Pinning.split([3, 0, 2, 1])
        self.assertEqual((four.server, four.client), ((2, 3), (0, 1)))
        self.assertIn("CPU 2-3 (-XX:ActiveProcessorCount=2; its JIT compiler threads on every CPU), k6 to CPU 0-1",
                      four.describe())
        self.assertIsNone(vp.toolkit.Pinning.split([0]))

    def test_runs_are_pinned_unless_told_not_to(self):
        with mock.patch.object(vp.toolkit.os, "sched_getaffinity", return_value={0, 1}):
            self.assertEqual(vp.parse_args(["--boots", "4"]).pinning.server, (1,))
            self.assertIsNone(vp.parse_args(["--boots", "4", "--no-pin"]).pinning)

    def test_the_results_say_how_the_cpus_were_shared(self):
        rows = vp.aggregate([measurement(1, "starter", 1.9), measurement(1, "plain", 2.0)])
        pinned = vp.toolkit.Pinning.split([0, 1]).describe()
        self.assertIn("the server pinned to CPU 1 (-XX:ActiveProcessorCount=1; its JIT compiler threads on every CPU), "
                      "k6 to CPU 0.",
                      vp.markdown(rows, [], {"pinning": pinned}))
        self.assertIn("sharing every CPU (not pinned)", vp.markdown(rows, [], {}))

    def test_the_servers_cpu_per_request_is_its_cpu_time_over_the_requests_answered(self):
        self.assertAlmostEqual(vp.cpu_per_request_us(10.0, 12.5, 25000), 100.0)
        self.assertIsNone(vp.cpu_per_request_us(None, 12.5, 25000))
        self.assertIsNone(vp.cpu_per_request_us(10.0, 12.5, 0))
        metric = vp.ping_cpu_metric(16)
        self.assertFalse(metric.higher_is_better)
        self.assertEqual(vp._value(101.26, metric.unit), "101.3")

    def test_a_process_cpu_time_is_read_from_proc(self):
        used = vp.toolkit.process_cpu_seconds(vp.os.getpid())
        for _ in range(200):  # CPU time of this process, until a clock tick shows it (at most a few seconds)
            sum(i * i for i in range(100_000))
            if vp.toolkit.process_cpu_seconds(vp.os.getpid()) > used:
                break
        self.assertGreater(vp.toolkit.process_cpu_seconds(vp.os.getpid()), used)
        self.assertIsNone(vp.toolkit.process_cpu_seconds(2 ** 22 + 12345))

    def test_each_warm_up_window_is_written_with_its_rate_and_cpu(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "warmup-16-windows.csv"
            vp.write_windows(path, [(8100.5, 82.25), (9000.0, None)])
            self.assertEqual(path.read_text().splitlines(),
                             ["window,requests_per_s,cpu_us_per_request", "1,8100.5000,82.2500", "2,9000.0000,"])

    def test_cpu_lists_are_written_as_taskset_writes_them(self):
        self.assertEqual(vp.toolkit.cpu_list([5, 0, 1, 2]), "0-2,5")


class Baseline(unittest.TestCase):
    """--baseline ROOT: the starter against the same sample jars built in another checkout."""
    META = {"timestamp": "t", "command": "load/versus_plain.py --baseline /b", "versus": "baseline",
            "baseline": {"root": "/b", "rev": "5bde15e"}, "starter_rev": "a7983e7"}

    def test_the_baseline_runs_its_own_jar_exactly_as_the_starter_runs(self):
        a = vp.parse_args(["--boots", "4", "--servers", "tomcat,netty", "--baseline", str(REPOSITORY)])
        self.assertEqual(a.variants, ("starter", "baseline"))
        self.assertEqual([(r, v) for r, _, v in vp.plan(a.targets, 2, a.variants)][:6],
                         [(1, "starter"), (1, "baseline"), (1, "starter"), (1, "baseline"), (2, "baseline"),
                          (2, "starter")])
        self.assertRegex(a.baseline_rev, "^[0-9a-f]{7,}$")
        jar = app_jar(Path(tempfile.mkdtemp()))
        for model in ("virtual", "platform"):
            self.assertEqual(vp.variant_args("baseline", model, jar), vp.variant_args("starter", model, jar))
        netty = vp.Target("4", "netty")
        self.assertEqual(vp.variant_jar(netty, "baseline", Path("/b")),
                         Path("/b/sample-reactive/target/sample-reactive.jar"))
        self.assertEqual(vp.variant_jar(netty, "starter", Path("/b")), netty.jar)
        self.assertEqual(vp.variant_jar(netty, "plain", None), netty.jar)

    def test_a_baseline_is_a_git_checkout_and_boot_4_only(self):
        with self.assertRaises(SystemExit):
            vp.parse_args(["--boots", "4", "--baseline", tempfile.mkdtemp()])
        with self.assertRaises(SystemExit):
            vp.parse_args(["--boots", "4,3", "--baseline", str(REPOSITORY)])

    def test_missing_baseline_jars_stop_the_run_with_the_command_that_builds_them(self):
        root = Path(tempfile.mkdtemp())
        a = SimpleNamespace(targets=[vp.Target("4", "tomcat"), vp.Target("4", "netty")], baseline=root)
        with self.assertRaises(SystemExit) as stopped:
            vp.check_jars(a)
        message = str(stopped.exception)
        self.assertIn(str(root / "sample-web/target/sample-web-tomcat.jar"), message)
        self.assertIn(f"cd {root} && ./mvnw -q -pl sample-web -am package -DskipTests -Ptomcat && "
                      "./mvnw -q -pl sample-reactive -am package -DskipTests", message)

    def test_the_outputs_say_baseline_and_leave_out_the_webflux_floor(self):
        ms = [measurement(1, v, x) for v, x in (("starter", 1.66), ("baseline", 1.70))]
        ms += [measurement(1, v, x, server="netty") for v, x in (("starter", 1.62), ("baseline", None))]
        out = Path(tempfile.mkdtemp())
        vp.write_results(out, ms, self.META)
        md = (out / "results.md").read_text()
        self.assertTrue(md.startswith("# The starter against its baseline build (5bde15e, /b), t\n"))
        self.assertIn("baseline: the same jars built in /b (5bde15e)", md)
        self.assertIn("| measure | starter | baseline | starter / baseline | per round | verdict |", md)
        self.assertIn("| 4 | tomcat | virtual | 2700 at once, average (s) | 1.66 | 1.70 | **0.98** | 0.98–0.98 | meets |",
                      md)
        self.assertIn("| 4 | netty | virtual | 2700 at once, average (s) | 1.62 | — | — | — | baseline failed |", md)
        self.assertNotIn("WebFlux floor", md)
        self.assertNotIn("| plain |", md)
        self.assertEqual((out / "results.csv").read_text().splitlines()[0], ",".join(vp.result_columns("baseline")))
        self.assertIn(",starter,baseline,ratio,", (out / "results.csv").read_text())
        self.assertIn(",baseline,virtual,steps-2700,", (out / "measurements.csv").read_text())
        page = (out / "report.html").read_text()
        self.assertIn("starter / baseline", page)
        self.assertIn("<h1>The starter against its baseline build (5bde15e, /b) t</h1>", page)

    def test_a_plain_run_keeps_its_words_and_its_floor(self):
        ms = [measurement(1, v, 1.6, server=s) for s in ("tomcat", "netty") for v in vp.VARIANTS]
        out = Path(tempfile.mkdtemp())
        vp.write_results(out, ms, {"timestamp": "t", "command": "c"})
        md = (out / "results.md").read_text()
        self.assertTrue(md.startswith("# The starter versus plain Spring Boot, t\n"))
        self.assertIn("| starter | plain | starter / plain |", md)
        self.assertIn("against the WebFlux floor", md)
        self.assertNotIn("baseline", md)


if __name__ == "__main__":
    unittest.main()
