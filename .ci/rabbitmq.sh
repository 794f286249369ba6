#!/usr/bin/env bash
# Installs (if missing) and starts RabbitMQ as a plain background process (no systemd, no Docker), then waits until
# it answers. The fleet check (load/fleet_switch.py, docs/fleet.md) runs Spring Cloud Bus over it.
# RabbitMQ's defaults are kept where they are what the check needs: AMQP on port 5672, user guest/guest, which
# RabbitMQ only lets in from localhost. Every listener is bound to 127.0.0.1.
# Idempotent: with RabbitMQ already up it only checks that it answers.
set -euo pipefail

LOG_DIR="${RABBITMQ_LOG_DIR:-/tmp/threadmodel-rabbitmq}"
mkdir -p "$LOG_DIR"

# The same node name and addresses for the server and for rabbitmqctl/rabbitmq-diagnostics below (both read these).
# rabbit@localhost: no dependence on what the machine's host name resolves to.
export RABBITMQ_NODENAME=rabbit@localhost
export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
export ERL_EPMD_ADDRESS=127.0.0.1
# Erlang's distribution port (25672) on loopback too; the CLI tools connect to it there.
export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"

log() { echo "[rabbitmq] $*"; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

answers() { rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1; }

install_missing() {
	if [ -x /usr/sbin/rabbitmq-server ]; then
		return
	fi
	log "installing rabbitmq-server"
	as_root apt-get update -qq
	# policy-rc.d stops the package's maintainer scripts from trying to start the service (no init system here).
	local added_policy=0
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
		as_root chmod +x /usr/sbin/policy-rc.d
		added_policy=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rabbitmq-server \
		>"$LOG_DIR/apt.log" 2>&1 || { tail -50 "$LOG_DIR/apt.log"; exit 1; }
	if [ "$added_policy" = 1 ]; then as_root rm -f /usr/sbin/policy-rc.d; fi
}

start() {
	if answers; then
		log "RabbitMQ already running"
		return
	fi
	log "starting RabbitMQ on 127.0.0.1:5672"
	# Debian's /usr/sbin/rabbitmq-server runs the broker as the rabbitmq user. setsid + nohup: the broker outlives
	# this script and the shell that ran it.
	as_root env RABBITMQ_NODENAME="$RABBITMQ_NODENAME" RABBITMQ_NODE_IP_ADDRESS="$RABBITMQ_NODE_IP_ADDRESS" \
		ERL_EPMD_ADDRESS="$ERL_EPMD_ADDRESS" RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="$RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS" \
		setsid nohup /usr/sbin/rabbitmq-server >"$LOG_DIR/rabbitmq.log" 2>&1 </dev/null &
	# await_startup waits for the node to boot (its own timeout) once the node's process can be reached at all.
	local i
	for ((i = 0; i < 240; i++)); do
		if rabbitmqctl -q await_startup --timeout 60 >/dev/null 2>&1 && answers; then
			return
		fi
		sleep 0.5
	done
	log "RabbitMQ did not answer within 2 minutes"
	tail -40 "$LOG_DIR/rabbitmq.log"
	exit 1
}

install_missing
start
log "RabbitMQ is up on 127.0.0.1:5672 (guest/guest from localhost)"
