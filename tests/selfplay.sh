#!/usr/bin/env bash
# selfplay.sh: generate Stockfish self-play games as a PGN file (SAN, seven-tag roster).
#
#   tests/selfplay.sh N SEED OUTFILE
#
# For property tests (script -> daemon -> same moves). Each game starts with 2-6 random
# legal plies (chosen from `go perft 1`, driven by bash's RANDOM seeded with SEED), then
# Stockfish plays both sides with `go nodes $NODES` (Threads=1, fixed hash, ucinewgame per
# game), so the output for a given SEED is reproducible with the same Stockfish build.
# A game ends at checkmate (1-0/0-1), stalemate, a dead position by material (Art. 5.2.2:
# the game is drawn there, as the daemon rules), threefold repetition or the fifty-move
# rule (1/2-1/2, stopped there as if claimed), or at MAXPLY plies (result "*").
# Moves are collected in UCI long algebraic form and converted to SAN with pgn-extract.
#
# Environment: STOCKFISH (default /usr/games/stockfish), PGN_EXTRACT (default
# /usr/games/pgn-extract), NODES (default 2000), MAXPLY (default 300).
set -euo pipefail

usage() { echo "usage: $0 N SEED OUTFILE" >&2; exit 2; }
[[ $# -eq 3 ]] || usage
N=$1 SEED=$2 OUT=$3
[[ $N =~ ^[0-9]+$ && $SEED =~ ^[0-9]+$ ]] || usage

STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
PGN_EXTRACT=${PGN_EXTRACT:-/usr/games/pgn-extract}
NODES=${NODES:-2000}
MAXPLY=${MAXPLY:-300}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [[ -n ${SF_PID:-} ]] && kill "$SF_PID" 2>/dev/null || true' EXIT

coproc SF { exec "$STOCKFISH" 2>&1; }
SF_PID=$SF_PID

send() { printf '%s\n' "$*" >&"${SF[1]}"; }
# read engine lines until one starts with $1; the matching line is left in $LINE
# and all lines read are in the array LINES.
read_until() {
    LINES=()
    while IFS= read -r -t 60 LINE <&"${SF[0]}"; do
        LINES+=("$LINE")
        [[ $LINE == "$1"* ]] && return 0
    done
    echo "selfplay: engine stopped answering (waiting for '$1')" >&2
    exit 1
}

send uci
read_until uciok
engine=Stockfish
for l in "${LINES[@]}"; do
    if [[ $l == "id name "* ]]; then engine=${l#id name }; fi
done
send "setoption name Threads value 1"
send "setoption name Hash value 16"
send isready
read_until readyok

RANDOM=$SEED

# Art. 5.2.2 by material, counted here from the FEN's board (independently of the daemon's
# own rule): no pawn, rook or queen, and either a single knight and no bishop, or no knight
# and the bishops (none counts) all on squares of one colour.  Stockfish plays on there.
dead_position() {
    local board=$1 rank=7 file=0 c i knights=0 light=0 dark=0
    for ((i = 0; i < ${#board}; i++)); do
        c=${board:i:1}
        case $c in
        /) rank=$((rank - 1)) file=0 ;;
        [1-8]) file=$((file + c)) ;;
        [pPrRqQ]) return 1 ;;
        [nN]) knights=$((knights + 1)) file=$((file + 1)) ;;
        [bB])
            # a1 (file 0, rank 0) is a dark square.
            if (((file + rank) % 2)); then light=$((light + 1)); else dark=$((dark + 1)); fi
            file=$((file + 1)) ;;
        *) file=$((file + 1)) ;;
        esac
    done
    ((knights == 0 && (light == 0 || dark == 0))) && return 0
    ((knights == 1 && light + dark == 0))
}

# state after the moves in $moves: sets FEN and CHECKERS
probe() {
    send "position startpos moves $moves"
    send d
    read_until Checkers:
    CHECKERS=${LINE#Checkers:}; CHECKERS=${CHECKERS// /}
    for l in "${LINES[@]}"; do
        if [[ $l == "Fen: "* ]]; then FEN=${l#Fen: }; fi
    done
}

: >"$tmp/lan.pgn"
for ((g = 1; g <= N; g++)); do
    send ucinewgame
    send isready
    read_until readyok
    moves="" ply=0 result="*"
    declare -A seen=()
    nrandom=$((2 + RANDOM % 5))
    while ((ply < MAXPLY)); do
        if ((ply < nrandom)); then
            send "position startpos moves $moves"
            send "go perft 1"
            read_until "Nodes searched"
            legal=()
            for l in "${LINES[@]}"; do
                if [[ $l =~ ^([a-h][1-8][a-h][1-8][qrbn]?):\ [0-9]+$ ]]; then
                    legal+=("${BASH_REMATCH[1]}")
                fi
            done
            if ((${#legal[@]} == 0)); then
                mv=none
            else
                mv=${legal[RANDOM % ${#legal[@]}]}
            fi
        else
            send "position startpos moves $moves"
            send "go nodes $NODES"
            read_until bestmove
            mv=$(awk '{print $2}' <<<"$LINE")
        fi
        if [[ $mv == none || $mv == "(none)" ]]; then
            probe
            if [[ -n $CHECKERS ]]; then
                # side to move is mated
                if ((ply % 2 == 0)); then result="0-1"; else result="1-0"; fi
            else
                result="1/2-1/2"
            fi
            break
        fi
        moves+="${moves:+ }$mv"
        ply=$((ply + 1))
        probe
        read -r board side castle ep half full <<<"$FEN"
        if dead_position "$board"; then
            # A mate cannot leave a dead position, nor can a stalemate be anything but a
            # draw: the game is drawn whatever else holds.
            result="1/2-1/2"
            break
        fi
        key="$board $side $castle $ep"
        seen[$key]=$(( ${seen[$key]:-0} + 1 ))
        if (( ${seen[$key]} >= 3 || half >= 100 )); then
            # threefold repetition or fifty-move rule: stop as if claimed. A move that
            # mates also ends the game, so look for that first.
            send "position startpos moves $moves"
            send "go perft 1"
            read_until "Nodes searched"
            if [[ $LINE =~ Nodes\ searched:\ 0$ ]]; then continue; fi
            result="1/2-1/2"
            break
        fi
    done
    unset seen
    {
        printf '[Event "Stockfish self-play"]\n[Site "?"]\n[Date "????.??.??"]\n'
        printf '[Round "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "%s"]\n' "$g" "$engine" "$engine" "$result"
        printf '[Annotator "selfplay.sh seed %s nodes %s"]\n\n' "$SEED" "$NODES"
        printf '%s %s\n\n' "$moves" "$result" | fold -s -w 78
    } >>"$tmp/lan.pgn"
done
send quit

"$PGN_EXTRACT" -s -w 78 -o "$OUT" "$tmp/lan.pgn" 2>"$tmp/err" || true
if [[ -s $tmp/err ]]; then
    cat "$tmp/err" >&2
    echo "selfplay: pgn-extract reported problems" >&2
    exit 1
fi
echo "selfplay: wrote $N game(s) to $OUT" >&2
