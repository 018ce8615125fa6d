#!/usr/bin/env bash
# The self-play generator (tests/selfplay.sh) stops a game at a dead position by material
# (Art. 5.2.2), as the daemon ends it: Debian 13's Stockfish plays on in such positions, and
# a generated game that went on past one could never match the daemon's scoresheet.  Its
# dead_position(), read from the generator, on positions the Laws decide.
set -u
. "$(dirname "$0")/lib.sh"
begin selfplay
# shellcheck disable=SC1090
source <(sed -n '/^dead_position() {$/,/^}$/p' "$tests/selfplay.sh")
declare -F dead_position >/dev/null || give_up "tests/selfplay.sh has no dead_position()"
expect() { # dead|alive BOARD WHY
	local got=alive
	dead_position "$2" && got=dead
	[ "$got" = "$1" ]
	check $? "$2 ($3) is $got, want $1"
}
expect dead 8/8/8/4k3/8/8/4K3/8 "king against king"
expect dead 8/8/8/4k3/8/8/4K3/6N1 "king and knight against king"
expect dead 8/8/8/4k3/8/8/4K3/5B2 "king and bishop against king"
expect dead 8/8/8/4k3/8/1b6/4K3/5B2 "bishops on light squares both"
expect dead 8/8/8/3bk3/8/8/4K3/5B2 "bishops on light squares, d5 and f1"
expect dead 8/8/8/4k3/8/8/4K3/2B1B3 "two bishops of one side on dark squares, c1 and e1"
expect alive 8/8/8/2b1k3/8/8/4K3/5B2 "bishops on dark c5 and light f1"
expect alive 8/8/8/4k3/8/8/4K3/2B2B2 "two bishops of one side on both colours"
expect alive 8/8/8/4k3/8/2b5/4K3/5B2 "bishops on squares of both colours"
expect alive 8/8/8/4k3/8/8/3NK3/6N1 "two knights can mate with help"
expect alive 8/8/8/4k3/8/8/4K3/5Bn1 "knight against bishop can mate with help"
expect alive 8/8/8/4k3/8/5n2/4K3/6N1 "knight against knight can mate with help"
expect alive 8/8/8/4k2p/8/8/4K3/8 "a pawn can promote"
expect alive 8/8/8/4k3/8/8/4K3/7R "a rook mates"
expect alive 8/8/8/4k3/8/8/4K3/3Q4 "a queen mates"
expect alive rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "the start"
summary
