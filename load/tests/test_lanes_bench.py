"""Unit tests of load/lanes_bench.py's arithmetic: what it reads from mix.js's summary, the medians over rounds and
the lane's target.

    python3 -m unittest discover -s load/tests -v
"""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import lanes_bench  # noqa: E402


def summary(io_p50, io_p99, cpu_count, failed=0, duration_s=10):
    return {"duration_s": duration_s, "k6": {"metrics": {
        "fast_response_time": {"values": {"med": io_p50, "p(99)": io_p99, "count": 500}},
        "cpu_response_time": {"values": {"count": cpu_count}},
        "errors": {"values": {"passes": failed, "fails": 900, "rate": 0.0}}}}}


def run(server, variant, round_, io_p99, not_200=0):
    return {"server": server, "variant": variant, "round": round_, "error": None, "io_p50_ms": io_p99 / 2,
            "io_p99_ms": io_p99, "cpu_per_s": 40.0, "not_200": not_200}


class Figures(unittest.TestCase):
    def test_reads_the_io_routes_latency_and_the_cpu_routes_rate(self):
        got = lanes_bench.figures(summary(120.0, 480.0, cpu_count=400, failed=3))
        self.assertEqual(got["io_p50_ms"], 120.0)
        self.assertEqual(got["io_p99_ms"], 480.0)
        self.assertEqual(got["cpu_per_s"], 40.0)
        self.assertEqual(got["not_200"], 3)


class Rows(unittest.TestCase):
    def test_medians_over_rounds_and_the_lanes_target(self):
        results = [run("tomcat", "virtual", r, p99) for r, p99 in enumerate([4000, 5000, 9000])]
        results += [run("tomcat", "lane", r, p99) for r, p99 in enumerate([300, 900, 200])]
        results.append({"server": "tomcat", "variant": "lane", "round": 4, "error": "did not start"})
        row = lanes_bench.rows(results, ["tomcat"])[0]
        self.assertEqual(row["variants"]["virtual"]["io_p99_ms"], 5000)
        self.assertEqual(row["variants"]["lane"]["io_p99_ms"], 300)
        self.assertEqual(row["variants"]["lane"]["rounds"], 3)
        self.assertAlmostEqual(row["lane_p99_ratio"], 0.06)
        self.assertTrue(row["target_met"])
        self.assertIn("tomcat: lane / all-virtual I/O p99 = 0.060 (target at most 0.2, every request 200): met",
                      lanes_bench.markdown([row]))

    def test_a_request_not_answered_200_misses_the_target(self):
        results = [run("jetty", "virtual", 1, 5000), run("jetty", "lane", 1, 100, not_200=1)]
        row = lanes_bench.rows(results, ["jetty"])[0]
        self.assertFalse(row["target_met"])
        self.assertIn("**not met**", lanes_bench.markdown([row]))

    def test_no_target_without_both_variants(self):
        row = lanes_bench.rows([run("tomcat", "platform", 1, 700)], ["tomcat"])[0]
        self.assertNotIn("target_met", row)



class HeavyPath(unittest.TestCase):
    def test_the_lane_variant_takes_the_routes_laned_twin(self):
        self.assertEqual(lanes_bench.heavy_path("cpu", "virtual"), "/cpu")
        self.assertEqual(lanes_bench.heavy_path("cpu", "lane"), "/lanes/cpu")
        self.assertEqual(lanes_bench.heavy_path("pinned", "platform"), "/pinned")
        self.assertEqual(lanes_bench.heavy_path("pinned", "lane"), "/lanes/pinned")

if __name__ == "__main__":
    unittest.main()
