#!/usr/bin/env bash
# Makes the project's default DEM, dem/jacksboro.tif: real SRTM 3″ heights of the Cumberland
# Mountains around Jacksboro, Tennessee (36.16–36.45° N, 84.08–84.41° W), taken from the
# sample data Debian's python-matplotlib-data package ships. See dem/README.md.
#
# Needs: python3 (standard library only), gdal-bin (gdal_translate, gdallocationinfo),
# python-matplotlib-data. Idempotent: an existing dem/jacksboro.tif that passes the checks
# below is kept; --force rebuilds it. The file appears atomically (written aside, checked,
# then renamed), so a reader never sees half of it.
#
# Usage: scripts/make-default-dem.sh [--force] [--npz PATH]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/dem/jacksboro.tif"
force=0
npz=()
while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=1 ;;
        --npz) npz=(--npz "$2"); shift ;;
        *) echo "make-default-dem.sh: unknown argument $1 (use --force, --npz PATH)" >&2; exit 2 ;;
    esac
    shift
done

for tool in python3 gdal_translate gdallocationinfo; do
    command -v "$tool" >/dev/null || { echo "make-default-dem.sh: $tool not found (apt-get install -y gdal-bin python3)" >&2; exit 1; }
done
# Reading must not leave .aux.xml files beside the DEM.
export GDAL_PAM_ENABLED=NO

# Published heights of three places inside the DEM (latitude, longitude, metres, tolerance):
# Cross Mountain summit 36°11′54″N 84°13′50″W, 3 534 ft = 1 077 m; Jacksboro town
# 36.331511 N 84.188793 W, 1 099 ft = 335 m; LaFollette 36.375006 N 84.127623 W, 1 073 ft =
# 327 m (GNIS via Wikipedia). The tolerance covers SRTM's 3″ posts (~90 m apart) and its
# ~16 m vertical error. A DEM read upside down puts Cross Mountain at ~600 m and fails.
checks=(
    "36.19833 -84.23056 1077 15 Cross-Mountain"
    "36.331511 -84.188793 335 20 Jacksboro"
    "36.375006 -84.127623 327 20 LaFollette"
)

# Succeeds when the GeoTIFF has the expected shape and the known heights.
verify() {
    local file="$1" size
    size="$(gdalinfo "$file" 2>/dev/null | sed -n 's/^Size is \(.*\)$/\1/p')"
    [ "$size" = "403, 344" ] || { echo "$file: size '$size', expected '403, 344'" >&2; return 1; }
    local line lat lon expected tolerance name height
    for line in "${checks[@]}"; do
        read -r lat lon expected tolerance name <<<"$line"
        height="$(gdallocationinfo -valonly -wgs84 "$file" "$lon" "$lat")"
        if ! awk -v h="$height" -v e="$expected" -v t="$tolerance" 'BEGIN { d = h - e; if (h == "" || d > t || -d > t) exit 1 }'; then
            echo "$file: $name ($lat, $lon) reads '$height' m, expected $expected ± $tolerance m" >&2
            return 1
        fi
    done
}

if [ "$force" = 0 ] && [ -f "$target" ] && verify "$target" 2>/dev/null; then
    echo "dem/jacksboro.tif is already in place"
    exit 0
fi

work="$(mktemp -d)"
part="$root/dem/.jacksboro.tif.part"
trap 'rm -rf "$work" "$part"' EXIT
mkdir -p "$root/dem"

python3 "$root/scripts/make_default_dem.py" --output-directory "$work" "${npz[@]}"
gdal_translate -q -of GTiff -co COMPRESS=DEFLATE -co PREDICTOR=2 -co TILED=YES \
    -mo "SOURCE=SRTM 3 arc-second heights (NASA/NGA, public domain), from matplotlib's sample jacksboro_fault_dem.npz" \
    -mo "VERTICAL_DATUM=EGM96 (metres above mean sea level)" \
    "$work/jacksboro.vrt" "$part"
verify "$part"
mv -f "$part" "$target"
echo "made dem/jacksboro.tif"
