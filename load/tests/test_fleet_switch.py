"""Unit tests of what load/fleet_switch.py writes and reads besides the running fleet: the configuration edit, the
EnvironmentChangeEvents in an instance's log, k6's per-instance counts; CI runs the check itself (docs/fleet.md).

    python3 -m unittest discover -s load/tests -v
"""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import fleet_switch  # noqa: E402


class SetProperty(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "sample-web.properties"

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_line_that_sets_the_key_is_replaced_and_the_rest_kept(self):
        self.path.write_text("# comment\napp.threads.model=platform\napp.threads.model.other=x\n")
        fleet_switch.set_property(self.path, "app.threads.model", "virtual")
        self.assertEqual(self.path.read_text(), "# comment\napp.threads.model=virtual\napp.threads.model.other=x\n")
        self.assertEqual([p.name for p in self.path.parent.iterdir()], [self.path.name])

    def test_a_missing_key_is_appended(self):
        self.path.write_text("a=b\n")
        fleet_switch.set_property(self.path, "app.threads.model", "virtual")
        self.assertEqual(self.path.read_text(), "a=b\napp.threads.model=virtual\n")


class Events(unittest.TestCase):
    def test_only_refreshes_that_name_the_property_count(self):
        log = ("... o.s.cloud.bus.event.RefreshListener : Keys refreshed [app.threads.model]\n"
               "... o.s.cloud.bus.event.RefreshListener : Keys refreshed []\n"
               "... o.s.cloud.bus.event.RefreshListener : Keys refreshed [a.b, app.threads.model, c]\n"
               "... o.s.cloud.bus.event.RefreshListener : Keys refreshed [app.threads.model.x]\n")
        self.assertEqual(fleet_switch.events(SimpleNamespace(log_text=lambda: log)), 2)


class InstanceCounts(unittest.TestCase):
    def test_each_instances_requests_and_failures_from_the_tagged_metrics(self):
        summary = {"k6": {"metrics": {
            "http_reqs{instance:0}": {"values": {"count": 10, "rate": 1.0}},
            "http_req_failed{instance:0}": {"values": {"rate": 0, "passes": 0, "fails": 10}},
            "http_reqs{instance:1}": {"values": {"count": 12, "rate": 1.2}},
            "http_req_failed{instance:1}": {"values": {"rate": 0.25, "passes": 3, "fails": 9}},
        }}}
        self.assertEqual(fleet_switch.instance_counts(summary, 3), [
            {"instance": 0, "requests": 10, "failed": 0},
            {"instance": 1, "requests": 12, "failed": 3},
            {"instance": 2, "requests": 0, "failed": 0},
        ])


if __name__ == "__main__":
    unittest.main()
