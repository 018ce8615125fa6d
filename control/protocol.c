/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol's requests: the command table and its parsers (protocol.h); the
 * parsers of casual play's commands are in parse_casual.c, the helpers they share in
 * parsers.h.  The handlers are in dispatch.c.
 */
#include "control/protocol.h"

#include "control/handlers.h"
#include "control/parsers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lang.h"
#include "base/utf8.h"

#define MAX_WORDS CONTROL_MAX_WORDS

static int want(const struct control_words *ws, int min, int max, const char *usage_text,
		struct game_reply *err)
{
	if (ws->n - 1 < min || ws->n - 1 > max)
		return usage(ws, usage_text, err);
	return 0;
}

/* ------------------------------------------------------------------ parsers */

int control_p_none(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	(void)req;
	if (ws->n != 1)
		return fail(err, REPLY_NO_ARGUMENTS, REPLY_ARGS(REPLY_S("command", ws->w[0])));
	return 0;
}

/* status [public], watch [public] */
static int p_view(const struct control_words *ws, struct control_request *req,
		  struct game_reply *err)
{
	if (ws->n > 2 || (ws->n == 2 && strcmp(ws->w[1], "public")))
		return usage(ws, req->command->usage, err);
	req->public_view = ws->n == 2;
	return 0;
}

static int p_tags(const struct control_words *ws, struct control_request *req,
		  struct game_reply *err)
{
	struct game_tag *t = &req->game.tag;
	const char *v;
	size_t len;

	if (ws->n < 3)
		return usage(ws, "tags NAME VALUE", err);
	if (strlen(ws->w[1]) >= sizeof(t->name))
		return fail(err, REPLY_TAG_NAME_TOO_LONG,
			    REPLY_ARGS(REPLY_N("max", sizeof(t->name) - 1)));
	copy(t->name, sizeof(t->name), ws->w[1]);
	v = ws->rest[2];
	len = strlen(v);
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
		len--;
	/* "Value in quotes" is the value without them. */
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
		v++;
		len -= 2;
	}
	if (!len)
		return usage(ws, "tags NAME VALUE", err);
	if (len >= sizeof(t->value))
		return fail(err, REPLY_TAG_VALUE_TOO_LONG,
			    REPLY_ARGS(REPLY_N("max", sizeof(t->value) - 1)));
	memcpy(t->value, v, len);
	t->value[len] = '\0';
	req->game.kind = CMD_TAG;
	return 0;
}

/* "12" (a ply), "12." (White's move 12) or "12..." (Black's), at the start of a word:
 * the length read (0: none), the ply or the move number and colour into *cmd. */
size_t control_relay_ply(const char *word, struct game_command *cmd)
{
	char *end;
	long v;

	if (word[0] < '1' || word[0] > '9')
		return 0;
	errno = 0;
	v = strtol(word, &end, 10);
	if (errno || v > GAME_MAX_PLIES)
		return 0;
	if (!strncmp(end, "...", 3)) {
		cmd->move_number = (int)v;
		cmd->color = CHESS_BLACK;
		return (size_t)(end + 3 - word);
	}
	if (*end == '.') {
		cmd->move_number = (int)v;
		cmd->color = CHESS_WHITE;
		return (size_t)(end + 1 - word);
	}
	cmd->ply = (int)v;
	return (size_t)(end - word);
}

/* move MOVE, move PLY MOVE, move 12. MOVE, move 12... MOVE (or 12.MOVE, 12...MOVE) */
static int p_move(const struct control_words *ws, struct control_request *req,
		  struct game_reply *err)
{
	static const char usage_text[] =
	    "move [PLY|12.|12...] MOVE (SAN with English or German letters, or UCI)";
	const char *move;

	if (want(ws, 1, 2, usage_text, err))
		return -1;
	move = ws->w[ws->n - 1];
	if (ws->n == 3) {
		size_t n = control_relay_ply(ws->w[1], &req->game);

		if (!n || ws->w[1][n])
			return bad_word(err, REPLY_WANT_RELAY_PLY, ws->w[1]);
	} else {
		/* 12.Nf3, 12...Nf6: the move number written onto the move (0-0 is a move). */
		struct game_command named = {.color = -1};
		size_t n = control_relay_ply(ws->w[1], &named);

		if (n && named.move_number && ws->w[1][n]) {
			req->game.move_number = named.move_number;
			req->game.color = named.color;
			move = ws->w[1] + n;
		}
	}
	if (strlen(move) >= sizeof(req->game.move))
		return bad_word(err, REPLY_NOT_A_MOVE, move);
	copy(req->game.move, sizeof(req->game.move), move);
	req->game.kind = CMD_MOVE;
	return 0;
}

static int p_draw_offer(const struct control_words *ws, struct control_request *req,
			struct game_reply *err)
{
	if (want(ws, 0, 1, "draw-offer [white|black]", err))
		return -1;
	req->game.kind = CMD_DRAW_OFFER;
	return ws->n == 2 ? color_arg(ws->w[1], &req->game.color, err) : 0;
}

/* claim uphold|reject: the arbiter's ruling on the open claim (9.5). */
static int p_ruling(const struct control_words *ws, struct control_request *req,
		    struct game_reply *err)
{
	if (ws->n != 2)
		return usage(ws, "claim uphold|reject", err);
	req->game.kind = CMD_RULING;
	req->game.upheld = ws->w[1][0] == 'u';
	return 0;
}

/* claim threefold|fifty [white|black] [MOVE] */
static int p_claim(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	int at = 2;

	if (want(ws, 1, 3, req->command->usage, err))
		return -1;
	if (!strcmp(ws->w[1], "threefold"))
		req->game.claim = CLAIM_THREEFOLD;
	else if (!strcmp(ws->w[1], "fifty"))
		req->game.claim = CLAIM_FIFTY;
	else
		return bad_word(err, REPLY_WANT_CLAIM_KIND, ws->w[1]);
	if (at < ws->n && game_color_parse(ws->w[at]) >= 0)
		req->game.color = game_color_parse(ws->w[at++]);
	if (at < ws->n) {
		if (strlen(ws->w[at]) >= sizeof(req->game.move))
			return bad_word(err, REPLY_NOT_A_MOVE, ws->w[at]);
		copy(req->game.move, sizeof(req->game.move), ws->w[at++]);
	}
	if (at < ws->n)
		return usage(ws, req->command->usage, err);
	req->game.kind = CMD_CLAIM;
	return 0;
}

static int p_resign(const struct control_words *ws, struct control_request *req,
		    struct game_reply *err)
{
	if (want(ws, 1, 1, "resign white|black", err))
		return -1;
	req->game.kind = CMD_RESIGN;
	return color_arg(ws->w[1], &req->game.color, err);
}

static int p_result(const struct control_words *ws, struct control_request *req,
		    struct game_reply *err)
{
	if (ws->n < 3)
		return usage(ws, "result 1-0|0-1|1/2-1/2 REASON...", err);
	if (!result_valid(ws->w[1]))
		return bad_word(err, REPLY_WANT_RESULT, ws->w[1]);
	copy(req->game.result, sizeof(req->game.result), ws->w[1]);
	if (strlen(ws->rest[2]) >= sizeof(req->game.text))
		return fail(err, REPLY_REASON_TOO_LONG,
			    REPLY_ARGS(REPLY_N("max", sizeof(req->game.text) - 1)));
	copy(req->game.text, sizeof(req->game.text), ws->rest[2]);
	req->game.kind = CMD_RESULT;
	return 0;
}

static int p_approve(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	req->game.kind = CMD_APPROVE;
	return control_p_none(ws, req, err);
}

static int p_pause(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	req->game.kind = CMD_PAUSE;
	return control_p_none(ws, req, err);
}

static int p_resume(const struct control_words *ws, struct control_request *req,
		    struct game_reply *err)
{
	req->game.kind = CMD_RESUME;
	return control_p_none(ws, req, err);
}

/* H:MM:SS (or M:SS, or SS) as milliseconds. */
static int parse_hms(const char *text, int64_t *ms)
{
	long parts[3] = {0, 0, 0};
	int n = 0;
	const char *p = text;

	while (*p) {
		char *end;
		long v;

		if (n == 3 || *p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v > 99999)
			return -1;
		parts[n++] = v;
		p = end;
		if (*p == ':')
			p++;
		else if (*p)
			return -1;
	}
	if (!n || (n > 1 && parts[n - 1] > 59) || (n == 3 && parts[1] > 59))
		return -1;
	*ms = 0;
	for (int i = 0; i < n; i++)
		*ms = *ms * 60 + parts[i];
	*ms *= 1000;
	return 0;
}

#define CLOCK_USAGE                                                                                \
	"clock set H:MM:SS H:MM:SS [WHITE_MOVES BLACK_MOVES] | control TIME_CONTROL | add "        \
	"white|black H:MM:SS"

/* clock control TC: the time control from now on (6.10.2); its syntax is the game's
 * (docs/scripts.md "Board scripts, line logs, time controls"), a clock it must have. */
static int p_clock_control(const struct control_words *ws, struct control_request *req,
			   struct game_reply *err)
{
	struct time_control tc;
	char detail[96];

	if (ws->n != 3)
		return usage(ws, CLOCK_USAGE, err);
	if (time_control_parse(ws->w[2], &tc, detail, sizeof(detail)))
		return fail(err, REPLY_WANT_TIME_CONTROL,
			    REPLY_ARGS(REPLY_S("text", ws->w[2]), REPLY_S("detail", detail)));
	if (tc.count == 0)
		return fail(err, REPLY_WANT_TIME_CONTROL,
			    REPLY_ARGS(REPLY_S("text", ws->w[2]),
				       REPLY_S("detail", "a game with a clock keeps one")));
	time_control_format(&tc, req->game.text, sizeof(req->game.text));
	req->game.kind = CMD_CLOCK_CONTROL;
	return 0;
}

/* clock add white|black H:MM:SS: the usual two minutes given to one side. */
static int p_clock_add(const struct control_words *ws, struct control_request *req,
		       struct game_reply *err)
{
	if (ws->n != 4)
		return usage(ws, CLOCK_USAGE, err);
	if (color_arg(ws->w[2], &req->game.color, err))
		return -1;
	if (parse_hms(ws->w[3], &req->game.white_ms) || req->game.white_ms <= 0)
		return fail(err, REPLY_WANT_TIMES, REPLY_ARGS(REPLY_S("usage", CLOCK_USAGE)));
	req->game.kind = CMD_CLOCK_ADD;
	return 0;
}

static int p_clock(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	static const char usage_text[] = CLOCK_USAGE;

	if (ws->n >= 2 && !strcmp(ws->w[1], "control"))
		return p_clock_control(ws, req, err);
	if (ws->n >= 2 && !strcmp(ws->w[1], "add"))
		return p_clock_add(ws, req, err);
	if ((ws->n != 4 && ws->n != 6) || strcmp(ws->w[1], "set"))
		return usage(ws, usage_text, err);
	if (parse_hms(ws->w[2], &req->game.white_ms) || parse_hms(ws->w[3], &req->game.black_ms))
		return fail(err, REPLY_WANT_TIMES, REPLY_ARGS(REPLY_S("usage", usage_text)));
	req->game.white_moves = req->game.black_moves = -1;
	if (ws->n == 6) {
		char *e1, *e2;
		long w = strtol(ws->w[4], &e1, 10), b = strtol(ws->w[5], &e2, 10);

		if (*e1 || *e2 || e1 == ws->w[4] || e2 == ws->w[5] || w < 0 || b < 0 || w > 9999 ||
		    b > 9999)
			return fail(err, REPLY_WANT_MOVE_COUNTERS,
				    REPLY_ARGS(REPLY_S("usage", usage_text)));
		req->game.white_moves = (int)w;
		req->game.black_moves = (int)b;
	}
	req->game.kind = CMD_CLOCK_SET;
	return 0;
}

static int p_compare(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	if (ws->n < 2)
		return usage(ws, "compare MOVETEXT", err);
	copy(req->movetext, sizeof(req->movetext), ws->rest[1]);
	return 0;
}

static int p_rollback(const struct control_words *ws, struct control_request *req,
		      struct game_reply *err)
{
	char *end;
	long v;

	if (want(ws, 1, 1, "rollback PLY", err))
		return -1;
	v = strtol(ws->w[1], &end, 10);
	if (*end || end == ws->w[1] || v < 0 || v > GAME_MAX_PLIES)
		return bad_word(err, REPLY_WANT_PLY, ws->w[1]);
	req->game.ply = (int)v;
	req->game.kind = CMD_ROLLBACK;
	return 0;
}

static int p_illegal(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	if (want(ws, 0, 1, "illegal [white|black]", err))
		return -1;
	req->game.kind = CMD_ILLEGAL;
	return ws->n == 2 ? color_arg(ws->w[1], &req->game.color, err) : 0;
}

/* A name the author takes: letters, digits, - and _. */
static bool name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n < CONTROL_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") ==
		   n;
}

static int p_auth(const struct control_words *ws, struct control_request *req,
		  struct game_reply *err)
{
	if (want(ws, 1, 2, "auth PIN [NAME]", err))
		return -1;
	if (strlen(ws->w[1]) >= sizeof(req->pin))
		return fail(err, REPLY_PIN_TOO_LONG, NULL);
	copy(req->pin, sizeof(req->pin), ws->w[1]);
	if (ws->n == 3) {
		if (!name_ok(ws->w[2]))
			return bad_word(err, REPLY_WANT_NAME, ws->w[2]);
		copy(req->name, sizeof(req->name), ws->w[2]);
	}
	return 0;
}

/* notation de|en|sv|nl: the language whose piece letters the connection's moves use. */
static int p_notation(const struct control_words *ws, struct control_request *req,
		      struct game_reply *err)
{
	int lang = ws->n == 2 ? phrase_lang_parse(ws->w[1]) : -1;

	if (lang < 0)
		return usage(ws, req->command->usage, err);
	copy(req->game.lang, sizeof(req->game.lang), phrase_lang_code((enum phrase_lang)lang));
	return 0;
}

static int p_export(const struct control_words *ws, struct control_request *req,
		    struct game_reply *err)
{
	static const char *const names[] = {"pgn", "text", "brf", "unicode"};

	if (want(ws, 1, 2, "export pgn|text|brf|unicode [GAME-ID]", err))
		return -1;
	if (ws->n == 3) {
		/* A finished game kept under games/ (docs/state.md "State directory"): its id, a
		 * file name's part. */
		const char *id = ws->w[2];

		if (strlen(id) >= sizeof(req->game_id) || id[0] == '.' ||
		    strspn(id,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
			strlen(id))
			return bad_word(err, REPLY_WANT_GAME_ID, id);
		copy(req->game_id, sizeof(req->game_id), id);
	}
	for (int i = 0; i < 4; i++) {
		if (!strcmp(ws->w[1], names[i])) {
			req->export_format = (enum control_export)i;
			return 0;
		}
	}
	return bad_word(err, REPLY_WANT_EXPORT_FORMAT, ws->w[1]);
}

static int p_last_moves(const struct control_words *ws, struct control_request *req,
			struct game_reply *err)
{
	char *end;
	long n = 5;

	if (ws->n > 2)
		return usage(ws, req->command->usage, err);
	if (ws->n == 2) {
		n = strtol(ws->w[1], &end, 10);
		if (*end || end == ws->w[1] || n < 1 || n > 10)
			return fail(err, REPLY_WANT_MOVE_COUNT,
				    REPLY_ARGS(REPLY_S("word", ws->w[1]), REPLY_N("max", 10)));
	}
	req->game.kind = CMD_LAST_MOVES;
	req->game.ply = (int)n;
	return 0;
}

/* games [N]: the last N finished games (10; at most GAME_SUMMARY_MAX). */
static int p_games(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	char *end;
	long n = 10;

	if (ws->n > 2)
		return usage(ws, req->command->usage, err);
	if (ws->n == 2) {
		n = strtol(ws->w[1], &end, 10);
		if (*end || end == ws->w[1] || n < 1 || n > GAME_SUMMARY_MAX)
			return fail(err, REPLY_WANT_GAMES_COUNT,
				    REPLY_ARGS(REPLY_S("word", ws->w[1]),
					       REPLY_N("max", GAME_SUMMARY_MAX)));
	}
	req->count = (int)n;
	return 0;
}

/* ------------------------------------------------------------------ the table */

#define ANY  CONTROL_ANYONE
#define ARB  CONTROL_ARBITER
#define NONE CONTROL_NO_KIND

/* Each row: name, sub, usage, words (the first argument's, for completion), roles, the game
 * command it gives (whose modes and needs are the model's, game_command_needs()), flags,
 * parser, handler (protocol.h).  Rows of the same name: one with a `sub` first
 * (its first arguments pick it). */
static const struct control_command table[] = {
    {"status", NULL, "status [public]", "public", ANY, NONE, CONTROL_READS, p_view,
     control_h_status},
    {"moves", NULL, "moves", NULL, ANY, NONE, CONTROL_READS, control_p_none, control_h_moves},
    {"tags", NULL, "tags NAME VALUE", NULL, ANY, CMD_TAG, CONTROL_CHANGES, p_tags, control_h_game},
    {"move", NULL, "move [PLY] MOVE", NULL, ANY, CMD_MOVE, CONTROL_CHANGES, p_move, control_h_game},
    {"draw-offer", NULL, "draw-offer [white|black]", "white black", ANY, CMD_DRAW_OFFER,
     CONTROL_CHANGES, p_draw_offer, control_h_game},
    {"claim", "uphold|reject", "claim uphold|reject", NULL, ARB, CMD_RULING, CONTROL_CHANGES,
     p_ruling, control_h_game},
    {"claim", NULL, "claim threefold|fifty [white|black] [MOVE]", "threefold fifty", ANY, CMD_CLAIM,
     CONTROL_CHANGES, p_claim, control_h_game},
    {"resign", NULL, "resign white|black", "white black", ANY, CMD_RESIGN, CONTROL_CHANGES,
     p_resign, control_h_game},
    {"result", NULL, "result 1-0|0-1|1/2-1/2 REASON...", "1-0 0-1 1/2-1/2", ARB, CMD_RESULT,
     CONTROL_CHANGES, p_result, control_h_game},
    {"approve", NULL, "approve", NULL, ANY, CMD_APPROVE, CONTROL_CHANGES, p_approve,
     control_h_game},
    {"pause", NULL, "pause", NULL, ARB, CMD_PAUSE, CONTROL_CHANGES, p_pause, control_h_game},
    {"resume", NULL, "resume", NULL, ARB, CMD_RESUME, CONTROL_CHANGES, p_resume, control_h_game},
    {"clock", NULL, CLOCK_USAGE, "set control add", ARB, CMD_CLOCK_SET, CONTROL_CHANGES, p_clock,
     control_h_game},
    {"compare", NULL, "compare MOVETEXT", NULL, ARB, NONE, 0, p_compare, control_h_compare},
    {"rollback", NULL, "rollback PLY", NULL, ARB, CMD_ROLLBACK, CONTROL_CHANGES, p_rollback,
     control_h_game},
    {"illegal", NULL, "illegal [white|black]", "white black", ARB, CMD_ILLEGAL, CONTROL_CHANGES,
     p_illegal, control_h_game},
    {"watch", NULL, "watch [public]", "public", ANY, NONE, CONTROL_SESSION, p_view,
     control_h_watch},
    {"auth", NULL, "auth PIN [NAME]", NULL, ANY, NONE, CONTROL_SESSION | CONTROL_SECRET, p_auth,
     control_h_auth},
    {"notation", NULL, "notation de|en|sv|nl", "de en sv nl", ANY, NONE, CONTROL_SESSION,
     p_notation, control_h_notation},
    {"export", NULL, "export pgn|text|brf|unicode [GAME-ID]", "pgn text brf unicode", ANY, NONE,
     CONTROL_READS, p_export, control_h_export},
    {"help", NULL, "help", NULL, ANY, NONE, CONTROL_READS, control_p_none, control_h_help},
    {"games", NULL, "games [N]", NULL, ANY, NONE, CONTROL_READS, p_games, control_h_games},
    {"last-moves", NULL, "last-moves [N]", NULL, ANY, CMD_LAST_MOVES, 0, p_last_moves,
     control_h_game},
    /* Training and study (docs/training.md "Training and study"): casual play only. */
    {"engine", NULL,
     "engine on [white|black] [elo N [asked N] | level N] [NAME...] | off [REASON] | wait | hint "
     "PLY MOVE | draw accept|decline | eval PLY cp|mate N",
     "on off wait hint draw eval", ANY, CMD_ENGINE, CONTROL_SESSION, control_p_engine,
     control_h_engine},
    {"eval", NULL, "eval", NULL, ANY, CMD_EVAL, 0, control_p_eval, control_h_game},
    {"new-game", NULL, "new-game [FEN]", NULL, ANY, CMD_NEW_GAME, CONTROL_CHANGES,
     control_p_new_game, control_h_game},
    {"hint", NULL, "hint", NULL, ANY, CMD_HINT, 0, control_p_hint, control_h_game},
    {"takeback", NULL, "takeback", NULL, ANY, CMD_TAKEBACK, CONTROL_CHANGES, control_p_takeback,
     control_h_game},
    {"review", NULL,
     "review load [FEN] | add UCI... | variation LINE PLY | annotate LINE PLY TEXT | begin | "
     "next | back | where | goto MOVE | enter [N] | leave | comment | aloud on|off | end",
     "load add variation annotate begin next back where goto enter leave comment aloud end", ANY,
     CMD_REVIEW, 0, control_p_review, control_h_review},
    /* Online play (docs/online.md "Playing online"): the online process, in casual and online play.
     */
    {"online", NULL,
     "online on | off | wait | begin COLOR TC ID [TAGS] | move PLY UCI [W_MS B_MS RUN] | clock "
     "W_MS B_MS RUN | back PLIES WHY | result STATUS [WINNER] | say NEWS | offers [OFFER...] | "
     "gone SECONDS|back",
     "on off wait begin move clock back result say offers gone", ANY, CMD_ONLINE, CONTROL_SESSION,
     control_p_online, control_h_online},
};

#undef ANY
#undef ARB
#undef NONE

#define TABLE_SIZE ((int)(sizeof(table) / sizeof(table[0])))

const struct control_command *control_command_at(int i)
{
	return i >= 0 && i < TABLE_SIZE ? &table[i] : NULL;
}

const char *control_role_name(enum game_role role)
{
	return role == ROLE_ARBITER ? "arbiter" : role == ROLE_PLAYER ? "player" : "assistant";
}

/* Whether `word` is one of the '|'-separated words of `list`. */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (list && *list) {
		size_t len = strcspn(list, "|");

		if (len == n && !strncmp(list, word, n))
			return true;
		list += len;
		if (*list == '|')
			list++;
	}
	return false;
}

/* The row for a command's name and first argument (NULL: none). */
static const struct control_command *lookup(const char *name, const char *arg)
{
	for (int i = 0; i < TABLE_SIZE; i++) {
		if (strcmp(name, table[i].name))
			continue;
		if (!table[i].sub || (arg && in_list(table[i].sub, arg)))
			return &table[i];
	}
	return NULL;
}

/* Well-formed UTF-8 without control characters (a tab is a space; the characters that break
 * a line or turn the text around it count as such, base/utf8.h): REPLY_NONE, or what is
 * wrong. */
static enum reply_code bad_text(const char *s, size_t len)
{
	size_t at = utf8_unsafe_at(s, len, true);
	uint32_t cp;

	if (at == len)
		return REPLY_NONE;
	return utf8_decode((const unsigned char *)s + at, len - at, &cp)
		   ? REPLY_REQUEST_CONTROL_CHARACTER
		   : REPLY_REQUEST_NOT_UTF8;
}

static int split(const char *line, struct control_words *ws, struct game_reply *err)
{
	const char *p = line;

	ws->n = 0;
	for (;;) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (ws->n == MAX_WORDS) {
			/* More words only in the free text of the last ones (tags, result,
			 * compare): the rest of the line is kept. */
			break;
		}
		ws->rest[ws->n] = p;
		n = strcspn(p, " \t");
		if (n >= sizeof(ws->w[0])) {
			char cut[sizeof(ws->w[0])];

			if (ws->n == 0) {
				copy(cut, sizeof(cut), p);
				cut[strcspn(cut, " \t")] = '\0';
				return fail(err, REPLY_UNKNOWN_COMMAND,
					    REPLY_ARGS(REPLY_S("command", cut)));
			}
			n = sizeof(ws->w[0]) - 1;
		}
		memcpy(ws->w[ws->n], p, n);
		ws->w[ws->n][n] = '\0';
		ws->n++;
		p += strcspn(p, " \t");
	}
	return 0;
}

const struct control_command *control_command_find(const char *line)
{
	char name[64] = "", arg[64] = "";
	int n = 0;

	/* Two words at most, each cut to its field: enough to pick the row. */
	while (*line == ' ' || *line == '\t')
		line++;
	n = (int)strcspn(line, " \t");
	snprintf(name, sizeof(name), "%.*s", n < 63 ? n : 63, line);
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	n = (int)strcspn(line, " \t");
	snprintf(arg, sizeof(arg), "%.*s", n < 63 ? n : 63, line);
	return lookup(name, arg[0] ? arg : NULL);
}

int control_parse(const char *line, size_t len, struct control_request *req, struct game_reply *err)
{
	char text[CONTROL_LINE_MAX + 1];
	struct control_words ws;
	enum reply_code why;

	memset(req, 0, sizeof(*req));
	req->game.color = -1;
	req->game.white_moves = req->game.black_moves = -1;
	if (len > CONTROL_LINE_MAX)
		return fail(err, REPLY_REQUEST_TOO_LONG,
			    REPLY_ARGS(REPLY_N("max", CONTROL_LINE_MAX)));
	if (len && line[len - 1] == '\r')
		len--;
	if (memchr(line, '\0', len))
		return fail(err, REPLY_REQUEST_NUL, NULL);
	why = bad_text(line, len);
	if (why != REPLY_NONE)
		return fail(err, why, NULL);
	memcpy(text, line, len);
	text[len] = '\0';
	if (split(text, &ws, err))
		return -1;
	if (!ws.n)
		return fail(err, REPLY_EMPTY_REQUEST, NULL);
	req->command = lookup(ws.w[0], ws.n > 1 ? ws.w[1] : NULL);
	if (!req->command)
		return fail(err, REPLY_UNKNOWN_COMMAND, REPLY_ARGS(REPLY_S("command", ws.w[0])));
	return req->command->parse(&ws, req, err);
}
