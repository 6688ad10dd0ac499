#!/usr/bin/env python3
"""Run `tapseek batch` over a JSON Lines log on Apache Spark: the same output, on many machines.

    scripts/spark_batch.py INPUT OUTDIR --dem DIR [--master URL] [--tapseek PATH]
                           [--geocoder FILE] [--partitions N] [--ship] [-- BATCH OPTIONS…]

INPUT is a JSON Lines file or a directory of them (read in the byte order of their names, as
one log). OUTDIR receives Spark part files whose concatenation in name order is, byte for byte,
what `tapseek batch INPUT BATCH OPTIONS` writes: `cat OUTDIR/part-*`.

How it works: every line keeps its number in the log; the readings are range-partitioned by the
1-degree DEM tile of the observer (then by line), so each partition touches few tiles; every
partition is piped, in line order, through one `tapseek batch --numbered` process (what
`RDD.pipe` does, here with bytes so that a line that is not UTF-8 reaches tapseek unchanged);
the results are put back in line order and written. Calibrations carried from a reading with
`skyline` or `landmarks` to the readings after it are reproduced exactly (see README, "Scaling
out with Spark").

The tapseek binary, the DEM directory and the geocoder index are found on each executor either
at the same absolute path (a shared or identically installed path) or, given as a bare name, among
the files shipped to the executors (`spark-submit --files/--archives`, or `--ship`, which ships
the driver's copies with SparkContext.addFile). A missing one fails the job before any reading
is located. A partition whose tapseek process dies is retried by Spark (`local[N]` is run as
`local[N,4]` so that local mode retries too).

Takes JSON Lines only: a pretty-printed reading or a phone log (CSV, export folders) is refused
with a message; run plain `tapseek batch` for those. `--every`/`--min-move` (which thin a log in
order) are refused too.
"""

import argparse
import bisect
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque

# tapseek's limits, which decide how a line is answered (Sources/TapSeek/BatchRecord.swift,
# Sources/TapSeekCore/Readings/LineReader.swift, Sources/TapSeekCore/Importers/LogFormat.swift).
READING_LIMIT = 1 << 20          # longest line read as a reading; longer: a "too long" error record
NUMBERED_LIMIT = 64 << 20        # longest line whose number `--numbered` can still read
DETECTION_LINES = 17             # lines `--format auto` looks at to recognise JSON Lines
PRETTY_LINES = 16                # lines batch looks at for a pretty-printed reading (a lone "{")

# A reading that no DEM covers (0 N 0 E is open sea), with a true heading: its result shows the
# calibration carried onto it, and nothing else of it is kept.
PROBE = b'{"location":{"latitude":0,"longitude":0},"orientation":{"heading":0,"headingReference":"true","pitch":0}}'
LINE_KEY = re.compile(rb'"line":(\d+)')
# A line of spaces, tabs and carriage returns alone: tapseek batch skips it (a Java regex).
BLANK_LINE = "^[ \\t\\r]*$"
CARRIED_FROM = re.compile(rb'"carriedFrom":(\d+)')

# Options of `tapseek batch` that take a value (the others are flags).
VALUE_OPTIONS = {"--format", "--output", "--jobs", "--every", "--min-move", "--dem", "--cache-mb",
                 "--refraction", "--step", "--samples", "--seed", "--skyline-range"}
FLAG_OPTIONS = {"--uncertainty", "--carry-calibration", "--no-carry-calibration", "--numbered", "--geojson-sightlines"}

# Roles of the lines sent to tapseek: a result to keep, context to drop, a probe to read.
KEEP, DROP, PROBE_ROLE = 0, 1, 2
OUTPUT_SCHEMA = "kind int, line long, result binary, source long"


class Failure(Exception):
    """A failure with a message for the user (raised on the driver or on an executor)."""


class TapseekFailure(Exception):
    """Raised on an executor; the driver finds `TapseekFailure: message` in Spark's error."""


# ---------------------------------------------------------------------------------------------
# Command line


def parse_arguments(argv):
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    else:
        extra = []
    parser = argparse.ArgumentParser(
        prog="spark_batch.py", description=__doc__.split("\n\n")[0],
        epilog="Everything after -- goes to `tapseek batch` (e.g. -- --jobs 2 --uncertainty --samples 200).")
    parser.add_argument("input", help="JSON Lines file or directory of them (any Hadoop path: file:, hdfs:, s3a:, …)")
    parser.add_argument("outdir", help="directory to create for the part files (must not exist)")
    parser.add_argument("--dem", required=True, help="DEM directory on every executor, or the name it is shipped under")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--tapseek", help="tapseek binary on every executor, or the name it is shipped under "
                                          "(default: this checkout's .build/release/tapseek, else tapseek on PATH)")
    parser.add_argument("--geocoder", help="geocoder index on every executor, or its shipped name "
                                           "(default: $TAPSEEK_GEOCODER, else this checkout's data/build/geocoder-index.bin, "
                                           "else tapseek's own default)")
    parser.add_argument("--partitions", type=int, help="tapseek processes to split the readings over "
                                                       "(default: twice the default parallelism, more for big logs)")
    parser.add_argument("--log-level", default="FATAL",
                        help="Spark's log level (default FATAL: a failure is told in one line; ERROR shows executors' tracebacks)")
    parser.add_argument("--ship", action="store_true",
                        help="ship the driver's tapseek, DEM and geocoder index to the executors (SparkContext.addFile)")
    args = parser.parse_args(argv)
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions must be at least 1")
    return args, batch_options(extra)


class BatchOptions:
    """The options passed through to `tapseek batch`, and what spark_batch must know of them."""

    def __init__(self, tokens, carry, geojson, jobs_given):
        self.tokens = tokens
        self.carry = carry
        self.geojson = geojson
        self.jobs_given = jobs_given


def batch_options(extra):
    tokens, carry, geojson, jobs_given = [], True, False, False
    i = 0
    while i < len(extra):
        token = extra[i]
        name, value = (token.split("=", 1) + [None])[:2] if token.startswith("--") else (token, None)
        if not name.startswith("--"):
            raise Failure(f"batch option {token!r}: spark_batch.py gives tapseek its input itself; "
                          "put the input before --")
        if name in VALUE_OPTIONS and value is None:
            if i + 1 >= len(extra):
                raise Failure(f"batch option {name} needs a value")
            value = extra[i + 1]
            i += 1
        i += 1
        if name in ("--every", "--min-move"):
            raise Failure(f"{name} thins a log in its order, which a log split over processes cannot; "
                          "thin it with plain tapseek batch, or leave the option out")
        if name in ("--dem", "--numbered"):
            raise Failure(f"{name} is spark_batch.py's own business: give --dem before --")
        if name == "--format":
            if value == "geojson":
                geojson = True
                tokens += ["--output", "geojson"]
            elif value not in ("auto", "jsonl"):
                raise Failure(f"--format {value}: spark_batch.py reads JSON Lines only; "
                              "run plain tapseek batch for phone logs")
            continue
        if name == "--output":
            geojson = value == "geojson"
        if name == "--no-carry-calibration":
            carry = False
        if name == "--carry-calibration":
            carry = True
        if name == "--jobs":
            jobs_given = True
        if name not in VALUE_OPTIONS and name not in FLAG_OPTIONS and name not in ("-h", "--help"):
            tokens.append(token)   # unknown: tapseek's own check (run before any work) names it
            continue
        tokens += [name] if value is None else [name, value]
    return BatchOptions(tokens, carry, geojson, jobs_given)


# ---------------------------------------------------------------------------------------------
# Executor side: finding the files, running tapseek


def resolve(path, what):
    """`path` on this executor: an absolute path as it is, a bare name among the shipped files
    (SparkFiles, the working directory where --archives are unpacked) or on PATH."""
    if os.path.isabs(path):
        if os.path.exists(path):
            return path
        raise TapseekFailure(f"{what} {path} is missing on executor {socket.gethostname()}: "
                             "install it at the same path on every node, or ship it (--ship, spark-submit --files/--archives)")
    from pyspark import SparkFiles
    for base in (SparkFiles.getRootDirectory(), os.getcwd()):
        candidate = os.path.join(base, path)
        if os.path.exists(candidate):
            return candidate
    if what == "tapseek binary" and os.sep not in path and shutil.which(path):
        return shutil.which(path)
    raise TapseekFailure(f"{what} {path!r} is neither shipped to executor {socket.gethostname()} nor on its PATH: "
                         "ship it (--ship, spark-submit --files/--archives) or give an absolute path present on every node")


def tapseek_command(settings):
    binary = resolve(settings["tapseek"], "tapseek binary")
    if not os.access(binary, os.X_OK):
        raise TapseekFailure(f"tapseek binary {binary} on executor {socket.gethostname()} is not executable")
    dem = resolve(settings["dem"], "DEM directory")
    if not os.path.isdir(dem):
        raise TapseekFailure(f"DEM directory {dem} on executor {socket.gethostname()} is not a directory")
    env = dict(os.environ)
    if settings["geocoder"]:
        env["TAPSEEK_GEOCODER"] = resolve(settings["geocoder"], "geocoder index")
    command = [binary, "batch", "--numbered", "--format", "jsonl", "--dem", dem] + settings["options"]
    return command, env


def numbered_lines(chunk):
    """The chunk's lines as `N<TAB>raw` lines, the form `tapseek batch --numbered` takes."""
    longest = max((len(item[1]) for item in chunk), default=0)
    if longest > NUMBERED_LIMIT:
        number = next(item[0] for item in chunk if len(item[1]) == longest)
        raise TapseekFailure(f"line {number} is {longest} bytes long; spark_batch.py passes lines of up to "
                             f"{NUMBERED_LIMIT} bytes (plain tapseek batch answers it with a too-long error record)")
    return b"".join([b"%d\t%s\n" % (item[0], item[1]) for item in chunk])


def run_tapseek(command, env, chunks):
    """Pipes `chunks` (lists of (number, raw, role, tag), in order) through one tapseek process,
    as RDD.pipe does but with bytes; yields Arrow batches of OUTPUT_SCHEMA: a row for each KEEP
    line (its result) and each PROBE line (the calibration in force there), in order.

    The result of a line is one output line (a result JSON, or a GeoJSON Text Sequence record:
    RS, a Feature, LF) that carries its number; the output is matched to the input by that
    number."""
    import pyarrow as pa
    errors = tempfile.TemporaryFile()
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=env)
    except OSError as error:
        raise TapseekFailure(f"cannot start {command[0]} on executor {socket.gethostname()}: {error}")
    sent = deque()
    feed_error = []

    def feed():
        try:
            for chunk in chunks:
                payload = numbered_lines(chunk)
                sent.extend([(item[0], item[2], item[3]) for item in chunk])
                process.stdin.write(payload)
            process.stdin.close()
        except BrokenPipeError:
            pass   # tapseek ended early: its exit status tells why
        except BaseException as error:   # noqa: BLE001 - handed to the reading thread
            feed_error.append(error)
            process.kill()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    kinds, numbers, results, sources = [], [], [], []

    def batch():
        out = pa.RecordBatch.from_arrays(
            [pa.array(kinds, pa.int32()), pa.array(numbers, pa.int64()),
             pa.array(results, pa.binary()), pa.array(sources, pa.int64())],
            names=["kind", "line", "result", "source"])
        for column in (kinds, numbers, results, sources):
            column.clear()
        return out

    group_number, group = None, []

    def close_group():
        if not sent:
            raise TapseekFailure(f"tapseek wrote a result for line {group_number} beyond its input")
        number, role, tag = sent.popleft()
        if number != group_number:
            raise TapseekFailure(f"tapseek answered line {group_number} where line {number} was due")
        result = group[0] if len(group) == 1 else b"\n".join(group)
        if role == KEEP:
            kinds.append(KEEP)
            numbers.append(number)
            results.append(result)
            sources.append(None)
        elif role == PROBE_ROLE:
            carried = CARRIED_FROM.search(result)
            kinds.append(PROBE_ROLE)
            numbers.append(tag)
            results.append(None)
            sources.append(int(carried.group(1)) if carried else None)

    finished = False
    try:
        search, rest = LINE_KEY.search, b""
        while True:
            data = process.stdout.read1(1 << 20)
            if not data:
                break
            lines = (rest + data).split(b"\n")
            rest = lines.pop()
            for line in lines:
                key = search(line)
                if key is None:
                    raise TapseekFailure(f"tapseek wrote a line without its number: {line[:200]!r}")
                number = int(key.group(1))
                if group and number != group_number:
                    close_group()
                    group = []
                group_number = number
                group.append(line)
            if len(numbers) >= 4096:
                yield batch()
        feeder.join()
        status = process.wait()
        if feed_error:
            raise feed_error[0]
        if status != 0:
            errors.seek(0)
            tail = errors.read()[-2000:].decode("utf-8", "replace").strip()
            how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
            raise TapseekFailure(f"tapseek {how} on executor {socket.gethostname()}: {tail}")
        if rest:
            raise TapseekFailure(f"tapseek's output ends in the middle of a line: {rest[:200]!r}")
        if group:
            close_group()
        if sent:
            raise TapseekFailure(f"tapseek gave no result for {len(sent)} of its lines, the first line {sent[0][0]}")
        if numbers:
            yield batch()
        finished = True
    finally:
        if not finished and process.poll() is None:
            process.kill()
            process.wait()
        errors.close()


def input_rows(batches):
    """(line numbers, raw lines) of each Arrow batch of the input."""
    for b in batches:
        yield b.column("line").to_pylist(), b.column("raw").to_pylist()


def locate_partition(settings, carry):
    """mapInArrow function of the main pass: the partition's readings, in line order, each
    preceded when needed by the context that sets the calibration it carries."""
    def run(batches):
        command, env = tapseek_command(settings)
        plan = CarryPlan(*carry.value) if carry is not None else None

        def chunks():
            current = None
            for numbers, raws in input_rows(batches):
                if plan is None:
                    yield [(n, raw, KEEP, None) for n, raw in zip(numbers, raws)]
                    continue
                chunk = []
                for n, raw in zip(numbers, raws):
                    source = plan.source_for(n)
                    if source != current:
                        # The source reading, then the probe after which the source's calibration
                        # is computed and in force; their results are dropped.
                        chunk.append((source, plan.sources[source], DROP, None))
                        chunk.append((0, PROBE, DROP, None))
                        current = source
                    chunk.append((n, raw, KEEP, None))
                yield chunk

        yield from run_tapseek(command, env, chunks())
    return run


def carry_partition(settings, followed):
    """mapInArrow function of the calibration pass: the readings that may calibrate, in line
    order, with a probe wherever a reading that cannot calibrate followed them in the log."""
    def run(batches):
        command, env = tapseek_command(settings)
        is_followed = Followed(*followed.value)

        def chunks():
            for numbers, raws in input_rows(batches):
                chunk = []
                for n, raw in zip(numbers, raws):
                    chunk.append((n, raw, KEEP, None))
                    if is_followed(n):
                        chunk.append((0, PROBE, PROBE_ROLE, n))
                yield chunk

        yield from run_tapseek(command, env, chunks())
    return run


def preflight(settings):
    """Runs the executor's tapseek command on no input: the binary, the DEM directory, the
    geocoder index and the options are checked before any work. Returns tapseek's warnings."""
    def run(_):
        command, env = tapseek_command(settings)
        done = subprocess.run(command, input=b"", capture_output=True, env=env)
        message = done.stderr.decode("utf-8", "replace").strip()
        if done.returncode != 0:
            raise TapseekFailure(f"tapseek on executor {socket.gethostname()} refuses to start: {message}")
        warnings = [line for line in message.splitlines() if "warning" in line]
        return [(socket.gethostname(), warnings)]
    return run


class CarryPlan:
    """Which calibration is in force at every line: for the candidates (lines that may carry
    skyline or landmarks pixels, in order) the source of the calibration in force after each
    one's following lines began, and the raw source readings."""

    def __init__(self, candidates, after, sources):
        self.candidates = candidates
        self.after = after
        self.sources = sources

    def source_for(self, number):
        i = bisect.bisect_left(self.candidates, number) - 1
        return self.after[i] if i >= 0 else None


class Followed:
    """Whether the next non-blank line after a candidate is one that cannot calibrate (a probe
    goes there); blank lines are no records, so tapseek's carry never sees them."""

    def __init__(self, candidates, blanks, total):
        self.candidates = candidates
        self.blanks = blanks
        self.total = total

    def __call__(self, number):
        following = number + 1
        j = bisect.bisect_left(self.blanks, following)
        while j < len(self.blanks) and self.blanks[j] == following:
            following += 1
            j += 1
        if following > self.total:
            return False
        i = bisect.bisect_left(self.candidates, following)
        return not (i < len(self.candidates) and self.candidates[i] == following)


# ---------------------------------------------------------------------------------------------
# Driver


def start_spark(master, log_level="FATAL"):
    from pyspark import SparkConf
    from pyspark.sql import SparkSession
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = SparkConf()
    master = master or conf.get("spark.master", "local[*]")
    local = re.fullmatch(r"local\[(\d+|\*)\]", master)
    if local:
        master = f"local[{local.group(1)},4]"   # local mode retries a failed task only when told to
    return (SparkSession.builder.appName("tapseek batch").master(master)
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.log.level", log_level)
            .getOrCreate())


def line_partitioning(spark, n, total):
    """A column that `repartition(n, column)` sends to partition i for the lines of the i-th
    n-quantile of 1…total, or None. Spark's hash partitioning takes pmod(hash(key), n) with the
    Murmur3 hash of SQL's hash(): for each i a long key k_i with pmod(hash(k_i), n) = i is found
    with hash(), and the whole mapping is checked on the first line of every quantile with
    spark_partition_id() before it is trusted."""
    from pyspark.sql import functions as F
    found = {}
    for r in (spark.range(0, 64 * n).select(F.expr(f"pmod(hash(id), {n})").alias("p"), "id")
              .groupBy("p").agg(F.min("id")).collect()):
        found[r[0]] = r[1]
    if len(found) < n:
        return None
    quantile = F.floor((F.col("line") - 1) * n / total).cast("int")
    key = F.element_at(F.array(*[F.lit(found[i]).cast("long") for i in range(n)]), quantile + 1)
    firsts = sorted(set(min(total, 1 + -(-i * total // n)) for i in range(n)))
    placed = (spark.createDataFrame([(line,) for line in firsts], "line long")
              .select(quantile.alias("q"), key.alias("key")).repartition(n, "key")
              .select("q", F.spark_partition_id().alias("p")).collect())
    return key if len(placed) == len(firsts) and all(r["q"] == r["p"] for r in placed) else None


def failure_message(error):
    text = str(error)
    found = re.search(r"TapseekFailure: (.+)", text)
    if found:
        return found.group(1).strip()
    first = next((line for line in text.splitlines() if line.strip()), repr(error))
    return f"the Spark job failed: {first.strip()}"


def hadoop_path(spark, path):
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    return p, p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())


def check_head(head, name):
    """Refuses what plain batch would not read as JSON Lines, one reading a line."""
    texts = []
    for raw in head:
        try:
            texts.append(bytes(raw).rstrip(b"\r").decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(None)
    first = next((t.strip(" \t") for t in texts[:DETECTION_LINES] if t is not None and t.strip(" \t")), None)
    if first is None or not first.startswith("{"):
        raise Failure(f"{name} is not JSON Lines (no JSON object opens its first {DETECTION_LINES} lines): "
                      "spark_batch.py reads JSON Lines only; run plain tapseek batch for phone logs")
    lone = next((t.strip() for t in texts[:PRETTY_LINES] if t is not None and t.strip()), None)
    if lone == "{":
        raise Failure(f"{name} is a pretty-printed reading (its first line is a lone '{{'): spark_batch.py reads "
                      "JSON Lines, one reading a line; locate it with plain tapseek batch or tapseek locate")


def resources(spark, args):
    """The paths the executors use: an absolute path as given (a shared path); a relative one
    with a directory made absolute on the driver; a bare name as given (a file shipped by
    spark-submit --files/--archives, looked up on each executor); with --ship, the driver's
    file shipped with SparkContext.addFile and named by its base name."""
    here = os.path.dirname(os.path.abspath(__file__))
    tapseek = args.tapseek
    if tapseek is None:
        built = os.path.join(here, "..", ".build", "release", "tapseek")
        tapseek = os.path.abspath(built) if os.path.exists(built) else (shutil.which("tapseek") or "tapseek")
    geocoder = args.geocoder or os.environ.get("TAPSEEK_GEOCODER") or None
    if geocoder is None:
        # This checkout's index, as for the binary above: a shipped tapseek runs outside the
        # checkout, where its own data lookup would not find the index.
        built_index = os.path.join(here, "..", "data", "build", "geocoder-index.bin")
        geocoder = os.path.abspath(built_index) if os.path.exists(built_index) else None
    chosen = {"tapseek": tapseek, "dem": args.dem, "geocoder": geocoder}
    for key, path in chosen.items():
        if path is None:
            continue
        if args.ship:
            if not os.path.exists(path):
                raise Failure(f"--ship: {path} is not on the driver")
            path = os.path.abspath(path)
            spark.sparkContext.addFile(path, recursive=os.path.isdir(path))
            path = os.path.basename(path)
        elif not os.path.isabs(path) and os.sep in path and os.path.exists(path):
            path = os.path.abspath(path)   # a path of this checkout: the same on every local executor
        # A bare name stays one: the executors look it up among the shipped files.
        chosen[key] = path
    return chosen


def run(spark, args, batch):
    from pyspark.sql import functions as F
    started = time.monotonic()
    sc = spark.sparkContext
    if __name__ != "__main__":
        # Imported (by a test or a notebook): the executors need this module to unpickle its functions.
        sc.addPyFile(os.path.abspath(__file__))
    out_path, out_fs = hadoop_path(spark, args.outdir)
    if out_fs.exists(out_path):
        raise Failure(f"{args.outdir} exists: give a new directory")
    in_path, in_fs = hadoop_path(spark, args.input)
    if not in_fs.exists(in_path):
        raise Failure(f"{args.input}: no such file or directory")

    options = list(batch.tokens)
    if not batch.jobs_given:
        options += ["--jobs", sc.getConf().get("spark.task.cpus", "1")]
    settings = dict(resources(spark, args), options=options)

    # 1. Every executor core can run tapseek with these files and options.
    width = max(1, sc.defaultParallelism)
    for host, warnings in sorted(set((h, tuple(w)) for h, w in
                                     sc.parallelize(range(width), width).mapPartitions(preflight(settings)).collect())):
        for warning in warnings:
            print(f"spark_batch: {host}: {warning}", file=sys.stderr)

    # 2. Number the lines: file by file in name order, split by split, row by row. One pass
    #    counts the lines of every split and finds the lines that may calibrate (those that
    #    mention "skyline" or "landmarks", as tapseek's own carry looks for them).
    reader = spark.read.option("lineSep", "\n")
    candidate_test = F.instr(F.col("value"), '"skyline"') > 0
    candidate_test = candidate_test | (F.instr(F.col("value"), '"landmarks"') > 0)
    # Blank lines are no readings: tapseek batch gives them no record (its Line.isBlank).
    blank_test = F.col("value").rlike(BLANK_LINE)
    scanned = reader.text(args.input).select(
        F.col("value"), F.col("_metadata.file_path").alias("file"), F.col("_metadata.file_block_start").alias("start"),
        F.monotonically_increasing_id().alias("row"), candidate_test.alias("candidate"), blank_test.alias("blank"))
    splits = sorted(scanned.groupBy("file", "start")
                    .agg(F.count("*").alias("n"), F.min("row").alias("first"),
                         F.collect_list(F.when(F.col("candidate"), F.col("row"))).alias("candidates"),
                         F.collect_list(F.when(F.col("blank"), F.col("row"))).alias("blanks"))
                    .collect(), key=lambda s: (s["file"], s["start"]))
    offsets, candidates, blanks, total = [], [], [], 0
    for s in splits:
        offsets.append((s["file"], s["start"], s["first"], total))
        candidates += [total + row - s["first"] + 1 for row in s["candidates"]]
        blanks += [total + row - s["first"] + 1 for row in s["blanks"]]
        total += s["n"]
    if total == 0:
        raise Failure(f"{args.input} has no lines")
    candidates.sort()
    blanks.sort()
    check_head([r[0] for r in reader.text(splits[0]["file"]).select(F.col("value").cast("binary"))
                .limit(DETECTION_LINES).collect()], args.input)
    offsets_frame = spark.createDataFrame(offsets, "file string, start long, first long, offset long")
    # The observer's 1-degree cell, parsed once in the JVM: only a hint for partitioning (null for
    # a broken line), so it never changes a result.
    place = F.from_json("value", "location struct<latitude: double, longitude: double>").alias("place")
    lines = (scanned.filter(~F.col("blank")).join(F.broadcast(offsets_frame), ["file", "start"])
             .select("*", place)
             .select((F.col("offset") + F.col("row") - F.col("first") + 1).alias("line"),
                     F.col("value").cast("binary").alias("raw"),
                     F.col("candidate"),
                     F.floor(F.col("place.location.latitude")).alias("tile_lat"),
                     F.floor(F.col("place.location.longitude")).alias("tile_lon")))

    partitions = args.partitions or max(2 * width, -(-total // 2_000_000))
    # The calibration pass reads result JSON (its carriedFrom); GeoJSON's own flags are left out.
    json_settings = dict(settings, options=[t for t in settings["options"] if t != "--geojson-sightlines"]
                         + (["--output", "json"] if batch.geojson else []))

    # 3. Calibrations carried over (plain batch's order): the lines that may calibrate, in one
    #    ordered process, with a probe wherever the log went on with other lines.
    carry, carried_results = None, None
    if batch.carry:
        if candidates:
            # Broadcasts hold plain values: the executors rebuild the helpers from them.
            followed = sc.broadcast((candidates, blanks, total))
            ordered = lines.filter("candidate").select("line", "raw").repartition(1).sortWithinPartitions("line")
            first_pass = ordered.mapInArrow(carry_partition(json_settings, followed), OUTPUT_SCHEMA).persist()
            after = {r["line"]: r["source"] for r in first_pass.filter(F.col("kind") == PROBE_ROLE).collect()}
            if batch.geojson:
                first_pass.unpersist()
                first_pass = ordered.mapInArrow(carry_partition(settings, followed), OUTPUT_SCHEMA)
            carried_results = first_pass.filter(F.col("kind") == KEEP)
            in_force = [after.get(c) for c in candidates]
            needed = sorted(set(s for s in in_force if s is not None))
            sources = {}
            if needed:
                sources = {r["line"]: bytes(r["raw"]) for r in
                           lines.filter(F.col("line").isin(needed)).select("line", "raw").collect()}
            carry = sc.broadcast((candidates, in_force, sources))

    # 4. The other readings, range-partitioned by tile (then line), each partition in line order.
    rest = lines if carry is None else lines.filter(~F.col("candidate"))
    located = (rest.repartitionByRange(partitions, "tile_lat", "tile_lon", "line")
               .sortWithinPartitions("line").select("line", "raw")
               .mapInArrow(locate_partition(settings, carry), OUTPUT_SCHEMA))
    if carried_results is not None:
        located = located.unionByName(carried_results)

    # 5. Back in line order, written as part files: partition i takes the i-th P-quantile of the
    #    lines 1…total (known, so nothing is sampled and the results are computed once).
    key = line_partitioning(spark, partitions, total)
    if key is None:   # this Spark hashes otherwise: sample the results' lines instead
        results = located.select("line", "result").persist()
        try:
            (results.repartitionByRange(partitions, "line").sortWithinPartitions("line")
             .select(F.col("result").cast("string").alias("value")).write.text(args.outdir))
        finally:
            results.unpersist()
    else:
        (located.select("line", "result").repartition(partitions, key).sortWithinPartitions("line")
         .select(F.col("result").cast("string").alias("value")).write.text(args.outdir))
    readings = total - len(blanks)
    written = spark.read.text(args.outdir).count()
    if written != readings:
        raise Failure(f"{written} results for {readings} non-blank lines: the output is incomplete")
    seconds = time.monotonic() - started
    print(f"spark_batch: {total} lines in {seconds:.1f} s ({total / seconds:.0f}/s) over {partitions} partitions "
          f"→ {args.outdir}", file=sys.stderr)


def main(argv=None, spark=None):
    """Runs one job; with `spark` given, in that session (left running)."""
    try:
        args, batch = parse_arguments(sys.argv[1:] if argv is None else argv)
    except Failure as failure:
        print(f"spark_batch: error: {failure}", file=sys.stderr)
        return 2
    own = spark is None
    try:
        if own:
            spark = start_spark(args.master, args.log_level)
        run(spark, args, batch)
        return 0
    except Failure as failure:
        print(f"spark_batch: error: {failure}", file=sys.stderr)
        return 1
    except Exception as error:   # noqa: BLE001 - Spark's errors, made one line
        print(f"spark_batch: error: {failure_message(error)}", file=sys.stderr)
        return 1
    finally:
        if own and spark is not None:
            spark.stop()


if __name__ == "__main__":
    sys.exit(main())
