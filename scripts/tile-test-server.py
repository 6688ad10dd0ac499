#!/usr/bin/env python3
"""A small HTTP server for testing `tapseek dem fetch` on the loopback interface only.

It serves the files of one directory read-only, like `python3 -m http.server`, and adds what
the tests of resumable downloads need and that server lacks:

* byte ranges (`Range: bytes=N-` and `bytes=N-M`, answered 206 with `Content-Range`, or 416
  past the end), unless `--no-range` makes it ignore them as many servers do;
* an `ETag` per file version (inode, size, modification time) and `If-Range`: a range asked
  for an older version gets the whole current file (RFC 9110 §13.1.5);
* `--cut-after N`: the first full (non-range) response for each path announces the whole
  length but closes the connection after N bytes of body, as a dropped connection would;
* `--status NAME=CODE`: answer any path whose file name is NAME with that HTTP status;
* `--endless NAME`: answer NAME with 200 and no length, then zeros until the client hangs up
  (at most `--endless-limit` bytes, so that the server always stops by itself);
* `--stall NAME=SECONDS`: answer NAME with 200 and the file's length, send its first 1 000
  bytes, then nothing for SECONDS before closing, as a stalled network would;
* `--redirect NAME=TARGET`: answer NAME with 302 and `Location: TARGET`;
* `--log FILE`: one line per request, "METHOD PATH RANGE" (plus "if-range" when sent), so a
  test can see what was asked.

It binds 127.0.0.1 only, prints "PORT <n>" on its first stdout line once it listens (use port
0 for a free one), and stops by itself when its stdin reaches end of file (its parent went
away) or after `--idle-timeout` seconds without a request.

Usage: tile-test-server.py --directory DIR [--port 0] [--no-range] [--cut-after N]
                           [--status NAME=CODE ...] [--endless NAME ...] [--stall NAME=S ...]
                           [--redirect NAME=TARGET ...] [--log FILE]
                           [--idle-timeout S]
"""

import argparse
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 64 * 1024
RANGE_PATTERN = re.compile(r"^bytes=(\d+)-(\d*)$")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directory", required=True, help="directory whose files are served")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--no-range", action="store_true", help="ignore Range headers")
    parser.add_argument("--cut-after", type=int, default=None, metavar="N",
                        help="close full responses after N bytes of body")
    parser.add_argument("--status", action="append", default=[], metavar="NAME=CODE",
                        help="answer requests for file NAME with HTTP status CODE")
    parser.add_argument("--endless", action="append", default=[], metavar="NAME",
                        help="answer requests for file NAME with an endless stream of zeros")
    parser.add_argument("--stall", action="append", default=[], metavar="NAME=SECONDS",
                        help="send 1000 bytes of file NAME, then nothing for SECONDS")
    parser.add_argument("--redirect", action="append", default=[], metavar="NAME=TARGET",
                        help="answer requests for file NAME with 302 to TARGET")
    parser.add_argument("--endless-limit", type=int, default=1 << 30, metavar="BYTES",
                        help="most bytes an endless response sends")
    parser.add_argument("--log", default=None, metavar="FILE", help="append one line per request")
    parser.add_argument("--idle-timeout", type=float, default=120.0, metavar="S",
                        help="stop after S seconds without a request")
    arguments = parser.parse_args()
    statuses = {}
    for item in arguments.status:
        name, separator, code = item.partition("=")
        if not separator or not code.isdigit():
            parser.error(f"--status wants NAME=CODE, got {item!r}")
        statuses[name] = int(code)
    arguments.statuses = statuses
    arguments.stalls = {}
    for item in arguments.stall:
        name, separator, seconds = item.partition("=")
        try:
            arguments.stalls[name] = float(seconds) if separator else None
        except ValueError:
            arguments.stalls[name] = None
        if arguments.stalls[name] is None:
            parser.error(f"--stall wants NAME=SECONDS, got {item!r}")
    arguments.redirects = {}
    for item in arguments.redirect:
        name, separator, target = item.partition("=")
        if not separator or not target:
            parser.error(f"--redirect wants NAME=TARGET, got {item!r}")
        arguments.redirects[name] = target
    return arguments


class Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 so that Content-Length is honoured and a short body reads as a dropped connection.
    protocol_version = "HTTP/1.1"
    settings = None
    log_lock = threading.Lock()
    last_request = [time.monotonic()]
    cut_paths = set()

    def log_message(self, format, *args):
        # Keep the test's stderr quiet; the request log is --log.
        pass

    def record(self):
        Handler.last_request[0] = time.monotonic()
        if self.settings.log:
            line = f"{self.command} {self.path} {self.headers.get('Range', '-')}"
            if self.headers.get("If-Range"):
                line += " if-range"
            line += "\n"
            with Handler.log_lock, open(self.settings.log, "a", encoding="utf-8") as log:
                log.write(line)

    def send_empty(self, code, extra_headers=()):
        self.send_response(code)
        for key, value in extra_headers:
            self.send_header(key, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def resolve(self):
        """The served file for the request path, or None when it is outside the directory."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        # Normalised but not resolved: symbolic links inside the directory may point anywhere.
        root = os.path.abspath(self.settings.directory)
        candidate = os.path.abspath(os.path.join(root, path.lstrip("/")))
        if candidate != root and not candidate.startswith(root + os.sep):
            return None
        return candidate

    def do_HEAD(self):
        self.serve(send_body=False)

    def do_GET(self):
        self.serve(send_body=True)

    def serve(self, send_body):
        self.record()
        path = self.resolve()
        name = os.path.basename(path) if path else ""
        if name in self.settings.statuses:
            self.send_empty(self.settings.statuses[name])
            return
        if name in self.settings.endless:
            self.serve_endless(send_body)
            return
        if name in self.settings.redirects:
            self.send_empty(302, [("Location", self.settings.redirects[name])])
            return
        if path is None or not os.path.isfile(path):
            self.send_empty(404)
            return
        status = os.stat(path)
        size = status.st_size
        etag = f'"{status.st_ino:x}-{size:x}-{status.st_mtime_ns:x}"'
        start, end, partial = 0, size - 1, False
        requested = self.headers.get("Range")
        condition = self.headers.get("If-Range")
        if condition is not None and condition != etag:
            requested = None
        if requested and not self.settings.no_range:
            match = RANGE_PATTERN.match(requested.strip())
            if match:
                first = int(match.group(1))
                last = int(match.group(2)) if match.group(2) else size - 1
                if first >= size:
                    self.send_empty(416, [("Content-Range", f"bytes */{size}")])
                    return
                start, end, partial = first, min(last, size - 1), True
        length = end - start + 1
        self.send_response(206 if partial else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("Accept-Ranges", "none" if self.settings.no_range else "bytes")
        self.send_header("ETag", etag)
        if partial:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if not send_body:
            return
        cut = not partial and self.settings.cut_after is not None and self.settings.cut_after < length
        if cut:
            with Handler.log_lock:
                cut = path not in Handler.cut_paths
                Handler.cut_paths.add(path)
        budget = self.settings.cut_after if cut else length
        stall = self.settings.stalls.get(name)
        if stall is not None:
            budget = min(budget, 1000)
        with open(path, "rb") as source:
            source.seek(start)
            while budget > 0:
                chunk = source.read(min(CHUNK, budget))
                if not chunk:
                    break
                self.wfile.write(chunk)
                budget -= len(chunk)
        if cut:
            # The announced length was not sent: drop the connection like a failed network.
            self.wfile.flush()
            self.close_connection = True
        if stall is not None:
            self.wfile.flush()
            time.sleep(stall)
            self.close_connection = True


    def serve_endless(self, send_body):
        """200 without a length: the body ends only when the connection closes."""
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if not send_body:
            return
        zeros = bytes(CHUNK)
        budget = self.settings.endless_limit
        try:
            while budget > 0:
                self.wfile.write(zeros[:min(CHUNK, budget)])
                budget -= CHUNK
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    settings = parse_arguments()
    if not os.path.isdir(settings.directory):
        print(f"tile-test-server: no directory {settings.directory}", file=sys.stderr)
        return 1
    Handler.settings = settings
    server = ThreadingHTTPServer(("127.0.0.1", settings.port), Handler)
    server.daemon_threads = True

    def stop_when_parent_goes():
        # Reading stdin returns at end of file: the parent closed the pipe or exited.
        while sys.stdin.buffer.read(4096):
            pass
        server.shutdown()

    def stop_when_idle():
        while True:
            time.sleep(1.0)
            if time.monotonic() - Handler.last_request[0] > settings.idle_timeout:
                server.shutdown()
                return

    threading.Thread(target=stop_when_parent_goes, daemon=True).start()
    threading.Thread(target=stop_when_idle, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
