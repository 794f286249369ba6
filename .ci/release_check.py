#!/usr/bin/env python3
"""Checks the release build (docs/releasing.md) and makes the bundle for the Central Portal.

    .ci/release_check.py check                                    # CI: two clean builds, a throwaway key
    .ci/release_check.py bundle target/central-staging            # a release: zip what deploy staged

check: copies the working tree (tracked and untracked files, not the ignored ones such as target/) twice
into target/release-check/a and b, sets both to the release version (the pom's without -SNAPSHOT), then
- a: ./mvnw -Prelease -DskipTests deploy of the library modules, signed with a throwaway key made for the
  run (no passphrase, in a temporary GNUPGHOME), into a/target/central-staging (the release profile's
  deploy repository; nothing is installed into ~/.m2 and nothing is uploaded);
- b, at the same time: ./mvnw -Prelease -DskipTests -Dgpg.skip verify of the same modules;
- every jar of every library module (main, sources, javadoc, the core's tests) must be byte-identical in
  a and b (sha256), and each module must have its sources and javadoc jar;
- the bundle checks below on a's staging directory; the zip goes to target/release-check/central-bundle.zip.

bundle: checks a staging directory in the Maven layout and zips it for the Central Portal: the parent
pom and the four library modules, nothing else (no sample); a release version; each of the module's pom,
jar, -sources.jar and -javadoc.jar present (the pom alone for the parent) with its .asc, .md5 and .sha1;
the checksums right; every signature verified by gpg (the keyring of GNUPGHOME); every pom, with what it
inherits from the parent's, has the name, description, url, licenses, developers and scm Central requires.
maven-metadata.xml files stay out of the zip (the Portal makes its own).

Standard library only; needs gpg (Debian's gnupg). Exits non-zero on any failed check.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUP = "io.github.threadmodel"
PARENT = "threadmodel-parent"
LIBRARY = ["threadmodel-core", "threadmodel-spring-boot-autoconfigure", "threadmodel-spring-boot-starter",
           "threadmodel-spring-boot3-starter"]
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
# What Central requires of a pom, each found in the pom itself or in its parent's.
REQUIRED = ["name", "description", "url", "licenses/m:license/m:name", "developers/m:developer/m:name",
            "scm/m:url", "scm/m:connection"]
SIGNED_SUFFIXES = (".asc", ".md5", ".sha1", ".sha256", ".sha512")


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, ok, message):
        if not ok:
            self.messages.append(message)
            print("FAILED: " + message, flush=True)
        return ok


def pom_version(pom):
    return ET.parse(pom).getroot().findtext("m:version", namespaces=POM_NS)


def copy_tree(destination):
    """The working tree as a clean clone would have it, with the changes not yet committed."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for path in filter(None, listed):
        source = os.path.join(ROOT, path)
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(destination, path)), exist_ok=True)
            shutil.copy2(source, os.path.join(destination, path))


def set_version(tree, old, new):
    """What ./mvnw versions:set does to this project's poms (the parent's version and each module's
    reference to it), without the plugin's run."""
    for directory, _, files in os.walk(tree):
        if "pom.xml" in files and "target" not in os.path.relpath(directory, tree).split(os.sep):
            pom = os.path.join(directory, "pom.xml")
            with open(pom, encoding="utf-8") as f:
                text = f.read()
            with open(pom, "w", encoding="utf-8") as f:
                f.write(text.replace("<version>%s</version>" % old, "<version>%s</version>" % new))


def maven(tree, args, log, environment=None):
    """Starts ./mvnw on the library modules of tree; returns what finish() waits for."""
    out = open(log, "w")
    process = subprocess.Popen(["./mvnw", "-B", "-ntp", "-pl", ".," + ",".join(LIBRARY)] + args, cwd=tree,
                               stdout=out, stderr=subprocess.STDOUT, env=environment)
    return process, out, args, log, time.monotonic()


def finish(build):
    process, out, args, log, started = build
    code = process.wait()
    out.close()
    print("  ./mvnw %s: exit %d, %.0f s (log %s)" % (" ".join(args), code, time.monotonic() - started,
                                                    os.path.relpath(log, ROOT)), flush=True)
    if code != 0:
        with open(log) as f:
            sys.stdout.write("".join(f.readlines()[-40:]))
    return code == 0


def library_jars(tree):
    return {module: sorted(name for name in os.listdir(os.path.join(tree, module, "target")) if name.endswith(".jar"))
            for module in LIBRARY if os.path.isdir(os.path.join(tree, module, "target"))}


def compare_builds(a, b, version, failures, report):
    jars_a, jars_b = library_jars(a), library_jars(b)
    failures.check(jars_a == jars_b, "the two builds made different jars: %s / %s" % (jars_a, jars_b))
    lines = []
    for module in LIBRARY:
        names = jars_a.get(module, [])
        for kind in ("", "-sources", "-javadoc"):
            failures.check("%s-%s%s.jar" % (module, version, kind) in names, "no %s-%s%s.jar" % (module, version, kind))
        for name in names:
            first = digest(os.path.join(a, module, "target", name), "sha256")
            second_path = os.path.join(b, module, "target", name)
            second = digest(second_path, "sha256") if os.path.exists(second_path) else "missing"
            failures.check(first == second, "%s differs between the two builds" % name)
            lines.append("%s  %s  %s" % (first, "same" if first == second else "DIFFERS " + second, name))
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("%d jars, %d byte-identical in both builds" % (len(lines), sum(" same " in line for line in lines)))


def digest(path, algorithm):
    with open(path, "rb") as f:
        return hashlib.new(algorithm, f.read()).hexdigest()


def pom_field(root, path):
    found = root.find("m:" + path, POM_NS)
    return found.text.strip() if found is not None and found.text and found.text.strip() else None


def check_bundle(staging, version_expected, zip_path, failures, gnupghome=None):
    base = os.path.join(staging, *GROUP.split("."))
    if not failures.check(os.path.isdir(base), "no %s in %s" % (GROUP, staging)):
        return
    components = sorted(os.listdir(base))
    failures.check(components == sorted([PARENT] + LIBRARY),
                   "the bundle holds %s, not the parent and the library modules" % components)
    environment = dict(os.environ, **({"GNUPGHOME": gnupghome} if gnupghome else {}))
    poms = {}
    files = []
    for artifact in components:
        versions = [v for v in os.listdir(os.path.join(base, artifact)) if os.path.isdir(os.path.join(base, artifact, v))]
        if not failures.check(len(versions) == 1, "%s: versions %s" % (artifact, versions)):
            continue
        version = versions[0]
        failures.check(not version.endswith("-SNAPSHOT"), "%s: a SNAPSHOT version, %s" % (artifact, version))
        if version_expected:
            failures.check(version == version_expected, "%s: version %s, not %s" % (artifact, version, version_expected))
        directory = os.path.join(base, artifact, version)
        present = set(name for name in os.listdir(directory) if not name.startswith("maven-metadata"))
        prefix = "%s-%s" % (artifact, version)
        pom = os.path.join(directory, prefix + ".pom")
        if not failures.check(prefix + ".pom" in present, "%s: no %s.pom" % (artifact, prefix)):
            continue
        poms[artifact] = ET.parse(pom).getroot()
        packaging = pom_field(poms[artifact], "packaging") or "jar"
        required = [prefix + ".pom"] + ([] if packaging == "pom" else
                                        [prefix + ".jar", prefix + "-sources.jar", prefix + "-javadoc.jar"])
        for name in required:
            failures.check(name in present, "%s: no %s" % (artifact, name))
        for name in sorted(present):
            if name.endswith(SIGNED_SUFFIXES):
                continue
            path = os.path.join(directory, name)
            for algorithm in ("md5", "sha1"):
                if failures.check(name + "." + algorithm in present, "%s: no %s.%s" % (artifact, name, algorithm)):
                    with open(path + "." + algorithm) as f:
                        failures.check(f.read().split()[0] == digest(path, algorithm),
                                       "%s.%s does not match the file" % (name, algorithm))
            if failures.check(name + ".asc" in present, "%s: no %s.asc" % (artifact, name)):
                verified = subprocess.run(["gpg", "--batch", "--verify", path + ".asc", path], env=environment,
                                          capture_output=True, text=True)
                failures.check(verified.returncode == 0, "gpg --verify %s.asc: %s" % (name, verified.stderr.strip()))
        files += [os.path.join(directory, name) for name in present]
    parent = poms.get(PARENT)
    for artifact, root in poms.items():
        reference = root.find("m:parent", POM_NS)
        if reference is not None:
            failures.check(pom_field(reference, "artifactId") == PARENT and pom_field(reference, "groupId") == GROUP,
                           "%s: its parent is not %s" % (artifact, PARENT))
        for field in REQUIRED:
            value = pom_field(root, field) or (pom_field(parent, field) if parent is not None and artifact != PARENT
                                              and field not in ("name", "description") else None)
            failures.check(value is not None, "%s: no %s in its pom%s" % (
                artifact, field.replace("m:", ""), "" if artifact == PARENT else " nor its parent's"))
    if zip_path:
        os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as bundle:
            for path in sorted(files):
                bundle.write(path, os.path.relpath(path, staging))
        print("bundle %s: %d files (%d components)" % (os.path.relpath(zip_path, ROOT) if zip_path.startswith(ROOT)
                                                        else zip_path, len(files), len(components)))


def throwaway_key():
    home = tempfile.mkdtemp(prefix="gnupg-")
    os.chmod(home, 0o700)
    subprocess.run(["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key",
                    "threadmodel release check (throwaway) <release-check@threadmodel.invalid>", "ed25519", "sign", "1d"],
                   env=dict(os.environ, GNUPGHOME=home), check=True, capture_output=True)
    return home


def check(args):
    out = os.path.join(ROOT, "target", "release-check")
    shutil.rmtree(out, ignore_errors=True)
    a, b = os.path.join(out, "a"), os.path.join(out, "b")
    version = pom_version(os.path.join(ROOT, "pom.xml"))
    release = version[:-len("-SNAPSHOT")] if version.endswith("-SNAPSHOT") else version
    for tree in (a, b):
        copy_tree(tree)
        if release != version:
            set_version(tree, version, release)
    print("two copies of the tree at %s, version %s" % (os.path.relpath(out, ROOT), release), flush=True)
    failures = Failures()
    gnupghome = throwaway_key()
    try:
        # Side by side: each build is mostly one thread, and the machine has two cores.
        first = maven(a, ["-Prelease", "-DskipTests", "-Dmaven.install.skip=true", "deploy"], os.path.join(out, "a.log"),
                      dict(os.environ, GNUPGHOME=gnupghome))
        second = maven(b, ["-Prelease", "-DskipTests", "-Dgpg.skip", "verify"], os.path.join(out, "b.log"))
        built = finish(first) & finish(second)
        if failures.check(built, "a release build failed"):
            compare_builds(a, b, release, failures, os.path.join(out, "sha256.txt"))
            check_bundle(os.path.join(a, "target", "central-staging"), release, os.path.join(out, "central-bundle.zip"),
                         failures, gnupghome)
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=dict(os.environ, GNUPGHOME=gnupghome),
                       capture_output=True)
        shutil.rmtree(gnupghome, ignore_errors=True)
    return failures


def bundle(args):
    failures = Failures()
    staging = os.path.abspath(args.staging)
    check_bundle(staging, None, args.zip or os.path.join(os.path.dirname(staging), "central-bundle.zip"), failures)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="two clean release builds compared, the bundle checked (CI)")
    bundling = commands.add_parser("bundle", help="check a staging directory and zip it for the Central Portal")
    bundling.add_argument("staging", help="the directory the release profile deployed into (target/central-staging)")
    bundling.add_argument("--zip", help="the zip to write (default: central-bundle.zip beside the staging directory)")
    args = parser.parse_args()
    started = time.monotonic()
    failures = check(args) if args.command == "check" else bundle(args)
    if failures.messages:
        print("release check: %d failed (%.0f s)" % (len(failures.messages), time.monotonic() - started))
        return 1
    print("release check: all passed (%.0f s)" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
