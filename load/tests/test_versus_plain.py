"""Unit tests of load/versus_plain.py (plan, plain's arguments, medians, ratios, verdicts, tables) and of what plain
Spring Boot excludes (load/starter_auto_configurations.py).

    python3 -m unittest discover -s load/tests -v
"""

import io
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
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



if __name__ == "__main__":
    unittest.main()
