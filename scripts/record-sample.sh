#!/usr/bin/env bash
# Re-records docs/recordings/local-web, the flight recording the README's replay commands run on
# (test/sim/docs-commands.test.ts runs them). A recording replays only on the core that made it:
# run this after a change of the core's inputs or decisions (npm run build first).
# About 12 s: an app with an HTTP health check created, one task killed, scaled down, deleted.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
port=${PORT:-18931}
rm -rf docs/recordings/local-web
node dist/src/main.js --port "$port" --store "$work/pacer.db" --sandbox "$work/sandboxes" --record docs/recordings/local-web 2>"$work/log" &
pacer=$!
trap 'kill $pacer 2>/dev/null || true; rm -rf "$work"' EXIT
api() { curl -sf -X "$1" -H 'Content-Type: application/json' "http://127.0.0.1:$port$2" ${3:+-d "$3"}; echo; }
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/ping" >/dev/null && break; sleep 0.1; done
api POST /v2/apps '{"id":"/web","cmd":"python3 -m http.server $PORT0","instances":2,"cpus":0.01,"mem":32,"portDefinitions":[{"port":0,"name":"http"}],"healthChecks":[{"protocol":"HTTP","path":"/","portIndex":0,"gracePeriodSeconds":10,"intervalSeconds":1,"timeoutSeconds":1}]}'
sleep 4
task=$(api GET /v2/apps/web/tasks | python3 -c 'import json,sys; print(json.load(sys.stdin)["tasks"][0]["id"])')
api DELETE "/v2/apps/web/tasks/$task"
sleep 3
api PUT /v2/apps/web '{"instances":1}'
sleep 2
api DELETE /v2/apps/web
sleep 2
kill -INT $pacer; wait $pacer || true
ls -l docs/recordings/local-web
