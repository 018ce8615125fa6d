/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol's requests: the command table and its parsers (protocol.h).
 */
#include "control/protocol.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 8

struct words {
	int n;
	char w[MAX_WORDS][64];
	const char *rest[MAX_WORDS]; /* the line from word i on */
};

typedef int (*parse_fn)(const struct words *ws, struct control_request *req, char *err,
			size_t err_size);

static int fail(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
	return -1;
}

static int want(const struct words *ws, int min, int max, const char *usage, char *err,
		size_t err_size)
{
	if (ws->n - 1 < min || ws->n - 1 > max)
		return fail(err, err_size, "usage: %s", usage);
	return 0;
}

static int color_arg(const char *word, int *color, char *err, size_t err_size)
{
	*color = game_color_parse(word);
	if (*color < 0)
		return fail(err, err_size, "'%s': white or black", word);
	return 0;
}

/* ------------------------------------------------------------------ parsers */

/* A word into a field it has been checked to fit, or cut short. */
static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int p_none(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	(void)req;
	if (ws->n != 1)
		return fail(err, err_size, "%s takes no arguments", ws->w[0]);
	return 0;
}

static int p_tags(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	struct game_tag *t = &req->game.tag;
	const char *v;
	size_t len;

	if (ws->n < 3)
		return fail(err, err_size, "usage: tags NAME VALUE");
	if (strlen(ws->w[1]) >= sizeof(t->name))
		return fail(err, err_size, "tag name too long");
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
		return fail(err, err_size, "usage: tags NAME VALUE");
	if (len >= sizeof(t->value))
		return fail(err, err_size, "tag value too long (at most %zu bytes)",
			    sizeof(t->value) - 1);
	memcpy(t->value, v, len);
	t->value[len] = '\0';
	req->game.kind = CMD_TAG;
	return 0;
}

static int p_move(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (want(ws, 1, 1, "move MOVE (SAN with English or German letters, or UCI)", err, err_size))
		return -1;
	if (strlen(ws->w[1]) >= sizeof(req->game.move))
		return fail(err, err_size, "'%s' is not a move", ws->w[1]);
	copy(req->game.move, sizeof(req->game.move), ws->w[1]);
	req->game.kind = CMD_MOVE;
	return 0;
}

static int p_draw_offer(const struct words *ws, struct control_request *req, char *err,
			size_t err_size)
{
	if (want(ws, 0, 1, "draw-offer [white|black]", err, err_size))
		return -1;
	req->game.kind = CMD_DRAW_OFFER;
	return ws->n == 2 ? color_arg(ws->w[1], &req->game.color, err, err_size) : 0;
}

static int p_claim(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (want(ws, 1, 2, "claim threefold|fifty [MOVE], or claim uphold|reject", err, err_size))
		return -1;
	if (!strcmp(ws->w[1], "uphold") || !strcmp(ws->w[1], "reject")) {
		/* The arbiter's ruling on the open claim (9.5). */
		if (ws->n != 2)
			return fail(err, err_size, "usage: claim uphold|reject");
		req->game.kind = CMD_RULING;
		req->game.upheld = ws->w[1][0] == 'u';
		req->arbiter_only = true;
		return 0;
	}
	if (!strcmp(ws->w[1], "threefold"))
		req->game.claim = CLAIM_THREEFOLD;
	else if (!strcmp(ws->w[1], "fifty"))
		req->game.claim = CLAIM_FIFTY;
	else
		return fail(err, err_size, "'%s': threefold or fifty", ws->w[1]);
	if (ws->n == 3) {
		if (strlen(ws->w[2]) >= sizeof(req->game.move))
			return fail(err, err_size, "'%s' is not a move", ws->w[2]);
		copy(req->game.move, sizeof(req->game.move), ws->w[2]);
	}
	req->game.kind = CMD_CLAIM;
	return 0;
}

static int p_resign(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (want(ws, 1, 1, "resign white|black", err, err_size))
		return -1;
	req->game.kind = CMD_RESIGN;
	return color_arg(ws->w[1], &req->game.color, err, err_size);
}

static int p_result(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (ws->n < 3)
		return fail(err, err_size, "usage: result 1-0|0-1|1/2-1/2 REASON...");
	if (!result_valid(ws->w[1]))
		return fail(err, err_size, "'%s': 1-0, 0-1 or 1/2-1/2", ws->w[1]);
	copy(req->game.result, sizeof(req->game.result), ws->w[1]);
	if (strlen(ws->rest[2]) >= sizeof(req->game.text))
		return fail(err, err_size, "reason too long (at most %zu bytes)",
			    sizeof(req->game.text) - 1);
	copy(req->game.text, sizeof(req->game.text), ws->rest[2]);
	req->game.kind = CMD_RESULT;
	return 0;
}

static int p_kind(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (p_none(ws, req, err, err_size))
		return -1;
	req->game.kind = req->cmd == CTL_APPROVE ? CMD_APPROVE
			 : req->cmd == CTL_PAUSE ? CMD_PAUSE
						 : CMD_RESUME;
	return 0;
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

static int p_clock(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	static const char usage[] = "clock set H:MM:SS H:MM:SS [WHITE_MOVES BLACK_MOVES]";

	if ((ws->n != 4 && ws->n != 6) || strcmp(ws->w[1], "set"))
		return fail(err, err_size, "usage: %s", usage);
	if (parse_hms(ws->w[2], &req->game.white_ms) || parse_hms(ws->w[3], &req->game.black_ms))
		return fail(err, err_size, "times are H:MM:SS: %s", usage);
	req->game.white_moves = req->game.black_moves = -1;
	if (ws->n == 6) {
		char *e1, *e2;
		long w = strtol(ws->w[4], &e1, 10), b = strtol(ws->w[5], &e2, 10);

		if (*e1 || *e2 || e1 == ws->w[4] || e2 == ws->w[5] || w < 0 || b < 0 || w > 9999 ||
		    b > 9999)
			return fail(err, err_size, "move counters are numbers: %s", usage);
		req->game.white_moves = (int)w;
		req->game.black_moves = (int)b;
	}
	req->game.kind = CMD_CLOCK_SET;
	return 0;
}

static int p_compare(const struct words *ws, struct control_request *req, char *err,
		     size_t err_size)
{
	if (ws->n < 2)
		return fail(err, err_size, "usage: compare MOVETEXT");
	copy(req->movetext, sizeof(req->movetext), ws->rest[1]);
	return 0;
}

static int p_rollback(const struct words *ws, struct control_request *req, char *err,
		      size_t err_size)
{
	char *end;
	long v;

	if (want(ws, 1, 1, "rollback PLY", err, err_size))
		return -1;
	v = strtol(ws->w[1], &end, 10);
	if (*end || end == ws->w[1] || v < 0 || v > GAME_MAX_PLIES)
		return fail(err, err_size, "'%s': a ply number, 0 for the start", ws->w[1]);
	req->game.ply = (int)v;
	req->game.kind = CMD_ROLLBACK;
	return 0;
}

static int p_illegal(const struct words *ws, struct control_request *req, char *err,
		     size_t err_size)
{
	if (want(ws, 0, 1, "illegal [white|black]", err, err_size))
		return -1;
	req->game.kind = CMD_ILLEGAL;
	return ws->n == 2 ? color_arg(ws->w[1], &req->game.color, err, err_size) : 0;
}

static int p_auth(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	if (want(ws, 1, 1, "auth PIN", err, err_size))
		return -1;
	if (strlen(ws->w[1]) >= sizeof(req->pin))
		return fail(err, err_size, "PIN too long");
	copy(req->pin, sizeof(req->pin), ws->w[1]);
	return 0;
}

static int p_export(const struct words *ws, struct control_request *req, char *err, size_t err_size)
{
	static const char *const names[] = {"pgn", "text", "brf", "unicode"};

	if (want(ws, 1, 1, "export pgn|text|brf|unicode", err, err_size))
		return -1;
	for (int i = 0; i < 4; i++) {
		if (!strcmp(ws->w[1], names[i])) {
			req->export_format = (enum control_export)i;
			return 0;
		}
	}
	return fail(err, err_size, "'%s': pgn, text, brf or unicode", ws->w[1]);
}

/* ------------------------------------------------------------------ the table */

static const struct command_row {
	struct control_command_info info;
	bool changes_game;
	parse_fn parse;
} table[CTL_CMD_COUNT] = {
    [CTL_STATUS] = {{"status", false, "status"}, false, p_none},
    [CTL_MOVES] = {{"moves", false, "moves"}, false, p_none},
    [CTL_TAGS] = {{"tags", false, "tags NAME VALUE"}, true, p_tags},
    [CTL_MOVE] = {{"move", false, "move MOVE"}, true, p_move},
    [CTL_DRAW_OFFER] = {{"draw-offer", false, "draw-offer [white|black]"}, true, p_draw_offer},
    [CTL_CLAIM] = {{"claim", false, "claim threefold|fifty [MOVE] | claim uphold|reject (arbiter)"},
		   true,
		   p_claim},
    [CTL_RESIGN] = {{"resign", false, "resign white|black"}, true, p_resign},
    [CTL_RESULT] = {{"result", true, "result 1-0|0-1|1/2-1/2 REASON..."}, true, p_result},
    [CTL_APPROVE] = {{"approve", false, "approve"}, true, p_kind},
    [CTL_PAUSE] = {{"pause", true, "pause"}, true, p_kind},
    [CTL_RESUME] = {{"resume", true, "resume"}, true, p_kind},
    [CTL_CLOCK] = {{"clock", true, "clock set H:MM:SS H:MM:SS [WHITE_MOVES BLACK_MOVES]"},
		   true,
		   p_clock},
    [CTL_COMPARE] = {{"compare", true, "compare MOVETEXT"}, false, p_compare},
    [CTL_ROLLBACK] = {{"rollback", true, "rollback PLY"}, true, p_rollback},
    [CTL_ILLEGAL] = {{"illegal", true, "illegal [white|black]"}, true, p_illegal},
    [CTL_WATCH] = {{"watch", false, "watch"}, false, p_none},
    [CTL_AUTH] = {{"auth", false, "auth PIN"}, false, p_auth},
    [CTL_EXPORT] = {{"export", false, "export pgn|text|brf|unicode"}, false, p_export},
    [CTL_HELP] = {{"help", false, "help"}, false, p_none},
};

const struct control_command_info *control_commands(int *count)
{
	static struct control_command_info infos[CTL_CMD_COUNT];

	for (int i = 0; i < CTL_CMD_COUNT; i++)
		infos[i] = table[i].info;
	*count = CTL_CMD_COUNT;
	return infos;
}

const char *control_role_name(enum game_role role)
{
	return role == ROLE_ARBITER ? "arbiter" : role == ROLE_PLAYER ? "player" : "assistant";
}

bool control_allowed(const struct control_request *req, enum game_role role)
{
	return !req->arbiter_only || role == ROLE_ARBITER;
}

/* Well-formed UTF-8 without control characters (a tab is a space). */
static const char *bad_text(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return "a control character";
			i++;
			continue;
		}
		n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
		if (!n || c > 0xf4 || i + n > len)
			return "text that is not UTF-8";
		cp = c & (0x7f >> n);
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "text that is not UTF-8";
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return "text that is not UTF-8";
		i += n;
	}
	return NULL;
}

static int split(const char *line, struct words *ws, char *err, size_t err_size)
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
			if (ws->n == 0)
				return fail(err, err_size, "unknown command");
			n = sizeof(ws->w[0]) - 1;
		}
		memcpy(ws->w[ws->n], p, n);
		ws->w[ws->n][n] = '\0';
		ws->n++;
		p += strcspn(p, " \t");
	}
	return 0;
}

int control_parse(const char *line, size_t len, struct control_request *req, char *err,
		  size_t err_size)
{
	char text[CONTROL_LINE_MAX + 1];
	struct words ws;
	const char *why;

	memset(req, 0, sizeof(*req));
	req->game.color = -1;
	req->game.white_moves = req->game.black_moves = -1;
	if (len > CONTROL_LINE_MAX)
		return fail(err, err_size, "request longer than %d bytes", CONTROL_LINE_MAX);
	if (len && line[len - 1] == '\r')
		len--;
	if (memchr(line, '\0', len))
		return fail(err, err_size, "request holds a NUL byte");
	why = bad_text((const unsigned char *)line, len);
	if (why)
		return fail(err, err_size, "request holds %s", why);
	memcpy(text, line, len);
	text[len] = '\0';
	if (split(text, &ws, err, err_size))
		return -1;
	if (!ws.n)
		return fail(err, err_size, "empty request");
	for (int i = 0; i < CTL_CMD_COUNT; i++) {
		if (strcmp(ws.w[0], table[i].info.name))
			continue;
		req->cmd = (enum control_cmd)i;
		req->arbiter_only = table[i].info.arbiter_only;
		req->changes_game = table[i].changes_game;
		return table[i].parse(&ws, req, err, err_size);
	}
	return fail(err, err_size, "unknown command '%s' (help lists them)", ws.w[0]);
}
