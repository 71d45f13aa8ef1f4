#!/usr/bin/env bash
# Installs, in one apt-get transaction, the Debian packages the tests drive for real:
#   zookeeper        test/cluster/mesos/zk (started by .ci/zookeeper.sh)
#   python3-marathon test/e2e/marathon-client.test.ts (a real Marathon client library)
#   chromium         the browser tests (test/ui, the scenario report)
# Packages already present are skipped; apt's index is refreshed only when an install fails on a
# stale one. One transaction, because two apt-get processes at once fail on dpkg's lock; .ci/run
# runs this in the background while it type-checks, lints and builds. A package that cannot be
# installed is reported, and its tests skip with a message saying why.
set -uo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "debian-packages.sh: need root (or sudo) to run: $*" >&2; return 1; fi
}

wanted=()
[ -f /usr/share/java/zookeeper.jar ] || wanted+=(zookeeper)
/usr/bin/python3 -c 'import marathon' 2>/dev/null || wanted+=(python3-marathon)
[ -x /usr/bin/chromium ] || wanted+=(chromium)
if [ "${#wanted[@]}" -eq 0 ]; then
  echo "debian-packages.sh: zookeeper, python3-marathon and chromium are installed"
  exit 0
fi
command -v apt-get >/dev/null || { echo "debian-packages.sh: no apt-get; missing: ${wanted[*]}" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
echo "debian-packages.sh: installing ${wanted[*]}"
if ! as_root apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null 2>&1; then
  as_root apt-get update -qq >/dev/null && as_root apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null
fi
status=$?
[ "$status" -eq 0 ] || echo "debian-packages.sh: apt-get failed (exit $status); the tests of ${wanted[*]} will skip" >&2
exit "$status"
