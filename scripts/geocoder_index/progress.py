"""Progress lines on stderr, timed from the start of the build.
"""

import sys
import time

STARTED = time.time()


def log(message):
    print(f"[geocoder-index {time.time() - STARTED:5.0f} s] {message}", file=sys.stderr, flush=True)
