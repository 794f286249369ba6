#!/usr/bin/env bash
# What pinning detection costs: sample-web (Tomcat jar, virtual threads) with app.threads.pinning.enabled
# on and off, interleaved (on, off, on, off). Each run: 15 s warm-up, then the process's CPU time
# (/proc/<pid>/stat) idle for 60 s and under 30 s of k6 load (200 users on /greetings), then the
# endpoint's 'pinning' section.
#
#   flock /tmp/threadmodel-bench.lock load/pinning-overhead.sh
#
# Env: JAR (sample-web/target/sample-web-tomcat.jar), K6 (else load/install-k6.sh's, installed when missing),
#      JAVA_HOME (used when it is a JDK 21+, else the newest JDK 21+ installed). Java, k6 and each run's free
#      port come from load/toolkit.py.
set -uo pipefail
cd "$(dirname "$0")/.."
JAR=${JAR:-sample-web/target/sample-web-tomcat.jar}
JAVA=$(python3 load/toolkit.py java) || exit 1
K6=$(python3 load/toolkit.py k6) || exit 1
TICK=$(getconf CLK_TCK)
cpu_ms() { awk -v t="$TICK" '{print int(($14 + $15) * 1000 / t)}' "/proc/$1/stat"; }
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for variant in on off on off; do
  port=$(python3 load/toolkit.py free-port)
  flag=(); [ "$variant" = off ] && flag=(--app.threads.pinning.enabled=false)
  "$JAVA" -jar "$JAR" --app.threads.model=virtual --server.port=$port "${flag[@]}" --logging.level.root=WARN \
    > "/tmp/pinning-overhead-$variant.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do curl -sf "localhost:$port/ping" > /dev/null && break; sleep 0.5; done
  sleep 15
  c0=$(cpu_ms $pid); sleep 60; c1=$(cpu_ms $pid)
  requests=$(echo "import http from 'k6/http';
export default function () { http.get('http://127.0.0.1:$port/greetings?name=k6'); }" \
    | "$K6" run -q --vus 200 --duration 30s - 2>&1 | grep -o 'http_reqs[^0-9]*[0-9]*' | grep -o '[0-9]*$')
  c2=$(cpu_ms $pid)
  pinning=$(curl -s "localhost:$port/actuator/threadmodel" | python3 -c 'import json,sys; p=json.load(sys.stdin)["pinning"]; print(p and {k: p[k] for k in ("count", "totalTimeMs")})')
  echo "pinning $variant: idle 60 s $((c1 - c0)) ms CPU; 30 s load $((c2 - c1)) ms CPU, $requests requests; pinning $pinning"
  kill $pid; wait $pid 2>/dev/null
done
