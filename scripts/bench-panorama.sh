#!/usr/bin/env bash
# Side-by-side benchmark: `tapseek panorama` against GDAL's `gdal_viewshed` on the same terrain,
# and `tapseek elevation --batch --jobs 1` against `gdallocationinfo -valonly -wgs84` on the same
# points, in the same run. Prints the median wall-clock times and the ratios.
#
#   scripts/bench-panorama.sh [RUNS]        (default 5 runs each; needs a release build:
#                                             swift build -c release)
#
# The terrain: a 61 km window of ../shared/dem/N27E086.hgt around 27.70° N 86.66° E (lower Khumbu, west
# of Lukla; the window lies wholly inside the tile, so it holds no voids), cut
# with gdal_translate. tapseek reads it as is (geographic, 3″); gdal_viewshed needs a projected
# raster, so a UTM 45N copy is warped at 90 m. tapseek: 3 600 skyline rays (0.1°) of 30 km,
# exact on the bilinear surface; gdal_viewshed: the whole 30 km viewshed with curvature and
# refraction (-cc 0.87 = 1 − k for k = 0.13), visibility of every cell.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
tile="$root/../shared/dem/N27E086.hgt"
tapseek="$root/.build/release/tapseek"
[ -f "$tile" ] || { echo "bench-panorama: $tile is missing" >&2; exit 1; }
[ -x "$tapseek" ] || { echo "bench-panorama: build first: swift build -c release" >&2; exit 1; }
for tool in gdal_translate gdalwarp gdal_viewshed gdallocationinfo gdaltransform python3; do
    command -v "$tool" >/dev/null || { echo "bench-panorama: $tool is missing (apt-get install gdal-bin)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lat=27.70 lon=86.66
# ±30.5 km: 0.2745° of latitude, 0.3105° of longitude at 28° N.
mkdir "$work/dem"
gdal_translate -q -projwin 86.3495 27.9745 86.9705 27.4255 "$tile" "$work/dem/window.tif"
gdalwarp -q -t_srs EPSG:32645 -tr 90 90 -r bilinear "$work/dem/window.tif" "$work/window-utm.tif"
read -r x y _ < <(echo "$lon $lat" | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:32645)

source "$root/scripts/timing.sh"
# The median of `runs` wall-clock times of a command, in milliseconds.
median_ms() {
    for _ in $(seq "$runs"); do time_ms "$@"; done | median
}

echo "window: $(gdalinfo "$work/dem/window.tif" | grep 'Size is'), UTM copy: $(gdalinfo "$work/window-utm.tif" | grep 'Size is')"
panorama=$(median_ms "$tapseek" panorama $lat $lon --dem "$work/dem" --range 30000 --azimuth-step 0.1)
panorama1=$(median_ms "$tapseek" panorama $lat $lon --dem "$work/dem" --range 30000 --azimuth-step 0.1 --jobs 1)
viewshed=$(median_ms gdal_viewshed -q -md 30000 -cc 0.87 -oz 1.6 -ox "$x" -oy "$y" "$work/window-utm.tif" "$work/viewshed.tif")
echo "tapseek panorama, 3600 rays of 30 km, whole process: ${panorama} ms (all cores), ${panorama1} ms (--jobs 1)"
echo "gdal_viewshed -md 30000 -cc 0.87, whole process:      ${viewshed} ms"
python3 -c "print(f'gdal_viewshed / tapseek panorama: {$viewshed / max($panorama, 1):.2f}x (all cores), {$viewshed / max($panorama1, 1):.2f}x (one core)')"

# One million points in the window's tile.
python3 - "$work/points.csv" <<'EOF'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    for _ in range(1_000_000):
        f.write(f"{27 + random.random():.6f},{86 + random.random():.6f}\n")
EOF
awk -F, '{print $2, $1}' "$work/points.csv" > "$work/points-xy.txt"
mkdir "$work/tile" && ln -s "$tile" "$work/tile/"
elevation=$(median_ms sh -c "\"$tapseek\" elevation --batch --jobs 1 --dem \"$work/tile\" < \"$work/points.csv\"")
location=$(median_ms sh -c "gdallocationinfo -valonly -wgs84 \"$tile\" < \"$work/points-xy.txt\"")
echo "tapseek elevation --batch --jobs 1, 1 M points: ${elevation} ms (bilinear, with the geoid)"
echo "gdallocationinfo -valonly -wgs84, 1 M points:  ${location} ms (nearest post)"
python3 -c "print(f'gdallocationinfo / tapseek elevation: {$location / max($elevation, 1):.2f}x on one core')"
