#!/usr/bin/env bash
# Fuzzes the polyline codec with libFuzzer + AddressSanitizer for SECONDS seconds.
#   scripts/fuzz-polyline.sh 600
# Builds into .build-fuzz/ (git-ignored), keeps its growing corpus there between runs, and
# leaves any crashing input in .build-fuzz/polyline-artifacts/. Exits non-zero on a crash.
set -euo pipefail

seconds="${1:?usage: scripts/fuzz-polyline.sh SECONDS}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.build-fuzz"
corpus="$work/polyline-corpus"
artifacts="$work/polyline-artifacts"
binary="$work/polyline-fuzz"
mkdir -p "$corpus" "$artifacts"

# -Onone keeps the standard library's debug bounds checks on unsafe buffers, so an
# out-of-bounds index traps even where AddressSanitizer would see only the array's slack.
swiftc -sanitize=fuzzer,address -parse-as-library -Onone -g \
    -module-name PolylineFuzz \
    "$root"/Sources/TapSeekCore/Polyline/*.swift \
    "$root"/Fuzz/PolylineFuzz.swift \
    -o "$binary"

# Seeds: Google's documented example and an OSRM-style path, for decoding (even first byte)
# and, as raw doubles, for encoding (odd first byte). The first byte also picks the precision.
printf '\x0a%s' '_p~iF~ps|U_ulLnnqC_mqNvxq`@' >"$corpus/seed-google-example"
printf '\x0c%s' '_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI' >"$corpus/seed-osrm-precision6"
printf '\x0a%s' '??' >"$corpus/seed-origin"
printf '\x0b' >"$corpus/seed-encode-empty"
python3 - "$corpus/seed-encode-poles" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(bytes([0x0B]) + struct.pack("<6d", 90.0, 180.0, -90.0, -180.0, 0.000005, -0.000015))
PY

# Swift's backtracer would otherwise wait on a crash instead of letting libFuzzer report it.
export SWIFT_BACKTRACE=enable=no
exec "$binary" \
    -max_total_time="$seconds" \
    -print_final_stats=1 \
    -max_len=4096 \
    -artifact_prefix="$artifacts/" \
    "$corpus"
