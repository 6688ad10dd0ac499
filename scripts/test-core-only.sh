#!/usr/bin/env bash
# Builds examples/core-only (an app that depends on the TapSeekCore product alone), checks with
# ldd and strings that its binary links neither GDAL nor PROJ, and checks that its answers equal
# `tapseek locate`'s, byte for byte, on the shared SRTM tiles (hits, skylines, a tap, failures
# of the reading and of the march), places included, and on a GeoTIFF in EPSG:4326.
#
#   scripts/test-core-only.sh        # after scripts/setup.sh
#
# Needs ../shared/dem beside the project: without it the test is skipped on a developer machine
# and fails under CI (CI=true).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shared="$root/../shared/dem"
if [ ! -f "$shared/N27E086.hgt" ] || [ ! -f "$shared/N47E009.hgt" ] || [ ! -f "$shared/N42E001.hgt.zip" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "test-core-only: ../shared/dem (N27E086.hgt, N47E009.hgt, N42E001.hgt.zip) is missing" >&2
        exit 1
    fi
    echo "test-core-only: skipped: ../shared/dem is missing (under CI this fails)" >&2
    exit 0
fi

build_log="$(mktemp /tmp/tapseek-core-build.XXXXXX)"
work="$(mktemp -d /tmp/tapseek-core-only.XXXXXX)"
trap 'rm -rf "$work" "$build_log"' EXIT
for package in examples/core-only .; do
    if ! flock /tmp/tapseek-build.lock swift build --package-path "$package" >"$build_log" 2>&1; then
        cat "$build_log" >&2
        echo "test-core-only: the build of $package failed" >&2
        exit 1
    fi
done
core="$root/examples/core-only/.build/debug/core-locate"
tapseek="$root/.build/debug/tapseek"

passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1" >&2; failed=$((failed + 1)); }

# 1. No C library of GDAL's or PROJ's, linked or named for dlopen.
linked="$(ldd "$core")"
if grep -Eq 'libgdal|libproj' <<<"$linked"; then fail "core-locate links $(grep -Eo 'lib(gdal|proj)[^ ]*' <<<"$linked" | tr '\n' ' ')"; else ok "ldd: neither libgdal nor libproj"; fi
# GDAL loaded later by name (dlopen) would not show in ldd: its function names would be in the
# binary. tapseek, which loads GDAL when a raster needs it, shows that the check can fail.
gdal_symbols='GDALGetDriverCount|GDALGetDriverShortName|proj_context_create|geod_inverse'
if grep -Eq "$gdal_symbols" <<<"$(strings "$core")"; then fail "core-locate names GDAL or PROJ functions"; else ok "strings: no GDAL or PROJ function to look up"; fi
if grep -Eq "$gdal_symbols" <<<"$(strings "$tapseek")"; then ok "control: tapseek names GDAL's functions"; else fail "control: tapseek names no GDAL function"; fi

# 2. The same answers on the shared SRTM tiles (linked, never copied).
mkdir "$work/dem"
for tile in "$shared"/*.hgt "$shared"/*.hgt.zip; do ln -s "$tile" "$work/dem/"; done
export TAPSEEK_GEOCODER="$root/data/build/geocoder-index.bin"
[ -f "$TAPSEEK_GEOCODER" ] || { echo "test-core-only: $TAPSEEK_GEOCODER is missing: run scripts/setup.sh" >&2; exit 1; }
readings=(
    '{"id":"everest","location":{"latitude":27.9957,"longitude":86.8285},"orientation":{"heading":100,"pitch":12}}'
    '{"id":"everest-tap","time":"2026-05-01T06:00:00Z","location":{"latitude":27.95,"longitude":86.85,"altitude":5600},"orientation":{"heading":80,"pitch":5,"roll":2,"headingReference":"magnetic"},"camera":{"horizontalFOV":60,"imageWidth":1000,"imageHeight":750},"tap":{"x":600,"y":300}}'
    '{"id":"saentis","time":"2026-07-14T09:30:00Z","location":{"latitude":47.30,"longitude":9.30},"orientation":{"heading":240,"pitch":2}}'
    '{"id":"saentis-sky","location":{"latitude":47.25,"longitude":9.34,"altitudeReference":"ellipsoid","altitude":2550},"orientation":{"heading":30,"pitch":-1}}'
    '{"id":"pyrenees-zip","location":{"latitude":42.5,"longitude":1.5},"orientation":{"heading":90,"pitch":1}}'
    '{"id":"new-zealand-1s","location":{"latitude":-37.5,"longitude":178.5},"orientation":{"heading":0,"pitch":-1}}'
    '{"id":"provence","location":{"latitude":43.5,"longitude":6.5},"orientation":{"heading":45,"pitch":0}}'
    '{"id":"standing","location":{"latitude":47.2494,"longitude":9.3433}}'
    '{"id":"outside","location":{"latitude":10,"longitude":10},"orientation":{"heading":0,"pitch":0}}'
)
statuses=""
for reading in "${readings[@]}"; do
    id="$(sed -E 's/.*"id":"([^"]*)".*/\1/' <<<"$reading")"
    set +e
    expected="$("$tapseek" locate - --dem "$work/dem" <<<"$reading" 2>/dev/null)"; expected_status=$?
    actual="$("$core" "$work/dem" <<<"$reading" 2>"$work/stderr")"; actual_status=$?
    set -e
    if [ -z "$expected" ] && [ "$expected_status" = 0 ]; then fail "$id: tapseek printed nothing"
    elif [ "$expected" != "$actual" ]; then fail "$id: core-locate differs"$'\n'"  tapseek: $expected"$'\n'"  core:    $actual"$'\n'"  $(cat "$work/stderr")"
    elif [ $(( expected_status != 0 )) != $(( actual_status != 0 )) ]; then fail "$id: exit status $actual_status, tapseek's $expected_status"
    else ok "$id: $(grep -o '"status":"[a-z]*"' <<<"$actual" || echo "refused: $(cat "$work/stderr")")"; fi
    statuses+="$(grep -o '"status":"[a-z]*"' <<<"$actual" || true) "
done
# Every status was seen, so the comparison covered hits, skylines and failures.
for s in hit horizon error; do
    if grep -q "\"$s\"" <<<"$statuses"; then ok "covers status $s"; else fail "no reading gives status $s ($statuses)"; fi
done

# 3. GeoTIFFs in EPSG:4326 are read by TapSeekCore itself, with the same answer as tapseek's
# (issue 30); a projected GeoTIFF is skipped with a warning, never read silently wrong.
mkdir "$work/geotiff"
ln -s "$shared/N46E008.tif" "$shared/N43E006_3857.tiff" "$work/geotiff/"
reading='{"id":"eiger-geotiff","location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":20}}'
expected="$("$tapseek" locate - --dem "$work/geotiff" <<<"$reading" 2>/dev/null || true)"
actual="$("$core" "$work/geotiff" <<<"$reading" 2>"$work/stderr" || true)"
if [ -n "$actual" ] && [ "$expected" = "$actual" ]; then ok "a GeoTIFF in EPSG:4326: $(grep -o '"status":"[a-z]*"' <<<"$actual")"
else fail "GeoTIFF: core-locate differs"$'\n'"  tapseek: $expected"$'\n'"  core:    $actual"; fi
if grep -q "skipping .*N43E006_3857.tiff: not an SRTM tile" "$work/stderr"; then
    ok "a projected GeoTIFF is skipped with a warning"
else
    fail "no warning for the projected GeoTIFF: $(cat "$work/stderr")"
fi

echo "test-core-only: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
