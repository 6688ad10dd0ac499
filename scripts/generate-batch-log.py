#!/usr/bin/env python3
"""Generate JSON Lines reading logs for benchmarking and stress-testing `tapseek batch`.

Writes to stdout (or -o FILE); put large outputs in /tmp, never in the repository.

Kinds of reading:
  long     sightlines of about 30 km over the Everest tile (N27E086): observers stand on
           summits above 6500 m and aim at the ground 30 km away, kept only when the straight
           profile between them is clear, so the march runs the whole way.
  short    observers at Grindelwald (N46E008) looking 15-25 degrees down: hits within metres.
  outside  observers far from every shared tile: locating fails at once (outside-dem).
  location readings without orientation (location-only records).
  mixed    short, outside and location readings, with a broken line every --broken-every lines.

Examples:
  scripts/generate-batch-log.py long --count 2000 -o /tmp/long30.jsonl
  scripts/generate-batch-log.py mixed --size 1G -o /tmp/batch-1g.jsonl
"""

import argparse
import array
import datetime
import json
import math
import os
import random
import sys

# WGS84 mean radius R1 (IUGG) and the refraction coefficient tapseek uses by default
# (docs/conventions.md): the apparent drop of the ground at distance d is d^2 (1 - k) / (2R).
EARTH_RADIUS = 6_371_008.8
REFRACTION = 0.13
EYE_HEIGHT = 1.6
# SRTM 3" tile: 1201 x 1201 big-endian int16 posts, rows north to south, voids -32768.
HGT_SIZE = 1201
HGT_VOID = -32768


def load_hgt(path):
    heights = array.array("h")
    with open(path, "rb") as f:
        heights.frombytes(f.read())
    if sys.byteorder == "little":
        heights.byteswap()
    if len(heights) != HGT_SIZE * HGT_SIZE:
        sys.exit(f"{path}: not a 3-arc-second HGT tile")
    return heights


def height_at(heights, south, west, lat, lon):
    """Nearest post, or None over a void or outside the tile."""
    row = round((south + 1 - lat) * (HGT_SIZE - 1))
    col = round((lon - west) * (HGT_SIZE - 1))
    if not (0 <= row < HGT_SIZE and 0 <= col < HGT_SIZE):
        return None
    h = heights[row * HGT_SIZE + col]
    return None if h == HGT_VOID else h


def destination(lat, lon, azimuth, distance):
    """Point `distance` metres along `azimuth` on a sphere (enough to aim a benchmark ray)."""
    phi, lam, theta, delta = math.radians(lat), math.radians(lon), math.radians(azimuth), distance / EARTH_RADIUS
    phi2 = math.asin(math.sin(phi) * math.cos(delta) + math.cos(phi) * math.sin(delta) * math.cos(theta))
    lam2 = lam + math.atan2(math.sin(theta) * math.sin(delta) * math.cos(phi), math.cos(delta) - math.sin(phi) * math.sin(phi2))
    return math.degrees(phi2), math.degrees(lam2)


def long_sightlines(rng, dem_dir, distance=30_000.0):
    """Readings whose sightlines run `distance` metres over N27E086, endlessly."""
    heights = load_hgt(os.path.join(dem_dir, "N27E086.hgt"))
    south, west = 27, 86
    summits = [(r, c) for r in range(0, HGT_SIZE, 3) for c in range(0, HGT_SIZE, 3)
               if heights[r * HGT_SIZE + c] > 6500]
    if not summits:
        sys.exit("no summit above 6500 m in N27E086")
    while True:
        r, c = rng.choice(summits)
        lat, lon = south + 1 - r / (HGT_SIZE - 1), west + c / (HGT_SIZE - 1)
        eye = heights[r * HGT_SIZE + c] + EYE_HEIGHT
        azimuth = rng.uniform(0, 360)
        tlat, tlon = destination(lat, lon, azimuth, distance)
        target = height_at(heights, south, west, tlat, tlon)
        if target is None:
            continue
        drop = distance ** 2 * (1 - REFRACTION) / (2 * EARTH_RADIUS)
        slope = (target - drop - eye) / distance
        # Clear profile: the aimed ray stays above the ground (by 30 m, a few SRTM errors)
        # up to 95 % of the way, sampled every 90 m (one post).
        clear = True
        for i in range(1, int(distance * 0.95 / 90)):
            s = i * 90.0
            plat, plon = destination(lat, lon, azimuth, s)
            ground = height_at(heights, south, west, plat, plon)
            if ground is None or eye + slope * s + s * s * (1 - REFRACTION) / (2 * EARTH_RADIUS) < ground + 30:
                clear = False
                break
        if not clear:
            continue
        pitch = math.degrees(math.atan(slope))
        yield {"location": {"latitude": round(lat, 6), "longitude": round(lon, 6)},
               "orientation": {"heading": round(azimuth, 3), "pitch": round(pitch, 4)}}


def short_sightlines(rng):
    while True:
        yield {"location": {"latitude": round(46.62 + rng.uniform(0, 0.01), 6), "longitude": round(8.03 + rng.uniform(0, 0.02), 6)},
               "orientation": {"heading": round(rng.uniform(0, 360), 2), "pitch": round(rng.uniform(-25, -15), 2)},
               "camera": {"horizontalFOV": 63.7, "imageWidth": 4032, "imageHeight": 3024},
               "tap": {"x": rng.randint(1500, 2500), "y": rng.randint(1200, 1800)}}


def outside(rng):
    while True:
        yield {"location": {"latitude": round(rng.uniform(-20, 20), 6), "longitude": round(rng.uniform(-40, -20), 6)},
               "orientation": {"heading": round(rng.uniform(0, 360), 2), "pitch": 0}}


def location_only(rng):
    while True:
        yield {"location": {"latitude": round(46.62 + rng.uniform(0, 0.01), 6), "longitude": round(8.03 + rng.uniform(0, 0.02), 6),
                            "altitude": round(rng.uniform(1000, 1200), 1), "horizontalAccuracy": 5.0}}


BROKEN_LINES = ['{"location":{"latitude":46.62,"longi', "", "not json", '{"location":{"longitude":8.04}}']


def mixed(rng):
    kinds = [short_sightlines(rng), outside(rng), location_only(rng)]
    while True:
        yield next(kinds[rng.choice((0, 0, 1, 2))])


def encode(reading, number, timed):
    reading = {"id": f"r{number}", **({"time": timed(number)} if timed else {}), **reading}
    return json.dumps(reading, separators=(",", ":"))


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["long", "short", "outside", "location", "mixed"])
    parser.add_argument("--count", type=int, help="number of lines")
    parser.add_argument("--size", help="approximate output size, e.g. 1G (instead of --count)")
    parser.add_argument("--broken-every", type=int, default=0, help="make every Nth line broken (0: none; mixed: 97)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dem", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "dem"))
    parser.add_argument("-o", "--output", help="file to write (default stdout)")
    args = parser.parse_args()
    if (args.count is None) == (args.size is None):
        parser.error("give exactly one of --count and --size")
    rng = random.Random(args.seed)
    source = {"long": lambda: long_sightlines(rng, args.dem), "short": lambda: short_sightlines(rng),
              "outside": lambda: outside(rng), "location": lambda: location_only(rng), "mixed": lambda: mixed(rng)}[args.kind]()
    broken_every = args.broken_every or (97 if args.kind == "mixed" else 0)
    limit = parse_size(args.size) if args.size else None
    start = 1_784_021_465  # 2026-07-14T09:31:05Z

    def timed(n):
        return datetime.datetime.fromtimestamp(start + n, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    out = open(args.output, "w", encoding="utf-8", newline="\n") if args.output else sys.stdout
    written = 0
    number = 0
    buffer = []
    while (args.count is not None and number < args.count) or (limit is not None and written < limit):
        number += 1
        if broken_every and number % broken_every == 0:
            line = BROKEN_LINES[(number // broken_every) % len(BROKEN_LINES)]
        else:
            line = encode(next(source), number, timed)
        buffer.append(line)
        written += len(line) + 1
        if len(buffer) >= 10_000:
            out.write("\n".join(buffer) + "\n")
            buffer.clear()
    if buffer:
        out.write("\n".join(buffer) + "\n")
    if out is not sys.stdout:
        out.close()
    print(f"{number} lines, {written} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
