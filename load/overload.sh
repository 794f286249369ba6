#!/usr/bin/env bash
# Overload protection, side by side: a burst of N simultaneous new connections (no keep-alive) to
# /greetings (1 s) against sample-web on Tomcat, with a limit of LIMIT requests (10x burst by default),
# once with the limit answering the excess 503 + Retry-After ("protected") and once with the same limit
# queueing without bound ("unprotected"), for each model. Records 200/503 counts, p50/p99 of each, the
# heap right after the burst (jcmd GC.heap_info, no GC forced) and the process's peak RSS (VmHWM).
#
#   load/overload.sh                       # LIMIT=40, N=400, ROUNDS=2
#   ROUNDS=1 VARIANTS="platform-protected platform-unprotected" load/overload.sh
#
# Variants (LIMIT split in half for the platform pool: threads + queue):
#   platform-protected    max-threads=LIMIT/2, queue-capacity=LIMIT/2
#   platform-unprotected  max-threads=LIMIT/2, queue unbounded
#   virtual-protected     max-concurrency=LIMIT, queue-timeout=200ms
#   virtual-unprotected   max-concurrency=LIMIT, no queue timeout
#   virtual-unlimited     no max-concurrency at all (not in the default list)
# Rounds interleave the variants. Env: N, LIMIT, ROUNDS, VARIANTS, PORT (18439), HEAP (-XX:MaxRAM=1024m, a
# 256 MB heap), OUT (target/overload-<time>), JAVA_HOME (used when it is a JDK 21+, else the newest
# JDK 21+ installed: load/toolkit.py java-home). Needs sample-web/target/sample-web-tomcat.jar and oha.
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-40}
N=${N:-$((LIMIT * 10))}
ROUNDS=${ROUNDS:-2}
PORT=${PORT:-18439}
HEAP=${HEAP:--XX:MaxRAM=1024m}
OUT=${OUT:-target/overload-$(date +%Y%m%d-%H%M%S)}
JAVA_HOME=$(python3 load/toolkit.py java-home) || exit 1
OHA=$(command -v oha || echo "$HOME/.cargo/bin/oha")
JAR=sample-web/target/sample-web-tomcat.jar
[ -f "$JAR" ] || { echo "no $JAR: build it first (README)" >&2; exit 1; }
[ -x "$OHA" ] || { echo "no oha: cargo install oha --locked" >&2; exit 1; }
mkdir -p "$OUT"
echo "N=$N LIMIT=$LIMIT ROUNDS=$ROUNDS HEAP=$HEAP, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/machine.txt"
echo "| variant | round | 200 | 503 | errors | 200 p50 ms | 200 p99 ms | 503 p50 ms | 503 p99 ms | total s | heap used after MB | peak RSS MB | peakRunning | peakQueued | rejected |" | tee -a "$OUT/results.md"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" | tee -a "$OUT/results.md"
args_of() {
  case "$1" in
    platform-protected) echo "--app.threads.model=platform --app.threads.platform.max-threads=$((LIMIT / 2)) --app.threads.platform.queue-capacity=$((LIMIT / 2))" ;;
    platform-unprotected) echo "--app.threads.model=platform --app.threads.platform.max-threads=$((LIMIT / 2))" ;;
    virtual-protected) echo "--app.threads.model=virtual --app.threads.virtual.max-concurrency=$LIMIT --app.threads.virtual.queue-timeout=200ms" ;;
    virtual-unprotected) echo "--app.threads.model=virtual --app.threads.virtual.max-concurrency=$LIMIT" ;;
    virtual-unlimited) echo "--app.threads.model=virtual" ;;
  esac
}
for round in $(seq 1 "$ROUNDS"); do
  for variant in ${VARIANTS:-platform-protected platform-unprotected virtual-protected virtual-unprotected}; do
    # shellcheck disable=SC2046
    "$JAVA_HOME/bin/java" $HEAP -jar "$JAR" --server.port="$PORT" --server.address=127.0.0.1 $(args_of "$variant") \
      > "$OUT/$variant-$round.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 1; done
    url="http://127.0.0.1:$PORT/greetings?name=oha"
    "$OHA" -n "$LIMIT" -c "$LIMIT" --no-tui --output-format quiet "$url" # warm-up, within the limit
    sleep 2
    timeout 180 "$OHA" -n "$N" -c "$N" --disable-keepalive --no-tui --stats-success-breakdown --output-format json \
      "$url" > "$OUT/$variant-$round.json" 2>/dev/null
    "$JAVA_HOME/bin/jcmd" "$pid" GC.heap_info > "$OUT/$variant-$round-heap.txt" 2>&1
    curl -s --max-time 10 "http://127.0.0.1:$PORT/actuator/threadmodel" > "$OUT/$variant-$round-threadmodel.json"
    grep VmHWM "/proc/$pid/status" > "$OUT/$variant-$round-rss.txt" 2>/dev/null
    # A JVM out of heap may not end on SIGTERM (its shutdown needs heap): give it 15 s, then SIGKILL.
    kill "$pid"
    for _ in $(seq 1 15); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    oom=$(grep -c OutOfMemoryError "$OUT/$variant-$round.log")
    python3 - "$OUT" "$variant" "$round" "$oom" <<'PY' | tee -a "$OUT/results.md"
import json, os, re, sys
out, variant, rnd, oom = sys.argv[1:]
try:
    r = json.load(open(f"{out}/{variant}-{rnd}.json"))
except ValueError:
    print(f"| {variant} | {rnd} | no result: oha timed out (OutOfMemoryError lines in the log: {oom}) |")
    sys.exit()
codes = r.get("statusCodeDistribution", {})
def pct(key, p):
    d = r.get(key) or {}
    v = d.get(f"p{p}")
    return f"{v * 1000:.0f}" if v is not None else "-"
heap = open(f"{out}/{variant}-{rnd}-heap.txt").read()
m = re.search(r"used (\d+)K", heap)
used = f"{int(m.group(1)) / 1024:.0f}" if m else "?"
rss = re.search(r"(\d+) kB", open(f"{out}/{variant}-{rnd}-rss.txt").read()) if os.path.exists(f"{out}/{variant}-{rnd}-rss.txt") else None
rss = f"{int(rss.group(1)) / 1024:.0f}" if rss else "?"
try:
    tm = json.load(open(f"{out}/{variant}-{rnd}-threadmodel.json"))["requests"]
except ValueError:
    tm = {"peakRunning": "?", "peakQueued": "?", "rejected": "?"}
print(f"| {variant} | {rnd} | {codes.get('200', 0)} | {codes.get('503', 0)} | {sum(r.get('errorDistribution', {}).values())} "
      f"| {pct('latencyPercentilesSuccessful', 50)} | {pct('latencyPercentilesSuccessful', 99)} "
      f"| {pct('latencyPercentilesNotSuccessful', 50)} | {pct('latencyPercentilesNotSuccessful', 99)} "
      f"| {r['summary']['total']:.2f} | {used} | {rss} | {tm['peakRunning']} | {tm['peakQueued']} | {tm['rejected']} |")
PY
  done
done
echo "results in $OUT"
