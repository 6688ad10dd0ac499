#!/usr/bin/env bash
# Draws a viewshed over the relief it was computed on: the README's picture.
#
#   scripts/viewshed-picture.sh [OUT.png]       (default docs/images/viewshed-saentis.png; needs
#                                                 a release build and gdal-bin)
#
# Runs `tapseek viewshed` from the Säntis summit (47.2492° N, 9.3433° E, the eye at 2 504 m: 1.6 m
# above the summit's 2 502 m, swisstopo, as the 3″ DEM's surface there lies 45 m lower; 15 km) on ../shared/dem, shades the same 3″ window of N47E009.hgt with `gdaldem hillshade`
# (the viewshed's cells are centred on the tile's posts, so the two grids coincide), and tints
# the visible cells orange, the hidden ones blue-grey, the observer red. The composition is a few
# lines of Python over the two rasters' raw bytes (gdal_translate -of ENVI), written as a PPM
# that gdal_translate turns into the PNG.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/docs/images/viewshed-saentis.png}"
tapseek="$root/.build/release/tapseek"
tile="$root/../shared/dem/N47E009.hgt"
[ -x "$tapseek" ] || { echo "viewshed-picture: build first: swift build -c release --product tapseek" >&2; exit 1; }
[ -f "$tile" ] || { echo "viewshed-picture: $tile is missing" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

lat=47.2492 lon=9.3433
"$tapseek" viewshed $lat $lon --altitude 2504 --range 15000 --dem "$root/../shared/dem" -o "$work/v.tif" > "$work/summary.json"
read -r west north east south < <(gdalinfo -json "$work/v.tif" | python3 -c '
import json, sys
i = json.load(sys.stdin); t = i["geoTransform"]; w, h = i["size"]
print(t[0], t[3], t[0] + w * t[1], t[3] + h * t[5])')
gdal_translate -q -projwin "$west" "$north" "$east" "$south" "$tile" "$work/dem.tif"
gdaldem hillshade -q -z 2 -s 111120 "$work/dem.tif" "$work/shade.tif"
gdal_translate -q -of ENVI -ot Byte "$work/shade.tif" "$work/shade.img"
gdal_translate -q -of ENVI "$work/v.tif" "$work/v.img"
read -r width height < <(gdalinfo -json "$work/v.tif" | python3 -c 'import json, sys; print(*json.load(sys.stdin)["size"])')
python3 - "$work" "$width" "$height" "$lat" "$lon" "$west" "$north" "$east" "$south" <<'EOF'
import sys
work, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lat, lon, west, north, east, south = map(float, sys.argv[4:10])
shade = open(f"{work}/shade.img", "rb").read()
seen = open(f"{work}/v.img", "rb").read()
assert len(shade) == w * h and len(seen) == w * h, "the relief and the viewshed grids differ"
pixels = bytearray()
for s, v in zip(shade, seen):
    g = 0.35 + 0.65 * s / 255
    if v == 1:
        pixels += bytes((int(255 * g), int(150 * g), int(30 * g)))
    elif v == 0:
        pixels += bytes((int(120 * g), int(135 * g), int(160 * g)))
    else:
        pixels += bytes((int(60 * g),) * 3)
ox = int((lon - west) / (east - west) * w); oy = int((north - lat) / (north - south) * h)
for dy in range(-3, 4):
    for dx in range(-3, 4):
        x, y = ox + dx, oy + dy
        if 0 <= x < w and 0 <= y < h:
            pixels[3 * (y * w + x):3 * (y * w + x) + 3] = b"\xe0\x10\x10"
with open(f"{work}/picture.ppm", "wb") as f:
    f.write(b"P6\n%d %d\n255\n" % (w, h) + bytes(pixels))
EOF
gdal_translate -q -of PNG "$work/picture.ppm" "$out"
rm -f "$out.aux.xml"
echo "viewshed-picture: $out ($(cat "$work/summary.json"))"
