"""Unit tests of what the CI scripts around the load tools read from a running app (load/switch_under_load.py),
against a stand-in server; CI runs the scripts themselves against the samples.

    python3 -m unittest discover -s load/tests -v
"""

import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import switch_under_load  # noqa: E402
import toolkit  # noqa: E402
from test_toolkit import stand_in_command  # noqa: E402  (a stand-in for an application)


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


if __name__ == "__main__":
    unittest.main()
