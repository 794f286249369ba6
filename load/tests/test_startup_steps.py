"""Unit tests of load/startup_steps.py: self times from /actuator/startup, the comparison of two variants, each
variant's arguments.

    python3 -m unittest discover -s load/tests -v
"""

import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import startup_steps as ss  # noqa: E402
from test_versus_plain import app_jar  # noqa: E402


def event(step_id, name, start, end, parent=None, **tags):
    return {"startupStep": {"id": step_id, "parentId": parent, "name": name,
                            "tags": [{"key": k, "value": v} for k, v in tags.items()]},
            "startTime": f"2026-11-26T04:00:{start:06.3f}Z", "endTime": f"2026-11-26T04:00:{end:06.3f}Z"}


class StartupStepsTests(unittest.TestCase):

    def test_self_time_is_the_duration_without_the_children(self):
        startup = {"timeline": {"events": [
            event(1, "spring.context.refresh", 1.0, 3.0),
            event(2, "spring.beans.instantiate", 1.0, 1.5, parent=1, beanName="a", beanType="x.A"),
            event(3, "spring.beans.instantiate", 1.1, 1.3, parent=2, beanName="b"),
            event(4, "spring.context.config-classes.parse", 2.0, 2.25, parent=1),
        ]}}
        times = ss.self_times(startup)
        self.assertAlmostEqual(times["spring.context.refresh"], 2.0 - 0.5 - 0.25)
        self.assertAlmostEqual(times["bean a"], 0.5 - 0.2)
        self.assertAlmostEqual(times["bean b"], 0.2)
        self.assertAlmostEqual(times["spring.context.config-classes.parse"], 0.25)

    def test_steps_are_named_alike_in_every_start(self):
        self.assertEqual(ss.step_key({"name": "spring.beans.instantiate",
                                      "tags": [{"key": "beanName", "value": "x"}, {"key": "beanType", "value": "T"}]}),
                         "bean x")
        self.assertEqual(ss.step_key({"name": "spring.boot.webserver.create",
                                      "tags": [{"key": "factory", "value": "F"}]}), "spring.boot.webserver.create factory=F")
        self.assertEqual(ss.step_key({"name": "spring.context.config-classes.parse",
                                      "tags": [{"key": "classCount", "value": "178"}]}),
                         "spring.context.config-classes.parse")
        self.assertEqual(ss.step_key({"name": "spring.context.beandef-registry.post-process",
                                      "tags": [{"key": "postProcessor", "value": "a.Processor@3569fc08"}]}),
                         "spring.context.beandef-registry.post-process postProcessor=a.Processor")

    def test_compare_separates_the_variants_own_steps_from_the_shared_ones(self):
        plain = [{"parse": 0.70, "bean a": 0.10}, {"parse": 0.80, "bean a": 0.12}, {"parse": 0.75, "bean a": 0.11}]
        starter = [{"parse": 0.80, "bean a": 0.11, "bean t": 0.03}, {"parse": 0.90, "bean a": 0.10, "bean t": 0.02},
                   {"parse": 0.85, "bean a": 0.12, "bean t": 0.04}]
        c = ss.compare(plain, starter, top=1)
        self.assertEqual([k for k, _ in c["only"]], ["bean t"])
        self.assertAlmostEqual(c["only_sum"], 0.03)
        self.assertEqual(len(c["shared"]), 1)
        key, base, other = c["shared"][0]
        self.assertEqual(key, "parse")
        self.assertAlmostEqual(other - base, 0.10)
        self.assertAlmostEqual(c["total"][0], 0.86)
        self.assertAlmostEqual(c["total"][1], 1.01)
        text = ss.summary_markdown("cmd", "machine", {"plain": [3.0, 3.2], "starter": [3.1, 3.3]}, "plain",
                                   {"starter": c})
        self.assertIn("| bean t | 30.0 |", text)
        self.assertIn("| parse | 750.0 | 850.0 | +100.0 |", text)

    def test_each_variant_exposes_the_startup_endpoint_besides_its_own(self):
        with tempfile.TemporaryDirectory() as d:
            jar = app_jar(Path(d))
            plain = ss.args_for("plain", "virtual", jar)
            starter = ss.args_for("starter", "virtual", jar)
            without = ss.args_for("starter-without:ThreadModelAutoConfiguration", "platform", jar)
            with self.assertRaises(SystemExit):
                ss.args_for("starter-without:NoSuchAutoConfiguration", "platform", jar)
            with self.assertRaises(SystemExit):
                ss.args_for("starters", "platform", jar)
        exposure = f"--{ss.EXPOSURE}="
        self.assertIn(exposure + "health,prometheus,startup", plain)
        self.assertIn("--spring.threads.virtual.enabled=true", plain)
        self.assertIn(exposure + "health,threadmodel,prometheus,startup", starter)
        self.assertIn("--app.threads.model=virtual", starter)
        self.assertIn("--spring.autoconfigure.exclude=a.Redis,b.RedisReactive,"
                      "io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration", without)
        self.assertEqual(sum(a.startswith(exposure) for a in without), 1)


if __name__ == "__main__":
    unittest.main()
