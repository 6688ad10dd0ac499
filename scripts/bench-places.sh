#!/usr/bin/env bash
# The places index (tapseek places import) and the naming it adds to a locate:
#
#   scripts/bench-places.sh [--synthetic ROWS] [READINGS [ROUNDS]]
#
# 1. Import of the real Swiss GeoNames dump (../shared/gazetteer/CH.txt, 24 971 rows): wall
#    time, peak memory (/usr/bin/time -v) and index size.
# 2. With --synthetic ROWS (e.g. 13000000, allCountries' size): a dump of that many rows of
#    allCountries' shape (its classes in its proportions: P 36 %, S 20 %, H 18 %, T 15 %, L,
#    A, V, R, U the rest; a fifth with alternate names, some of them long lists in many
#    scripts) is generated on the fly in $TMPDIR, imported the same way, and deleted.
# 3. Lookup cost: READINGS readings (default 20 000) looking at the Alpstein from 10 km
#    (every one hits terrain among named summits, the costly case) located by
#    `batch --jobs 1` with and without the index, ROUNDS times (default 5) alternately; the
#    difference per reading of the medians, and of the fastest runs, is what naming adds to a
#    locate (on a shared host, a few µs of noise either way).
#
# Needs a release build of tapseek (built when missing), ../shared/gazetteer and ../shared/dem.
set -euo pipefail
synthetic=0
if [[ ${1:-} == --synthetic ]]; then synthetic="$2"; shift 2; fi
readings="${1:-20000}"
rounds="${2:-5}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$root/../shared"
tapseek="$root/.build/release/tapseek"
source "$root/scripts/timing.sh"
[[ -x $tapseek ]] || (cd "$root" && swift build -c release --product tapseek >/dev/null)
work="$(mktemp -d "${TMPDIR:-/tmp}/tapseek-bench-places.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Elapsed seconds and peak resident MiB of one import into a fresh data directory.
measure_import() {
    local data="$work/data-$1"; shift
    mkdir -p "$data"
    /usr/bin/time -v "$tapseek" places import "$@" --data "$data" 2>"$work/time.txt" >/dev/null
    local elapsed rss
    elapsed=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time.txt")
    echo "import $(basename "$1"): ${elapsed} s, peak ${rss} MiB, index $(( $(stat -c %s "$data/places-index.bin") / 1024 )) KiB, $(grep -o 'imported [0-9]* features' "$work/time.txt")"
}

measure_import ch "$shared/gazetteer/CH.txt"

if (( synthetic > 0 )); then
    dump="$work/allCountries.txt"
    python3 - "$synthetic" "$dump" <<'PY'
import random, sys
random.seed(20261128)
n, path = int(sys.argv[1]), sys.argv[2]
classes = [("P", "PPL", 36), ("S", "HTL", 4), ("S", "SCH", 16), ("H", "STM", 10), ("H", "LK", 4), ("H", "GLCR", 1), ("H", "SPNG", 3),
           ("T", "MT", 6), ("T", "HLL", 5), ("T", "PK", 2), ("T", "PASS", 1), ("T", "VAL", 1), ("L", "AREA", 4), ("A", "ADM4", 4),
           ("V", "FRST", 2), ("R", "RD", 1)]
weights = [c[2] for c in classes]
syllables = ["ka", "lo", "mi", "ber", "stein", "horn", "san", "tis", "ä", "ö", "ü", "é", "rio", "mon", "te", "al", "pe", "ra", "ni", "go"]
scripts = ["Гора", "山", "جبل", "Όρος", "הר", "पर्वत"]
countries = ["CH", "AT", "DE", "FR", "IT", "US", "CN", "RU", "IN", "BR", "NO", "NP", "CA", "AU", "JP", ""]
def name():
    return "".join(random.choice(syllables) for _ in range(random.randint(2, 4))).capitalize()
with open(path, "w", encoding="utf-8") as f:
    for i in range(n):
        c = random.choices(classes, weights)[0]
        nm = name()
        alts = ""
        r = random.random()
        if r < 0.15:
            alts = ",".join(name() for _ in range(random.randint(1, 4)))
        elif r < 0.2:
            alts = ",".join([name() for _ in range(10)] + [s + " " + nm for s in scripts])
        lat = random.uniform(-60, 75); lon = random.uniform(-180, 180)
        elev = str(random.randint(0, 6000)) if c[0] == "T" and random.random() < 0.4 else ""
        f.write(f"{i + 1}\t{nm}\t{nm}\t{alts}\t{lat:.5f}\t{lon:.5f}\t{c[0]}\t{c[1]}\t{random.choice(countries)}\t\t00\t\t\t\t0\t{elev}\t{random.randint(0, 5000)}\tEtc/UTC\t2024-01-01\n")
PY
    echo "synthetic dump: $synthetic rows, $(( $(stat -c %s "$dump") >> 20 )) MiB"
    measure_import all "$dump"
    rm -f "$dump"
fi

# Readings from 10 km north-west of the Säntis, each looking at a summit of the dump 3–15 km
# away (its GeoNames point and elevation, the view a little jittered): the costly case, where
# the hit lies among summits that the rule reads the DEM around.
python3 - "$readings" "$shared/gazetteer/CH.txt" >"$work/readings.jsonl" <<'PY'
import json, math, random, sys
random.seed(7)
lat0, lon0, alt0 = 47.2943, 9.2275, 1250.0
summits = []
for line in open(sys.argv[2], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) != 19 or f[7] not in ("MT", "PK", "HLL") or not f[15]:
        continue
    lat, lon, elev = float(f[4]), float(f[5]), float(f[15])
    y = (lat - lat0) * 111195; x = (lon - lon0) * 111195 * math.cos(math.radians(lat0)); d = math.hypot(x, y)
    if 3000 <= d <= 15000:
        summits.append((math.degrees(math.atan2(x, y)) % 360, math.degrees(math.atan2(elev - alt0 - d * d / 2 / 6371000 * 0.87, d))))
for i in range(int(sys.argv[1])):
    az, el = summits[i % len(summits)]
    print(json.dumps({"location": {"latitude": lat0, "longitude": lon0, "altitude": alt0},
                      "orientation": {"heading": az + random.uniform(-0.05, 0.05), "pitch": el + random.uniform(-0.05, 0.05),
                                      "roll": 0, "headingReference": "true"}}))
PY
named=$(TAPSEEK_DATA="$work/data-ch" "$tapseek" batch "$work/readings.jsonl" --dem "$shared/dem" --jobs 1 | grep -c '"nameKind"' || true)
echo "readings: $readings, named: $named"
mkdir -p "$work/empty"
with=(); without=()
for ((r = 0; r < rounds; r++)); do
    without+=("$(TAPSEEK_DATA="$work/empty" time_ms "$tapseek" batch "$work/readings.jsonl" --dem "$shared/dem" --jobs 1)")
    with+=("$(TAPSEEK_DATA="$work/data-ch" time_ms "$tapseek" batch "$work/readings.jsonl" --dem "$shared/dem" --jobs 1)")
done
a=$(printf '%s\n' "${without[@]}" | median); b=$(printf '%s\n' "${with[@]}" | median)
amin=$(printf '%s\n' "${without[@]}" | sort -n | head -1); bmin=$(printf '%s\n' "${with[@]}" | sort -n | head -1)
per() { awk -v a="$1" -v b="$2" -v n="$readings" 'BEGIN { printf "%.2f", (b - a) * 1000 / n }'; }
echo "batch --jobs 1: ${a} ms without the index, ${b} ms with it (medians of $rounds): $(per "$a" "$b") µs added per locate"
echo "batch --jobs 1: ${amin} ms without, ${bmin} ms with (fastest of $rounds): $(per "$amin" "$bmin") µs added per locate"
