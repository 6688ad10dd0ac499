#!/usr/bin/env bash
# Throughput of scripts/spark_batch.py in local[2] against plain `tapseek batch --jobs 2`, on the
# same inputs, on this machine's 2 cores (release build; run it on an otherwise idle machine).
#
#   scripts/bench-spark.sh [MIXED_COUNTS…]     # default: 100000 1000000
#   MASTERS='local[1] local[2]' scripts/bench-spark.sh 1000000     # also how it scales with cores
#
# Inputs (in /tmp, never in the repository): `generate-batch-log.py mixed` logs of each count
# (short sightlines, readings outside the DEM, location-only records, a broken line in 97), and
# 4 000 readings of 30 km sightlines located with --uncertainty (1 000 samples each): cheap and
# costly readings. Prints one line per run: readings, seconds, readings/s, Spark's overhead in
# time against plain batch. Needs ../shared/dem.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100000 1000000)
shared="$root/../shared/dem"
scripts/setup-spark.sh
flock /tmp/tapseek-build.lock swift build -c release --static-swift-stdlib --product tapseek >/dev/null
tapseek="$root/.build/release/tapseek"
python="$root/.build-spark/venv/bin/python"
work="$(mktemp -d /tmp/tapseek-bench-spark.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/dem"
ln -s "$root/dem/jacksboro.tif" "$shared/N46E008.tif" "$shared/N27E086.hgt" "$work/dem/"

now() { date +%s.%N; }
calc() { python3 -c "print(format($1, '$2'))"; }
measure() {   # NAME INPUT [BATCH OPTIONS…]
    local name=$1 input=$2; shift 2
    local n start plain spark
    n=$(wc -l < "$input")
    start=$(now)
    "$tapseek" batch "$input" --dem "$work/dem" --jobs 2 "$@" > "$input.plain" 2>/dev/null
    plain=$(calc "$(now) - $start" .2f)
    echo "$name: $n readings; plain --jobs 2: $plain s ($(calc "$n / $plain" .0f)/s)"
    for master in ${MASTERS:-local[2]}; do
        rm -rf "$input.out"
        start=$(now)
        "$python" scripts/spark_batch.py "$input" "$input.out" --dem "$work/dem" --tapseek "$tapseek" \
            --master "$master" -- "$@" 2>/dev/null
        spark=$(calc "$(now) - $start" .2f)
        cat "$input.out"/part-* | cmp -s - "$input.plain" || echo "bench-spark: $name: outputs differ" >&2
        echo "$name: $n readings; spark $master: $spark s ($(calc "$n / $spark" .0f)/s);" \
             "time over plain: $(calc "($spark - $plain) * 100 / $plain" +.0f) %"
    done
}

for count in "${counts[@]}"; do
    python3 scripts/generate-batch-log.py mixed --count "$count" -o "$work/mixed-$count.jsonl" 2>/dev/null
    measure "mixed" "$work/mixed-$count.jsonl"
done
python3 scripts/generate-batch-log.py long --count 4000 --dem "$shared" -o "$work/long.jsonl" 2>/dev/null
measure "30 km, --uncertainty 1000 samples" "$work/long.jsonl" --uncertainty
