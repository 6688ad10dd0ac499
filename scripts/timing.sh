# Wall-clock helpers the side-by-side benchmarks share (sourced, not run).

# One wall-clock time of a command (its output discarded), in milliseconds.
time_ms() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
}

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
