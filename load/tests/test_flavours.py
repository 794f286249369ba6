"""Unit tests of load/flavours.py: the commands of each flavour (no JVM started; CI's
`load/flavours.py check` starts real ones).

    python3 -m unittest discover -s load/tests -v
"""

import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flavours  # noqa: E402


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
