#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (release, with coverage and AddressSanitizer, in Fuzz/.build) and runs each
# for a while on a temporary copy of Fuzz/Corpus, then prints per target the executions, exec/s and coverage.
# Exits non-zero when a target crashes, hangs, leaks or runs out of memory; the input is then copied to
# Fuzz/Crashes/. See Fuzz/README.md.
#
# Usage:
#   scripts/reliability/fuzz.sh [--seconds N] [--target decoder|reader|all] [--max-len BYTES] [--keep]
#     --seconds N      how long each target runs (default 60); with --target all both run at once, one per core
#     --target T       decoder, reader or all (default all)
#     --max-len BYTES  the largest input libFuzzer makes (default 4096)
#     --keep           keep the temporary folder (each target's grown corpus and full log) and print its path
set -euo pipefail

usage() {
    echo "usage: $0 [--seconds N] [--target decoder|reader|all] [--max-len BYTES] [--keep]" >&2
    exit 64
}

seconds=60
target=all
max_len=4096
keep=false
while (($#)); do
    case "$1" in
        --seconds) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || usage; seconds=$2; shift 2 ;;
        --target) [[ $# -ge 2 && "$2" =~ ^(decoder|reader|all)$ ]] || usage; target=$2; shift 2 ;;
        --max-len) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || usage; max_len=$2; shift 2 ;;
        --keep) keep=true; shift ;;
        *) usage ;;
    esac
done
targets=(decoder reader)
[[ "$target" == all ]] || targets=("$target")

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# SwiftPM's `--sanitize=fuzzer` makes it link libFuzzer's `main`; the instrumentation comes from the one combined
# `-sanitize=fuzzer,address`: swiftc keeps only the last `-sanitize=` it is given, so `--sanitize=fuzzer
# --sanitize=address` would build AddressSanitizer alone, without coverage. The linker's notes about asan symbols
# it cannot export are noise and filtered out.
echo "==> building the fuzzers (release, libFuzzer + AddressSanitizer) in Fuzz/.build"
build_started=$SECONDS
swift build --package-path Fuzz -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address 2>&1 \
    | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
echo "build: $((SECONDS - build_started)) s"
bin_dir=$(swift build --package-path Fuzz -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/poststore-fuzz.XXXXXX")
if "$keep"; then
    echo "keeping $work (corpus and log of each target)"
else
    trap 'rm -rf "$work"' EXIT
fi

# A trap must reach libFuzzer at once: Swift's own backtracer would first spend up to a minute on a report.
export SWIFT_BACKTRACE=enable=no

run_target() {
    local name=$1
    mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
    cp Fuzz/Corpus/* "$work/$name/corpus/"
    "$bin_dir/fuzz-$name" "$work/$name/corpus" \
        -dict=Fuzz/json.dict \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
        -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" \
        >"$work/$name/log" 2>&1
}

echo "==> fuzzing ${targets[*]} for $seconds s each (max_len $max_len)"
pids=()
for name in "${targets[@]}"; do
    run_target "$name" &
    pids+=($!)
done
status=()
for index in "${!targets[@]}"; do
    if wait "${pids[$index]}"; then status+=(0); else status+=($?); fi
done

failed=0
printf '\n%-8s %-7s %12s %8s %7s %7s %s\n' target result executions exec/s cov ft corpus
for index in "${!targets[@]}"; do
    name=${targets[$index]}
    log="$work/$name/log"
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
    result=ok
    ((status[index] == 0)) || result=FAILED
    printf '%-8s %-7s %12s %8s %7s %7s %s\n' "$name" "$result" "${executions:-?}" "${rate:-?}" "${cov:-?}" \
        "${ft:-?}" "${corpus:-?}"
done
for index in "${!targets[@]}"; do
    name=${targets[$index]}
    log="$work/$name/log"
    ((status[index] != 0)) || continue
    failed=1
    echo >&2
    echo "--- $name exited with ${status[index]}; the end of its log:" >&2
    grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse)' "$log" | tail -40 >&2
    echo "--- $name: what failed" >&2
    grep -E 'FUZZ CHECK FAILED|ERROR:|SUMMARY:|Test unit written' "$log" | head -10 >&2 || true
    for artifact in "$work/$name/artifacts"/*; do
        [[ -e "$artifact" ]] || continue
        saved="Fuzz/Crashes/$name-$(basename "$artifact")"
        mkdir -p Fuzz/Crashes
        cp "$artifact" "$saved"
        echo "input saved as $saved; reproduce: SWIFT_BACKTRACE=enable=no $bin_dir/fuzz-$name $saved" >&2
    done
done
exit "$failed"
