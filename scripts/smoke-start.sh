#!/usr/bin/env bash
# Starts the service as a newcomer does (`npm start`, embedded database, a new data folder) with
# whatever `node` is first on PATH, waits for GET /readyz to answer 200, and stops it.
# .ci/run runs it with the machine's own Node to keep the oldest supported Node working.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
log="$data/start.log"
# a process group of its own: npm may exit on SIGTERM before the server it started has closed the
# embedded database, so the whole group is stopped and waited for before its folder is removed
DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 setsid npm start >"$log" 2>&1 &
pid=$!
stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do
    kill -0 -- "-$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap stop EXIT
for _ in $(seq 1 180); do
  if node -e "fetch('http://127.0.0.1:$port/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"; then
    echo "npm start on Node $(node --version): /readyz answered 200"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 1
done
echo "npm start on Node $(node --version) did not become ready; its output:" >&2
cat "$log" >&2
exit 1
