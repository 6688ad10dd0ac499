#!/usr/bin/env bash
# Side-by-side benchmark: `tapseek viewshed` against GDAL's `gdal_viewshed` on the same terrain,
# as whole processes, in the same run, alternating. Prints the median wall-clock times, the ratio,
# how many cells each judged and how many of tapseek's cells needed a sightline of their own.
#
#   scripts/bench-viewshed.sh [RUNS]        (default 5 runs each; needs the release build the main
#                                             command makes: swift build -c release
#                                             --static-swift-stdlib --product tapseek; a dynamically
#                                             linked build starts ~10 ms slower)
#
# On a host shared with other work the wall-clock times swing by a third from run to run; CPU
# times are steadier: perf stat -r 15 COMMAND (task-clock), as README's Viewsheds table gives them.
#
# The terrain: the 61 km window of ../shared/dem/N27E086.hgt around 27.70° N 86.66° E that
# scripts/bench-panorama.sh uses (lower Khumbu; wholly inside the tile, no voids), cut with
# gdal_translate. tapseek reads it as is (geographic, 3″) and judges every cell within 30 km,
# exactly as `tapseek aim` would; gdal_viewshed needs a projected raster, so a UTM 45N copy is
# warped at 90 m, and it judges every cell within 30 km with curvature and refraction
# (-cc 0.87 = 1 − k for k = 0.13). Both with the eye 1.6 m above the ground.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
tile="$root/../shared/dem/N27E086.hgt"
tapseek="$root/.build/release/tapseek"
[ -f "$tile" ] || { echo "bench-viewshed: $tile is missing" >&2; exit 1; }
[ -x "$tapseek" ] || { echo "bench-viewshed: build first: swift build -c release --static-swift-stdlib --product tapseek" >&2; exit 1; }
for tool in gdal_translate gdalwarp gdal_viewshed gdalinfo gdaltransform python3; do
    command -v "$tool" >/dev/null || { echo "bench-viewshed: $tool is missing (apt-get install gdal-bin)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lat=27.70 lon=86.66
mkdir "$work/dem"
gdal_translate -q -projwin 86.3495 27.9745 86.9705 27.4255 "$tile" "$work/dem/window.tif"
gdalwarp -q -t_srs EPSG:32645 -tr 90 90 -r bilinear "$work/dem/window.tif" "$work/window-utm.tif"
read -r x y _ < <(echo "$lon $lat" | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:32645)

tapseek_cmd=("$tapseek" viewshed $lat $lon --dem "$work/dem" --range 30000 -o "$work/tapseek.tif")
tapseek1_cmd=("${tapseek_cmd[@]}" --jobs 1)
# The same cells read from the SRTM tile itself: tapseek's pure-Swift reader, no GDAL loaded.
mkdir "$work/tile" && ln -s "$tile" "$work/tile/"
hgt_cmd=("$tapseek" viewshed $lat $lon --dem "$work/tile" --range 30000 -o "$work/tapseek-hgt.tif")
gdal_cmd=(gdal_viewshed -q -md 30000 -cc 0.87 -oz 1.6 -ox "$x" -oy "$y" "$work/window-utm.tif" "$work/gdal.tif")

source "$root/scripts/timing.sh"

"${tapseek_cmd[@]}" > "$work/summary.json"   # warm the page cache, and the summary
"${gdal_cmd[@]}"
"${hgt_cmd[@]}" > "$work/summary-hgt.json"
t=() t1=() g=() th=()
for _ in $(seq "$runs"); do
    t+=("$(time_ms "${tapseek_cmd[@]}")")
    g+=("$(time_ms "${gdal_cmd[@]}")")
    t1+=("$(time_ms "${tapseek1_cmd[@]}")")
    th+=("$(time_ms "${hgt_cmd[@]}")")
done
tm=$(printf '%s\n' "${t[@]}" | median) t1m=$(printf '%s\n' "${t1[@]}" | median) gm=$(printf '%s\n' "${g[@]}" | median)
thm=$(printf '%s\n' "${th[@]}" | median)

echo "window: $(gdalinfo "$work/dem/window.tif" | grep 'Size is'), UTM copy: $(gdalinfo "$work/window-utm.tif" | grep 'Size is')"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) on $(nproc) cores"
echo "tapseek viewshed --range 30000, whole process: ${tm} ms (all cores; runs: ${t[*]}), ${t1m} ms (--jobs 1; runs: ${t1[*]})"
echo "tapseek viewshed on N27E086.hgt itself (no GDAL), whole process: ${thm} ms (all cores; runs: ${th[*]})"
echo "gdal_viewshed -md 30000 -cc 0.87, whole process: ${gm} ms (runs: ${g[*]})"
python3 - "$work/summary.json" "$work/summary-hgt.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
same = (a["cells"], a["visibleCells"]) == (b["cells"], b["visibleCells"])
print(f"window and tile: {a['cells']} / {b['cells']} cells, {a['visibleCells']} / {b['visibleCells']} visible ({'the same' if same else 'DIFFERENT'})")
EOF
echo "tapseek summary: $(cat "$work/summary.json")"
python3 -c "print(f'gdal_viewshed / tapseek viewshed: {$gm / max($tm, 1):.2f}x (all cores), {$gm / max($t1m, 1):.2f}x (one core), {$gm / max($thm, 1):.2f}x (.hgt, all cores)')"
