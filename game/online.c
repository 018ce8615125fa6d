/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Online play's vocabulary (online.h): the words of news, offers, requests and the
 * server's endings, one table each.
 */
#include "game/online.h"

#include <stdio.h>
#include <string.h>

#include "game/record.h"

static const struct {
	const char *word;
	enum game_msg msg;
} news[ONLINE_NEWS_COUNT] = {
    [ONLINE_NEWS_CONNECTION_LOST] = {"connection-lost", GAME_MSG_ONLINE_CONNECTION_LOST},
    [ONLINE_NEWS_CONNECTED] = {"connected", GAME_MSG_ONLINE_CONNECTED},
    [ONLINE_NEWS_TOKEN_INVALID] = {"token-invalid", GAME_MSG_ONLINE_TOKEN_INVALID},
    [ONLINE_NEWS_RATE_LIMITED] = {"rate-limited", GAME_MSG_ONLINE_RATE_LIMITED},
    [ONLINE_NEWS_SERVER_DOWN] = {"server-down", GAME_MSG_ONLINE_SERVER_DOWN},
    [ONLINE_NEWS_SEEKING] = {"seeking", GAME_MSG_ONLINE_SEEKING},
    [ONLINE_NEWS_NO_OPPONENT] = {"no-opponent", GAME_MSG_ONLINE_NO_OPPONENT},
    [ONLINE_NEWS_CHALLENGE_SENT] = {"challenge-sent", GAME_MSG_ONLINE_CHALLENGE_SENT},
    [ONLINE_NEWS_CHALLENGE_DECLINED] = {"challenge-declined", GAME_MSG_ONLINE_CHALLENGE_DECLINED},
    [ONLINE_NEWS_CHALLENGE_WAITING] = {"challenge-waiting", GAME_MSG_ONLINE_CHALLENGE_WAITING},
    [ONLINE_NEWS_CHALLENGE_HERE] = {"challenge-here", GAME_MSG_ONLINE_CHALLENGE_HERE},
    [ONLINE_NEWS_CHALLENGE_UNPLAYABLE] = {"challenge-unplayable",
					  GAME_MSG_ONLINE_CHALLENGE_UNPLAYABLE},
    [ONLINE_NEWS_TIME_CONTROL] = {"time-control", GAME_MSG_ONLINE_TIME_CONTROL},
    [ONLINE_NEWS_REFUSED] = {"refused", GAME_MSG_ONLINE_REFUSED},
    [ONLINE_NEWS_TAKEBACK_DECLINED] = {"takeback-declined", GAME_MSG_ONLINE_TAKEBACK_DECLINED},
    [ONLINE_NEWS_DRAW_DECLINED] = {"draw-declined", GAME_MSG_ONLINE_DRAW_DECLINED},
};

const char *game_online_news_name(enum game_online_news n)
{
	return (unsigned)n < ONLINE_NEWS_COUNT ? news[n].word : "?";
}

int game_online_news_parse(const char *word)
{
	for (int i = 0; i < ONLINE_NEWS_COUNT; i++)
		if (!strcmp(word, news[i].word))
			return i;
	return -1;
}

enum game_msg game_online_news_msg(enum game_online_news n)
{
	return (unsigned)n < ONLINE_NEWS_COUNT ? news[n].msg : GAME_MSG_COUNT;
}

static const char *const back_words[ONLINE_BACK_COUNT] = {"sync", "refused", "takeback"};

const char *game_online_back_name(enum game_online_back why)
{
	return (unsigned)why < ONLINE_BACK_COUNT ? back_words[why] : "?";
}

int game_online_back_parse(const char *word)
{
	for (int i = 0; i < ONLINE_BACK_COUNT; i++)
		if (!strcmp(word, back_words[i]))
			return i;
	return -1;
}

static const char *const offer_words[] = {"white-draw", "black-draw", "white-takeback",
					  "black-takeback"};
#define OFFER_WORDS ((int)(sizeof(offer_words) / sizeof(offer_words[0])))

unsigned game_online_offer_parse(const char *word)
{
	for (int i = 0; i < OFFER_WORDS; i++)
		if (!strcmp(word, offer_words[i]))
			return 1u << i;
	return 0;
}

void game_online_offers_format(unsigned offers, char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < OFFER_WORDS && n < size; i++)
		if (offers & (1u << i))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "",
					      offer_words[i]);
}

static const char *const request_words[ONLINE_ASK_COUNT] = {
    [ONLINE_ASK_PLAY] = "play",
    [ONLINE_ASK_OFFER_DRAW] = "offer-draw",
    [ONLINE_ASK_ACCEPT_DRAW] = "accept-draw",
    [ONLINE_ASK_DECLINE_DRAW] = "decline-draw",
    [ONLINE_ASK_RESIGN] = "resign",
    [ONLINE_ASK_ABORT] = "abort",
    [ONLINE_ASK_TAKEBACK] = "takeback",
    [ONLINE_ASK_ACCEPT_TAKEBACK] = "accept-takeback",
    [ONLINE_ASK_DECLINE_TAKEBACK] = "decline-takeback",
    [ONLINE_ASK_CLAIM_VICTORY] = "claim-victory",
    [ONLINE_ASK_CLAIM_DRAW] = "claim-draw",
};

const char *game_online_request_name(enum game_online_request request)
{
	return (unsigned)request < ONLINE_ASK_COUNT ? request_words[request] : "?";
}

int game_online_request_parse(const char *word)
{
	for (int i = 0; i < ONLINE_ASK_COUNT; i++)
		if (!strcmp(word, request_words[i]))
			return i;
	return -1;
}

/* The server's statuses that end a game (lichess's GameStatusName), and what each is here.
 * A win needs the winner the server names; without one the status gives `draw` (a flag
 * against a side that cannot mate), or "*" (the game did not count). */
enum end_winner { NEEDS_NOTHING, WIN_OR_DRAW, WIN_OR_NONE };
static const struct {
	const char *status;
	enum end_winner winner;
	enum result_termination termination;
	const char *reason; /* {side}: the side that lost, where it is named */
	enum game_msg msg;
	enum game_channel channel;
} ends[] = {
    {"mate", WIN_OR_NONE, TERMINATION_NORMAL, "checkmate", GAME_MSG_CHECKMATE, GAME_PUBLIC},
    {"resign", WIN_OR_NONE, TERMINATION_NORMAL, "{side} resigns", GAME_MSG_COUNT, GAME_PUBLIC},
    {"stalemate", NEEDS_NOTHING, TERMINATION_NORMAL, "stalemate", GAME_MSG_STALEMATE, GAME_PUBLIC},
    {"timeout", WIN_OR_DRAW, TERMINATION_ABANDONED, "{side} left the game", GAME_MSG_COUNT,
     GAME_PRIVATE},
    {"draw", NEEDS_NOTHING, TERMINATION_NORMAL, "draw", GAME_MSG_COUNT, GAME_PRIVATE},
    {"outoftime", WIN_OR_DRAW, TERMINATION_TIME_FORFEIT, "{side}'s time ran out", GAME_MSG_COUNT,
     GAME_PRIVATE},
    {"cheat", WIN_OR_NONE, TERMINATION_RULES_INFRACTION, "the server found {side} cheating",
     GAME_MSG_COUNT, GAME_PRIVATE},
    {"noStart", WIN_OR_NONE, TERMINATION_ABANDONED, "{side} did not start the game",
     GAME_MSG_ONLINE_ABORTED, GAME_PRIVATE},
    {"unknownFinish", WIN_OR_NONE, TERMINATION_ABANDONED, "the server ended the game",
     GAME_MSG_COUNT, GAME_PRIVATE},
    {"insufficientMaterialClaim", NEEDS_NOTHING, TERMINATION_NORMAL, "insufficient material",
     GAME_MSG_COUNT, GAME_PRIVATE},
    {"variantEnd", WIN_OR_DRAW, TERMINATION_NORMAL, "the variant's end", GAME_MSG_COUNT,
     GAME_PRIVATE},
    {"aborted", NEEDS_NOTHING, TERMINATION_ABANDONED, "aborted", GAME_MSG_ONLINE_ABORTED,
     GAME_PRIVATE},
};

/* The reason with its {side} filled. */
static void reason_for(char *buf, size_t size, const char *tmpl, const char *side)
{
	const char *at = strstr(tmpl, "{side}");

	if (!at)
		snprintf(buf, size, "%s", tmpl);
	else
		snprintf(buf, size, "%.*s%s%s", (int)(at - tmpl), tmpl, side, at + 6);
}

int game_online_end_of(const char *status, int winner, struct game_online_end *out)
{
	const char *result = "*";

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		const char *loser = winner == CHESS_WHITE ? "Black" : "White";

		if (strcmp(status, ends[i].status))
			continue;
		if (winner == CHESS_WHITE || winner == CHESS_BLACK) {
			if (ends[i].winner != NEEDS_NOTHING)
				result = result_win(winner);
		} else if (ends[i].winner == WIN_OR_DRAW) {
			result = "1/2-1/2";
			loser = "a side";
		} else if (ends[i].winner == WIN_OR_NONE) {
			loser = "a side";
		}
		if (ends[i].winner == NEEDS_NOTHING && strcmp(status, "aborted"))
			result = "1/2-1/2";
		snprintf(out->result, sizeof(out->result), "%s", result);
		out->termination = ends[i].termination;
		reason_for(out->reason, sizeof(out->reason), ends[i].reason, loser);
		out->msg = ends[i].msg;
		out->channel = ends[i].channel;
		out->resigned = !strcmp(status, "resign") && strcmp(result, "*");
		if (!strcmp(status, "outoftime") && strcmp(result, "1/2-1/2"))
			out->msg =
			    winner == CHESS_WHITE ? GAME_MSG_FLAG_BLACK : GAME_MSG_FLAG_WHITE;
		return 0;
	}
	return -1;
}
