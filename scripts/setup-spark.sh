#!/usr/bin/env bash
# Sets up what scripts/spark_batch.py and its test need: Java 17 from Debian and, in a venv at
# .build-spark/venv (git-ignored), PySpark 4 from PyPI with the pandas and pyarrow its Arrow
# functions need. Idempotent and quiet when everything is there.
#
#   scripts/setup-spark.sh            # then: .build-spark/venv/bin/python scripts/spark_batch.py …
#
# Tools, not data: PySpark (Apache-2.0), OpenJDK 17 (GPLv2 with the Classpath Exception).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build-spark/venv"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

if ! dpkg-query -W -f='${Status}' openjdk-17-jre-headless 2>/dev/null | grep -q "install ok installed"; then
    echo "setup-spark: installing openjdk-17-jre-headless" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
if ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" \
   && ! python3 -c 'import ensurepip' 2>/dev/null; then
    echo "setup-spark: installing python3-venv" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
fi

requirements=("pyspark>=4,<5" "pyarrow>=11" "pandas>=2.2,<3")
if ! "$venv/bin/python" - "${requirements[@]}" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
from packaging.requirements import Requirement
sys.exit(0 if all(Requirement(r).specifier.contains(version(Requirement(r).name)) for r in sys.argv[1:]) else 1)
PY
then
    echo "setup-spark: installing ${requirements[*]} into .build-spark/venv" >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check packaging "${requirements[@]}"
fi
