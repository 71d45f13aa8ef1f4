#!/usr/bin/env bash
# Installs (Debian/Ubuntu apt) and starts a throw-away standalone ZooKeeper for the tests of the
# Mesos driver's ZooKeeper master detection (test/cluster/mesos/zk/real-zookeeper.test.ts).
#
# Usage:
#   eval "$(.ci/zookeeper.sh)"        # install if needed, start, wait until it answers `ruok`
#   .ci/zookeeper.sh install          # only install (.ci/run does it in the background, early)
#   .ci/zookeeper.sh stop             # stop the server started above and remove its directory
#                                     # (needs PACER_ZK_PID; PACER_ZK_DIR for the directory)
#
# stdout carries only shell assignments for the caller to eval:
#   export PACER_TEST_ZK=127.0.0.1:2181     # host:port the tests connect to (unset = tests skip)
#   export PACER_ZK_PID=<pid>          # the server's JVM, for `stop`
#   export PACER_ZK_DIR=<dir>          # its data and log directory (mktemp), which `stop` removes
# A server that was already running (see below) is used, not started: no PID, no directory, and
# `stop` leaves it alone. A start that fails removes the directory it made.
# Progress and errors go to stderr. Bounded: the start-up wait is at most PACER_ZK_WAIT_S (60) s.
# Knobs: PACER_ZK_PORT (2181). The server binds 127.0.0.1 only, keeps its data in a fresh temp
# directory, and runs with its admin HTTP server off (it would otherwise take port 8080).
set -euo pipefail

port="${PACER_ZK_PORT:-2181}"
wait_s="${PACER_ZK_WAIT_S:-60}"
jar=/usr/share/java/zookeeper.jar
main_class=org.apache.zookeeper.server.ZooKeeperServerMain

log() { echo "zookeeper.sh: $*" >&2; }

# Answers 0 when a server on 127.0.0.1:$port replies `imok` to the `ruok` four-letter word.
answers_ruok() {
  local reply=''
  { exec 3<>"/dev/tcp/127.0.0.1/${port}"; } 2>/dev/null || return 1
  printf 'ruok' >&3
  IFS= read -r -t 2 -n 4 reply <&3 || true
  exec 3<&- 3>&-
  [ "$reply" = "imok" ]
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root (or sudo) to run: $*"; return 1; fi
}

install_zookeeper() {
  [ -f "$jar" ] && return 0
  command -v apt-get >/dev/null || { log "no $jar and no apt-get: install ZooKeeper 3.x yourself"; return 1; }
  log "installing the Debian zookeeper package"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq --no-install-recommends zookeeper >/dev/null 2>&1 || {
    as_root apt-get update -qq >/dev/null
    as_root apt-get install -y -qq --no-install-recommends zookeeper >/dev/null
  }
  [ -f "$jar" ] || { log "the zookeeper package did not provide $jar"; return 1; }
}

start_zookeeper() {
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/pacer-zk.XXXXXX")"
  cat >"$dir/zoo.cfg" <<CFG
tickTime=1000
dataDir=$dir/data
clientPort=$port
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr
CFG
  log "starting ZooKeeper on 127.0.0.1:$port (data and log in $dir)"
  nohup java -Xmx256m -cp "$jar" "$main_class" "$dir/zoo.cfg" >"$dir/zookeeper.log" 2>&1 </dev/null &
  local pid=$!
  local deadline=$((SECONDS + wait_s))
  until answers_ruok; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "ZooKeeper exited during start-up; its log:"; tail -n 30 "$dir/zookeeper.log" >&2
      rm -rf -- "$dir"; return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "ZooKeeper did not answer ruok within ${wait_s}s; its log:"; tail -n 30 "$dir/zookeeper.log" >&2
      stop_pid "$pid" || true; rm -rf -- "$dir"; return 1
    fi
    sleep 0.5
  done
  log "ZooKeeper is up (pid $pid)"
  echo "export PACER_TEST_ZK=127.0.0.1:$port"
  echo "export PACER_ZK_PID=$pid"
  echo "export PACER_ZK_DIR=$dir"
}

# SIGTERM to the JVM, and wait (at most 10 s) until it is gone; then SIGKILL, at most 5 s more.
# Answers 0 once the process is gone.
stop_pid() {
  local pid="$1"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 10); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  return 1
}

# Removes PACER_ZK_DIR if it is a directory this script made: named pacer-zk.XXXXXX, holding the
# zoo.cfg written above (its dataDir inside it). Anything else named there is left alone.
remove_dir() {
  local dir="${PACER_ZK_DIR:-}"
  [ -n "$dir" ] || return 0
  case "$(basename -- "$dir")" in
    pacer-zk.??????) ;;
    *) log "PACER_ZK_DIR=$dir is not a directory this script made: left alone"; return 0 ;;
  esac
  if [ -d "$dir" ] && grep -qxF "dataDir=$dir/data" "$dir/zoo.cfg" 2>/dev/null; then
    rm -rf -- "$dir"
    log "removed $dir"
  elif [ -e "$dir" ]; then
    log "$dir has no zoo.cfg of this script: left alone"
  fi
}

if [ "${1:-start}" = "stop" ]; then
  [ -n "${PACER_ZK_PID:-}" ] || { log "PACER_ZK_PID is not set: nothing to stop"; exit 0; }
  if stop_pid "$PACER_ZK_PID"; then
    log "stopped ZooKeeper (pid $PACER_ZK_PID)"
    remove_dir
  else
    log "ZooKeeper (pid $PACER_ZK_PID) is still running after SIGKILL: ${PACER_ZK_DIR:-its directory} left in place"
  fi
  exit 0
fi

if [ "${1:-start}" = "install" ]; then
  install_zookeeper
  exit 0
fi

if answers_ruok; then
  log "a ZooKeeper already answers on 127.0.0.1:$port; using it"
  echo "export PACER_TEST_ZK=127.0.0.1:$port"
  exit 0
fi
install_zookeeper
start_zookeeper
