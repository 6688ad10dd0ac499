#!/usr/bin/env bash
# Writes examples/cumberland.jpg, README's worked example of `tapseek photo`: the default DEM
# rendered by the tests' PhotoRenderer from a hillside north-east of Jacksboro (36.38° N,
# 84.12° W; true heading 240°, pitch 4°, roll 0.6°; terrain out to 20 km), with the EXIF a phone
# would write (Debian's exiftool), its compass 10° off.
#
#   scripts/make-example-photo.sh        # after scripts/setup.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
photo="$root/examples/cumberland.jpg"
flock /tmp/tapseek-build.lock swift build --build-tests >/dev/null
TAPSEEK_EXAMPLE_PHOTO="$photo" swift test --skip-build --filter PhotoFixtureWriters/writesTheExamplePhoto >/dev/null
exiftool -q -overwrite_original -Make=TapSeek -Model="PhotoRenderer" -FocalLengthIn35mmFormat=26 \
    '-DateTimeOriginal=2026:07:14 11:20:00' -OffsetTimeOriginal=-04:00 \
    -GPSLatitude=36.38 -GPSLatitudeRef=N -GPSLongitude=84.12 -GPSLongitudeRef=W \
    -GPSImgDirection=250 -GPSImgDirectionRef=T "$photo"
echo "make-example-photo: wrote $photo" >&2
