#!/usr/bin/env bash
# Installs (if missing) and starts MariaDB and Redis as plain background processes (no systemd), waits until
# both answer, and creates the database and user that the samples' `mysql` profile uses.
# Idempotent: running it again with both services up only re-checks them.
#
# Environment (defaults match sample-*/src/main/resources/application-mysql.properties and -redis.properties):
#   DB_PORT=3306 DB_NAME=threadmodel DB_USER=threadmodel DB_PASSWORD=threadmodel REDIS_PORT=6379
set -euo pipefail

DB_PORT="${DB_PORT:-3306}"
DB_NAME="${DB_NAME:-threadmodel}"
DB_USER="${DB_USER:-threadmodel}"
DB_PASSWORD="${DB_PASSWORD:-threadmodel}"
REDIS_PORT="${REDIS_PORT:-6379}"
LOG_DIR="${SERVICES_LOG_DIR:-/tmp/threadmodel-services}"
mkdir -p "$LOG_DIR"

log() { echo "[services] $*"; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
	local missing=()
	command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server mariadb-client)
	command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
	if [ "${#missing[@]}" -gt 0 ]; then
		log "installing ${missing[*]}"
		as_root apt-get update -qq
		# policy-rc.d stops the packages' maintainer scripts from trying to start services (no init system here).
		if [ ! -e /usr/sbin/policy-rc.d ]; then
			printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
			as_root chmod +x /usr/sbin/policy-rc.d
			local added_policy=1
		fi
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$LOG_DIR/apt.log" 2>&1 \
			|| { tail -50 "$LOG_DIR/apt.log"; exit 1; }
		if [ "${added_policy:-0}" = 1 ]; then as_root rm -f /usr/sbin/policy-rc.d; fi
	fi
}

wait_for() { # description, seconds, command...
	local what="$1" seconds="$2"; shift 2
	local i
	for ((i = 0; i < seconds * 4; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.25
	done
	log "$what did not answer within ${seconds}s"
	return 1
}

mariadb_up() { mariadb-admin --protocol=tcp -h127.0.0.1 -P"$DB_PORT" -uroot ping 2>/dev/null | grep -q alive || mariadb-admin ping 2>/dev/null | grep -q alive; }

start_mariadb() {
	if mariadb-admin ping >/dev/null 2>&1; then
		log "MariaDB already running"
		return
	fi
	as_root mkdir -p /run/mysqld
	as_root chown mysql:mysql /run/mysqld 2>/dev/null || true
	if [ ! -d /var/lib/mysql/mysql ]; then
		log "initialising MariaDB data directory"
		as_root mariadb-install-db --user=mysql --datadir=/var/lib/mysql >"$LOG_DIR/mariadb-install.log" 2>&1
	fi
	log "starting MariaDB on port $DB_PORT"
	# setsid + nohup: the server outlives this script and the shell that ran it.
	as_root setsid nohup mysqld_safe --port="$DB_PORT" --bind-address=127.0.0.1 >"$LOG_DIR/mariadb.log" 2>&1 < /dev/null &
	wait_for MariaDB 60 mariadb-admin ping || { tail -30 "$LOG_DIR/mariadb.log"; tail -30 /var/log/mysql/error.log 2>/dev/null || true; exit 1; }
}

create_database() {
	log "ensuring database '$DB_NAME' and user '$DB_USER'"
	as_root mariadb -uroot <<SQL
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER IF NOT EXISTS '$DB_USER'@'::1' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'localhost';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'::1';
FLUSH PRIVILEGES;
SQL
	wait_for "MariaDB login as $DB_USER" 10 mariadb --protocol=tcp -h127.0.0.1 -P"$DB_PORT" -u"$DB_USER" -p"$DB_PASSWORD" -e 'SELECT 1' "$DB_NAME"
}

start_redis() {
	if redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
		log "Redis already running on port $REDIS_PORT"
		return
	fi
	log "starting Redis on port $REDIS_PORT"
	redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
		--logfile "$LOG_DIR/redis.log" --pidfile "$LOG_DIR/redis.pid"
	wait_for Redis 20 sh -c "redis-cli -p $REDIS_PORT ping | grep -q PONG" || { tail -30 "$LOG_DIR/redis.log"; exit 1; }
}

install_missing
start_mariadb
create_database
start_redis
log "MariaDB on 127.0.0.1:$DB_PORT (db $DB_NAME, user $DB_USER) and Redis on 127.0.0.1:$REDIS_PORT are up"
