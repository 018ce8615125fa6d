#!/usr/bin/env bash
# make valgrind: the unit tests and the golden replays under valgrind's memcheck.  Any error
# (an invalid read or write, a use of uninitialised memory, a definite leak) fails the run.
# The voice tests that measure audio timing are left to the sanitizers (valgrind slows
# eSpeak NG some fifty times), and so is test_voice_mbrola: its workers are the program
# started again through /proc/self/exe, which under valgrind is valgrind's own tool.
set -u
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
	--show-leak-kinds=definite --track-origins=yes)
passed=0
failed=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	case $(basename "$t") in test_voice_joint | test_voice_alsa | test_voice_mbrola) continue ;; esac
	if "${vg[@]}" "$t" >"$t.vg.out" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "valgrind: $(basename "$t") FAILED"
		grep -E '^==[0-9]+==' "$t.vg.out" | head -30
	fi
	rm -f "$t.vg.out"
done
echo "valgrind unit: $passed passed, $failed failed"
REGRESS_WRAP="${vg[*]}" "$dir/regress/run.sh" "$build" || failed=$((failed + 1))
[ $failed -eq 0 ]
