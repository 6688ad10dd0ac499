#!/usr/bin/env python3
"""Cases of scripts/spark_batch.py in one local Spark session, each against plain `tapseek batch`.

Run by scripts/test-spark.sh with the venv's Python:

    test_spark_batch.py make-log LOG --dem DIR [--count N]      # write the test log
    test_spark_batch.py cases LOG WORKDIR --dem DIR --tapseek BIN

`make-log` writes a log of at least N lines (12 000 by default) over the DEM tiles of DIR: short
and 30 km sightlines, readings outside every tile, location-only records, broken lines of every
kind plain batch answers with an error record (truncated JSON, a lone "{", invalid UTF-8, CRLF,
a 1.5 MiB line, a byte-order mark on line 1, no final newline), empty and blank lines (which it
skips, between calibrations too), and
readings with skyline traces whose calibration carries over to the readings after them (one
refused, two in a row, one that cannot calibrate, one on the last line).

`cases` runs the option pass-through and fault cases and ends with `N passed, M failed`.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)


# ---------------------------------------------------------------------------------------------
# The test log


def compact(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def jacksboro_readings(rng):
    """Readings near Cross Mountain (the default DEM); `calibrating` gives the traced one."""
    base = compact(os.path.join(ROOT, "examples", "cross-mountain.json"))
    while True:
        r = json.loads(json.dumps(base))
        r["orientation"]["heading"] = round(rng.uniform(150, 220), 2)
        r["orientation"]["pitch"] = round(rng.uniform(-3, 3), 2)
        r["tap"] = {"x": rng.randint(1000, 3000), "y": rng.randint(1200, 1800)}
        yield r


def make_log(path, dem, count):
    rng = random.Random(15)
    generated = subprocess.run(
        [sys.executable, os.path.join(HERE, "generate-batch-log.py"), "mixed", "--count", str(count),
         "--seed", "15", "--dem", dem], check=True, capture_output=True).stdout.decode().splitlines()
    long_lines = subprocess.run(
        [sys.executable, os.path.join(HERE, "generate-batch-log.py"), "long", "--count", "150",
         "--seed", "15", "--dem", dem], check=True, capture_output=True).stdout.decode().splitlines()
    calibrating = compact(os.path.join(ROOT, "examples", "calibrate-cross-mountain.json"))
    refused = dict(calibrating, id="refused", skyline=calibrating["skyline"][:2])       # too few points
    no_pixels = dict(calibrating, id="no-pixels", skyline=[])                             # cannot calibrate
    jacks = jacksboro_readings(rng)

    def dumps(reading):
        return json.dumps(reading, separators=(",", ":")).encode()

    lines = [line.encode() for line in generated]
    # Spread the other kinds through the log.
    for i, line in enumerate(long_lines):
        lines.insert(rng.randrange(len(lines)), line.encode())
    for i in range(600):
        lines.insert(rng.randrange(len(lines)), dumps(dict(next(jacks), id=f"jacks{i}")))
    # Calibrations that carry: one early, two in a row, a refused one, one that cannot calibrate,
    # a broken line that mentions "skyline", each followed by readings it corrects.
    def place(at, *items):
        lines[at:at] = list(items)
    n = len(lines)
    place(n * 1 // 10, dumps(dict(calibrating, id="cal-a")))
    place(n * 3 // 10, dumps(dict(calibrating, id="cal-b1")), dumps(dict(calibrating, id="cal-b2")))
    place(n * 5 // 10, dumps(refused))
    place(n * 6 // 10, dumps(no_pixels))
    place(n * 7 // 10, b'{"id":"cut","skyline":[{"x":1,')
    place(n * 8 // 10, dumps(dict(calibrating, id="cal-c")), b"", dumps(dict(calibrating, id="cal-d")))
    for i in range(40):   # readings right after each calibration, so every one carries
        for anchor in (b'"cal-a"', b'"cal-b2"', b'"refused"', b'"no-pixels"', b'"cut"', b'"cal-d"'):
            at = next(k for k, line in enumerate(lines) if anchor in line)
            lines.insert(at + 1, dumps(dict(next(jacks), id=f"after{i}")))
    # Broken lines plain batch answers one by one.
    place(n // 3, b"{")
    place(n // 4, b"   ")
    place(n // 5, b'{"id":"' + b"\xc3\x28" + b'"}')
    place(n // 6, dumps(dict(next(jacks), id="crlf")) + b"\r")
    place(n // 7, b'{"id":"' + b"x" * (3 << 19) + b'"}')          # 1.5 MiB
    place(n // 8, b"{" + b" " * ((1 << 20) - 1) + b"\r")           # 1 MiB and a CR: too long
    place(n // 9, b"")
    lines.append(dumps(dict(calibrating, id="cal-last")))
    lines[0] = b"\xef\xbb\xbf" + lines[0]
    with open(path, "wb") as f:
        f.write(b"\n".join(lines))   # the last line has no newline
    return len(lines)


# ---------------------------------------------------------------------------------------------
# Cases


class Cases:
    def __init__(self, log, work, dem, tapseek):
        import spark_batch
        self.spark_batch = spark_batch
        self.log, self.work, self.dem, self.tapseek = log, work, dem, tapseek
        self.spark = spark_batch.start_spark("local[2]")
        self.passed, self.failed = 0, 0

    def plain(self, log, options):
        out = os.path.join(self.work, f"plain-{len(os.listdir(self.work))}.jsonl")
        with open(out, "wb") as f:
            subprocess.run([self.tapseek, "batch", log, "--dem", self.dem] + options, stdout=f,
                           stderr=subprocess.DEVNULL, check=True)
        return out

    def spark_run(self, log, options, extra_args=()):
        outdir = os.path.join(self.work, f"spark-{len(os.listdir(self.work))}")
        status = self.spark_batch.main([log, outdir, "--dem", self.dem, "--tapseek", self.tapseek, *extra_args, "--"]
                                       + options, spark=self.spark)
        return status, outdir

    def check(self, name, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def same(self, name, log, options, extra_args=(), plain_options=None):
        started = time.monotonic()
        expected = self.plain(log, options if plain_options is None else plain_options)
        status, outdir = self.spark_run(log, options, extra_args)
        if status != 0:
            self.check(name, False, f"spark_batch exited {status}")
            return
        joined = os.path.join(self.work, os.path.basename(outdir) + ".jsonl")
        parts = sorted(p for p in os.listdir(outdir) if p.startswith("part-"))
        with open(joined, "wb") as out:
            for part in parts:
                with open(os.path.join(outdir, part), "rb") as f:
                    shutil.copyfileobj(f, out)
        compared = subprocess.run(["cmp", joined, expected], capture_output=True, text=True)
        self.check(f"{name} ({time.monotonic() - started:.0f} s)", compared.returncode == 0, compared.stdout.strip())

    def subset(self, name, count, stride=1):
        """The first `count` lines of the log (every `stride`th), calibrations and the broken
        line kinds kept, as a new log."""
        with open(self.log, "rb") as f:
            lines = f.read().split(b"\n")
        keep = [line for i, line in enumerate(lines)
                if i % stride == 0 or b"skyline" in line or b"after" in line or len(line) < 8]
        path = os.path.join(self.work, name)
        with open(path, "wb") as f:
            f.write(b"\n".join(keep[:count]) + b"\n")
        return path

    def fails(self, name, args, needle, within=None):
        started = time.monotonic()
        outdir = os.path.join(self.work, f"spark-{len(os.listdir(self.work))}")
        import io
        import contextlib
        captured = io.StringIO()
        with contextlib.redirect_stderr(captured):
            status = self.spark_batch.main([args[0], outdir] + list(args[1:]), spark=self.spark)
        seconds = time.monotonic() - started
        message = captured.getvalue().strip().splitlines()
        ok = status != 0 and any(needle in line for line in message) and (within is None or seconds < within)
        self.check(f"{name} ({seconds:.0f} s)", ok, f"status {status}, {seconds:.1f} s: {message[-3:]}")

    def run(self):
        small = self.subset("small.jsonl", 3000, stride=4)
        self.same("--jobs 1", small, ["--jobs", "1"])
        self.same("--uncertainty --samples 20 --seed 7", self.subset("uncertain.jsonl", 400, stride=30),
                  ["--uncertainty", "--samples", "20", "--seed", "7"])
        self.same("--output geojson --step 50", small, ["--output", "geojson", "--step", "50"])
        self.same("--output geojson --geojson-sightlines", small, ["--output", "geojson", "--geojson-sightlines"])
        self.same("--no-carry-calibration --refraction 0.2 --cache-mb 64, 7 partitions", small,
                  ["--no-carry-calibration", "--refraction", "0.2", "--cache-mb", "64"], extra_args=["--partitions", "7"])

        # A directory of logs is one log in the order of the files' names.
        folder = os.path.join(self.work, "folder")
        os.makedirs(folder)
        with open(small, "rb") as f:
            lines = f.read().split(b"\n")[:-1]
        for name, part in (("b.jsonl", lines[1000:2200]), ("a.jsonl", lines[:1000]), ("c.jsonl", lines[2200:])):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(b"\n".join(part) + b"\n")
        joined = os.path.join(self.work, "folder-joined.jsonl")
        with open(joined, "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
        expected = self.plain(joined, [])
        status, outdir = self.spark_run(folder, [])
        got = b"".join(open(os.path.join(outdir, p), "rb").read() for p in sorted(os.listdir(outdir)) if p.startswith("part-"))
        self.check("a directory is its files in name order", status == 0 and got == open(expected, "rb").read())

        # The binary and the DEM shipped from the driver (SparkFiles) instead of a shared path.
        self.same("--ship sends tapseek and the DEM with SparkContext.addFile", small, [], extra_args=["--ship"])

        # A tapseek process that dies is retried by Spark and the output is whole.
        flaky = os.path.join(self.work, "flaky-tapseek")
        marker = os.path.join(self.work, "flaky-died")
        with open(flaky, "w") as f:
            f.write(f"""#!/bin/sh
# Dies by SIGKILL the first time it gets input; then it is tapseek.
if [ ! -e '{marker}' ] && [ "$(head -c 100 | wc -c)" -gt 0 ]; then touch '{marker}'; kill -9 $$; fi
exec '{self.tapseek}' "$@"
""")
        os.chmod(flaky, 0o755)
        expected = self.plain(small, [])
        status, outdir = self.spark_batch.main([small, os.path.join(self.work, "spark-flaky"), "--dem", self.dem,
                                                "--tapseek", flaky], spark=self.spark), os.path.join(self.work, "spark-flaky")
        got = b"".join(open(os.path.join(outdir, p), "rb").read() for p in sorted(os.listdir(outdir)) if p.startswith("part-")) \
            if status == 0 else b""
        self.check("a killed tapseek is retried, the output whole", status == 0 and os.path.exists(marker)
                   and got == open(expected, "rb").read(), f"status {status}, died: {os.path.exists(marker)}")

        # Faults that stop the job at once, with what to do.
        self.fails("a missing DEM stops the job at once", [small, "--dem", "/nonexistent/dem", "--tapseek", self.tapseek],
                   "DEM directory /nonexistent/dem is missing on executor", within=30)
        self.fails("a bad batch option stops the job at once", [small, "--dem", self.dem, "--tapseek", self.tapseek, "--", "--no-such-option"],
                   "refuses to start", within=30)
        pretty = os.path.join(self.work, "pretty.json")
        shutil.copy(os.path.join(ROOT, "examples", "cross-mountain.json"), pretty)
        self.fails("a pretty-printed reading is refused", [pretty, "--dem", self.dem, "--tapseek", self.tapseek],
                   "pretty-printed reading")
        self.fails("--every is refused", [small, "--dem", self.dem, "--", "--every", "5"], "thins a log in its order")
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("make-log")
    make.add_argument("log")
    make.add_argument("--dem", required=True)
    make.add_argument("--count", type=int, default=12_000)
    cases = sub.add_parser("cases")
    cases.add_argument("log")
    cases.add_argument("work")
    cases.add_argument("--dem", required=True)
    cases.add_argument("--tapseek", required=True)
    args = parser.parse_args()
    if args.command == "make-log":
        print(f"{make_log(args.log, args.dem, args.count)} lines", file=sys.stderr)
        return 0
    os.makedirs(args.work, exist_ok=True)
    return Cases(args.log, args.work, args.dem, args.tapseek).run()


if __name__ == "__main__":
    sys.exit(main())
