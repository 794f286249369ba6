#!/usr/bin/env python3
"""Prints, comma-separated, every auto-configuration that the starter's jars inside a Spring Boot jar declare.

"Plain Spring Boot" in the benchmarks is the same application jar with these excluded
(--spring.autoconfigure.exclude=...). Spring Boot refuses to exclude a class that is not an auto-configuration, so the
list is read from the jar rather than written in the scripts.

Usage: starter_auto_configurations.py APP_JAR
"""
import io
import sys
import zipfile

IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"


def starter_auto_configurations(app_jar):
    names = []
    with zipfile.ZipFile(app_jar) as app:
        for entry in app.namelist():
            if entry.startswith("BOOT-INF/lib/threadmodel-") and entry.endswith(".jar"):
                with zipfile.ZipFile(io.BytesIO(app.read(entry))) as lib:
                    if IMPORTS in lib.namelist():
                        names += [line.strip() for line in lib.read(IMPORTS).decode().splitlines()
                                  if line.strip() and not line.startswith("#")]
    return names


if __name__ == "__main__":
    print(",".join(starter_auto_configurations(sys.argv[1])))
