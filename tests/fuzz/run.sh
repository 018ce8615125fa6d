#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target for a few seconds on its seed corpus.
set -u
seconds=$1
shift
dir=$(dirname "$0")
status=0
for f in "$@"; do
	name=$(basename "$f")
	corpus="build-fuzz/corpus/$name"
	mkdir -p "$corpus"
	seeds="$dir/corpus/${name#fuzz_}"
	args=("$corpus")
	[ -d "$seeds" ] && args+=("$seeds")
	echo "== $name ($seconds s)"
	if ! "$f" -max_total_time="$seconds" -print_final_stats=0 "${args[@]}" 2>"build-fuzz/$name.log"; then
		tail -40 "build-fuzz/$name.log" >&2
		status=1
	else
		grep -E '^(#[0-9]+ *DONE|Done)' "build-fuzz/$name.log" | tail -1
	fi
done
exit $status
