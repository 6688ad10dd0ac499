#!/usr/bin/env bash
# Draws the hand-traced skyline (red) and the detected one (green; dumped by
#   TAPSEEK_SKYLINE_DUMP=DIR swift test --skip-build --filter SkylineWebScoreTests)
# over each photo of ../shared/photos/skyline-web, into DIR/overlay/NAME.png.
#
#   scripts/skyline-web-overlay.sh DIR [NAME…]
set -euo pipefail
dump="$1"; shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
photos="$root/../shared/photos/skyline-web"
mkdir -p "$dump/overlay"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$photos" && ls web_*.jpg))
for name in "${names[@]}"; do
    python3 - "$photos/${name%.jpg}_skyline.json" "$dump/$name.json" > "$dump/overlay/draw.txt" <<'PY'
import json, sys
trace = json.load(open(sys.argv[1]))["skyline_row"]
points = json.load(open(sys.argv[2]))
t = " ".join(f"{x},{r}" for x, r in enumerate(trace) if r is not None)
print(f"stroke red fill none stroke-width 1 polyline {t}" if t else "")
for x, y, c in points:
    print(f"stroke {'lime' if c >= 0.5 else 'yellow'} fill none point {x:.0f},{y:.0f}")
PY
    convert "$photos/$name" -draw "@$dump/overlay/draw.txt" "$dump/overlay/${name%.jpg}.png"
done
