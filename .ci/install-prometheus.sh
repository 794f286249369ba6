#!/usr/bin/env bash
# Installs Prometheus from Debian's packages when it is missing (for .ci/prometheus_check.py), without starting its
# service: the check runs its own Prometheus on a free port with a configuration of its own.
set -euo pipefail

LOG_DIR="${SERVICES_LOG_DIR:-/tmp/threadmodel-services}"
mkdir -p "$LOG_DIR"

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if command -v prometheus >/dev/null 2>&1; then
	echo "[prometheus] $(prometheus --version 2>&1 | head -1)"
	exit 0
fi
echo "[prometheus] installing prometheus"
as_root apt-get update -qq
# policy-rc.d stops the package's maintainer scripts from trying to start the service (no init system here).
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
	as_root chmod +x /usr/sbin/policy-rc.d
	added_policy=1
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >"$LOG_DIR/apt-prometheus.log" 2>&1 \
	|| { tail -50 "$LOG_DIR/apt-prometheus.log"; exit 1; }
if [ "${added_policy:-0}" = 1 ]; then as_root rm -f /usr/sbin/policy-rc.d; fi
echo "[prometheus] $(prometheus --version 2>&1 | head -1)"
