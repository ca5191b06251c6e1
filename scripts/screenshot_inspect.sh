#!/usr/bin/env bash
# Screenshot the `randbot inspect --html` page of a battle log in headless Chromium.
#
#   scripts/screenshot_inspect.sh SOURCE OUT.png [TURN]
#   e.g. scripts/screenshot_inspect.sh tests/fixtures/replays/ladder-2691947817.json /tmp/inspect.png 21
#
# Needs Debian's chromium package (apt-get install chromium). The page is self-contained, so
# Chromium runs with networking features off and a throw-away profile.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 SOURCE OUT.png [TURN]" >&2
  exit 2
fi
source_arg=$1
out=$(realpath -m "$2")
turn=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
randbot=${RANDBOT:-$root/.venv/bin/randbot}
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "error: chromium not found (Debian: apt-get install chromium)" >&2
  exit 3
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$randbot" inspect "$source_arg" --html "$work/page.html" ${turn:+--turn "$turn"}
timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1280,900 --screenshot="$out" \
  "file://$work/page.html" >"$work/chromium.log" 2>&1 || {
  echo "error: chromium failed; its output:" >&2
  tail -5 "$work/chromium.log" >&2
  exit 1
}
if [ ! -s "$out" ]; then
  echo "error: chromium wrote no screenshot" >&2
  exit 1
fi
echo "wrote $out"
