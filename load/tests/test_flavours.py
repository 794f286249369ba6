"""Unit tests of load/flavours.py: the commands of each flavour (no JVM started; CI's
`load/flavours.py check` starts real ones), and a check and a startup measurement of a stand-in server
(load/startup.py's).

    python3 -m unittest discover -s load/tests -v
"""

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import flavours  # noqa: E402
import startup  # noqa: E402
from test_toolkit import stand_in_command  # noqa: E402  (a stand-in for an application)


class Commands(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.jar = Path(self.tmp.name) / "target" / "app.jar"
        self.jar.parent.mkdir()
        self.jar.write_bytes(b"not really a jar")

    def tearDown(self):
        self.tmp.cleanup()

    def prepared(self, name, jvm_args=()):
        """Lays out what extraction and training leave, so that command() starts no JVM."""
        wd = flavours.workdir(self.jar)
        (wd / "app").mkdir(parents=True)
        (wd / "app" / "app.jar").write_bytes(b"")
        st = self.jar.stat()
        (wd / "extracted-from.json").write_text(json.dumps(
            {"jar": str(self.jar.resolve()), "mtime_ns": st.st_mtime_ns, "size": st.st_size}))
        archive = flavours.archive_path(self.jar, flavours.FLAVOURS[name], list(jvm_args))
        archive.write_bytes(b"")
        return wd / "app" / "app.jar", archive

    def test_jvm_and_aot_start_the_executable_jar(self):
        self.assertEqual(flavours.command("jvm", self.jar, "java"), ["java", "-jar", str(self.jar.resolve())])
        self.assertEqual(flavours.command("aot", self.jar, "java", ["-Xmx256m"]),
                         ["java", "-Xmx256m", "-Dspring.aot.enabled=true", "-jar", str(self.jar.resolve())])

    def test_cds_starts_the_extracted_jar_with_its_archive(self):
        app_jar, archive = self.prepared("cds")
        self.assertEqual(flavours.command("cds", self.jar, "java"),
                         ["java", f"-XX:SharedArchiveFile={archive}", "-jar", str(app_jar)])

    def test_cds_aot_has_its_own_archive_and_spring_aot(self):
        app_jar, archive = self.prepared("cds-aot")
        self.assertNotEqual(archive, flavours.archive_path(self.jar, flavours.FLAVOURS["cds"], []))
        self.assertEqual(flavours.command("cds-aot", self.jar, "java"),
                         ["java", f"-XX:SharedArchiveFile={archive}", "-Dspring.aot.enabled=true", "-jar", str(app_jar)])

    def test_an_archive_belongs_to_the_jvm_options_it_was_trained_with(self):
        cds = flavours.FLAVOURS["cds"]
        self.assertNotEqual(flavours.archive_path(self.jar, cds, []),
                            flavours.archive_path(self.jar, cds, ["-XX:MaxRAM=1024m"]))
        self.assertTrue(str(flavours.archive_path(self.jar, flavours.FLAVOURS["aotcache"], [])).endswith(".aot"))

    def test_native_without_an_image_says_how_to_build_it(self):
        with self.assertRaisesRegex(RuntimeError, "-Pnative.*GraalVM"):
            flavours.command("native", self.jar, "java")

    def test_a_missing_jar_says_how_to_build_it(self):
        with self.assertRaisesRegex(RuntimeError, "build the samples"):
            flavours.command("jvm", self.jar.with_name("other.jar"), "java")


class Reported(unittest.TestCase):
    def test_flavour_name_from_the_endpoint(self):
        self.assertEqual(flavours.flavour_name({"runtime": {"flavour": {"name": "aotcache"}}}), "aotcache")
        self.assertIsNone(flavours.flavour_name({}))


if __name__ == "__main__":
    unittest.main()


class Starts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.cmd = [*stand_in_command(self.dir), "--ready=0.3"]

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, cmd, expected):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            problem = flavours.check_one("stand-in", cmd, expected, self.dir, timeout=30)
        return problem, err.getvalue()

    def test_a_check_passes_when_greetings_answer_and_the_flavour_is_the_one_asked_for(self):
        problem, said = self.check([*self.cmd, "--flavour=cds"], "cds")
        self.assertIsNone(problem)
        self.assertIn("stand-in: /greetings 200 'ok', reports flavour cds, ready after 250 ms", said)
        self.assertTrue((self.dir / "stand-in.log").exists())

    def test_a_check_fails_on_another_flavour_or_an_exit(self):
        problem, _ = self.check(self.cmd, "cds")
        self.assertRegex(problem, "^stand-in: reports flavour jvm, expected cds")
        problem, _ = self.check([sys.executable, "-c", "import sys; sys.exit(5)"], "jvm")
        self.assertRegex(problem, "^stand-in: exited with 5 before open port")

    def test_startup_measures_one_start(self):
        row = startup.measure_once([*self.cmd, "--flavour=aot"], "platform", "aot", self.dir / "one.log", timeout=30)
        self.assertEqual(row["ready_ms"], 250)
        self.assertGreater(row["first_200_ms"], 0)
        self.assertGreaterEqual(row["first_200_ms"], row["first_req_ms"])
        self.assertGreater(row["peak_rss_mb"], 1)
        with self.assertRaisesRegex(RuntimeError, "asked flavour cds model platform, the app reports aot platform"):
            startup.measure_once([*self.cmd, "--flavour=aot"], "platform", "cds", self.dir / "two.log", timeout=30)
