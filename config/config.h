/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The configuration: an INI file (libinih), every key documented in
 * configs/annabella.conf.  The daemon reads it, and so do the tool's helpers (web,
 * broadcast, relay) and `annabella scoresheet` for their own sections.  Errors are fatal at
 * start and name file and line.
 */
#ifndef ANNABELLA_CONFIG_H
#define ANNABELLA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pinhash.h"
#include "braille/panel.h"
#include "config/fairplay_config.h"
#include "chess/detect.h"
#include "clockface/writer.h"
#include "game/clock.h"
#include "game/record.h"
#include "referee/referee.h"
#include "game/rules.h"
#include "gpio/board.h"
#include "voice/phrases.h"
#include "voice/voice.h"

/* The package's configuration (the units pass it; `annabella status` reads it). */
#define CONFIG_DEFAULT_PATH "/etc/annabella/annabella.conf"
#define CONFIG_MAX_WARNINGS 8
#define CONFIG_MAX_ARBITERS 8
/* PINs should have at least this many digits (shorter ones, of four or five, are taken
 * with a warning at start). */
#define CONFIG_PIN_DIGITS 6
/* [state] reserve's default: a long game's audio record (about 2.5 MB a game, a long one
 * several times that), its journal and scoresheets, and the next game's, with room to spare. */
#define CONFIG_RESERVE_MB 32

/* [power]: the device's power, watched by the daemon (daemon/power.h). */
enum power_monitor {
	POWER_MONITOR_AUTO = 0, /* on with the real board (gpiod), off with sim: and replay: */
	POWER_MONITOR_YES,
	POWER_MONITOR_NO
};

struct power_config {
	enum power_monitor monitor;
	char sysfs[128];	/* where sysfs is ("/sys"; the tests give a tree of their own) */
	char undervoltage[256]; /* "auto", "none", or a file read as a number: bit 0 set is
				   under-voltage now (in0_lcrit_alarm, or the firmware's
				   get_throttled) */
	char supply[256];	/* "auto", "none", or a power_supply directory */
	int low_percent;	/* a battery at or below this while discharging is low, until the
				   discharge rate is known */
	int low_hours;		/* a battery with less time left than this at its measured discharge
				   rate is low (FIDE's clocks: at least ten hours after the warning) */
};

/* [haptic]: a vibration motor on an output line of the board's chip (docs/wiring.md "The
 * vibration motor"), for a player who cannot hear the device: a pattern for each kind of
 * event, milliseconds on, off, on, ... */
enum haptic_event {
	HAPTIC_MOVE = 0, /* the opponent's move (or the engine's) */
	HAPTIC_WARNING,	 /* a [clock] warnings mark passed */
	HAPTIC_FLAG,	 /* a flag fell */
	HAPTIC_ARBITER,	 /* the arbiter's words to the player, or a call for the arbiter */
	HAPTIC_EVENT_COUNT
};
#define HAPTIC_PATTERN_MAX 16
#define HAPTIC_PULSE_MIN   20
#define HAPTIC_PULSE_MAX   5000
struct haptic_pattern {
	int count;
	uint16_t ms[HAPTIC_PATTERN_MAX]; /* on, off, on, ...: count of them */
};
struct haptic_config {
	struct haptic_pattern pattern[HAPTIC_EVENT_COUNT];
};
const char *haptic_event_name(enum haptic_event e); /* "move", "warning", "flag", "arbiter" */
/* A pattern's text ("150 100 150 100 800"): 0, or -1 with a message in err. */
int haptic_pattern_parse(const char *text, struct haptic_pattern *out, char *err, size_t size);
/* [online] (docs/online.md "Playing online"): what `annabella online` plays with; the daemon reads
 * only `menu` (the button menu's entry) and never opens a network socket. */
enum online_start { ONLINE_START_SEEK = 0, ONLINE_START_ACCEPT, ONLINE_START_CHALLENGE };
struct online_config {
	char server[256];      /* the server's base URL (https://lichess.org) */
	char token_file[256];  /* the personal API token's file ("": none given) */
	char ca_file[256];     /* a CA to trust besides the system's ("": none) */
	char time_control[64]; /* a seek's or challenge's: SECONDS+INCREMENT */
	bool rated;
	bool menu;		 /* the button menu offers an online game (casual play) */
	enum online_start start; /* what the menu's entry and `--wait` do */
	char friend_name[32];	 /* the friend whose challenge is accepted, or challenged */
	int color;		 /* the colour asked for: enum chess_color, or -1 (random) */
};
void online_config_defaults(struct online_config *cfg);
/* One [online] key.  0, or -1 with a message in err. */
int online_config_set(struct online_config *cfg, const char *key, const char *value, char *err,
		      size_t err_size);
/* Whether NAME is a lichess user name (2 to 30 letters, digits, - and _). */
bool online_user_name_ok(const char *name);

/* What `info` says of the clocks ([clock] info): the time left, the time used, or both. */
enum present_info { PRESENT_INFO_LEFT = 0, PRESENT_INFO_USED, PRESENT_INFO_BOTH };

struct config {
	/* [game] */
	int player; /* enum chess_color of the tactile player */
	char time_control[64];
	enum game_mode mode;
	uint32_t
	    promotion_ms;      /* a replicated promotion's choice is final this long after
				  the last select press (docs/arbiter.md "Behaviour the Laws ask for") */
	uint32_t menu_hold_ms; /* holding select this long opens the button menu */
	uint32_t menu_ms;      /* the menu closes after this long unused */
	char event[64], site[64], round[16], white[64], black[64];
	/* [rules] */
	enum rules_edition edition;
	/* [detect] */
	struct detect_config detect;
	/* [voice] */
	struct phrase_options phrases;
	bool announce_check_set;   /* announce-check given explicitly */
	struct voice_config voice; /* also [voice] public-rate ... and [speech] pronounce */
	/* [speech] */
	int slow_repeat; /* percent of the rate for `repeat` pressed again within 10 s */
	/* Where each of voice.pronounce's user entries was given, for the check at start. */
	struct config_place {
		char file[200];
		int line;
	} pronounce_at[PRONOUNCE_USER_MAX];
	/* An override given again for the same word and voice: where the one it replaced was
	 * given (line 0: none), for the warning at start. */
	struct config_place pronounce_replaced[PRONOUNCE_USER_MAX];
	int pronounce_last;   /* the entry the last pronounce key set */
	bool pronounce_again; /* the last pronounce key replaced an entry */
	/* For a player who cannot hear the device ([game] deafblind): the braille display and
	 * its messages on, the vibration motor when [haptic] line is wired. */
	bool deafblind;
	/* [braille] */
	bool braille_display;
	bool braille_messages; /* what is said to the player, also on the display */
	char braille_host[64], braille_auth[128];
	int braille_tty; /* -1: the root */
	enum braille_notation braille_notation;
	struct braille_layout braille_layout; /* the BRF's pages and lines, where the signs go */
	/* [display]: the clock display for the sighted opponent */
	struct face_config display;
	/* [haptic]: the vibration motor's patterns (its line is the board's: haptic_line) */
	struct haptic_config haptic;
	/* [power]: the Pi's under-voltage flag and a UPS or battery HAT */
	struct power_config power;
	/* [fairplay]: the arbiter's policy and the watch on the machine */
	struct fairplay_config fairplay;
	/* The configuration in force, as its files were read: 16 hex digits of their SHA-256
	 * (the fair-play state's `config`). */
	char digest[17];
	/* [online] */
	struct online_config online;
	/* [clock] */
	int warning_count;
	uint32_t warnings_s[CONFIG_MAX_WARNINGS]; /* private warnings at these remaining times */
	enum present_info clock_info;		  /* what info says of the clocks */
	enum flag_announce flag_announce;	  /* how a fallen flag is said */
	/* [board] */
	struct board_config board;
	/* [state] */
	char state_dir[256];
	bool sync;	   /* fsync journal and scoresheet (off only for benchmarks on tmpfs) */
	int keep_audio;	   /* games whose audio record is kept under games/ (-1: all) */
	int keep_audio_mb; /* their size together at most (0: no bound) */
	int keep_games;	   /* games whose PGN and journal are kept (-1: all) */
	/* MiB of the state directory's storage kept for the game's own record (journal,
	 * scoresheets, audio record): control.log and speech.log stop before they would take it
	 * (docs/state.md "State directory"). */
	int reserve_mb;
	/* [control] */
	char control_socket[108]; /* "" or "none": no control socket */
	char control_group[32];
	int arbiter_count;
	char arbiters[CONFIG_MAX_ARBITERS][32];
	/* arbiter-pin, assistant-pin: the PIN's salted hash (base/pinhash.h; not set: no PIN
	 * gives that role), from the PIN file (config_load_pins()) or, as before it, from the
	 * configuration; then the file and line it came from (the daemon warns when the
	 * socket's group may read that file). */
	struct config_pin {
		struct pin_hash hash;
		char file[200];
		int line;
	} arbiter_pin, assistant_pin;
	/* The PIN file: only the daemon and the page read it (README "Security model"); ""
	 * none.  A service given the credential `pins` (systemd's LoadCredential=) reads that. */
	char pin_file[256];
	/* [training] (docs/training.md "Training and study"; casual play): the menu's training
	 * entry, and what `annabella train` takes when its options do not say */
	bool train_menu;
	char train_engine[256]; /* "" : none configured */
	int train_level;	/* 0..20, or -1 */
	int train_elo;		/* 0: none */
	int train_movetime_ms;
	bool review_aloud;		 /* a review said on the speaker too */
	bool review_comments_on_request; /* a move's comment said on request only */
	/* [web] (annabella web; docs/web.md "The web page for the assistant and the arbiter") */
	char web_listen[80];	   /* ADDR:PORT, or "" */
	char web_hosts[512];	   /* host names besides the addresses (space-separated) */
	char web_certificate[256]; /* TLS: the certificate (PEM), or "" for plain HTTP */
	char web_key[256];	   /* and its key */
	/* [log] */
	int log_level;
	/* [broadcast] and [relay]: read by `annabella broadcast` and `annabella relay` only
	 * (docs/broadcast.md "Live broadcast and the room relay"); the daemon checks them and never
	 * opens a network socket. */
	struct config_mqtt {
		char mqtt[128]; /* HOST:PORT of the broker, "" : not configured */
		char user[64], password_file[256], tls_ca[256];
	} broadcast_mqtt, relay_mqtt;
	char broadcast_board[64]; /* the board's name in the topics */
	bool broadcast_accept_tags;
	char relay_listen[64];
	char relay_arbiter_listen[64]; /* the undelayed view, or "" */
	int relay_delay_s;	       /* the public view's delay (anti-cheating), 0: none */
	char relay_boards[1024];       /* the round's boards: names, comma or space separated */
	char relay_round[256];	       /* the round's tags CSV (its rows name the boards) */
};

void config_defaults(struct config *cfg);
/* Minutes as written in a setting or an option ("15", "0.5"), 0 to 1440, in whole seconds;
 * -1 if it is no such number. */
int config_minutes(const char *value);
/* yes/true/on/1 or no/false/off/0: 0, or -1 for another word. */
int config_parse_bool(const char *value, bool *out);
/* Read an INI file over the current values, then every FILE.d/NAME.conf (not hidden) in
 * byte order of NAME: a later setting wins.  A missing FILE.d is no error.  0, or -1 with
 * "FILE:LINE: message" in err, FILE being the file that holds the line. */
int config_load(struct config *cfg, const char *path, char *err, size_t err_size);
/* The PINs of the PIN file (pin-file, or the service's credential `pins`) over those of the
 * configuration: lines `arbiter-pin = HASH` and `assistant-pin = HASH` (or a PIN, or empty
 * for none), `#` comments.  A missing file gives none; one that cannot be read is said in
 * *warn (its PINs not taken).  0, or -1 with "FILE:LINE: message" in err. */
int config_load_pins(struct config *cfg, char *warn, size_t warn_size, char *err, size_t err_size);
/* Whether the file a PIN came from may be read by more than its owner (its group: the
 * control socket's, the assistants'). */
bool config_pin_exposed(const struct config_pin *pin);
/* The file a service's credential `name` (systemd.exec(5), $CREDENTIALS_DIRECTORY) gives for
 * a secret configured at path: that credential when the service has it and it holds more
 * than white space (a unit's stand-in for a file it did not find), else path. */
const char *config_secret_path(const char *name, const char *path, char *buf, size_t size);
/* One key; used by config_load and tests.  0, or -1 with a message in err. */
int config_set(struct config *cfg, const char *section, const char *key, const char *value,
	       char *err, size_t err_size);

#endif
