#!/usr/bin/env bash
# A burst of N simultaneous new connections (no keep-alive) to /greetings (1 s) against sample-web on Tomcat with a
# small heap, with the starter's defaults in virtual mode (the adaptive limit), as plain Spring Boot virtual threads
# (spring.threads.virtual.enabled=true, the starter's auto-configurations excluded) and, on demand, with the starter
# and no limit (app.threads.virtual.admission=unlimited). Variants interleave, ROUNDS times; each start gets one
# warm-up burst, then the measured one. docs/overload.md#adaptive-admission has the figures.
#
#   load/heap-burst.sh                                   # N=2700, -XX:MaxRAM=1024m (a 256 MB heap), 3 rounds
#   N=3000 HEAP=-Xmx128m load/heap-burst.sh
#   VARIANTS="starter unlimited" ROUNDS=1 load/heap-burst.sh
#
# Per run: hey's figures, whether /actuator/health answered afterwards, OutOfMemoryError lines in the log, whether
# the JVM stopped within 30 s of SIGTERM (it is killed otherwise), peak RSS, and the endpoint's admission section.
# Uses hey (go install github.com/rakyll/hey@v0.1.5 when missing). Loopback only.
# Env: N (2700), HEAP (-XX:MaxRAM=1024m), ROUNDS (3), VARIANTS (starter plain), JAR
#      (sample-web/target/sample-web-tomcat.jar: ./mvnw -B -pl sample-web -am package -DskipTests), PORT (18438),
#      OUT (target/heap-burst-<time>), TIMEOUT (120: hey's per-request timeout, s), JAVA_HOME (used when it is a JDK
#      21+, else the newest JDK 21+ installed: load/toolkit.py java).
set -uo pipefail
cd "$(dirname "$0")/.."
N=${N:-2700}
HEAP=${HEAP:--XX:MaxRAM=1024m}
ROUNDS=${ROUNDS:-3}
JAR=${JAR:-sample-web/target/sample-web-tomcat.jar}
PORT=${PORT:-18438}
TIMEOUT=${TIMEOUT:-120}
OUT=${OUT:-target/heap-burst-$(date +%Y%m%d-%H%M%S)}
JAVA=$(python3 load/toolkit.py java) || exit 1
HEY=$(command -v hey || echo "$(go env GOPATH 2>/dev/null)/bin/hey")
if [ ! -x "$HEY" ]; then
  echo "installing hey with go install..." >&2
  go install github.com/rakyll/hey@v0.1.5 >&2 || { echo "could not install hey" >&2; exit 1; }
  HEY=$(go env GOPATH)/bin/hey
fi
[ -f "$JAR" ] || { echo "no $JAR: build it first: ./mvnw -B -pl sample-web -am package -DskipTests" >&2; exit 1; }
mkdir -p "$OUT"
echo "N=$N, $HEAP, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), somaxconn $(cat /proc/sys/net/core/somaxconn), $(date -u +%FT%TZ)" | tee "$OUT/machine.txt"
echo "| round | variant | 200 | 503 | errors | total s | average s | slowest s | req/s | health after | OOM lines | stopped on SIGTERM | peak RSS MB | limit after |" | tee "$OUT/results.md"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" | tee -a "$OUT/results.md"
for round in $(seq 1 "$ROUNDS"); do
  for variant in ${VARIANTS:-starter plain}; do
    case $variant in
      starter) args=(--app.threads.model=virtual) ;;
      unlimited) args=(--app.threads.model=virtual --app.threads.virtual.admission=unlimited) ;;
      plain) args=(--spring.threads.virtual.enabled=true --spring.autoconfigure.exclude="$(python3 load/starter_auto_configurations.py "$JAR")") ;;
      *) echo "variant $variant: starter, unlimited or plain" >&2; exit 1 ;;
    esac
    run=$OUT/$round-$variant
    # shellcheck disable=SC2086
    "$JAVA" $HEAP -jar "$JAR" --server.port="$PORT" --server.address=127.0.0.1 \
      --management.endpoints.web.exposure.include=health,threadmodel "${args[@]}" > "$run.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/actuator/health" && break; sleep 1; done
    for burst in warmup measured; do
      timeout $((TIMEOUT + 30)) "$HEY" -n "$N" -c "$N" -disable-keepalive -t "$TIMEOUT" \
        "http://127.0.0.1:$PORT/greetings?name=hey" > "$run-$burst.txt" 2>&1
      sleep 2
    done
    health=$(curl -s -m 10 -o /dev/null -w "%{http_code}" "http://127.0.0.1:$PORT/actuator/health")
    curl -s -m 10 "http://127.0.0.1:$PORT/actuator/threadmodel" > "$run-threadmodel.json"
    rss=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null)
    kill "$pid"; stopped=no
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || { stopped=yes; break; }; sleep 1; done
    [ "$stopped" = yes ] || kill -9 "$pid"
    wait "$pid" 2>/dev/null
    python3 - "$run-measured.txt" "$run-threadmodel.json" "$round" "$variant" "$health" \
        "$(grep -c OutOfMemoryError "$run.log")" "$stopped" "${rss:-?}" <<'PY' | tee -a "$OUT/results.md"
import json, re, sys
text = open(sys.argv[1]).read()
def figure(name):
    m = re.search(name + r":\s+([0-9.]+)", text)
    return m.group(1) if m else "-"
codes = dict((c, int(n)) for c, n in re.findall(r"\[(\d{3})\]\s+(\d+) responses", text))
errors = sum(int(n) for n in re.findall(r"^\s+\[(\d+)\]\s+\w+", text.split("Error distribution:")[1], re.M)) \
    if "Error distribution:" in text else 0
try:
    limit = json.load(open(sys.argv[2]))["admission"]["limit"]
except Exception:
    limit = "-"
print(f"| {sys.argv[3]} | {sys.argv[4]} | {codes.get('200', 0)} | {codes.get('503', 0)} | {errors} | {figure('Total')} "
      f"| {figure('Average')} | {figure('Slowest')} | {figure('Requests/sec')} | {sys.argv[5]} | {sys.argv[6]} "
      f"| {sys.argv[7]} | {sys.argv[8]} | {limit} |")
PY
  done
done
echo "results in $OUT"
