#!/bin/sh
# Measures `tapseek report` on generated logs over the shared Eiger tile (N46E008): the time
# the page takes beyond the batch itself, the page's size, and when headless chromium has the
# map and table drawn (the page sets <body data-ready-ms> then; performance.now() counts from
# navigation). Logs and pages go to /tmp. Usage: scripts/bench-report.sh [COUNT…]
# (default 10000 100000). Uses .build/release/tapseek (or $TAPSEEK_BINARY).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tapseek=${TAPSEEK_BINARY:-$root/.build/release/tapseek}
dem=/tmp/tapseek-bench-report/dem
mkdir -p "$dem"
ln -sf "$root/../shared/dem/N46E008.tif" "$dem/N46E008.tif"
[ $# -gt 0 ] || set -- 10000 100000
for count in "$@"; do
    log=/tmp/tapseek-bench-report/short$count.jsonl
    page=/tmp/tapseek-bench-report/report$count.html
    [ -s "$log" ] || python3 "$root/scripts/generate-batch-log.py" short --count "$count" -o "$log"
    start=$(date +%s.%N)
    "$tapseek" batch "$log" --dem "$dem" > /dev/null 2>&1
    batch=$(echo "$(date +%s.%N) - $start" | bc)
    start=$(date +%s.%N)
    "$tapseek" report "$log" --dem "$dem" -o "$page" 2> /tmp/tapseek-bench-report/report.err
    report=$(echo "$(date +%s.%N) - $start" | bc)
    size=$(stat -c %s "$page")
    profile=$(mktemp -d)
    ready=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
        --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' --window-size=1400,900 \
        --dump-dom "file://$page" 2>/dev/null | grep -o 'data-ready-ms="[0-9]*"' | grep -o '[0-9]*' || echo "?")
    rm -rf "$profile"
    printf '%7d readings: batch %.2f s, report %.2f s (%.2f s beyond the batch), page %.1f MB, drawn in chromium after %s ms\n' \
        "$count" "$batch" "$report" "$(echo "$report - $batch" | bc)" "$(echo "$size / 1000000" | bc -l)" "$ready"
    sed 's/^/    /' /tmp/tapseek-bench-report/report.err
done
