#!/usr/bin/env bash
# Prints the path of the k6 binary to use, and installs k6 at the pinned version first when there is
# none, from the Go module proxy. A k6 already there needs no Go: the one this script installed
# before in $GOPATH/bin (default ~/go/bin) when it is of the pinned version, otherwise any k6 on
# PATH, whatever its version (a line on stderr names it). From an empty module cache the download
# and build took 3 min on a busy 2-core machine.
#
#   K6=$(load/install-k6.sh)    # then: "$K6" run load/k6/ramp.js
set -euo pipefail

K6_VERSION="${K6_VERSION:-v1.8.1}"

is_pinned() { [ -x "$1" ] && "$1" version 2>/dev/null | grep "k6 ${K6_VERSION} " >/dev/null; }

GOPATH_DIR="${GOPATH:-$HOME/go}"
OWN="${GOPATH_DIR%%:*}/bin/k6"
if is_pinned "$OWN"; then
  echo "$OWN"
  exit 0
fi
if FOUND="$(command -v k6 2>/dev/null)"; then
  echo "install-k6: using the k6 on PATH, $FOUND ($("$FOUND" version 2>/dev/null | head -n 1 || true); pinned: ${K6_VERSION})" >&2
  echo "$FOUND"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  for d in /usr/local/go/bin /usr/lib/go/bin; do
    if [ -x "$d/go" ]; then PATH="$d:$PATH"; break; fi
  done
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-k6: Go is needed to build k6 (apt-get install golang-go, or a Go toolchain on PATH)" >&2
  exit 1
fi

BIN="$(go env GOPATH)/bin/k6"
if [ -x "$BIN" ] && "$BIN" version 2>/dev/null | grep -q "k6 ${K6_VERSION} "; then
  echo "$BIN"
  exit 0
fi

echo "install-k6: building go.k6.io/k6@${K6_VERSION} (1-3 minutes)..." >&2
start=$(date +%s)
CGO_ENABLED=0 go install "go.k6.io/k6@${K6_VERSION}" >&2
"$BIN" version >&2
echo "install-k6: done in $(( $(date +%s) - start ))s" >&2
echo "$BIN"
