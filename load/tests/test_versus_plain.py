"""Unit tests of load/versus_plain.py (plan, plain's arguments, medians, ratios, verdicts, tables, --baseline,
--alternate's ABBA windows, pairs and spreads) and of
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

    def test_each_step_starts_after_a_full_collection_unless_told_not_to(self):
        self.assertTrue(vp.parse_args([]).collect_before_steps)
        self.assertFalse(vp.parse_args(["--no-collect-before-steps"]).collect_before_steps)
        with_it = vp.markdown([], [], {"machine": "2 cores", "rounds": 1, "collect_before_steps": True})
        without = vp.markdown([], [], {"machine": "2 cores", "rounds": 1, "collect_before_steps": False})
        self.assertIn("A full collection (`jcmd GC.run`) before each step.", with_it)
        self.assertNotIn("jcmd GC.run", without)


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


def window(i, variant, rate, cpu, round_=1, clients=50):
    return {"round": round_, "boot": "4", "server": "tomcat", "phase": "virtual", "clients": clients, "window": i,
            "pair": vp.pair_of(i), "variant": variant, "at_s": 7.0 * (i - 1), "requests_per_s": rate,
            "cpu_us_per_request": cpu, "idle_cpu_ms": 3.0, "k6_exit": 0, "error_rate": 0.0}


def abba_windows(figures, round_=1, first="starter", second="baseline"):
    """Windows in ABBA order from [(first's rate, cpu), (second's rate, cpu)] per pair."""
    out = []
    for i, variant in enumerate(vp.abba(len(figures), first, second), 1):
        out.append(window(i, variant, *figures[vp.pair_of(i) - 1][0 if variant == first else 1], round_=round_))
    return out


class Alternating(unittest.TestCase):
    """--alternate: both variants alive at once, /ping in windows in ABBA order, starter / the other per pair."""
    VARIANTS = ("starter", "baseline")

    def test_windows_go_abba_so_that_neither_variant_always_comes_second(self):
        self.assertEqual(vp.abba(4, "A", "B"), list("ABBAABBA"))
        self.assertEqual(vp.abba(3, "baseline", "starter"),
                         ["baseline", "starter", "starter", "baseline", "baseline", "starter"])
        self.assertEqual(vp.abba(1, "A", "B"), ["A", "B"])
        order = vp.abba(20, "A", "B")
        self.assertEqual((order.count("A"), order.count("B")), (20, 20))
        mean_position = {v: sum(i for i, w in enumerate(order) if w == v) / 20 for v in "AB"}
        self.assertEqual(mean_position["A"], mean_position["B"], "a steady drift touches both alike")

    def test_together_every_window_loads_both_and_is_a_pair_of_its_own(self):
        self.assertEqual(vp.schedule(3, "A", "B", together=True), [(1, ("A", "B")), (2, ("A", "B")), (3, ("A", "B"))])
        self.assertEqual(vp.schedule(2, "A", "B", together=False),
                         [(1, ("A",)), (1, ("B",)), (2, ("B",)), (2, ("A",))])
        windows = [{"round": 1, "boot": "4", "server": "tomcat", "phase": "virtual", "clients": 50, "pair": pair,
                    "variant": v, "requests_per_s": 100.0, "cpu_us_per_request": cpu}
                   for pair, loaded in vp.schedule(2, "starter", "baseline", together=True)
                   for v, cpu in zip(loaded, (80.0, 100.0) if pair == 1 else (90.0, 90.0))]
        self.assertEqual([round(p["cpu"], 2) for p in vp.pair_ratios(windows, self.VARIANTS)], [0.8, 1.0])

    def test_together_implies_alternate_and_says_so(self):
        a = vp.parse_args(["--boots", "4", "--phases", "virtual", "--together", "--alternate-windows", "8",
                           "--alternate-seconds", "3"])
        self.assertTrue(a.alternate and a.together)
        self.assertIn("starter and plain at once, /ping in 8 windows of 3 s with both under load",
                      vp.describe_step(a, 1, vp.ALTERNATE))
        alternate = vp.parse_args(["--boots", "4", "--phases", "virtual", "--steps", "", "--alternate"])
        together = vp.parse_args(["--boots", "4", "--phases", "virtual", "--steps", "", "--together"])
        self.assertFalse(alternate.together)
        self.assertLess(vp.estimate_minutes(together, together.targets),
                        vp.estimate_minutes(alternate, alternate.targets), "one k6 run's time a window, not two")
        meta = {**Baseline.META, "alternate": {"windows": 2, "seconds": 5, "together": True}}
        out = Path(tempfile.mkdtemp())
        windows = [{"round": 1, "boot": "4", "server": "tomcat", "phase": "virtual", "clients": 50, "window": pair,
                    "pair": pair, "variant": v, "requests_per_s": 100.0, "cpu_us_per_request": 80.0}
                   for pair, loaded in vp.schedule(2, "starter", "baseline", together=True) for v in loaded]
        vp.write_results(out, [measurement(1, v, 100.0, vp.ping_metric(50)) for v in self.VARIANTS], meta, windows)
        md = (out / "results.md").read_text()
        self.assertIn("/ping with both under load at once (--together)", md)
        self.assertIn("2 windows of 5 s, each loading both by two k6 runs side by side", md)
        self.assertIn("starter / baseline per window (both under load at once)", md)
        self.assertNotIn("ABBA", md)

    def test_adjacent_windows_pair_up_one_of_each(self):
        self.assertEqual([vp.pair_of(i) for i in range(1, 9)], [1, 1, 2, 2, 3, 3, 4, 4])
        for pair in range(1, 5):
            self.assertEqual(sorted(v for i, v in enumerate(vp.abba(4, "A", "B"), 1) if vp.pair_of(i) == pair),
                             ["A", "B"])

    def test_each_pair_gives_the_starter_over_the_other_of_rate_and_cpu(self):
        windows = abba_windows([((10000.0, 80.0), (9000.0, 100.0)), ((11000.0, 90.0), (10000.0, 90.0))])
        self.assertEqual([w["variant"] for w in windows], ["starter", "baseline", "baseline", "starter"])
        pairs = vp.pair_ratios(windows, self.VARIANTS)
        self.assertEqual([p["pair"] for p in pairs], [1, 2])
        self.assertAlmostEqual(pairs[0]["rate"], 10000 / 9000)
        self.assertAlmostEqual(pairs[0]["cpu"], 0.8)
        self.assertAlmostEqual(pairs[1]["rate"], 1.1)
        self.assertAlmostEqual(pairs[1]["cpu"], 1.0)

    def test_a_pair_with_a_failed_window_has_no_ratio(self):
        windows = abba_windows([((10000.0, 80.0), (None, None)), ((10000.0, 80.0), (10000.0, 0.0))])
        self.assertEqual([(p["rate"], p["cpu"]) for p in vp.pair_ratios(windows, self.VARIANTS)],
                         [(None, None), (1.0, None)])
        half = abba_windows([((10000.0, 80.0), (9000.0, 90.0))])[:1]  # an interrupted pair
        self.assertEqual(vp.pair_ratios(half, self.VARIANTS), [{"pair": 1, "rate": None, "cpu": None}])

    def test_the_spread_is_the_median_the_quartiles_and_the_range(self):
        sp = vp.spread([1.04, 0.97, None, 1.00, 0.99, 1.02])
        self.assertEqual(sp["n"], 5)
        self.assertAlmostEqual(sp["median"], 1.00)
        self.assertAlmostEqual(sp["q1"], 0.99)
        self.assertAlmostEqual(sp["q3"], 1.02)
        self.assertEqual((sp["min"], sp["max"]), (0.97, 1.04))
        even = vp.spread([1.0, 2.0, 3.0, 4.0])
        self.assertEqual((even["median"], even["q1"], even["q3"]), (2.5, 1.75, 3.25))
        self.assertEqual(vp.spread([1.01]), {"n": 1, "median": 1.01, "q1": 1.01, "q3": 1.01, "min": 1.01, "max": 1.01})
        self.assertIsNone(vp.spread([None]))
        self.assertIsNone(vp.spread([]))

    def test_rows_per_round_and_over_every_round_with_the_rounds_medians(self):
        one = abba_windows([((100.0, 10.0), (100.0, 10.0)), ((102.0, 10.0), (100.0, 11.0)),
                            ((98.0, 9.0), (100.0, 10.0))])
        two = abba_windows([((100.0, 10.0), (104.0, 10.0))], round_=2, first="baseline", second="starter")
        rows = vp.alternate_rows(one + two, self.VARIANTS)
        self.assertEqual([r["round"] for r in rows], [1, 2, "all"])
        self.assertEqual([round(p["rate"], 2) for p in rows[0]["pairs"]], [1.0, 1.02, 0.98])
        self.assertAlmostEqual(rows[0]["rate"]["median"], 1.0)
        self.assertEqual([round(p["cpu"], 3) for p in rows[0]["pairs"]], [1.0, 0.909, 0.9])
        self.assertAlmostEqual(rows[0]["cpu"]["min"], 0.9)
        self.assertAlmostEqual(rows[1]["rate"]["median"], 1.04, msg="starter / baseline whichever went first")
        self.assertEqual(rows[2]["rate"]["n"], 4)
        self.assertAlmostEqual(rows[2]["rate"]["median"], 1.01)
        self.assertEqual((rows[2]["round_medians"]["rate"]["min"], rows[2]["round_medians"]["rate"]["max"]),
                         (1.0, 1.04))
        self.assertIsNone(rows[2]["pairs"])
        self.assertEqual(len(vp.alternate_rows(one, self.VARIANTS)), 1, "one round: no 'all' row")

    def test_each_client_count_is_a_row_of_its_own(self):
        windows = abba_windows([((100.0, 10.0), (100.0, 10.0))])
        windows += [dict(w, clients=200) for w in abba_windows([((90.0, 10.0), (100.0, 10.0))])]
        rows = vp.alternate_rows(windows, self.VARIANTS)
        self.assertEqual([(r["clients"], round(r["rate"]["median"], 2)) for r in rows], [(50, 1.0), (200, 0.9)])

    def test_a_variants_figure_is_the_median_of_its_windows(self):
        windows = abba_windows([((100.0, 10.0), (90.0, 12.0)), ((110.0, None), (80.0, 11.0)),
                                ((105.0, 30.0), (95.0, 13.0))])
        self.assertEqual(vp.window_median(windows, "starter", "requests_per_s"), 105.0)
        self.assertEqual(vp.window_median(windows, "starter", "cpu_us_per_request"), 20.0)
        self.assertEqual(vp.window_median(windows, "baseline", "cpu_us_per_request"), 12.0)

    def test_the_plan_adds_a_start_of_both_after_each_targets_own_starts(self):
        targets = [vp.Target("4", "tomcat"), vp.Target("4", "netty")]
        order = [(r, t.server, v) for r, t, v in vp.plan(targets, 2, self.VARIANTS, alternate=True)]
        self.assertEqual(order[:6], [(1, "tomcat", "starter"), (1, "tomcat", "baseline"), (1, "tomcat", "alternate"),
                                     (1, "netty", "starter"), (1, "netty", "baseline"), (1, "netty", "alternate")])
        self.assertEqual(order[6:9], [(2, "tomcat", "baseline"), (2, "tomcat", "starter"), (2, "tomcat", "alternate")])
        self.assertEqual(vp.plan(targets, 2, self.VARIANTS), vp.plan(targets, 2, self.VARIANTS, alternate=False))
        self.assertNotIn("alternate", [v for _, _, v in vp.plan(targets, 2, self.VARIANTS)])

    def test_the_options_and_what_they_refuse(self):
        a = vp.parse_args(["--boots", "4", "--phases", "virtual", "--alternate", "--alternate-windows", "8",
                           "--alternate-seconds", "3"])
        self.assertEqual((a.alternate, a.alternate_windows, a.alternate_seconds), (True, 8, 3))
        self.assertIn("starter and plain at once, /ping in 8 x 2 alternating windows of 3 s (ABBA...)",
                      vp.describe_step(a, 1, vp.ALTERNATE))
        self.assertIn("plain and starter at once", vp.describe_step(a, 2, vp.ALTERNATE))
        self.assertFalse(vp.parse_args(["--boots", "4"]).alternate)
        with self.assertRaises(SystemExit):
            vp.parse_args(["--boots", "4", "--phases", "virtual-256m", "--alternate"])  # no /ping in that start
        with self.assertRaises(SystemExit):
            vp.parse_args(["--boots", "4", "--alternate", "--alternate-windows", "1"])
        alone = vp.parse_args(["--boots", "4", "--servers", "tomcat", "--phases", "virtual", "--steps", ""])
        both = vp.parse_args(["--boots", "4", "--servers", "tomcat", "--phases", "virtual", "--steps", "",
                              "--alternate"])
        self.assertGreater(vp.estimate_minutes(both, both.targets), vp.estimate_minutes(alone, alone.targets))

    def test_the_results_say_the_method_and_give_every_pair(self):
        meta = {**Baseline.META, "pinning": vp.toolkit.Pinning.split([0, 1]).describe(),
                "alternate": {"windows": 2, "seconds": 5}}
        ping, cpu = vp.ping_metric(50), vp.ping_cpu_metric(50)
        ms = [measurement(1, "starter", 10500.0, ping), measurement(1, "baseline", 10000.0, ping),
              measurement(1, "starter", 80.0, cpu), measurement(1, "baseline", 80.0, cpu)]
        windows = abba_windows([((10200.0, 80.0), (10000.0, 80.0)), ((10000.0, 84.0), (10000.0, 80.0))])
        out = Path(tempfile.mkdtemp())
        vp.write_results(out, ms, meta, windows)
        md = (out / "results.md").read_text()
        self.assertIn("/ping in alternating windows (--alternate): per round, both variants started at once", md)
        self.assertIn("both on the server CPUs above", md)
        self.assertIn("the server pinned to CPU 1", md)
        self.assertIn("2 windows of 5 s of each, 4 in all, in ABBA order", md)
        self.assertIn("### Alternating windows", md)
        self.assertIn("| 4 | tomcat | virtual | 50 | 1 | 2 | **1.010** | 1.005–1.015 | 1.000–1.020 "
                      "| **1.025** | 1.012–1.038 | 1.000–1.050 |", md)
        self.assertIn("- 4 tomcat virtual, 50 clients, round 1: req/s 1.020 1.000; CPU per request 1.000 1.050", md)
        self.assertIn("| 4 | tomcat | virtual | /ping, 50 clients keep-alive (req/s) | 10500 | 10000 | **1.01** "
                      "| 1.01–1.01 | meets |", md)  # the pairs' median, not 10500 / 10000
        self.assertIn("starter / baseline is the median of the ratios of every pair of adjacent windows", md)
        lines = (out / "alternating.csv").read_text().splitlines()
        self.assertEqual(lines[0], ",".join(vp.ALTERNATE_COLUMNS))
        self.assertEqual(lines[1], "1,4,tomcat,virtual,50,1,1,starter,0.0000,10200.0000,80.0000,3.0000,0,0.0000")
        self.assertEqual(len(lines), 5)
        self.assertIn("<h3>Alternating windows</h3>", (out / "report.html").read_text())

    def test_the_main_tables_ping_ratio_is_the_pairs_median_and_its_rounds_range(self):
        ping, cpu = vp.ping_metric(50), vp.ping_cpu_metric(50)
        ms = [measurement(r, v, x, ping) for r, (s, b) in ((1, (6000.0, 6300.0)), (2, (6100.0, 6290.0)))
              for v, x in (("starter", s), ("baseline", b))]  # 0.95 and 0.97 of the medians: 'worse'
        ms += [measurement(r, v, 75.0, cpu) for r in (1, 2) for v in self.VARIANTS]
        one = abba_windows([((100.0, 10.0), (100.0, 10.0)), ((99.0, 10.0), (100.0, 10.0)),
                            ((101.0, 10.0), (100.0, 10.0))])
        # round 2: the baseline first, so each pair's first figures are the baseline's
        two = abba_windows([((100.0, 10.0), (98.0, 10.0)), ((100.0, 10.0), (100.0, 10.5))], round_=2,
                           first="baseline", second="starter")
        rows = vp.paired(vp.aggregate(ms, self.VARIANTS), vp.alternate_rows(one + two, self.VARIANTS))
        rate = next(r for r in rows if r["metric"] == "ping-50")
        self.assertAlmostEqual(rate["ratio"], 1.0)  # 1.00 0.99 1.01, then 0.98 1.00: their median
        self.assertAlmostEqual(rate["ratio_min"], 0.99)  # round 2's median
        self.assertAlmostEqual(rate["ratio_max"], 1.0)  # round 1's
        self.assertEqual(rate["rounds"], 2)
        self.assertEqual(rate["verdict"], "meets")
        unpaired = next(r for r in vp.aggregate(ms, self.VARIANTS) if r["metric"] == "ping-50")
        self.assertEqual(unpaired["verdict"], "worse")
        cpu_row = next(r for r in rows if r["metric"] == "ping-cpu-50")
        self.assertAlmostEqual(cpu_row["ratio"], 1.0)  # 1 1 1, then 1 1.05
        self.assertAlmostEqual(cpu_row["ratio_max"], 1.025)
        untouched = [measurement(1, v, 1.6) for v in self.VARIANTS]
        self.assertEqual(vp.paired(vp.aggregate(untouched, self.VARIANTS), vp.alternate_rows(one, self.VARIANTS)),
                         vp.aggregate(untouched, self.VARIANTS))

    def test_without_alternate_the_results_are_as_before(self):
        out = Path(tempfile.mkdtemp())
        vp.write_results(out, [measurement(1, v, 1.6) for v in vp.VARIANTS], {"timestamp": "t", "command": "c"})
        self.assertNotIn("lternating", (out / "results.md").read_text())
        self.assertFalse((out / "alternating.csv").exists())


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

    def test_baseline_args_are_added_to_the_baseline_only(self):
        a = vp.parse_args(["--boots", "4", "--servers", "netty", "--baseline", str(REPOSITORY),
                           "--baseline-args=--app.threads.pinning.enabled=false --debug"])
        self.assertEqual(a.baseline_args, ("--app.threads.pinning.enabled=false", "--debug"))
        jar = app_jar(Path(tempfile.mkdtemp()))
        self.assertEqual(vp.variant_args("baseline", "virtual", jar, a.baseline_args),
                         ["--app.threads.model=virtual", "--app.threads.pinning.enabled=false", "--debug"])
        self.assertEqual(vp.variant_args("starter", "virtual", jar, a.baseline_args), ["--app.threads.model=virtual"])
        meta = {**self.META, "baseline": {**self.META["baseline"], "args": list(a.baseline_args)}}
        self.assertIn("with --app.threads.pinning.enabled=false --debug", vp.title(meta))
        self.assertIn("the baseline with --app.threads.pinning.enabled=false --debug added", vp.markdown([], [], meta))
        with self.assertRaises(SystemExit, msg="plain has no starter to give arguments to"):
            vp.parse_args(["--boots", "4", "--baseline-args=--debug"])

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
