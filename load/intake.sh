#!/usr/bin/env bash
# Connection intake, side by side: N simultaneous new connections (no keep-alive) to /greetings (1 s)
# against each sample, once with the starter in virtual mode and once with plain Spring Boot virtual
# threads (spring.threads.virtual.enabled=true, the starter's auto-configurations excluded).
#
#   load/intake.sh                        # N=2700, Tomcat, Jetty, Netty on Spring Boot 4 (target/*.jar)
#   BOOT=3 load/intake.sh                 # all four servers on Spring Boot 3.5 (target/boot3/*.jar, -Pboot3)
#   N=300 APPS="sample-web-tomcat" load/intake.sh
#
# Uses oha (https://crates.io/crates/oha), the tool of the published runs this answers, so the figures
# compare with theirs; it is installed with `cargo install oha --locked` when missing. Each
# configuration gets one warm-up run of the same size, then the measured one. Loopback only.
# Env: N (2700), BOOT (4, or 3 for the Boot 3.5 jars), APPS (sample-web-tomcat sample-web-jetty sample-reactive,
#      plus sample-web-undertow with BOOT=3: Undertow exists only on Boot 3.5), VARIANTS (starter plain),
#      PORT (18437), OUT (target/intake-<time>), JAVA_HOME (used when it is a JDK 21+, else the newest
#      JDK 21+ installed: load/toolkit.py java).
set -uo pipefail
cd "$(dirname "$0")/.."
N=${N:-2700}
BOOT=${BOOT:-4}
case "$BOOT" in
  4) JARDIR=target; BUILD="./mvnw -B -pl sample-web -am package -DskipTests -P<server> (docs/benchmarks.md)"
     DEFAULT_APPS="sample-web-tomcat sample-web-jetty sample-reactive" ;;
  3) JARDIR=target/boot3; BUILD="./mvnw -B -Pboot3 -pl sample-support,sample-web package -DskipTests -P<server> (docs/benchmarks.md)"
     DEFAULT_APPS="sample-web-tomcat sample-web-jetty sample-web-undertow sample-reactive" ;;
  *) echo "BOOT=$BOOT: 4 or 3 (Spring Boot 3.5)" >&2; exit 1 ;;
esac
case " ${APPS:-$DEFAULT_APPS} " in
  *" sample-web-undertow "*) [ "$BOOT" = 3 ] || { echo "sample-web-undertow: Undertow exists only on Spring Boot 3.5: run with BOOT=3" >&2; exit 1; } ;;
esac
PORT=${PORT:-18437}
OUT=${OUT:-target/intake-$(date +%Y%m%d-%H%M%S)}
JAVA=$(python3 load/toolkit.py java) || exit 1
OHA=$(command -v oha || echo "$HOME/.cargo/bin/oha")
if [ ! -x "$OHA" ]; then
  echo "installing oha with cargo (a few minutes)..." >&2
  cargo install oha --locked >&2 || { echo "could not install oha" >&2; exit 1; }
fi
mkdir -p "$OUT"
echo "N=$N, Spring Boot line $BOOT ($JARDIR), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), somaxconn $(cat /proc/sys/net/core/somaxconn)" | tee "$OUT/machine.txt"
for app in ${APPS:-$DEFAULT_APPS}; do
  jar=$(ls sample-*/"$JARDIR"/"$app".jar 2>/dev/null | head -1)
  [ -n "$jar" ] || { echo "no $JARDIR/$app.jar: build it first: $BUILD" >&2; exit 1; }
  for variant in ${VARIANTS:-starter plain}; do
    if [ "$variant" = starter ]; then args=(--app.threads.model=virtual)
    else args=(--spring.threads.virtual.enabled=true --spring.autoconfigure.exclude="$(python3 load/starter_auto_configurations.py "$jar")"); fi
    "$JAVA" -jar "$jar" --server.port="$PORT" --server.address=127.0.0.1 "${args[@]}" > "$OUT/$app-$variant.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 1; done
    url="http://127.0.0.1:$PORT/greetings?name=oha"
    for run in warmup measured; do
      timeout 120 "$OHA" -n "$N" -c "$N" --disable-keepalive --no-tui --output-format json "$url" > "$OUT/$app-$variant-$run.json" 2>/dev/null
      sleep 2
    done
    kill "$pid"; wait "$pid" 2>/dev/null
    python3 - "$OUT/$app-$variant-measured.json" "$app" "$variant" <<'PY' | tee -a "$OUT/results.md"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {s['successRate'] * 100:.1f} | {s['total']:.2f} | {s['slowest']:.2f} "
      f"| {s['fastest']:.2f} | {s['average']:.2f} | {s['requestsPerSec']:.1f} |")
PY
  done
done
echo "results in $OUT"
