/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The command table (control/protocol.h) and who hears what (game/audience.h): every row's
 * roles, needs and parser through control_dispatch() with a real referee; the replies to
 * `help`, `auth`, `watch` and `status` per audience; the audience of every record type and
 * effect kind, and what each of the presenter's sinks passes on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The modules themselves: their file-local functions are tested here (before cmocka.h, whose
 * fail() macro would take protocol.c's own fail()). */
#include "control/protocol.c"
#include "daemon/present.c"

#include <cmocka.h>

#include "tests/unit/referee_cases.h"
#include "game/menu.h"

/* The table's size. */
static int control_command_count(void)
{
	return TABLE_SIZE;
}

/* An utterance without its parts' languages. */
static void control_event_say(struct strbuf *out, uint64_t ms, enum game_audience audience,
			      const char *text)
{
	control_event_say_parts(out, ms, audience, text, NULL, 0);
}

/* A request as `role`; the outcome kept for the test (free with control_outcome_free). */
static struct control_outcome out;

/* The PINs as the daemon holds them: their salted hashes (base/pinhash.h). */
static struct pin_secret *pin_of(const char *pin)
{
	static const unsigned char salt[PIN_HASH_SALT] = "salt of the test";
	static struct pin_secret arbiter, assistant;
	struct pin_secret *s = !strcmp(pin, "4711") ? &arbiter : &assistant;

	if (!s->hash.set)
		pin_hash_make(&s->hash, pin, salt, PIN_HASH_ITERATIONS);
	return s;
}

static bool give(enum game_role role, const char *line)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = role,
				  .author = "tester",
				  .connection = true,
				  .arbiter_pin = pin_of("4711"),
				  .assistant_pin = pin_of("1234")};

	control_outcome_free(&out);
	control_dispatch(&env, line, strlen(line), &out);
	if (reply_check_line(out.reply.p))
		fail_msg("reply to '%s': %s", line, reply_check_line(out.reply.p));
	return out.ok;
}

static void assert_reply(const char *want)
{
	if (!out.reply.p || !strstr(out.reply.p, want))
		fail_msg("expected '%s' in the reply %s", want, out.reply.p ? out.reply.p : "");
}

static int teardown_control(void **state)
{
	control_outcome_free(&out);
	return teardown(state);
}

/* A well-formed request for each row (by name and first word): every row has one, so a
 * new row cannot slip past the role checks below. */
static const char *example(const struct control_command *c)
{
	static const struct {
		const char *name, *line;
	} lines[] = {
	    {"status", "status"},
	    {"moves", "moves"},
	    {"tags", "tags Event Club Open"},
	    {"move", "move e5"},
	    {"draw-offer", "draw-offer"},
	    {"claim uphold|reject", "claim reject"},
	    {"claim", "claim threefold white"},
	    {"resign", "resign white"},
	    {"result", "result 1/2-1/2 agreed"},
	    {"approve", "approve"},
	    {"pause", "pause"},
	    {"resume", "resume"},
	    {"clock", "clock set 0:10:00 0:10:00"},
	    {"compare", "compare 1. e4"},
	    {"rollback", "rollback 0"},
	    {"illegal", "illegal"},
	    {"watch", "watch"},
	    {"auth", "auth 1"},
	    {"notation", "notation nl"},
	    {"export", "export pgn"},
	    {"help", "help"},
	    {"engine", "engine on black"},
	    {"hint", "hint"},
	    {"takeback", "takeback"},
	    {"review", "review where"},
	    {"games", "games 3"},
	    {"last-moves", "last-moves"},
	    {"eval", "eval"},
	    {"new-game", "new-game"},
	    {"online", "online on"},
	};
	char key[64];

	snprintf(key, sizeof(key), "%s%s%s", c->name, c->sub ? " " : "", c->sub ? c->sub : "");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strcmp(lines[i].name, key))
			return lines[i].line;
	fail_msg("no example request for the row '%s'", key);
	return NULL;
}

/* Every row's request reaches its row, and a role the row does not name is refused with
 * nothing changed; the arbiter-only rows are the ones docs/control.md "Control interface" names. */
static void test_roles_from_the_table(void **state)
{
	static const char *const arbiter_only[] = {"claim uphold|reject",
						   "result",
						   "pause",
						   "resume",
						   "clock",
						   "compare",
						   "rollback",
						   "illegal"};
	const struct control_command *c;
	int rows = 0;

	(void)state;
	rt_open(t, CHESS_WHITE, "600+5", NULL);
	for (int i = 0; (c = control_command_at(i)); i++, rows++) {
		const char *line = example(c);
		char key[64];
		bool want_arbiter = false;
		int records = t->nrec;

		snprintf(key, sizeof(key), "%s%s%s", c->name, c->sub ? " " : "",
			 c->sub ? c->sub : "");
		for (size_t k = 0; k < sizeof(arbiter_only) / sizeof(arbiter_only[0]); k++)
			want_arbiter |= !strcmp(key, arbiter_only[k]);
		assert_ptr_equal(control_command_find(line), c);
		assert_int_equal(c->roles, want_arbiter ? CONTROL_ARBITER : CONTROL_ANYONE);
		if (!want_arbiter)
			continue;
		assert_false(give(ROLE_ASSISTANT, line));
		assert_ptr_equal(out.command, c);
		assert_reply("\"error\":\"not allowed for this role\"");
		assert_string_equal(out.said, "not allowed for this role");
		assert_int_equal(t->nrec, records);
	}
	assert_int_equal(rows, control_command_count());
	assert_null(control_command_at(rows));
	/* claim uphold|reject picks its own row; claim threefold the other. */
	assert_string_equal(control_command_find("claim uphold")->usage, "claim uphold|reject");
	assert_string_equal(control_command_find("  claim   fifty e4")->usage,
			    "claim threefold|fifty [white|black] [MOVE]");
	assert_null(control_command_find("frobnicate"));
}

/* What a command needs is the model's one table (game_command_needs()): each row's request
 * parses to the game command its row names (or, `clock`, to one that needs at least as much,
 * so the help the row prints is true of each), and each button menu item that gives a command needs
 * what the command needs. */
static void test_needs_one_table(void **state)
{
	static const char *const clock[] = {"clock set 0:10:00 0:10:00", "clock control 40/5400",
					    "clock add black 0:02:00"};
	const struct game_command_needs *row, *given;
	struct control_request *req = malloc(sizeof(*req));
	const struct control_command *c;
	struct game_reply err;

	(void)state;
	assert_non_null(req);
	for (int i = 0; (c = control_command_at(i)); i++) {
		if (c->kind == CONTROL_NO_KIND)
			continue;
		assert_int_equal(control_parse(example(c), strlen(example(c)), req, &err), 0);
		assert_int_equal(req->game.kind, c->kind);
	}
	row = game_command_needs(control_command_find("clock")->kind);
	for (size_t i = 0; i < sizeof(clock) / sizeof(clock[0]); i++) {
		assert_int_equal(control_parse(clock[i], strlen(clock[i]), req, &err), 0);
		given = game_command_needs(req->game.kind);
		assert_int_equal(given->modes, row->modes);
		/* What the row says it needs each needs (clock add: no flag waiting too). */
		assert_int_equal(given->needs & row->needs, row->needs);
	}
	for (int item = 0; item < MENU_ITEM_COUNT; item++) {
		enum game_command_kind kind = menu_item_kind((enum menu_item)item);

		if (kind != CMD_KIND_COUNT)
			assert_int_equal(menu_item_needs((enum menu_item)item),
					 game_command_needs(kind)->needs);
	}
	/* The menu's resign and the socket's are one row: not while a flag waits. */
	assert_int_equal(menu_item_kind(MENU_RESIGN), CMD_RESIGN);
	assert_int_equal(menu_item_needs(MENU_RESIGN), GAME_NEED_PLAY);
	free(req);
}

/* The table's needs: each refused with its reason, in one place, before the referee. */
static void test_needs(void **state)
{
	int records;

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_false(give(ROLE_ARBITER, "pause"));
	assert_string_equal(out.said, "the game has no clock");
	assert_false(give(ROLE_ARBITER, "clock set 1:00:00 1:00:00"));
	assert_string_equal(out.said, "the game has no clock");
	assert_true(give(ROLE_ASSISTANT, "resign black"));
	assert_string_equal(out.said, "black resigns: 1-0");
	for (size_t i = 0; i < 5; i++) {
		static const char *const over[] = {"resign white", "draw-offer", "move e5",
						   "claim fifty", "illegal"};

		assert_false(give(ROLE_ARBITER, over[i]));
		assert_string_equal(out.said, "the game is over: 1-0");
	}
	assert_true(give(ROLE_ASSISTANT, "approve"));
	assert_false(give(ROLE_ARBITER, "rollback 0"));
	assert_string_equal(out.said, "the result is approved: the game is closed");
	/* Tags and the reading commands need nothing. */
	assert_true(give(ROLE_ASSISTANT, "tags Round 3"));
	assert_true(give(ROLE_ASSISTANT, "moves"));
	/* A flag waiting for the arbiter: no draw offers or claims, the arbiter's result. */
	rt_close(t);
	rt_open(t, CHESS_WHITE, "5+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 6000);
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	assert_false(give(ROLE_ASSISTANT, "draw-offer white"));
	assert_string_equal(out.said, "white's flag has fallen: the arbiter rules on it first");
	/* Nor a resignation: the game ended with the flag (6.9), as the button menu has it. */
	assert_false(give(ROLE_ASSISTANT, "resign white"));
	assert_string_equal(out.said, "white's flag has fallen: the arbiter rules on it first");
	assert_false(give(ROLE_ASSISTANT, "resign black"));
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	/* Nor time added: the flag is the arbiter's ruling first (the result, or the clocks set and
	 * resumed). */
	records = t->nrec;
	assert_false(give(ROLE_ARBITER, "clock add white 0:02:00"));
	assert_string_equal(out.said, "white's flag has fallen: the arbiter rules on it first");
	assert_int_equal(t->nrec, records);
	assert_true(give(ROLE_ARBITER, "result 0-1 White lost on time"));
}

/* The modes column: a row for one mode only is refused in the other with the mode named. */
static void test_modes(void **state)
{
	char why[80];

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_null(game_command_unmet(rt_game(t), GAME_MODES_ALL, 0, why, sizeof(why)));
	assert_non_null(
	    game_command_unmet(rt_game(t), GAME_MODE_BIT(GAME_CASUAL), 0, why, sizeof(why)));
	assert_string_equal(why, "not allowed in tournament mode");
	assert_null(
	    game_command_unmet(rt_game(t), GAME_MODE_BIT(GAME_TOURNAMENT), 0, why, sizeof(why)));
}

static void test_help_is_the_table(void **state)
{
	const struct control_command *c;

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_true(give(ROLE_ASSISTANT, "help"));
	for (int i = 0; (c = control_command_at(i)); i++) {
		char want[160];

		snprintf(want, sizeof(want), "\"name\":\"%s\",\"usage\":\"%s\",\"role\":\"%s\"",
			 c->name, c->usage, c->roles == CONTROL_ARBITER ? "arbiter" : "any");
		assert_reply(want);
	}
	assert_reply(
	    "\"usage\":\"pause\",\"role\":\"arbiter\",\"roles\":[\"arbiter\"],"
	    "\"modes\":[\"tournament\",\"casual\",\"online\"],\"needs\":[\"not-over\",\"clock\"]");
	assert_reply("\"sub\":[\"uphold\",\"reject\"]");
	assert_reply("\"name\":\"auth\",\"usage\":\"auth PIN [NAME]\",\"role\":\"any\",\"roles\":["
		     "\"assistant\",\"arbiter\"],\"modes\":[\"tournament\",\"casual\",\"online\"],"
		     "\"needs\":[],"
		     "\"sub\":[],\"args\":[],\"changes\":false,\"reads\":false,\"session\":true");
}

static void test_auth_and_watch(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_true(give(ROLE_ASSISTANT, "auth 4711"));
	assert_int_equal(out.action, CONTROL_ACT_ROLE);
	assert_int_equal(out.role, ROLE_ARBITER);
	assert_true(give(ROLE_ASSISTANT, "auth 1234"));
	assert_int_equal(out.role, ROLE_ASSISTANT);
	assert_false(give(ROLE_ARBITER, "auth 0000"));
	assert_int_equal(out.action, CONTROL_ACT_PIN_REFUSED);
	assert_reply("wrong PIN");
	assert_true(out.command->flags & CONTROL_SECRET);
	/* No PIN configured: none is right. */
	assert_false(give(ROLE_ASSISTANT, "auth "));
	assert_true(give(ROLE_ASSISTANT, "watch"));
	assert_int_equal(out.action, CONTROL_ACT_WATCH);
	assert_false(out.public_view);
	assert_true(give(ROLE_ARBITER, "watch public"));
	assert_true(out.public_view);
	assert_false(give(ROLE_ASSISTANT, "watch everything"));
	assert_reply("usage: watch [public]");
	/* A board script has no connection to watch on. */
	{
		struct control_env env = {.referee = t->r, .role = ROLE_ARBITER, .author = "s"};

		control_outcome_free(&out);
		control_dispatch(&env, "watch", 5, &out);
		assert_false(out.ok);
		assert_reply("watch needs a connection");
	}
}

/* Text that breaks a line or turns the text around it (U+202E, U+2028 ...) is refused in any
 * request, a tag's value or a result's reason, as a control character: it never reaches a
 * scoresheet.  Names with marks of their own (Ł, ü, a Persian name's ZWNJ) are taken. */
static void test_text_that_turns_refused(void **state)
{
	static const char *const marks[] = {
	    "\xe2\x80\xae", "\xe2\x80\xaa", "\xe2\x81\xa6", "\xe2\x81\xa9",
	    "\xe2\x80\xa8", "\xe2\x80\xa9", "\xc2\x85",	    "\xc2\x9b",
	};
	char line[128];

	(void)state;
	rt_open(t, CHESS_WHITE, "600+5", NULL);
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		int records = t->nrec;

		snprintf(line, sizeof(line), "tags White Berg%sAnna", marks[i]);
		assert_false(give(ROLE_ASSISTANT, line));
		assert_reply("\"code\":\"request-control-character\"");
		assert_null(out.command);
		snprintf(line, sizeof(line), "result 1-0 left the hall%s", marks[i]);
		assert_false(give(ROLE_ARBITER, line));
		assert_reply("\"code\":\"request-control-character\"");
		assert_int_equal(t->nrec, records);
	}
	assert_true(give(ROLE_ASSISTANT, "tags White \xc5\x81ukasz K\xc3\xbchn"));
	assert_true(give(ROLE_ASSISTANT, "tags Black \xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c"
					 "\xd8\xb1\xd8\xb6\xd8\xa7"));
	assert_true(give(ROLE_ASSISTANT, "tags Event Club\tOpen"));
}

/* The journal's anchor in every status, the public one too (README "Security model"): the
 * chain's value after its last line written, the line, the device key's id. */
static void test_status_journal_anchor(void **state)
{
	struct control_status_extra x = {.audience = GAME_AUDIENCE_PUBLIC};
	struct strbuf b = {0};

	(void)state;
	rt_open(t, CHESS_WHITE, "600+5", NULL);
	control_reply_status(&b, rt_game(t), &x);
	assert_non_null(strstr(b.p, "\"journal\":null"));
	free(b.p);
	b = (struct strbuf){0};
	x.journal = (struct control_journal_anchor){
	    .line = 14, .chain = "96fbc4e0a19ba043dc9af75b7e11b6b9", .key = "ca584516c9f32295"};
	control_reply_status(&b, rt_game(t), &x);
	assert_non_null(
	    strstr(b.p, "\"journal\":{\"line\":14,\"chain\":"
			"\"96fbc4e0a19ba043dc9af75b7e11b6b9\",\"key\":\"ca584516c9f32295\"}"));
	assert_null(reply_check_line(b.p));
	free(b.p);
}

/* A move in the piece letters of the connection's language: `notation nl` reads the Dutch P
 * as a knight; in another language (the interface language's, here German) P is no piece. */
static bool give_in(const char *notation, const char *line)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = ROLE_ASSISTANT,
				  .author = "tester",
				  .notation = notation,
				  .connection = true};

	control_outcome_free(&out);
	control_dispatch(&env, line, strlen(line), &out);
	if (reply_check_line(out.reply.p))
		fail_msg("reply to '%s': %s", line, reply_check_line(out.reply.p));
	return out.ok;
}

static void test_notation(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e4");
	assert_true(give_in("de", "notation nl"));
	assert_int_equal(out.action, CONTROL_ACT_NOTATION);
	assert_string_equal(out.lang, "nl");
	assert_reply("\"letters\":\"KDTLP\"");
	assert_false(give_in("de", "notation fr"));
	assert_reply("usage: notation de|en|sv|nl");
	assert_true(out.command->flags & CONTROL_SESSION);
	/* German P: refused, nothing relayed. */
	assert_false(give_in("de", "move Pc6"));
	assert_reply("unknown piece 'P'");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_false(give_in(NULL, "move Pc6"));
	/* Dutch: the knight. */
	assert_true(give_in("nl", "move Pc6"));
	assert_int_equal(game_plies(rt_game(t)), 2);
	assert_string_equal(san(1), "Nc6");
}

/* `on_move`: who may claim, as `claim` takes it (the side whose move is made and not yet
 * completed by its press, with a clock). */
static void test_status_on_move(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "600+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_true(give(ROLE_ASSISTANT, "status"));
	assert_reply("\"on_move\":{\"color\":\"white\",\"made\":false}");
	rt_move(t, "e2", "e4");
	assert_true(give(ROLE_ASSISTANT, "status"));
	assert_reply("\"to_move\":\"black\",\"on_move\":{\"color\":\"white\",\"made\":true}");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_true(give(ROLE_ASSISTANT, "status public"));
	assert_reply("\"on_move\":{\"color\":\"black\",\"made\":false}");
}

/* The verdict of a claim and a mismatch kept from the player are the arbiter's. */
static void test_status_per_audience(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "600+5", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_true(give(ROLE_ASSISTANT, "claim fifty"));
	assert_true(give(ROLE_ARBITER, "status"));
	assert_reply(
	    "\"claim\":{\"by\":\"white\",\"kind\":\"fifty\",\"move\":null,\"after_move\":false,"
	    "\"ply\":0,\"open\":true,\"correct\":false}");
	assert_true(give(ROLE_ASSISTANT, "status"));
	assert_non_null(strstr(out.reply.p, "\"claim\":{"));
	assert_null(strstr(out.reply.p, "correct"));
	assert_true(give(ROLE_ARBITER, "status public"));
	assert_null(strstr(out.reply.p, "correct"));
	assert_true(give(ROLE_ARBITER, "resume"));
	/* White lifts a knight and puts it on an impossible square: held until the press. */
	rt_lift(t, "g1");
	rt_place(t, "g4");
	rt_wait(t, 5000);
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_HELD);
	assert_true(give(ROLE_ARBITER, "status"));
	assert_reply("\"mismatch\":{\"state\":\"held\"");
	assert_true(give(ROLE_ASSISTANT, "status"));
	assert_reply("\"mismatch\":null");
	assert_true(give(ROLE_ARBITER, "status public"));
	assert_reply("\"mismatch\":null");
	assert_replays();
}

/* The promotion piece being chosen is the player's until it is announced. */
static void test_status_promotion_choice(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "600+5", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_lift(t, "b7");
	rt_place(t, "b8");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_true(give(ROLE_ASSISTANT, "status"));
	assert_reply("\"promotion\":{\"move\":\"b7b8q\",\"choice\":\"queen\"}");
	assert_true(give(ROLE_ARBITER, "status public"));
	assert_reply("\"promotion\":{\"move\":\"b7b8q\",\"choice\":null}");
}

/* ------------------------------------------------------------------ audiences */

static void test_record_audiences(void **state)
{
	(void)state;
	for (int type = 0; type < REC_TYPE_COUNT; type++) {
		struct game_record rec = {.type = (enum game_record_type)type};
		enum game_audience a = game_record_audience(&rec);
		enum game_audience want =
		    type == REC_CLAIM || type == REC_HELD || type == REC_FAIRPLAY
			? GAME_AUDIENCE_ARBITER
		    : type == REC_SELECT ? GAME_AUDIENCE_PLAYER
					 : GAME_AUDIENCE_PUBLIC;

		if (a != want)
			fail_msg("%s: %s, expected %s", game_record_name(rec.type),
				 game_audience_name(a), game_audience_name(want));
	}
	for (int a = 0; a < GAME_AUDIENCE_COUNT; a++)
		assert_int_equal(game_audience_parse(game_audience_name((enum game_audience)a)), a);
	assert_int_equal(game_audience_parse("everyone"), -1);
}

static void test_effect_audiences(void **state)
{
	(void)state;
	for (int kind = 0; kind < GAME_FX_KIND_COUNT; kind++) {
		for (int ch = GAME_PUBLIC; ch <= GAME_PRIVATE; ch++) {
			struct game_effect fx = {.kind = (enum game_effect_kind)kind,
						 .channel = (enum game_channel)ch};
			enum game_audience a = game_effect_audience(&fx);
			enum game_audience want = rt_expected_effect_audience(fx.kind, fx.channel);

			if (a != want)
				fail_msg("effect %d on channel %d: %s, expected %s", kind, ch,
					 game_audience_name(a), game_audience_name(want));
		}
	}
}

/* The presenter's sinks: the speaker and the clock display public, the earphone the
 * player's, the braille display both; the arbiter's none. */
static void test_presenter_sinks(void **state)
{
	static const bool want[PRESENT_SINK_COUNT][GAME_AUDIENCE_COUNT] = {
	    [PRESENT_SPEAKER] = {true, false, false},
	    [PRESENT_EARPHONE] = {false, true, false},
	    [PRESENT_BRAILLE] = {true, true, false},
	    [PRESENT_CLOCKFACE] = {true, false, false},
	};

	(void)state;
	for (int s = 0; s < PRESENT_SINK_COUNT; s++)
		for (int a = 0; a < GAME_AUDIENCE_COUNT; a++)
			assert_int_equal(
			    presenter_reaches((enum present_sink)s, (enum game_audience)a),
			    want[s][a]);
}

/* Watch events: each carries its audience; the claim's verdict only in the arbiter's. */
static void test_events(void **state)
{
	struct game_record claim = {.type = REC_CLAIM, .ms = 5, .audience = GAME_AUDIENCE_ARBITER};
	struct game_effect made = {.kind = GAME_FX_CLAIM,
				   .ms = 5,
				   .audience = GAME_AUDIENCE_PUBLIC,
				   .color = CHESS_BLACK,
				   .claim = CLAIM_FIFTY,
				   .move = CHESS_MOVE_NONE};
	struct game_effect times = {.kind = GAME_FX_TIMES, .audience = GAME_AUDIENCE_PLAYER};
	struct strbuf b = {0};

	(void)state;
	claim.u.claim.color = CHESS_BLACK;
	claim.u.claim.correct = true;
	claim.u.claim.move = CHESS_MOVE_NONE;
	snprintf(claim.author, sizeof(claim.author), "anna");
	control_event_record(&b, &claim, NULL);
	assert_string_equal(b.p, "{\"event\":\"claim\",\"ms\":5,\"audience\":\"arbiter\","
				 "\"author\":\"anna\",\"args\":\"anna black threefold - yes\"}");
	free(b.p);
	b = (struct strbuf){0};
	assert_true(control_event_effect(&b, &made));
	assert_string_equal(b.p, "{\"event\":\"claimed\",\"ms\":5,\"audience\":\"public\","
				 "\"by\":\"black\",\"kind\":\"fifty\",\"move\":null}");
	free(b.p);
	b = (struct strbuf){0};
	assert_false(control_event_effect(&b, &times));
	assert_null(b.p);
	control_event_say(&b, 7, GAME_AUDIENCE_PLAYER, "Weiß: zehn Minuten");
	assert_string_equal(b.p, "{\"event\":\"say\",\"ms\":7,\"audience\":\"player\","
				 "\"channel\":\"private\",\"text\":\"Weiß: zehn Minuten\"}");
	free(b.p);
	b = (struct strbuf){0};
	control_event_pin_refused(&b, 9, "eve");
	assert_string_equal(b.p, "{\"event\":\"pin-refused\",\"ms\":9,\"audience\":\"arbiter\","
				 "\"author\":\"eve\"}");
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_roles_from_the_table, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_text_that_turns_refused, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_status_journal_anchor, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_needs, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_notation, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_status_on_move, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_modes, setup, teardown_control),
	    cmocka_unit_test(test_needs_one_table),
	    cmocka_unit_test_setup_teardown(test_help_is_the_table, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_auth_and_watch, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_status_per_audience, setup, teardown_control),
	    cmocka_unit_test_setup_teardown(test_status_promotion_choice, setup, teardown_control),
	    cmocka_unit_test(test_record_audiences),
	    cmocka_unit_test(test_effect_audiences),
	    cmocka_unit_test(test_presenter_sinks),
	    cmocka_unit_test(test_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
