/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/room.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

bool room_board_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < ROOM_NAME_MAX &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
		   n;
}

/* The tags of a game's description: who, where, when, which board.  Never Result,
 * Termination, FEN, SetUp or TimeControl: those belong to the game itself. */
static const char *const allowed_tags[] = {
    "Event",	   "Site",	"Date",	     "Round",	   "Board",	   "White",
    "Black",	   "WhiteElo",	"BlackElo",  "WhiteTitle", "BlackTitle",   "WhiteFideId",
    "BlackFideId", "WhiteTeam", "BlackTeam", "WhiteFed",   "BlackFed",	   "EventDate",
    "Section",	   "Stage",	"Annotator", "EventType",  "EventCountry",
};

bool room_tag_allowed(const char *name)
{
	for (size_t i = 0; i < sizeof(allowed_tags) / sizeof(allowed_tags[0]); i++)
		if (!strcmp(name, allowed_tags[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------------ CSV */

#define CSV_FIELDS_MAX (ROOM_CSV_TAGS_MAX + 1)

struct csv_reader {
	const char *p, *end;
	int line;
};

/* Why c may not be in a field (quoted or not), or NULL when it may; a comma or a line's end
 * outside quotes, and a quote inside them, are the caller's. */
static const char *csv_char_error(char c, bool quoted)
{
	if (c == '\n' || c == '\r')
		return "a value may not span lines";
	if (!quoted && c == '"')
		return "a quote inside an unquoted field";
	if ((unsigned char)c < 0x20 && c != '\t')
		return "a control character in a field";
	return NULL;
}

/*
 * Field n's bytes (n from 0), its quotes undone, into field, up to its end (a comma, a line's
 * end or the text's), which stays unread: 0 with its length in *len, or -2 on an error (in err).
 */
static int csv_field_read(struct csv_reader *r, char *field, size_t *len, int n, char *err,
			  size_t err_size)
{
	bool quoted = r->p < r->end && *r->p == '"';
	const char *bad;

	*len = 0;
	if (quoted)
		r->p++;
	for (;;) {
		char c;

		if (r->p >= r->end) {
			if (quoted) {
				snprintf(err, err_size, "%d: a quoted field has no end", r->line);
				return -2;
			}
			return 0;
		}
		c = *r->p;
		if (quoted && c == '"') {
			if (r->p + 1 < r->end && r->p[1] == '"') {
				r->p++;
			} else {
				r->p++;
				quoted = false;
				if (r->p < r->end && *r->p != ',' && *r->p != '\n' &&
				    *r->p != '\r') {
					snprintf(err, err_size,
						 "%d: text after a quoted field's end", r->line);
					return -2;
				}
				continue;
			}
		} else if (!quoted && (c == ',' || c == '\n' || c == '\r')) {
			return 0;
		} else if ((bad = csv_char_error(c, quoted))) {
			snprintf(err, err_size, "%d: %s", r->line, bad);
			return -2;
		}
		if (*len + 1 >= ROOM_TAG_VALUE_MAX) {
			snprintf(err, err_size, "%d: field %d longer than %d bytes", r->line, n + 1,
				 ROOM_TAG_VALUE_MAX - 1);
			return -2;
		}
		field[(*len)++] = c;
		r->p++;
	}
}

/* Field n of the given length, ended and checked, without the spaces around it: 0, or -2 on
 * an error (in err). */
static int csv_field_tidy(char *field, size_t len, int line, int n, char *err, size_t err_size)
{
	size_t lead;

	/* Spaces around a field are no part of it (values are PGN tags). */
	while (len && (field[len - 1] == ' ' || field[len - 1] == '\t'))
		len--;
	field[len] = '\0';
	if (utf8_unsafe_at(field, len, true) != len) {
		snprintf(err, err_size,
			 "%d: field %d: a character that breaks the line or turns the text "
			 "(such as U+202E or U+2028), or bytes that are no UTF-8",
			 line, n + 1);
		return -2;
	}
	lead = strspn(field, " \t");
	memmove(field, field + lead, len - lead + 1);
	return 0;
}

/*
 * One record's fields into fields[] (each of size ROOM_TAG_VALUE_MAX): the number of
 * fields, 0 for a blank line, -1 at the end of the text, -2 on an error (in err).
 */
static int csv_record(struct csv_reader *r, char fields[][ROOM_TAG_VALUE_MAX], char *err,
		      size_t err_size)
{
	int n = 0;

	if (r->p >= r->end)
		return -1;
	r->line++;
	if (*r->p == '\n' || (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')) {
		r->p += *r->p == '\r' ? 2 : 1;
		return 0;
	}
	for (;;) {
		size_t len;

		if (n == CSV_FIELDS_MAX) {
			snprintf(err, err_size, "%d: more than %d columns", r->line,
				 CSV_FIELDS_MAX);
			return -2;
		}
		if (csv_field_read(r, fields[n], &len, n, err, err_size) ||
		    csv_field_tidy(fields[n], len, r->line, n, err, err_size))
			return -2;
		n++;
		if (r->p >= r->end)
			return n;
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == '\r')
			r->p++;
		if (r->p < r->end && *r->p == '\n')
			r->p++;
		return n;
	}
}

/* The header's n fields into csv's tags: 0, or -1 on an error (in err). */
static int csv_header(const struct csv_reader *r, char fields[][ROOM_TAG_VALUE_MAX], int n,
		      struct room_csv *csv, char *err, size_t err_size)
{
	if (strcmp(fields[0], "name")) {
		snprintf(err, err_size, "%d: the first column must be 'name' (the board's name)",
			 r->line);
		return -1;
	}
	if (n < 2) {
		snprintf(err, err_size, "%d: no tag columns after 'name'", r->line);
		return -1;
	}
	for (int i = 1; i < n; i++) {
		if (!room_tag_allowed(fields[i])) {
			snprintf(err, err_size, "%d: column %d: '%s' is not a tag a board accepts",
				 r->line, i + 1, fields[i]);
			return -1;
		}
		for (int j = 1; j < i; j++)
			if (!strcmp(fields[i], fields[j])) {
				snprintf(err, err_size, "%d: column %d: '%s' twice", r->line, i + 1,
					 fields[i]);
				return -1;
			}
		snprintf(csv->tags[i - 1], sizeof(csv->tags[0]), "%s", fields[i]);
	}
	csv->tag_count = n - 1;
	return 0;
}

/* A board's row of n fields into csv's rows: 0, or -1 on an error (in err). */
static int csv_row(const struct csv_reader *r, char fields[][ROOM_TAG_VALUE_MAX], int n,
		   struct room_csv *csv, char *err, size_t err_size)
{
	struct room_csv_row *row;

	if (n != csv->tag_count + 1) {
		snprintf(err, err_size, "%d: %d fields, the header has %d", r->line, n,
			 csv->tag_count + 1);
		return -1;
	}
	if (!room_board_name_ok(fields[0])) {
		snprintf(err, err_size,
			 "%d: '%s' is no board name (letters, digits, '.', '_', '-')", r->line,
			 fields[0]);
		return -1;
	}
	for (int i = 0; i < csv->row_count; i++)
		if (!strcmp(csv->rows[i].name, fields[0])) {
			snprintf(err, err_size, "%d: board '%s' again (first on line %d)", r->line,
				 fields[0], csv->rows[i].line);
			return -1;
		}
	if (csv->row_count == ROOM_BOARDS_MAX) {
		snprintf(err, err_size, "%d: more than %d boards", r->line, ROOM_BOARDS_MAX);
		return -1;
	}
	row = &csv->rows[csv->row_count++];
	row->line = r->line;
	/* room_board_name_ok() has checked that it fits. */
	memcpy(row->name, fields[0], strlen(fields[0]) + 1);
	for (int i = 0; i < csv->tag_count; i++)
		memcpy(row->values[i], fields[i + 1], sizeof(row->values[i]));
	return 0;
}

int room_csv_parse(const char *text, size_t len, struct room_csv *csv, char *err, size_t err_size)
{
	struct csv_reader r = {.p = text, .end = text + len};
	char fields[CSV_FIELDS_MAX][ROOM_TAG_VALUE_MAX];
	int n;

	memset(csv, 0, sizeof(*csv));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		r.p += 3;
	if (memchr(text, '\0', len)) {
		snprintf(err, err_size, "1: not a text file (a NUL byte)");
		return -1;
	}
	do
		n = csv_record(&r, fields, err, err_size);
	while (n == 0);
	if (n == -2)
		return -1;
	if (n < 0) {
		snprintf(err, err_size, "1: empty; the first row names the columns: name,TAG,...");
		return -1;
	}
	if (csv_header(&r, fields, n, csv, err, err_size))
		return -1;
	for (;;) {
		n = csv_record(&r, fields, err, err_size);
		if (n == -2)
			return -1;
		if (n == -1)
			break;
		if (n != 0 && csv_row(&r, fields, n, csv, err, err_size))
			return -1;
	}
	if (!csv->row_count) {
		snprintf(err, err_size, "%d: no boards after the header", r.line);
		return -1;
	}
	return 0;
}

void room_csv_payload(const struct room_csv *csv, int row, struct strbuf *out)
{
	for (int i = 0; i < csv->tag_count; i++)
		if (csv->rows[row].values[i][0])
			strbuf_printf(out, "%s %s\n", csv->tags[i], csv->rows[row].values[i]);
}

int room_payload_next(char **cursor, const char **name, const char **value)
{
	char *line = *cursor, *nl, *sp;

	while (*line == '\n' || *line == '\r')
		line++;
	if (!*line) {
		*cursor = line;
		return 0;
	}
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	if (nl && nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	sp = strchr(line, ' ');
	if (!sp || sp == line || !sp[1])
		return -1;
	*sp = '\0';
	*name = line;
	*value = sp + 1;
	return 1;
}

/* ------------------------------------------------------------------ PGN */

/* One tag pair "[Name "Value"]" at *p (past leading space): 1 and *p past it, 0 if the
 * tag section has ended, -1 if the line is malformed. */
static int tag_pair(const char **p, char *name, char *value)
{
	const char *s = *p;
	size_t n = 0;

	if (*s != '[')
		return 0;
	s++;
	while (*s == ' ')
		s++;
	while (isalnum((unsigned char)*s) || *s == '_') {
		if (n + 1 < ROOM_TAG_NAME_MAX)
			name[n++] = *s;
		s++;
	}
	name[n] = '\0';
	while (*s == ' ')
		s++;
	if (!n || *s != '"')
		return -1;
	s++;
	n = 0;
	/* The value stays escaped as PGN writes it (\" and \\), so it is written back the
	 * same. */
	while (*s && *s != '"' && *s != '\n') {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) {
			if (n + 2 < ROOM_TAG_VALUE_MAX) {
				value[n++] = s[0];
				value[n++] = s[1];
			}
			s += 2;
			continue;
		}
		if (n + 1 < ROOM_TAG_VALUE_MAX)
			value[n++] = *s;
		s++;
	}
	value[n] = '\0';
	if (*s != '"')
		return -1;
	s++;
	while (*s == ' ')
		s++;
	if (*s != ']')
		return -1;
	s++;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s == '\n')
		s++;
	*p = s;
	return 1;
}

static int room_movetext_plies(const char *m);

int room_game_parse(const char *pgn, struct room_game *g)
{
	const char *p = pgn;

	g->tag_count = 0;
	for (;;) {
		char name[ROOM_TAG_NAME_MAX], value[ROOM_TAG_VALUE_MAX];
		int rc;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		rc = tag_pair(&p, name, value);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		if (room_game_tag(g, name) || g->tag_count == ROOM_GAME_TAGS_MAX)
			continue;
		memcpy(g->tags[g->tag_count].name, name, sizeof(name));
		/* Whatever a publisher sent: nothing that breaks the line or turns the text
		 * reaches round.pgn or the room's page (base/utf8.h). */
		utf8_copy_safe(g->tags[g->tag_count].value, sizeof(value), value, strlen(value));
		g->tag_count++;
	}
	if (!g->tag_count)
		return -1;
	g->movetext = p;
	g->plies = room_movetext_plies(p);
	g->clocks = 0;
	for (const char *c = strstr(p, "[%clk "); c; c = strstr(c + 1, "[%clk "))
		g->clocks++;
	return 0;
}

const char *room_game_tag(const struct room_game *g, const char *name)
{
	for (int i = 0; i < g->tag_count; i++)
		if (!strcmp(g->tags[i].name, name))
			return g->tags[i].value;
	return NULL;
}

static const struct {
	const char *name, *missing;
} roster[] = {
    {"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"}, {"Round", "?"},
    {"Board", "?"}, {"White", "?"}, {"Black", "?"},	    {"Result", "*"},
};

/* Whether a player's tag names nobody. */
static bool unnamed(const char *v)
{
	return !v || !v[0] || !strcmp(v, "?");
}

void room_game_write(const struct room_game *g, const char *board_name, struct strbuf *out)
{
	const char *m = g->movetext;
	size_t len = strlen(m);

	for (size_t i = 0; i < sizeof(roster) / sizeof(roster[0]); i++) {
		const char *v = room_game_tag(g, roster[i].name);
		bool player = !strcmp(roster[i].name, "White") || !strcmp(roster[i].name, "Black");

		if (player && board_name && unnamed(v))
			strbuf_printf(out, "[%s \"%s (%s)\"]\n", roster[i].name, board_name,
				      roster[i].name);
		else
			strbuf_printf(out, "[%s \"%s\"]\n", roster[i].name,
				      v && v[0] ? v : roster[i].missing);
	}
	for (int i = 0; i < g->tag_count; i++) {
		bool in_roster = false;

		for (size_t j = 0; j < sizeof(roster) / sizeof(roster[0]); j++)
			in_roster |= !strcmp(g->tags[i].name, roster[j].name);
		if (!in_roster)
			strbuf_printf(out, "[%s \"%s\"]\n", g->tags[i].name, g->tags[i].value);
	}
	while (len && (m[len - 1] == '\n' || m[len - 1] == '\r' || m[len - 1] == ' '))
		len--;
	strbuf_append(out, "\n", 1);
	if (len) {
		utf8_append_safe(out, m, len, true);
	} else {
		const char *r = room_game_tag(g, "Result");

		strbuf_printf(out, "%s", r && r[0] ? r : "*");
	}
	strbuf_append(out, "\n\n", 2);
}

int room_movetext_next(const char **cursor, const char **move, size_t *len)
{
	const char *m = *cursor;
	int depth = 0;

	while (*m) {
		const char *start;

		if (*m == '{') {
			const char *end = strchr(m, '}');

			if (!end)
				break;
			m = end + 1;
			continue;
		}
		if (*m == ';') {
			while (*m && *m != '\n')
				m++;
			continue;
		}
		if (*m == '(' || *m == ')') {
			depth += *m == '(' ? 1 : depth > 0 ? -1 : 0;
			m++;
			continue;
		}
		if (isspace((unsigned char)*m)) {
			m++;
			continue;
		}
		start = m;
		while (*m && !isspace((unsigned char)*m) && !strchr("{}();", *m))
			m++;
		if (depth)
			continue;
		/* "12.e4" is a number glued to its move. */
		while (start < m && isdigit((unsigned char)*start))
			start++;
		while (start < m && *start == '.')
			start++;
		/* A move begins with a piece letter, a file, or castling's O; numbers ("12.",
		 * "12..."), NAGs ("$1"), results and "*" are no moves. */
		if (start < m && strchr("KQRBNabcdefghO", *start) &&
		    !(start[0] == 'O' && m - start < 3)) {
			*move = start;
			*len = (size_t)(m - start);
			*cursor = m;
			return 1;
		}
	}
	*cursor = m;
	return 0;
}

/* The plies of a movetext (SAN moves; comments, variations, numbers and NAGs skipped). */
static int room_movetext_plies(const char *m)
{
	const char *move;
	size_t len;
	int plies = 0;

	/* Variations are skipped inside room_movetext_next(): a cursor never stops in one. */
	while (room_movetext_next(&m, &move, &len))
		plies++;
	return plies;
}

/* ------------------------------------------------------------------ history */

static void version_drop(struct room_history *h, int i)
{
	free(h->v[i].text);
	memmove(&h->v[i], &h->v[i + 1], (size_t)(h->count - i - 1) * sizeof(h->v[0]));
	h->count--;
}

int room_history_add(struct room_history *h, int64_t at_ms, uint64_t seq, char *text,
		     int64_t keep_ms)
{
	const struct room_version *last = h->count ? &h->v[h->count - 1] : NULL;

	if (last && ((!last->text && !text) || (last->text && text && !strcmp(last->text, text)))) {
		free(text);
		return 0;
	}
	if (!last && !text)
		return 0;
	/* What no view needs any more: versions followed by one at or before now - keep. */
	while (h->count >= 2 && h->v[1].at_ms <= at_ms - keep_ms)
		version_drop(h, 0);
	if (h->count == ROOM_HISTORY_MAX)
		version_drop(h, 1);
	h->v[h->count].at_ms = at_ms;
	h->v[h->count].seq = seq;
	h->v[h->count].text = text;
	h->count++;
	return 1;
}

const struct room_version *room_history_at(const struct room_history *h, int64_t t)
{
	for (int i = h->count - 1; i >= 0; i--)
		if (h->v[i].at_ms <= t)
			return &h->v[i];
	return NULL;
}

void room_history_free(struct room_history *h)
{
	for (int i = 0; i < h->count; i++)
		free(h->v[i].text);
	h->count = 0;
}

/* The Board tag as a number: its digits, or -1 if it has none. */
static long board_number(const char *tag)
{
	char *end;
	long v;

	if (!tag || !isdigit((unsigned char)tag[0]))
		return -1;
	v = strtol(tag, &end, 10);
	return v < 0 ? -1 : v;
}

/* Names as people count: a run of digits by its number, so b2 comes before b10 (and b02
 * and b2, the same number, by their text).  <0, 0, >0 as strcmp. */
static int natural_compare(const char *a, const char *b)
{
	const char *p = a, *q = b;

	while (*p && *q) {
		if (isdigit((unsigned char)*p) && isdigit((unsigned char)*q)) {
			size_t lp, lq;
			int c;

			while (*p == '0' && isdigit((unsigned char)p[1]))
				p++;
			while (*q == '0' && isdigit((unsigned char)q[1]))
				q++;
			for (lp = 0; isdigit((unsigned char)p[lp]); lp++)
				;
			for (lq = 0; isdigit((unsigned char)q[lq]); lq++)
				;
			if (lp != lq)
				return lp < lq ? -1 : 1;
			c = memcmp(p, q, lp);
			if (c)
				return c;
			p += lp;
			q += lq;
			continue;
		}
		if (*p != *q)
			return (unsigned char)*p < (unsigned char)*q ? -1 : 1;
		p++;
		q++;
	}
	if (*p || *q)
		return *p ? 1 : -1;
	return strcmp(a, b);
}

int room_board_compare(const char *name_a, const char *board_tag_a, const char *name_b,
		       const char *board_tag_b)
{
	long a = board_number(board_tag_a), b = board_number(board_tag_b);

	if (a != b) {
		if (a < 0)
			return 1;
		if (b < 0)
			return -1;
		return a < b ? -1 : 1;
	}
	return natural_compare(name_a, name_b);
}
