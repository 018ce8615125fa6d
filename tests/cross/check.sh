#!/usr/bin/env bash
# make cross-check: builds for arm64 and armhf (make CROSS=...), runs the unit tests and the
# golden replays of each under qemu-user (binfmt_misc), plays the demo with each
# architecture's programs and compares everything it leaves (the scoresheet in every format,
# speech.log, the journal, the WAV files, what it prints) with the native build's.
# Needs make deps-cross.  CROSS_ARCHES="arm64" limits the architectures.
set -u
cd "$(dirname "$0")/../.."
cache=${CROSS_CACHE:-$HOME/.cache/annabella-cross}
jobs=$(nproc 2>/dev/null || echo 2)
declare -A triplet=([arm64]=aarch64-linux-gnu [armhf]=arm-linux-gnueabihf) qemu=([arm64]=aarch64 [armhf]=arm)
failed=0
data=""
trap 'rm -rf "$data"' EXIT

# What depends on the moment the demo ran, not on the architecture, taken out: the wall clock
# of the start lines (speech.log, control.log, what the demo printed) and of the journal's
# device note, and so the logs' digests in its audit notes, every chain value and the
# finished scoresheet's JournalChain.  The journal is compared record by record.
normalise() {
	local dir=$1 f
	for f in $(find "$dir" -type f \( -name '*.log' -o -name demo.out -o -name '*.pgn' -o -path '*/sheets/*' \)); do
		sed -i -E -e 's/^([0-9]+) start [^ ]+ (synced|unsynced) /\1 start WALLCLOCK SYNC /' \
			-e 's/^\[JournalChain "[0-9a-f]+"\]$/[JournalChain "CHAIN"]/' "$f"
	done
	for f in $(find "$dir" -type f \( -name journal -o -name '*.journal' \)); do
		cut -d' ' -f3- "$f" | sed -E -e 's/ clock=[^ ]+ synced=[a-z]+/ clock=WALLCLOCK/' \
			-e 's/(\.log)=[0-9]+:[0-9a-f]+/\1=DIGEST/g' -e 's/ key id=[0-9a-f]+/ key id=KEY/' \
			>"$f.records"
		rm -f "$f"
	done
	# The run's own: the lock's process id and the device key (random at a first start, so
	# the chain's values, taken out above).  The Ogg Opus record's stream serial is the
	# process id and its float encoder may round otherwise on another processor: its pages
	# are counted (one per 20 ms frame's packet run), not its bytes.
	rm -rf "$dir/state/lock" "$dir/state-key"
	for f in $(find "$dir" -type f -name '*.opus'); do
		python3 -c 'import sys; print("Ogg pages", open(sys.argv[1], "rb").read().count(b"OggS"))' \
			"$f" >"$f.pages"
		rm -f "$f"
	done
}

# The demo in BUILD/demo, the scoresheet besides in every format (BUILD/demo/sheets), and
# what it printed with the build directory's name taken out (BUILD/demo/demo.out).
demo() {
	local build=$1 f
	DEMO_AUDIO=wav tests/demo.sh "$build" >"$build.demo.out" 2>&1 || return 1
	sed "s|$build/|BUILD/|g" "$build.demo.out" >"$build/demo/demo.out"
	rm -f "$build.demo.out"
	mkdir -p "$build/demo/sheets"
	for f in pgn text brf unicode; do
		"$build/annabella" scoresheet --format $f "$build/demo/state" >"$build/demo/sheets/$f" ||
			return 1
	done
	normalise "$build/demo"
}

echo "== native (reference for the demo)"
make --no-print-directory -j"$jobs" all || exit 1
demo build || {
	echo "cross: the native demo failed"
	exit 1
}
for arch in ${CROSS_ARCHES:-arm64 armhf}; do
	t=${triplet[$arch]}
	build=build-$arch
	root=$cache/$arch/root
	start=$SECONDS
	echo "== $arch ($t, under $(qemu-${qemu[$arch]}-static --version 2>/dev/null | head -1 | sed 's/ version//'))"
	export QEMU_LD_PREFIX=$root
	# eSpeak NG's data from a tmpfs: Debian's 32-bit libespeak-ng reads its voice folders
	# with the 32-bit readdir(), which fails with EOVERFLOW on ext4's 64-bit directory
	# offsets that qemu-user passes through from the 64-bit host (a 32-bit kernel, or a
	# 64-bit one's compat calls, give 32-bit offsets: not an issue on the Pi).  qemu's -L
	# prefix also misses the statx() that 32-bit glibc uses.
	data=$(mktemp -d /dev/shm/annabella-espeak.XXXXXX)
	cp -r "$root/usr/lib/$t/espeak-ng-data" "$data/"
	export ESPEAK_DATA_PATH=$data
	ok=1
	# -Werror: a warning only a 32-bit or ARM build shows is what this is for.
	if ! CI=true make --no-print-directory -j"$jobs" CROSS="$t" all tests; then
		echo "cross: $arch: build failed"
		ok=0
	fi
	if [ $ok -eq 1 ]; then
		make --no-print-directory CROSS="$t" unit >"$build/unit.log" 2>&1 || ok=0
		grep -E '^\[  (FAILED|ERROR) |^FAILED' "$build/unit.log"
		tail -1 "$build/unit.log" | sed "s/^/$arch: /"
		make --no-print-directory CROSS="$t" regress 2>&1 | sed "s/^/$arch: /"
		[ "${PIPESTATUS[0]}" -eq 0 ] || ok=0
		if demo "$build"; then
			if diff -r build/demo "$build/demo" >"$build/demo.diff"; then
				echo "$arch: demo: byte-identical to $(uname -m)'s" \
					"($(cd "$build/demo" && find . -type f | wc -l) files," \
					"$(du -sb "$build/demo" | cut -f1) bytes, the WAV files included)"
			else
				echo "$arch: demo: differs from $(uname -m)'s:"
				head -20 "$build/demo.diff" | sed 's/^/    /'
				ok=0
			fi
		else
			echo "$arch: demo: failed"
			sed 's/^/    /' "$build.demo.out" 2>/dev/null | tail -10
			ok=0
		fi
	fi
	rm -rf "$data"
	data=""
	unset QEMU_LD_PREFIX ESPEAK_DATA_PATH
	echo "$arch: $([ $ok -eq 1 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
	[ $ok -eq 1 ] || failed=$((failed + 1))
done
echo "cross: $([ $failed -eq 0 ] && echo "all passed" || echo "$failed architecture(s) failed")"
[ $failed -eq 0 ]
