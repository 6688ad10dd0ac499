#!/usr/bin/env bash
# Side by side: `tapseek geocode --batch --jobs 1` against PyPI reverse_geocoder (its k-d tree
# over GeoNames cities1000, one core) on the same points, in the same run.
#
#   scripts/bench-geocoder.sh [POINTS [ROUNDS]]   # default 1 000 000 points, 3 rounds
#
# The two run alternately, ROUNDS times each, and every round's ratio is printed with their
# median: on a shared host the speed of both moves by tens of per cent from minute to minute, and
# only runs made in the same minutes compare.
#
# Points are uniform on the sphere and kept where the index finds a country (land and
# territorial sea), from a fixed seed. reverse_geocoder is timed warm (its tree built before the
# clock starts, mode=1: one process) and answers only the nearest town; tapseek is timed end to
# end (process start, CSV in, full placemarks as JSON Lines out). Needs a release build of
# tapseek and the geocoder index; installs reverse_geocoder into .build-bench/venv (git-ignored).
set -euo pipefail
count="${1:-1000000}"
rounds="${2:-3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.build-bench"
venv="$work/venv"
tapseek="$root/.build/release/tapseek"
mkdir -p "$work"
[[ -x $tapseek ]] || (cd "$root" && swift build -c release --product tapseek >/dev/null)
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import reverse_geocoder' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "reverse_geocoder==1.5.1" >/dev/null
fi

points="$work/points-$count.csv"
if [[ ! -s $points ]]; then
    # Candidates uniform on the sphere; the index keeps those in a country.
    "$venv/bin/python" - "$((count * 4))" "$work/candidates.csv" <<'PY'
import math, random, sys
random.seed(20261125)
with open(sys.argv[2], "w") as f:
    for _ in range(int(sys.argv[1])):
        f.write(f"{math.degrees(math.asin(2 * random.random() - 1)):.6f},{360 * random.random() - 180:.6f}\n")
PY
    "$tapseek" geocode --batch --jobs 2 <"$work/candidates.csv" \
        | "$venv/bin/python" -c '
import json, sys
n = int(sys.argv[1]); kept = 0
for line in sys.stdin:
    # Read to the end: leaving early would kill tapseek with SIGPIPE, and pipefail this script.
    if kept == n:
        continue
    r = json.loads(line)
    if "isoCountryCode" in r:
        print(r["latitude"], r["longitude"], sep=","); kept += 1
' "$count" >"$points"
fi
echo "points: $(wc -l <"$points") (uniform on the sphere, in a country)"

ratios=()
for round in $(seq 1 "$rounds"); do
    tapseek_seconds=$( { /usr/bin/time -f "%e" "$tapseek" geocode --batch --jobs 1 <"$points" >/dev/null; } 2>&1 | tail -1)
    rg_seconds=$("$venv/bin/python" - "$points" <<'PY'
import csv, sys, time
import reverse_geocoder as rg
points = [(float(a), float(b)) for a, b in csv.reader(open(sys.argv[1]))]
rg.search([points[0]], mode=1, verbose=False)          # builds the tree before timing
start = time.perf_counter()
rg.search(points, mode=1, verbose=False)
print(f"{time.perf_counter() - start:.3f}")
PY
    )
    ratios+=("$(python3 - "$(wc -l <"$points")" "$tapseek_seconds" "$rg_seconds" "$round" <<'PY'
import sys
n, t, r, k = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print(f"round {k}: tapseek geocode --batch --jobs 1, end to end {t:.2f} s = {n / t / 1e6:.2f} M placemarks/s; "
      f"reverse_geocoder mode=1, warm, {r:.2f} s = {n / r / 1e6:.2f} M nearest towns/s", file=sys.stderr)
print(f"{r / t:.2f}")
PY
    )")
done
python3 - "${ratios[@]}" <<'PY'
import statistics, sys
ratios = [float(x) for x in sys.argv[1:]]
print(f"tapseek / reverse_geocoder: {', '.join(f'{x:.2f}x' for x in ratios)} (median {statistics.median(ratios):.2f}x)")
PY
