#!/usr/bin/env bash
# make lint's layer check (tests/lint-layers.sh) rejects an include that breaks a layer and
# accepts the includes a layer may have; and the tree itself keeps its layers.
set -u
. "$(dirname "$0")/lib.sh"
begin lint-layers
dir=$tests
probe() { # LAYER INCLUDE WANT(0 ok / 1 refused)
	probe_line "$1" "#include \"$2\"" "$3"
}
# LAYER LINE WANT [FILE...]: the probe's include written as LINE, in a tree that holds the
# FILEs (an angle include reaches a file of ours only where there is one).
probe_line() {
	local layer=$1 line=$2 want=$3 f
	shift 3
	rm -rf "$work/tree"
	mkdir -p "$work/tree/$layer"
	for f in "$@"; do
		mkdir -p "$work/tree/$(dirname "$f")"
		: >"$work/tree/$f"
	done
	printf '#include <stdio.h>\n%s\n' "$line" >"$work/tree/$layer/probe.c"
	(cd "$work/tree" && bash "$dir/lint-layers.sh" "$layer/probe.c" >"$work/out" 2>&1)
	[ $? -eq "$want" ]
	check $? "$layer with $line: want $want, said: $(cat "$work/out")"
}
probe game voice/voice.h 1
probe game daemon/config.h 1
probe chess game/game.h 1
probe base chess/chess.h 1
probe control voice/phrases.h 1
probe gpio chess/chess.h 1
probe braille game/game.h 1
probe game chess/chess.h 0
probe control referee/referee.h 0
probe game referee/referee.h 1
probe referee game/game.h 0
probe referee control/protocol.h 1
probe voice chess/chess.h 0
probe daemon voice/voice.h 0
probe daemon cli/cli.h 1
probe daemon net/httpd.h 1
probe store daemon/loop.h 1
probe store config/config.h 1
probe config daemon/power.h 1
probe config store/store.h 1
probe net daemon/ctlsock.h 1
probe net store/journal.h 1
probe net cli/cli.h 1
probe net config/config.h 0
probe cli daemon/present.h 1
probe cli net/net.h 0
probe cli store/store.h 0
probe daemon store/store.h 0
probe daemon config/config.h 0
# Every way of writing an include reaches the same check.
probe_line game '#include <daemon/loop.h>' 1 daemon/loop.h
probe_line net '#include <daemon/ctlsock.h>' 1 daemon/ctlsock.h
probe_line net '#include "../daemon/ctlsock.h"' 1 daemon/ctlsock.h
probe_line net '#include "../daemon/ctlsock.h"' 1
probe_line game '#  include "chess/../daemon/loop.h"' 1 daemon/loop.h chess/chess.h
probe_line store '#include "./../cli/cli.h"' 1 cli/cli.h
probe_line chess '#include "../../x.h"' 1
probe_line game '#include HEADER' 1
probe_line game '#include "../tests/unit/support.h"' 1 tests/unit/support.h
probe_line net '#include <game/game.h>' 0 game/game.h
probe_line net '#include "../control/json.h"' 0 control/json.h
probe_line daemon '#include "loop.h"' 0 daemon/loop.h
probe_line cli '#include <net/if.h>' 0
probe_line cli '#include <sys/stat.h>' 0
# A header of ours with a system header's path would hide it (net/if.h).
mkdir -p "$work/shadow/net"
: >"$work/shadow/net/if.h"
if [ -e /usr/include/net/if.h ]; then
	! (cd "$work/shadow" && bash "$dir/lint-layers.sh" net/if.h >/dev/null)
	check $? "net/if.h, a system header's path, was not refused"
fi
# The Makefile's layer folders are the ones the check knows.
layers=$(sed -n 's/^LAYERS := //p' "$dir/../Makefile")
[ "$layers" = "$(bash "$dir/lint-layers.sh" --folders)" ]
check $? "the Makefile's LAYERS ($layers) are not the check's folders"
bash "$dir/lint-layers.sh"
check $? "the tree breaks its layers"
summary
