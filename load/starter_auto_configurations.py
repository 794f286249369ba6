#!/usr/bin/env python3
"""Prints, comma-separated, what "plain Spring Boot" excludes from a Spring Boot jar that has the starter inside: every
auto-configuration the starter's jars declare, plus the application's own `spring.autoconfigure.exclude`.

"Plain Spring Boot" in the benchmarks is the same application jar run with --spring.autoconfigure.exclude=<this>.
Spring Boot refuses to exclude a class that is not an auto-configuration, so the starter's list is read from the jar
rather than written in the scripts; and a command-line exclude replaces the application's own list instead of adding
to it, so that list (sample-web's Redis exclusions, for one) is read from the jar's application.properties and kept.

plain_exposure() gives the actuator endpoints plain Spring Boot exposes: the application's own list without the
starter's endpoint, so that both variants serve the same endpoints (exposing Prometheus and info alone cost plain
Boot 4 Tomcat about 0.12 s of startup on 2 cores).

Usage: starter_auto_configurations.py APP_JAR
"""
import io
import sys
import zipfile

IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"
APPLICATION_PROPERTIES = "BOOT-INF/classes/application.properties"
EXCLUDE = "spring.autoconfigure.exclude"
EXPOSURE = "management.endpoints.web.exposure.include"
STARTER_ENDPOINTS = ("threadmodel",)


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


def properties(text):
    """A .properties text as a dict: comments skipped, backslash continuations joined (enough for Spring Boot's)."""
    out, pending = {}, ""
    for raw in text.splitlines():
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        pending = ""
        if not line or line[0] in "#!":
            continue
        cut = min((i for i in (line.find("="), line.find(":")) if i >= 0), default=len(line))
        out[line[:cut].strip()] = line[cut + 1:].strip()
    return out


def application_property(app_jar, name):
    """The value of a property in the jar's application.properties, or None."""
    with zipfile.ZipFile(app_jar) as app:
        if APPLICATION_PROPERTIES not in app.namelist():
            return None
        return properties(app.read(APPLICATION_PROPERTIES).decode()).get(name)


def application_exclusions(app_jar):
    value = application_property(app_jar, EXCLUDE) or ""
    return [name.strip() for name in value.split(",") if name.strip()]


def application_exposure(app_jar):
    """The application's exposed web endpoints; Spring Boot's default (health) when it sets none."""
    value = application_property(app_jar, EXPOSURE) or "health"
    return [e.strip() for e in value.split(",") if e.strip()]


def plain_exposure(app_jar):
    """The application's exposed web endpoints without the starter's."""
    return [e for e in application_exposure(app_jar) if e not in STARTER_ENDPOINTS]


def plain_exclusions(app_jar):
    return list(dict.fromkeys(application_exclusions(app_jar) + starter_auto_configurations(app_jar)))


def plain_virtual_arguments(app_jar):
    """The arguments that run the jar as plain Spring Boot on virtual threads: Spring Boot's own switch, the starter
    excluded."""
    return ["--spring.threads.virtual.enabled=true", f"--{EXCLUDE}={','.join(plain_exclusions(app_jar))}"]


if __name__ == "__main__":
    print(",".join(plain_exclusions(sys.argv[1])))
