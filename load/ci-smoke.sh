#!/usr/bin/env bash
# CI smoke test of the load scripts, after the Maven build has produced the jars:
#   the runner's unit tests (load/tests), then
#   sample-web (Tomcat jar) in the platform model, the same in the virtual model, and sample-reactive,
#   each started on a free 127.0.0.1 port, then
#   - load/k6/ramp.js  scaled down (STAGE_SCALE, ~21 s) against /products/1, and
#   - load/k6/steps.js scaled down (steps 10,30; greetings delay 200ms) against /greetings.
# Fails (exit 1) when any k6 threshold fails, an app does not start, or an app reports another
# thread model than the one asked for. Always stops the apps it started.
#
#   load/ci-smoke.sh                      # from the repository root, jars in */target/
#   SMOKE_OUT=/tmp/smoke load/ci-smoke.sh # where logs and k6 summaries go (default target/load-smoke)
#
# Env: SMOKE_STAGE_SCALE (0.05), SMOKE_STEPS (10,30), SMOKE_GREETINGS_DELAY (200ms), SMOKE_OUT,
#      WEB_JAR, REACTIVE_JAR, JAVA_HOME (used when it is a JDK 21+, else the newest JDK 21+ installed),
#      K6 (a k6 binary to use instead of installing one). Java, k6 and free ports come from load/toolkit.py.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
T0=$(date +%s)

STAGE_SCALE=${SMOKE_STAGE_SCALE:-0.05}
STEPS=${SMOKE_STEPS:-10,30}
DELAY=${SMOKE_GREETINGS_DELAY:-200ms}
OUT=${SMOKE_OUT:-$ROOT/target/load-smoke}
WEB_JAR=${WEB_JAR:-$ROOT/sample-web/target/sample-web-tomcat.jar}
REACTIVE_JAR=${REACTIVE_JAR:-$ROOT/sample-reactive/target/sample-reactive.jar}
TOOLKIT=load/toolkit.py

log() { echo "[ci-smoke +$(( $(date +%s) - T0 ))s] $*"; }

# The runner's own unit tests first (about ten seconds against stand-in servers, no JVM needed).
python3 -m unittest discover -s load/tests 2>&1 | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || { log "FAIL: load/tests unit tests"; exit 1; }

JAVA=$(python3 "$TOOLKIT" java) || { log "FAIL: no JDK 21 or newer"; exit 1; }
K6=$(python3 "$TOOLKIT" k6) || { log "FAIL: could not install k6"; exit 1; }
log "k6: $K6 ($("$K6" version | head -1))"

for jar in "$WEB_JAR" "$REACTIVE_JAR"; do
  build="./mvnw -B -ntp package -DskipTests"
  case "$jar" in */target/boot3/*) build="./mvnw -B -ntp -Pboot3 -pl sample-support,sample-web,sample-reactive package -DskipTests" ;; esac
  [ -f "$jar" ] || { log "FAIL: $jar is missing (build the samples first, e.g. $build)"; exit 1; }
done

rm -rf "$OUT" && mkdir -p "$OUT"
APP_PID=""
stop_app() {
  if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
    kill "$APP_PID" 2>/dev/null
    for _ in $(seq 1 40); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$APP_PID" 2>/dev/null
    wait "$APP_PID" 2>/dev/null
  fi
  APP_PID=""
}
trap 'stop_app' EXIT
trap 'stop_app; exit 130' INT TERM

# wait_ready URL MODEL PID: polls /actuator/threadmodel (at most 120 s, less if the app exits),
# checks the reported model.
wait_ready() {
  python3 - "$1" "$2" "$3" <<'EOF'
import json, sys, time, urllib.request
url, want, pid = sys.argv[1], sys.argv[2], sys.argv[3]

def alive():
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

deadline = time.time() + 120
while time.time() < deadline:
    if not alive():
        print("the app exited during startup")
        sys.exit(3)
    try:
        doc = json.load(urllib.request.urlopen(url, timeout=2))
    except Exception:
        time.sleep(0.3)
        continue
    ready = (doc.get("startup") or {}).get("applicationReadyMs")
    if ready is None and time.time() < deadline - 1:  # the endpoint answers a moment before "ready"
        time.sleep(0.3)
        continue
    flavour = (doc.get("runtime") or {}).get("flavour")
    flavour = flavour.get("name") if isinstance(flavour, dict) else flavour
    print(f"model={doc.get('model')} server={doc.get('server')} flavour={flavour} applicationReadyMs={ready}")
    sys.exit(0 if doc.get("model") == want else 2)
print("no answer within 120 s")
sys.exit(1)
EOF
}

# show_failure LOG: the distinct k6 errors (a script error repeats once per VU), then the summary.
show_failure() {
  grep 'level=error' "$1" | sed -E 's/^time="[^"]*" //' | sort | uniq -c | sort -rn | head -5
  sed -n '/^ *[✓✗] /p; /THRESHOLDS FAILED/p; /FAIL /p' "$1" | head -30
}

FAILED=()
# smoke NAME JAR MODEL
smoke() {
  local name=$1 jar=$2 model=$3 port dir rc info
  dir="$OUT/$name"; mkdir -p "$dir"
  port=$(python3 "$TOOLKIT" free-port)
  log "$name: starting $(basename "$jar") --app.threads.model=$model on 127.0.0.1:$port"
  "$JAVA" -XX:TieredStopAtLevel=1 -jar "$jar" --server.port="$port" --server.address=127.0.0.1 \
    --app.threads.model="$model" --sample.greetings.delay="$DELAY" >"$dir/app.log" 2>&1 &
  APP_PID=$!
  info=$(wait_ready "http://127.0.0.1:$port/actuator/threadmodel" "$model" "$APP_PID"); rc=$?
  log "$name: $info"
  if [ $rc -ne 0 ]; then
    log "FAIL $name: not ready or wrong model (see $dir/app.log)"
    grep -E "^(Caused by|[A-Za-z.]*(Exception|Error))" "$dir/app.log" | tail -3; tail -5 "$dir/app.log"
    FAILED+=("$name:start"); stop_app; return
  fi

  timeout 120 env BASE_URL="http://127.0.0.1:$port" STAGE_SCALE="$STAGE_SCALE" SUMMARY_DIR="$dir" \
    K6_NO_USAGE_REPORT=true "$K6" run --quiet --no-color load/k6/ramp.js >"$dir/ramp.log" 2>&1; rc=$?
  grep -E "THRESHOLDS FAILED|all thresholds passed|requests\.\.\.|response_time\.\.\." "$dir/ramp.log" | sed "s/^/    /"
  if [ $rc -ne 0 ]; then log "FAIL $name: ramp.js exit $rc"; show_failure "$dir/ramp.log"; FAILED+=("$name:ramp"); fi

  timeout 120 env BASE_URL="http://127.0.0.1:$port" STEPS="$STEPS" STEP_WINDOW=15 SUMMARY_DIR="$dir" \
    K6_NO_USAGE_REPORT=true "$K6" run --quiet --no-color load/k6/steps.js >"$dir/steps.log" 2>&1; rc=$?
  sed -n '/steps (keep-alive/,$p' "$dir/steps.log" | sed "s/^/    /"
  if [ $rc -ne 0 ]; then log "FAIL $name: steps.js exit $rc"; show_failure "$dir/steps.log"; FAILED+=("$name:steps"); fi

  stop_app
  if grep -qE "OutOfMemoryError|Exception in thread" "$dir/app.log"; then
    log "note $name: the app log has errors:"; grep -E "OutOfMemoryError|Exception in thread" "$dir/app.log" | head -5
  fi
}

smoke web-tomcat-platform "$WEB_JAR" platform
smoke web-tomcat-virtual "$WEB_JAR" virtual
smoke reactive-netty-platform "$REACTIVE_JAR" platform

log "done in $(( $(date +%s) - T0 ))s; summaries in $OUT"
if [ ${#FAILED[@]} -gt 0 ]; then
  log "FAILED: ${FAILED[*]}"
  exit 1
fi
log "load smoke passed: ramp.js and steps.js thresholds held on 3 apps"
