#!/usr/bin/env bash
# Side-by-side benchmark of the pure-Swift GeoTIFF reader (issue 30), whole processes:
#
#   1. reading a Copernicus GLO-30-like 1° tile — a COG of 3600 × 3600 Float32 posts, DEFLATE
#      with predictor 3, 1024² tiles, made from ../shared/dem/N46E008.tif — with
#      `tapseek dem info` (which reads every post, builds the grid and its maximum pyramid),
#      less the same command on the small default DEM; beside it GDAL reading the same tile
#      (`gdal_translate -of ENVI` into /dev/shm, so writing costs little);
#   2. README's main command, `tapseek locate examples/cross-mountain.json` on the default DEM
#      (a GeoTIFF in EPSG:4326), against a previous build (GDAL loaded for the GeoTIFF).
#
#   scripts/bench-geotiff.sh [RUNS] [PREVIOUS_TAPSEEK]
#
# RUNS (default 11) runs each, alternating, median wall-clock times in milliseconds. Needs a
# release build (`flock /tmp/tapseek-build.lock swift build -c release`), gdal-bin and the
# default DEM (scripts/setup.sh). PREVIOUS_TAPSEEK: another tapseek binary to compare the
# locate and the COG read with, e.g. one built from the commit before (run from the same project
# so that it finds the same data), timed in the same rounds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-11}"
previous="${2:-}"
tapseek="$root/.build/release/tapseek"
source="$root/../shared/dem/N46E008.tif"
[ -x "$tapseek" ] || { echo "bench-geotiff: build first: swift build -c release" >&2; exit 1; }
[ -f "$source" ] || { echo "bench-geotiff: $source is missing" >&2; exit 1; }
[ -f "$root/dem/jacksboro.tif" ] || { echo "bench-geotiff: the default DEM is missing: run scripts/setup.sh" >&2; exit 1; }
command -v gdal_translate >/dev/null || { echo "bench-geotiff: gdal_translate is missing (apt-get install gdal-bin)" >&2; exit 1; }

work="$(mktemp -d)"
shm="$(mktemp -d /dev/shm/tapseek-bench-geotiff.XXXXXX)"
trap 'rm -rf "$work" "$shm"' EXIT
mkdir "$work/cop" "$work/small"
cop="$work/cop/Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif"
gdal_translate -q -of COG -ot Float32 -r bilinear -outsize 3600 3600 -a_ullr 8 47 9 46 -mo AREA_OR_POINT=Area \
    -co COMPRESS=DEFLATE -co PREDICTOR=3 -co BLOCKSIZE=1024 "$source" "$cop"
ln -s "$root/dem/jacksboro.tif" "$work/small/"

source "$root/scripts/timing.sh"

declare -A times
for _ in $(seq "$runs"); do
    times[cop]+="$(time_ms "$tapseek" dem info "$work/cop") "
    times[small]+="$(time_ms "$tapseek" dem info "$work/small") "
    times[gdal]+="$(time_ms gdal_translate -q -of ENVI "$cop" "$shm/cop.bil") "
    times[locate]+="$(time_ms "$tapseek" locate "$root/examples/cross-mountain.json") "
    if [ -n "$previous" ]; then
        times[previous]+="$(time_ms "$previous" locate "$root/examples/cross-mountain.json") "
        times[previous_cop]+="$(time_ms "$previous" dem info "$work/cop") "
        times[previous_small]+="$(time_ms "$previous" dem info "$work/small") "
    fi
done
m() { tr ' ' '\n' <<<"${times[$1]}" | grep . | median; }
cop_ms=$(m cop) small_ms=$(m small) gdal_ms=$(m gdal) locate_ms=$(m locate)
echo "medians of $runs runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-68s %6s ms\n' "tapseek dem info, 1° Copernicus-like COG (3600², Float32, DEFLATE+pred 3)" "$cop_ms"
printf '%-68s %6s ms\n' "tapseek dem info, default DEM (403 × 344 Int16): the process alone" "$small_ms"
printf '%-68s %6s ms   (target ≤ 60)\n' "  reading the COG (difference)" "$((cop_ms - small_ms))"
if [ -n "$previous" ]; then
    printf '%-68s %6s ms\n' "  the same with $previous" "$(( $(m previous_cop) - $(m previous_small) ))"
fi
printf '%-68s %6s ms\n' "gdal_translate -of ENVI of the same COG into /dev/shm" "$gdal_ms"
printf '%-68s %6s ms   (target ≤ 35)\n' "tapseek locate examples/cross-mountain.json" "$locate_ms"
if [ -n "$previous" ]; then
    printf '%-68s %6s ms\n' "  the same with $previous" "$(m previous)"
fi
