#!/usr/bin/env bash
# The speed suite over terrains (issue 40): every heavy command on several real terrains of
# ../shared/dem, each side by side with the GDAL tool that does the same job, as whole
# processes, alternating, medians of RUNS runs; one table at the end. Speed measured on one
# case does not carry over to another: a summit sees far and wide, a valley little, a plain is
# all level rays, a coast is half sea. The worst row is the one to quote.
#
#   scripts/bench-terrains.sh [RUNS] [TERRAIN…]      (default 5 runs; all terrains)
#   TAPSEEK=/path/to/tapseek scripts/bench-terrains.sh …   (another build than .build/release's)
#   BEFORE=/path/to/main/tapseek scripts/bench-terrains.sh …   (before and after: see below)
#
# Needs the release build the main command makes (swift build -c release --static-swift-stdlib
# --product tapseek), gdal-bin and python3. Each terrain is a 62 km window of a shared tile around
# an observer standing 1.6 m above the ground, cut with gdal_translate, so that both tools see the
# same posts:
#   viewshed   tapseek viewshed --range 30000 (all cores, and --jobs 1) against
#              gdal_viewshed -md 30000 -cc 0.87 on a UTM copy at 90 m (GDAL needs a projected
#              raster; -cc 0.87 = 1 - k for tapseek's refraction k = 0.13). Also tapseek's peak
#              memory (maximum resident set, /usr/bin/time).
#   panorama   tapseek panorama --range 30000 --azimuth-step 0.1 (3600 rays), against the same
#              gdal_viewshed run: the job a peak-finder does with a viewshed.
#   elevation  tapseek elevation --batch --jobs 1 of 200 000 random points of the window,
#              against gdallocationinfo -valonly -wgs84 on the window (nearest post; tapseek
#              interpolates and adds the geoid).
#   locate     tapseek batch --jobs 1 of 20 000 readings from the observer, random heading,
#              pitch −3…+1°: readings a second (no GDAL tool does this; the number alone).
# The terrains (observer; tile):
#   summit     Dammastock, 3630 m, Uri Alps (46.6436, 8.4208; N46E008.tif, SRTM v2 with voids)
#   valley     Andermatt in the Urseren valley, 1440 m (46.6355, 8.5939; N46E008.tif)
#   khumbu     lower Khumbu, 27.70 N 86.66 E (N27E086.hgt): the case of bench-viewshed.sh
#   plain      the Thurgau plain south of Lake Constance (47.50, 9.38; N47E009.hgt)
#   coast      above Sainte-Maxime, the Gulf of Saint-Tropez (43.31, 6.60; N43E006.hgt)
#   cop        the summit window as a Copernicus-style COG (Float32, DEFLATE, predictor 3), read
#              by tapseek's own GeoTIFF reader
# Voids: a tile's filled voids are kept in the void-fill cache (docs/guides/data.md) once the
# first command fills them; the script gives each run a fresh cache (TAPSEEK_CACHE_DIR), which the
# first viewshed of each terrain fills, so the timed runs read it (warm). TAPSEEK_CACHE_DIR=off
# times every run filling the voids itself (cold), as before the cache.
# On a host shared with other work wall-clock times swing (the script prints the load average):
# CLOCK=cpu times user + system CPU instead (of the command's process and its children, by wait4,
# to the microsecond), steadier there, but blind to what all cores gain. Each ratio is the median
# of the ratios within each round, where the two commands ran one after the other under the
# host's load of the moment.
# BEFORE: another build (main's, say) run in the same rounds as this one and the GDAL tool, for
# the one-core viewshed, the panorama and elevation: a second table gives each ratio before and
# after. Runs apart, the host's speed drifts by more than a change shows. A build outside a
# checkout finds no geocoder index: set TAPSEEK_GEOCODER to one (data/build/geocoder-index.bin).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
shift || true
# TAPSEEK: another build to measure (a copy of main's, for the table before a change).
tapseek="${TAPSEEK:-$root/.build/release/tapseek}"
dem="$root/../shared/dem"
[ -x "$tapseek" ] || { echo "bench-terrains: build first: swift build -c release --static-swift-stdlib --product tapseek" >&2; exit 1; }
for tool in gdal_translate gdalwarp gdal_viewshed gdallocationinfo gdaltransform python3; do
    command -v "$tool" >/dev/null || { echo "bench-terrains: $tool is missing (apt-get install gdal-bin)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-terrains: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# name tile latitude longitude [cog]
terrains=(
    "summit N46E008.tif 46.6436 8.4208"
    "valley N46E008.tif 46.6355 8.5939"
    "khumbu N27E086.hgt 27.70 86.66"
    "plain N47E009.hgt 47.50 9.38"
    "coast N43E006.hgt 43.31 6.60"
    "cop N46E008.tif 46.6436 8.4208 cog"
)
wanted=("$@")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TAPSEEK_CACHE_DIR="${TAPSEEK_CACHE_DIR:-$work/cache}"
source "$root/scripts/timing.sh"
if [ "${CLOCK:-wall}" = cpu ]; then
    # One command's user + system CPU time, in milliseconds (its output discarded).
    time_ms() {
        python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(f"{(usage.ru_utime + usage.ru_stime) * 1000:.1f}")' "$@"
    }
fi
# Alternating runs of two commands: "A B R", the medians of each in milliseconds and the median
# of the rounds' ratios A/B.
alternate_ms() {
    local a=() b=() i
    local -n first=$1 second=$2
    for i in $(seq "$runs"); do
        a+=("$(time_ms "${first[@]}")")
        b+=("$(time_ms "${second[@]}")")
    done
    python3 -c '
import statistics, sys
n = len(sys.argv) // 2
a, b = [float(x) for x in sys.argv[1:n + 1]], [float(x) for x in sys.argv[n + 1:]]
ratios = [x / max(y, 0.001) for x, y in zip(a, b)]
print(f"{statistics.median(a):.0f} {statistics.median(b):.0f} {statistics.median(ratios):.2f}")' "${a[@]}" "${b[@]}"
}
# Alternating runs of three commands: "R S", the medians of the rounds' ratios A/C and B/C.
alternate_pair_ms() {
    local a=() b=() c=() i
    local -n first=$1 second=$2 third=$3
    for i in $(seq "$runs"); do
        a+=("$(time_ms "${first[@]}")")
        b+=("$(time_ms "${second[@]}")")
        c+=("$(time_ms "${third[@]}")")
    done
    python3 -c '
import statistics, sys
n = len(sys.argv) // 3
a, b, c = ([float(x) for x in sys.argv[1 + k * n:1 + (k + 1) * n]] for k in range(3))
print(" ".join(f"{statistics.median(x / max(z, 0.001) for x, z in zip(s, c)):.2f}" for s in (a, b)))' "${a[@]}" "${b[@]}" "${c[@]}"
}

rows=()
before_rows=()
for terrain in "${terrains[@]}"; do
    read -r name tile lat lon kind <<<"$terrain"
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
    [ -f "$dem/$tile" ] || { echo "bench-terrains: $dem/$tile is missing" >&2; exit 1; }
    t="$work/$name"
    mkdir -p "$t/dem"
    read -r west north east south zone <<<"$(python3 -c "
import math
lat, lon = $lat, $lon
dlat = 31000 / 111000
dlon = 31000 / (111320 * math.cos(math.radians(lat)))
print(lon - dlon, lat + dlat, lon + dlon, lat - dlat, int((lon + 180) // 6) + 1)")"
    window="$t/dem/window.tif"
    if [ "${kind:-}" = cog ]; then
        window="$t/dem/window-cog.tif"
        gdal_translate -q -projwin "$west" "$north" "$east" "$south" -of COG -ot Float32 \
            -co COMPRESS=DEFLATE -co PREDICTOR=3 -co BLOCKSIZE=512 "$dem/$tile" "$window"
    else
        gdal_translate -q -projwin "$west" "$north" "$east" "$south" "$dem/$tile" "$window"
    fi
    epsg="326$(printf '%02d' "$zone")"
    gdalwarp -q -t_srs "EPSG:$epsg" -tr 90 90 -r bilinear "$window" "$t/utm.tif"
    read -r x y _ < <(echo "$lon $lat" | gdaltransform -s_srs EPSG:4326 -t_srs "EPSG:$epsg")

    viewshed=("$tapseek" viewshed "$lat" "$lon" --dem "$t/dem" --range 30000 -o "$t/tapseek.tif")
    viewshed1=("${viewshed[@]}" --jobs 1)
    panorama=("$tapseek" panorama "$lat" "$lon" --dem "$t/dem" --range 30000 --azimuth-step 0.1)
    gdal=(gdal_viewshed -q -md 30000 -cc 0.87 -oz 1.6 -ox "$x" -oy "$y" "$t/utm.tif" "$t/gdal.tif")

    python3 - "$lat" "$lon" "$west" "$north" "$east" "$south" "$t" <<'EOF'
import json, random, sys
lat, lon, west, north, east, south = map(float, sys.argv[1:7])
out = sys.argv[7]
random.seed(40)
with open(f"{out}/points.csv", "w") as f, open(f"{out}/points-xy.txt", "w") as g:
    for _ in range(200_000):
        y, x = south + (north - south) * random.random(), west + (east - west) * random.random()
        f.write(f"{y:.6f},{x:.6f}\n")
        g.write(f"{x:.6f} {y:.6f}\n")
with open(f"{out}/readings.jsonl", "w") as f:
    for _ in range(20_000):
        f.write(json.dumps({"location": {"latitude": lat, "longitude": lon},
                            "orientation": {"heading": round(random.uniform(0, 360), 2),
                                            "pitch": round(random.uniform(-3, 1), 2)}}) + "\n")
EOF
    elevation=(sh -c "\"$tapseek\" elevation --batch --jobs 1 --dem \"$t/dem\" < \"$t/points.csv\"")
    location=(sh -c "gdallocationinfo -valonly -wgs84 \"$window\" < \"$t/points-xy.txt\"")
    locate=(sh -c "\"$tapseek\" batch --jobs 1 --dem \"$t/dem\" \"$t/readings.jsonl\"")

    "${viewshed[@]}" >"$t/summary.json"   # warm the page cache, and the summary
    "${gdal[@]}"
    read -r v g vg <<<"$(alternate_ms viewshed gdal)"
    read -r v1 _ v1g <<<"$(alternate_ms viewshed1 gdal)"
    read -r p _ pg <<<"$(alternate_ms panorama gdal)"
    read -r l e le <<<"$(alternate_ms location elevation)"
    bm=$(for _ in $(seq "$runs"); do time_ms "${locate[@]}"; done | median)
    memory=$( { /usr/bin/time -f %M "${viewshed[@]}" >/dev/null; } 2>&1 | tail -1)
    settled=$(python3 -c "import json; s = json.load(open('$t/summary.json')); print(s.get('cells'), s.get('visibleCells'), s.get('ownSightlines'))")
    rows+=("$(printf '%-7s %6s %6s %6s %6s %5s %6s %5s %6s %6s %5s %8s %6s  %s' \
        "$name" "$v" "$v1" "$g" "$vg" "$v1g" "$p" "$pg" "$e" "$l" "$le" \
        "$(python3 -c "print(round(20000 * 1000 / max($bm, 0.001)))")" "$(( memory / 1024 ))" "$settled")")
    if [ -n "${BEFORE:-}" ]; then
        viewshed1_before=("$BEFORE" "${viewshed1[@]:1}")
        panorama_before=("$BEFORE" "${panorama[@]:1}")
        elevation_before=(sh -c "\"$BEFORE\" elevation --batch --jobs 1 --dem \"$t/dem\" < \"$t/points.csv\"")
        read -r v1g_before v1g_after <<<"$(alternate_pair_ms viewshed1_before viewshed1 gdal)"
        read -r pg_before pg_after <<<"$(alternate_pair_ms panorama_before panorama gdal)"
        # elevation over gdallocationinfo, inverted below: how many times faster.
        read -r el_before el_after <<<"$(alternate_pair_ms elevation_before elevation location)"
        before_rows+=("$(python3 -c "
print(f'{\"$name\":7} {$v1g_before:5.2f} → {$v1g_after:<5.2f} {$pg_before:5.2f} → {$pg_after:<5.2f} {1 / max($el_before, 1e-3):5.2f} → {1 / max($el_after, 1e-3):<5.2f}')")")
    fi
    echo "bench-terrains: $name done" >&2
done

echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; medians of $runs, ms of ${CLOCK:-wall} time"
printf '%-7s %6s %6s %6s %6s %5s %6s %5s %6s %6s %5s %8s %6s  %s\n' terrain view view1 gdalvs "v/g" "v1/g" pano "p/g" elev gdalli "li/e" locate/s "MB" "cells visible own"
printf '%s\n' "${rows[@]}"
echo "view: tapseek viewshed (all cores), view1: --jobs 1, gdalvs: gdal_viewshed, pano: tapseek panorama,"
echo "elev: tapseek elevation --batch --jobs 1 (200 k points), gdalli: gdallocationinfo, li/e: how many times faster"
echo "tapseek is, locate/s: tapseek batch --jobs 1 readings a second, MB: viewshed peak memory (all cores),"
echo "cells visible own: the viewshed's cells judged, seen, and judged by a sightline of their own."
echo "Targets (issue 40): v/g <= 1.0, v1/g <= 1.5, p/g <= 0.67, li/e >= 5, MB <= 200."
if [ -n "${BEFORE:-}" ]; then
    echo
    echo "before ($BEFORE) → after ($tapseek), each ratio's rounds shared with the GDAL tool:"
    printf '%-7s %-13s %-13s %-13s\n' terrain "v1/g" "p/g" "li/e"
    printf '%s\n' "${before_rows[@]}"
fi
