#!/usr/bin/env bash
# Fuzzes TapSeek's parsers with libFuzzer + AddressSanitizer, one target after another, each for
# SECONDS seconds, and prints a table: target, executions, seconds, crashes, peak RSS.
#
#   scripts/fuzz.sh SECONDS [TARGET...]      # all targets when none is named
#   nice -n 19 scripts/fuzz.sh 600           # the release check: ten minutes each
#
# Targets (one file each in Fuzz/, plus Fuzz/FuzzSupport.swift):
#   reading       reading JSON (ReadingDecoder, JSONScanner), with the encoder round trip
#   aim           `tapseek aim` requests (AimRequest)
#   sensorlog     SensorLog CSV importer
#   sensorlogger  Sensor Logger importer: CSV streams, and zip exports (ZipMembers, Inflate)
#   phyphox       phyphox importer with its meta/time.csv
#   gpslogger     GPSLogger CSV importer
#   csv           the line reader and CSV layer under every importer, format detection
#   coordinates   `elevation --batch` / `geocode --batch` lat,lon lines (CoordinateLine)
#   geocoder      the geocoder index loader and its look-ups (GeocoderIndex)
#   polyline      the polyline codec
#   gtx           the GTX geoid grid reader (GTXGrid)
#   gzip          the gzip reader of downloaded .hgt.gz tiles (GzipMember, Inflate)
#   photo         a photo's metadata: JPEG segments, EXIF/TIFF directories, XMP, HEIF boxes
#   geotiff       the GeoTIFF reader (GeoTIFFTile): TIFF/BigTIFF directories, GeoKeys, DEFLATE,
#                 LZW, PackBits, predictors
#
# Everything goes to .build-fuzz/ (git-ignored): the binaries, each target's growing corpus
# (<target>-corpus), the seeds it starts from (<target>-seeds, rebuilt every run from the sample
# logs in ../shared/sensorlogs, examples/ and data/build/ when present), crashing inputs
# (<target>-artifacts) and the run's log (<target>.log). Each target runs in libFuzzer's fork
# mode, so a crash is recorded and the run goes on to its full time; an input that needs more
# than 400 MB (-rss_limit_mb, the hardening issue's memory bound) or runs longer than 10 s
# counts as a crash too. Exits non-zero when any target found one.
#
# Builds take /tmp/tapseek-build.lock (shared with package builds) and all happen before the
# first run; the fuzzers themselves run at nice 19.
set -euo pipefail

all_targets=(reading aim sensorlog sensorlogger phyphox gpslogger csv coordinates geocoder polyline gtx gzip photo geotiff)
seconds="${1:?usage: scripts/fuzz.sh SECONDS [TARGET...] (targets: ${all_targets[*]})}"
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.build-fuzz"
samples="$root/../shared/sensorlogs"
mkdir -p "$work/core"

source_file() {
    case "$1" in
        reading) echo ReadingFuzz ;;
        aim) echo AimRequestFuzz ;;
        sensorlog) echo SensorLogFuzz ;;
        sensorlogger) echo SensorLoggerFuzz ;;
        phyphox) echo PhyphoxFuzz ;;
        gpslogger) echo GPSLoggerFuzz ;;
        csv) echo CSVFuzz ;;
        coordinates) echo CoordinateLineFuzz ;;
        geocoder) echo GeocoderIndexFuzz ;;
        polyline) echo PolylineFuzz ;;
        gtx) echo GTXGridFuzz ;;
        gzip) echo GzipFuzz ;;
        photo) echo PhotoMetadataFuzz ;;
        geotiff) echo GeoTIFFFuzz ;;
        *) echo "unknown target $1 (targets: ${all_targets[*]})" >&2; return 1 ;;
    esac
}

max_len() {
    case "$1" in
        sensorlog | sensorlogger | phyphox | geocoder | photo | geotiff) echo 16384 ;;
        coordinates) echo 1024 ;;
        *) echo 4096 ;;
    esac
}

for target in "${targets[@]}"; do source_file "$target" >/dev/null; done

# --- Build: TapSeekCore once (with -enable-testing, so that targets reach internal parsers),
# then one small binary per target. -Onone keeps the standard library's bounds checks on unsafe
# buffers, so an out-of-bounds index traps even where AddressSanitizer sees only slack.
flags=(-sanitize=fuzzer,address -parse-as-library -Onone -g)
echo "building TapSeekCore for fuzzing…"
(
    cd "$work/core"
    flock /tmp/tapseek-build.lock swiftc "${flags[@]}" -enable-testing \
        -emit-library -static -emit-module -module-name TapSeekCore \
        $(find "$root/Sources/TapSeekCore" -name '*.swift' | sort) -o libTapSeekCore.a
)
for target in "${targets[@]}"; do
    echo "building $target…"
    flock /tmp/tapseek-build.lock swiftc "${flags[@]}" -module-name "$(source_file "$target")" \
        -I "$work/core" -L "$work/core" -lTapSeekCore \
        "$root/Fuzz/FuzzSupport.swift" "$root/Fuzz/$(source_file "$target").swift" \
        -o "$work/$target-fuzz"
done

# --- Seeds, rebuilt each run (the samples are not ours to commit; .build-fuzz is ignored).
# Importer targets take a first control byte (line chunking; bit 7 of sensorlogger's picks zip).
with_control() { # BYTE FILE... > out: the control byte, then the files joined by NUL bytes
    local byte="$1"; shift
    printf "\\x$byte"
    local first=1
    for f in "$@"; do
        [[ $first -eq 1 ]] || printf '\0'
        first=0
        cat "$f"
    done
}

seed() {
    local target="$1" dir="$work/$1-seeds"
    rm -rf "$dir"
    mkdir -p "$dir"
    case "$target" in
        reading)
            cp "$root"/examples/*.json "$dir/"
            printf '{"location":{"latitude":46.5,"longitude":8}}' >"$dir/location-only"
            printf '{"id":"x","time":"2024-05-01T10:00:00.123+02:00","location":{"latitude":-33.9,"longitude":151.2,"altitude":12,"altitudeReference":"ellipsoid","eyeHeight":0},"orientation":{"heading":-20,"headingReference":"magnetic","pitch":-3.5,"roll":1e-3},"camera":{"horizontalFOV":70,"imageWidth":100,"imageHeight":80},"skyline":[{"x":0,"y":1},{"x":100,"y":80}],"landmarks":[{"x":5,"y":6,"latitude":-33.8,"longitude":151.3,"elevation":100}]}' >"$dir/full"
            ;;
        aim)
            printf '{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26},"camera":{"horizontalFOV":63.7,"imageWidth":4032,"imageHeight":3024},"target":{"latitude":46.5775,"longitude":8.005,"elevation":3967}}' >"$dir/position"
            printf '{"location":{"latitude":46.624,"longitude":8.041},"target":{"name":"Eiger"}}' >"$dir/named"
            ;;
        sensorlog)
            with_control 00 "$samples/sensorlog_ios_iphoneX_2018.csv" >"$dir/sample"
            with_control 15 "$samples/sensorlog_ios_iphoneX_2018.csv" >"$dir/sample-chunked"
            ;;
        gpslogger)
            with_control 00 "$samples/gpslogger_android_2017.csv" >"$dir/sample"
            with_control 15 "$samples/gpslogger_android_2017.csv" >"$dir/sample-chunked"
            ;;
        phyphox)
            with_control 00 "$samples/phyphox_location.csv" "$samples/phyphox_meta_time.csv" >"$dir/with-time"
            with_control 05 "$samples/phyphox_location.csv" >"$dir/location-only"
            ;;
        sensorlogger)
            for export in sensorlogger_ios_2022 sensorlogger_android_2024; do
                local location="$samples/$export/Location.csv"
                [[ -f $location ]] || location=/dev/null
                local orientation="$samples/$export/Orientation.csv"
                with_control 00 "$samples/$export/Metadata.csv" "$orientation" "$location" >"$dir/$export-streams"
            done
            python3 - "$samples" "$dir" <<'PY'
import os, sys, zipfile
samples, out = sys.argv[1], sys.argv[2]
for export in ("sensorlogger_ios_2022", "sensorlogger_android_2024"):
    folder = os.path.join(samples, export)
    for method, name in ((zipfile.ZIP_DEFLATED, "deflated"), (zipfile.ZIP_STORED, "stored")):
        path = os.path.join(out, f"{export}-{name}.zip")
        with zipfile.ZipFile(path, "w", compression=method) as z:
            for member in sorted(os.listdir(folder)):
                z.write(os.path.join(folder, member), f"{export}/{member}")
        data = open(path, "rb").read()
        os.remove(path)
        open(path + ".seed", "wb").write(b"\x80" + data)
PY
            ;;
        csv)
            for f in "$samples"/*.csv "$samples"/*/*.csv; do
                with_control 00 "$f" >"$dir/$(basename "$(dirname "$f")")-$(basename "$f")"
            done
            printf '\x11a;"b;""c";d\r\n1;"2;3";4\n\xef\xbb\xbf\n\xff\xfe\n' >"$dir/quoting"
            ;;
        coordinates)
            printf '46.5,8.0\n -33.865 ,\t151.209\r\n1e1,2E-1\n0.12345678901234567,-179.99999999999999\nnan,inf\n' >"$dir/lines"
            ;;
        geocoder)
            if [[ -f $root/data/build/geocoder-index.bin ]]; then
                { printf '\x00'; head -c 1024 "$root/data/build/geocoder-index.bin"; } >"$dir/real-index-head"
            fi
            python3 - "$dir/tiny-index" <<'PY'
import json, math, struct, sys
def u32(*v): return struct.pack("<%dI" % len(v), *v)
strings = [s.encode() for s in ("Switzerland", "Bern", "Thun", "Interlaken", "Frutigen", "Europe/Zurich")]
offsets, at = [], 0
for s in strings:
    offsets.append(at); at += len(s)
offsets.append(at)
places = [(46.75, 7.63, 2), (46.69, 7.86, 3), (46.59, 7.65, 4)]
kd, names = b"", b""
for axis, (lat, lon, name) in enumerate(places):
    p, l = math.radians(lat), math.radians(lon)
    kd += struct.pack("<4f", math.cos(p) * math.cos(l), math.cos(p) * math.sin(l), math.sin(p), axis % 3)
    names += u32(name, 0xFFFFFFFF if name != 2 else 1)
run = u32(3, 0) + struct.pack("<6f", 7.5, 46.5, 7.75, 46.75, 8.0, 46.5)
candidate = u32(0 | 1 << 16, 1) + run
leaf = u32(1 | 0xFFFF << 16, 8 + len(candidate)) + candidate
sections = [
    json.dumps({"placeBucket": 2, "openSeaMarginMetres": 20000, "zoneLayers": 2, "regionFringeMetres": 20000}).encode(),
    u32(len(strings)) + u32(*offsets) + b"".join(strings),
    u32(1) + b"CH\0\0" + u32(0, 0, len(places)),
    u32(1) + struct.pack("<IHH", 1, 0, 0),
    kd,
    names,
    u32(1 << 30, 2 << 30, 3 << 30, 1),          # CGRD: owner, node, leaf, open sea, repeated
    u32(3 << 30, 1 << 30, 0, 3 << 30),          # CNOD: one node
    leaf,                                       # CLEF
    u32(3 << 30, 1 << 30),                      # RGRD
    b"",                                        # RNOD
    leaf,                                       # RLEF
    # ZONE: a zone of country 0, and an override of it in the second layer (name, country,
    # rank, base, layer).
    u32(2) + struct.pack("<IHHHH", 5, 0, 1, 0xFFFF, 0) + struct.pack("<IHHHH", 5, 0, 0, 0, 1),
    u32(1 << 30, 2 << 30, 3 << 30, 1),          # Z0GRD
    u32(3 << 30, 1 << 30, 0, 3 << 30),          # Z0NOD
    leaf,                                       # Z0LEF
    u32(0, 3 << 30 | 0, 1 << 30 | 1),           # Z1GRD: empty, leaf, the override
    b"",                                        # Z1NOD
    leaf.replace(u32(0 | 1 << 16, 1), u32(1 | 1 << 16, 1)),  # Z1LEF: the override's leaf
    u32(1 << 30 | 0, 2 << 30, 0),               # AGRD: an answer, a node, the long way
    u32(1 << 30 | 0, 1 << 30 | 2, 0, 1 << 30 | 2),  # ANOD: one node
    u32(0 | 1 << 16, 1, 1 | 2 << 16, 0, 2),     # AREC: answer 0 with place 1; answer 1 with 0 and 2
    u32(2) + struct.pack("<4H", 0, 0, 0, 0) + struct.pack("<4H", 0, 0, 0xFFFE, 0),  # ATUP
]
with open(sys.argv[1], "wb") as f:
    f.write(b"\x01" + b"".join(struct.pack("<H", len(s)) + s for s in sections))
PY
            ;;
        gtx)
            # A 3 × 2 grid with a missing post, and one whose header claims more than it holds.
            python3 - "$dir" <<'PY'
import struct, sys
def gtx(rows, columns, values):
    return struct.pack(">4d2i", -10.0, 20.0, 0.5, 0.5, rows, columns) + b"".join(struct.pack(">f", v) for v in values)
open(sys.argv[1] + "/small", "wb").write(gtx(3, 2, [1, 2, 3, -88.8888, 5, 6]))
open(sys.argv[1] + "/short", "wb").write(gtx(300, 200, [1, 2]))
PY
            ;;
        gzip)
            # gzip's own output (with a name), a bare header, and a run of zeros (a small bomb).
            head -c 3000 /dev/urandom >"$dir/noise.bin"
            printf 'Säntis 2502 m %.0s' $(seq 200) >"$dir/text.txt"
            gzip -c "$dir/text.txt" >"$dir/text.gz"
            gzip -c -n "$dir/noise.bin" >"$dir/noise.gz"
            head -c 2000000 /dev/zero | gzip -1 -n >"$dir/zeros.gz"
            rm "$dir/noise.bin" "$dir/text.txt"
            ;;
        photo)
            # A tiny JPEG with a phone's EXIF (both byte orders) and a drone's XMP, and a HEIC,
            # written by Debian's exiftool and heif-enc from a one-colour image.
            printf 'P6\n16 12\n255\n' >"$dir/grey.ppm"
            head -c 576 /dev/zero | tr '\0' '\200' >>"$dir/grey.ppm"
            if gdal_translate -q -of JPEG "$dir/grey.ppm" "$dir/phone.jpg" 2>/dev/null; then
                rm -f "$dir"/*.aux.xml
                exiftool -q -overwrite_original -GPSLatitude=46.62 -GPSLatitudeRef=N -GPSLongitude=8.04 -GPSLongitudeRef=E \
                    -GPSAltitude=1034 -GPSImgDirection=211.3 -GPSImgDirectionRef=M -FocalLengthIn35mmFormat=26 \
                    -DateTimeOriginal='2026:07:14 09:41:05' -OffsetTimeOriginal=+02:00 -Orientation#=6 "$dir/phone.jpg"
                cp "$dir/phone.jpg" "$dir/phone-intel.jpg"
                exiftool -q -overwrite_original -ExifByteOrder=Little-endian -all= -tagsFromFile "$dir/phone.jpg" -all:all "$dir/phone-intel.jpg" || true
                cp "$dir/phone.jpg" "$dir/drone.jpg"
                exiftool -q -overwrite_original -XMP-drone-dji:GimbalYawDegree=-12.5 -XMP-drone-dji:GimbalPitchDegree=-30 \
                    -XMP-drone-dji:AbsoluteAltitude=1450.2 "$dir/drone.jpg" 2>/dev/null || true
                heif-enc -q 50 -o "$dir/phone.heic" "$dir/phone.jpg" >/dev/null 2>&1 || true
            fi
            rm -f "$dir/grey.ppm" "$dir"/*_original
            ;;
        geotiff)
            # Small windows of a shared GeoTIFF written by GDAL in every layout the reader
            # claims: compressions, predictors, sample types, strips and tiles, BigTIFF, both
            # byte orders, pixel-is-point.
            local source="$root/../shared/dem/N46E008.tif" n=0
            if [[ -f $source ]]; then
                for options in "-co COMPRESS=DEFLATE -co PREDICTOR=2" "-ot Float32 -co COMPRESS=DEFLATE -co PREDICTOR=3 -co TILED=YES -co BLOCKXSIZE=16 -co BLOCKYSIZE=16" \
                    "-co COMPRESS=LZW -co BLOCKYSIZE=3" "-co COMPRESS=PACKBITS -co TILED=YES -co BLOCKXSIZE=16 -co BLOCKYSIZE=16" \
                    "-ot Float64 -co COMPRESS=LZW -co PREDICTOR=3 -co ENDIANNESS=BIG" "-ot Int32 -co BIGTIFF=YES -co COMPRESS=DEFLATE" \
                    "-ot UInt16 -mo AREA_OR_POINT=Point" "-of COG -co COMPRESS=DEFLATE -co PREDICTOR=2 -co BLOCKSIZE=16"; do
                    n=$((n + 1))
                    # shellcheck disable=SC2086
                    gdal_translate -q -srcwin 100 200 40 30 $options "$source" "$dir/layout-$n.tif" 2>/dev/null || true
                done
            fi
            ;;
        polyline)
            # The first byte picks decoding (even) or encoding (odd) and the precision.
            printf '\x0a%s' '_p~iF~ps|U_ulLnnqC_mqNvxq`@' >"$dir/google-example"
            printf '\x0c%s' '_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI' >"$dir/osrm-precision6"
            printf '\x0a%s' '??' >"$dir/origin"
            printf '\x0b' >"$dir/encode-empty"
            python3 - "$dir/encode-poles" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(bytes([0x0B]) + struct.pack("<6d", 90.0, 180.0, -90.0, -180.0, 0.000005, -0.000015))
PY
            ;;
    esac
}

# --- Runs.
# Swift's backtracer would otherwise hold a crashing process instead of letting libFuzzer report.
export SWIFT_BACKTRACE=enable=no
# A smaller quarantine than ASan's 256 MB default, so that peak RSS tracks the parser's memory
# rather than the sanitizer's and the 400 MB limit stays meaningful.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=32}"
summary=()
failed=0
for target in "${targets[@]}"; do
    seed "$target"
    corpus="$work/$target-corpus" artifacts="$work/$target-artifacts" log="$work/$target.log"
    mkdir -p "$corpus" "$artifacts"
    before=$(find "$artifacts" -type f | wc -l)
    echo "fuzzing $target for ${seconds}s (log: ${log#"$root"/})…"
    start=$(date +%s)
    status=0
    /usr/bin/time -v -o "$work/$target.time" nice -n 19 "$work/$target-fuzz" \
        -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
        -max_total_time="$seconds" -rss_limit_mb=400 -timeout=10 \
        -max_len="$(max_len "$target")" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "$work/$target-seeds" >"$log" 2>&1 || status=$?
    elapsed=$(($(date +%s) - start))
    found=$(($(find "$artifacts" -type f | wc -l) - before))
    # Fork mode's status lines: "#<runs>: cov: … oom/timeout/crash: a/b/c time: …".
    executions=$(grep -Eo '^#[0-9]+: cov' "$log" | tail -n 1 | tr -dc '0-9')
    [[ -n $executions ]] || executions=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+$' || true)
    peak_kb=$(grep -Eo 'Maximum resident set size \(kbytes\): [0-9]+' "$work/$target.time" | grep -Eo '[0-9]+$' || echo 0)
    summary+=("$(printf '%-13s %12s %8s %8s %10s' "$target" "${executions:-?}" "$elapsed" "$found" "$((peak_kb / 1024)) MB")")
    if [[ $found -gt 0 || $status -ne 0 ]]; then
        failed=1
        echo "  $target: $found new finding(s) in ${artifacts#"$root"/}/ (fuzzer exit status $status)"
    fi
done

printf '\n%-13s %12s %8s %8s %10s\n' target executions seconds crashes "peak RSS"
printf '%s\n' "${summary[@]}"
exit "$failed"
