#!/usr/bin/env bash
# Draws the hand-traced skyline (red) and the detected one (green: confident points, as dumped by
#   TAPSEEK_SKYLINE_DUMP=DIR swift test --skip-build --filter SkylineWebScoreTests)
# over photos of ../shared/photos/skyline-web, into DIR/overlay/NAME.png (rsvg-convert).
#
#   scripts/skyline-web-overlay.sh DIR [NAME.jpg…]
set -euo pipefail
dump="$1"; shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
photos="$root/../shared/photos/skyline-web"
mkdir -p "$dump/overlay"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$photos" && ls web_*.jpg))
for name in "${names[@]}"; do
    python3 - "$photos/$name" "$photos/${name%.jpg}_skyline.json" "$dump/$name.json" > "$dump/overlay/${name%.jpg}.svg" <<'PY'
import base64, json, sys
trace = json.load(open(sys.argv[2]))
points = json.load(open(sys.argv[3]))
w, h = trace["width"], trace["height"]
image = base64.b64encode(open(sys.argv[1], "rb").read()).decode()
t = " ".join(f"{x + 0.5},{r + 0.5}" for x, r in enumerate(trace["skyline_row"]) if r is not None)
d = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.2" fill="lime"/>' for x, y, c in points)
print(f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}">'
      f'<image width="{w}" height="{h}" xlink:href="data:image/jpeg;base64,{image}"/>'
      f'<polyline points="{t}" fill="none" stroke="red" stroke-width="1.5"/>{d}</svg>')
PY
    rsvg-convert "$dump/overlay/${name%.jpg}.svg" -o "$dump/overlay/${name%.jpg}.png"
done
