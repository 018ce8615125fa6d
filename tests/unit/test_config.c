/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The daemon's configuration: defaults, every key with a good and a bad value, and
 * config_load() errors that name the file and the right line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "chess/chess.h"
#include "config/config.h"
#include "base/log.h"

/* ------------------------------------------------------------------ helpers */

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/annabella-config-XXXXXX.conf");
	int fd;

	assert_non_null(path);
	fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Load text as a config file over the defaults; the return code and the message. */
static int load_text(const char *text, struct config *cfg, char *err, size_t err_size,
		     char *path_out, size_t path_size)
{
	char *path = write_temp(text);
	int rc;

	config_defaults(cfg);
	err[0] = '\0';
	rc = config_load(cfg, path, err, err_size);
	if (path_out)
		snprintf(path_out, path_size, "%s", path);
	unlink(path);
	free(path);
	return rc;
}

/* The load fails, and the message starts with "PATH:LINE: " and contains want. */
static void expect_error_at(const char *text, int line, const char *want)
{
	struct config cfg;
	char err[300], path[128], prefix[160];

	assert_int_equal(load_text(text, &cfg, err, sizeof(err), path, sizeof(path)), -1);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fail_msg("expected '%s...', got '%s'", prefix, err);
	if (want && !strstr(err, want))
		fail_msg("expected '%s' in '%s'", want, err);
}

static void expect_set_ok(struct config *cfg, const char *section, const char *key,
			  const char *value)
{
	char err[300] = "";

	if (config_set(cfg, section, key, value, err, sizeof(err)) != 0)
		fail_msg("[%s] %s = %s refused: %s", section, key, value, err);
}

/* Refused, with a message that names the key (or says what is wrong). */
static void expect_set_bad(const char *section, const char *key, const char *value,
			   const char *want)
{
	struct config cfg;
	char err[300] = "";

	config_defaults(&cfg);
	if (config_set(&cfg, section, key, value, err, sizeof(err)) != -1)
		fail_msg("[%s] %s = '%s' accepted", section, key, value);
	if (!err[0])
		fail_msg("[%s] %s = '%s': no message", section, key, value);
	if (want && !strstr(err, want))
		fail_msg("[%s] %s = '%s': expected '%s' in '%s'", section, key, value, want, err);
}

/* ------------------------------------------------------------------ [display] */

static void test_display_section(void **state)
{
	struct config cfg;
	char err[300];

	(void)state;
	config_defaults(&cfg);
	assert_int_equal(cfg.display.type, FACE_NONE);
	assert_int_equal(load_text("[display]\ntype = hd44780\nbus = /dev/i2c-3\n", &cfg, err,
				   sizeof(err), NULL, 0),
			 0);
	assert_int_equal(cfg.display.type, FACE_HD44780);
	assert_string_equal(cfg.display.bus, "/dev/i2c-3");
	assert_int_equal(face_config_address(&cfg.display), 0x27);
	expect_set_ok(&cfg, "display", "type", "ssd1306");
	expect_set_ok(&cfg, "display", "height", "32");
	expect_set_ok(&cfg, "display", "address", "0x3d");
	assert_int_equal(face_config_address(&cfg.display), 0x3d);
	expect_set_bad("display", "type", "oled", "hd44780");
	expect_set_bad("display", "address", "300", "address");
	expect_error_at("[display]\ntype = ssd1306\n\nheight = 48\n", 4, "height");
	expect_error_at("[display]\nbacklight = no\n", 2, "unknown key 'backlight'");
}

/* ------------------------------------------------------------------ defaults */

static void test_defaults(void **state)
{
	struct config cfg;

	(void)state;
	memset(&cfg, 0x5a, sizeof(cfg));
	config_defaults(&cfg);
	assert_int_equal(cfg.player, CHESS_WHITE);
	assert_string_equal(cfg.time_control, "-");
	assert_int_equal(cfg.mode, GAME_TOURNAMENT);
	assert_int_equal(cfg.edition, RULES_2023);
	assert_int_equal(cfg.promotion_ms, 3000);
	assert_string_equal(cfg.event, "?");
	assert_string_equal(cfg.site, "?");
	assert_string_equal(cfg.round, "?");
	assert_string_equal(cfg.white, "?");
	assert_string_equal(cfg.black, "?");
	assert_int_equal(cfg.detect.settle_ms, 150);
	assert_int_equal(cfg.detect.mismatch_ms, 3000);
	assert_int_equal(cfg.detect.castle_wait_ms, 1500);
	assert_int_equal(cfg.detect.in_hand_ms, 20000);
	assert_int_equal(cfg.phrases.lang, PHRASE_DE);
	assert_false(cfg.phrases.short_form);
	assert_false(cfg.phrases.national_ranks);
	assert_false(cfg.phrases.announce_check);
	assert_false(cfg.announce_check_set);
	assert_int_equal(cfg.voice.sink, VOICE_SINK_ALSA);
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].rate, 160);
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].pitch, 50);
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].volume, 100);
	assert_int_equal(cfg.warning_count, 0);
	assert_int_equal(cfg.board.wiring, BOARD_WIRING_DIRECT);
	assert_int_equal(cfg.board.debounce_ms, 20);
	assert_int_equal(cfg.board.scan_hz, 100);
	assert_string_equal(cfg.board.chip, "gpiochip0");
	for (int i = 0; i < 64; i++)
		assert_int_equal(cfg.board.square_lines[i], i);
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		assert_int_equal(cfg.board.button_lines[i], 64 + i);
	assert_string_equal(cfg.state_dir, "/var/lib/annabella");
	assert_true(cfg.sync);
	assert_int_equal(cfg.log_level, LOG_LEVEL_WARN);
}

/* The shipped file documents every key with its default: loading it changes nothing that
 * the defaults set (but record, which the file turns on). */
static void test_shipped_config_loads(void **state)
{
	struct config cfg, def;
	char err[300] = "";

	(void)state;
	config_defaults(&def);
	config_defaults(&cfg);
	if (config_load(&cfg, "configs/annabella.conf", err, sizeof(err)) != 0)
		fail_msg("configs/annabella.conf: %s", err);
	assert_int_equal(cfg.player, def.player);
	assert_string_equal(cfg.time_control, def.time_control);
	assert_int_equal(cfg.mode, def.mode);
	assert_int_equal(cfg.promotion_ms, def.promotion_ms);
	assert_memory_equal(&cfg.detect, &def.detect, sizeof(cfg.detect));
	assert_int_equal(cfg.phrases.lang, def.phrases.lang);
	assert_int_equal(cfg.voice.sink, def.voice.sink);
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].rate, def.voice.params[VOICE_PUBLIC].rate);
	assert_memory_equal(&cfg.board, &def.board, sizeof(cfg.board));
	assert_string_equal(cfg.state_dir, def.state_dir);
	assert_int_equal(cfg.sync, def.sync);
	assert_int_equal(cfg.log_level, def.log_level);
	assert_int_equal(cfg.warning_count, 0);
}

static void test_broadcast_and_relay(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	assert_string_equal(cfg.broadcast_mqtt.mqtt, "");
	assert_false(cfg.broadcast_accept_tags);
	expect_set_ok(&cfg, "broadcast", "mqtt", "broker.club.lan:8883");
	expect_set_ok(&cfg, "broadcast", "board", "pi-01");
	expect_set_ok(&cfg, "broadcast", "user", "board-pi");
	expect_set_ok(&cfg, "broadcast", "password-file", "/etc/annabella/mqtt-password");
	expect_set_ok(&cfg, "broadcast", "tls-ca", "/etc/ssl/certs/club-ca.pem");
	expect_set_ok(&cfg, "broadcast", "accept-tags", "yes");
	assert_string_equal(cfg.broadcast_mqtt.mqtt, "broker.club.lan:8883");
	assert_string_equal(cfg.broadcast_board, "pi-01");
	assert_true(cfg.broadcast_accept_tags);
	expect_set_ok(&cfg, "relay", "listen", "[::]:8081");
	expect_set_ok(&cfg, "relay", "mqtt", "127.0.0.1:1883");
	assert_string_equal(cfg.relay_listen, "[::]:8081");
	assert_string_equal(cfg.relay_mqtt.mqtt, "127.0.0.1:1883");
	expect_set_bad("broadcast", "mqtt", "broker", "HOST:PORT");
	expect_set_bad("broadcast", "board", "pi/1", "board must be a name");
	expect_set_bad("broadcast", "password-file", "pw", "absolute path");
	expect_set_bad("broadcast", "accept-tags", "maybe", "yes or no");
	expect_set_bad("broadcast", "listen", ":80", "unknown key 'listen' in [broadcast]");
	expect_set_bad("relay", "listen", "8080", "ADDR:PORT");
	expect_set_bad("relay", "board", "pi", "unknown key 'board' in [relay]");
	/* The page's names and its certificate (docs/web.md "The web page for the assistant and
	 * the arbiter"). */
	expect_set_ok(&cfg, "web", "listen", "0.0.0.0:8080");
	expect_set_ok(&cfg, "web", "hosts", "board1.club.lan board2");
	expect_set_ok(&cfg, "web", "certificate", "/etc/annabella/web.crt");
	expect_set_ok(&cfg, "web", "key", "/etc/annabella/web.key");
	assert_string_equal(cfg.web_hosts, "board1.club.lan board2");
	assert_string_equal(cfg.web_certificate, "/etc/annabella/web.crt");
	assert_string_equal(cfg.web_key, "/etc/annabella/web.key");
	expect_set_bad("web", "hosts", "evil.example/x", "host names");
	expect_set_bad("web", "certificate", "web.crt", "absolute path");
	expect_set_bad("web", "key", "web.key", "absolute path");
	expect_set_bad("web", "listen", "8080", "ADDR:PORT");
	expect_set_bad("web", "port", "8080", "unknown key 'port' in [web]");
	assert_int_equal(cfg.relay_delay_s, 0);
	expect_set_ok(&cfg, "relay", "delay", "15");
	assert_int_equal(cfg.relay_delay_s, 900);
	expect_set_ok(&cfg, "relay", "delay", "0.5");
	assert_int_equal(cfg.relay_delay_s, 30);
	expect_set_ok(&cfg, "relay", "arbiter-listen", "127.0.0.1:8082");
	assert_string_equal(cfg.relay_arbiter_listen, "127.0.0.1:8082");
	expect_set_bad("relay", "delay", "-1", "minutes from 0 to 1440");
	expect_set_bad("relay", "delay", "1441", "minutes from 0 to 1440");
	expect_set_bad("relay", "delay", "15m", "minutes from 0 to 1440");
	expect_set_bad("relay", "arbiter-listen", "8082", "ADDR:PORT");
}

static void test_missing_file(void **state)
{
	struct config cfg;
	char err[300] = "";

	(void)state;
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, "/nonexistent/annabella.conf", err, sizeof(err)), -1);
	assert_true(strncmp(err, "/nonexistent/annabella.conf:", 28) == 0);
}

/* ------------------------------------------------------------------ every key */

static void test_game_keys(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	expect_set_ok(&cfg, "game", "player", "black");
	assert_int_equal(cfg.player, CHESS_BLACK);
	expect_set_ok(&cfg, "game", "player", "white");
	assert_int_equal(cfg.player, CHESS_WHITE);
	expect_set_ok(&cfg, "game", "time-control", "40/5400+30:1800+30");
	assert_string_equal(cfg.time_control, "40/5400+30:1800+30");
	expect_set_ok(&cfg, "game", "time-control", "300d5");
	expect_set_ok(&cfg, "game", "time-control", "-");
	assert_string_equal(cfg.time_control, "-");
	expect_set_ok(&cfg, "game", "mode", "casual");
	assert_int_equal(cfg.mode, GAME_CASUAL);
	expect_set_ok(&cfg, "game", "mode", "tournament");
	assert_int_equal(cfg.mode, GAME_TOURNAMENT);
	expect_set_ok(&cfg, "game", "rules", "2018");
	assert_int_equal(cfg.edition, RULES_2018);
	expect_set_ok(&cfg, "game", "rules", "2023");
	assert_int_equal(cfg.edition, RULES_2023);
	expect_set_ok(&cfg, "game", "promotion-ms", "500");
	assert_int_equal(cfg.promotion_ms, 500);
	expect_set_ok(&cfg, "game", "promotion-ms", "60000");
	assert_int_equal(cfg.promotion_ms, 60000);
	expect_set_ok(&cfg, "game", "event", "Open Championship");
	assert_string_equal(cfg.event, "Open Championship");
	expect_set_ok(&cfg, "game", "site", "Hamburg GER");
	assert_string_equal(cfg.site, "Hamburg GER");
	expect_set_ok(&cfg, "game", "round", "3.1");
	assert_string_equal(cfg.round, "3.1");
	expect_set_ok(&cfg, "game", "white", "Müller, Anna");
	assert_string_equal(cfg.white, "Müller, Anna");
	expect_set_ok(&cfg, "game", "black", "Svensson, Erik");
	assert_string_equal(cfg.black, "Svensson, Erik");

	expect_set_bad("game", "player", "red", "player");
	expect_set_bad("game", "player", "", "player");
	expect_set_bad("game", "time-control", "fast", "time-control");
	expect_set_bad("game", "time-control", "300+", "time-control");
	expect_set_bad("game", "mode", "blitz", "mode");
	expect_set_bad("game", "rules", "2020", "rules");
	expect_set_bad("game", "promotion-ms", "499", "promotion-ms");
	expect_set_bad("game", "promotion-ms", "60001", "promotion-ms");
	expect_set_bad("game", "promotion-ms", "3s", "promotion-ms");
	expect_set_bad("game", "promotion-ms", "", "promotion-ms");
	expect_set_bad("game", "event", "The \"Open\"", "event");
	expect_set_bad("game", "site", "a\\b", "site");
	expect_set_bad("game", "round", "12345678901234567", "round");
	expect_set_bad("game", "white",
		       "0123456789012345678901234567890123456789012345678901234567890123", "white");
	expect_set_bad("game", "black", "x\"", "black");
	expect_set_bad("game", "colour", "white", "colour");
}

static void test_game_text_limits(void **state)
{
	struct config cfg;
	char name[64];

	(void)state;
	config_defaults(&cfg);
	/* 63 characters fit, 64 do not (the tag buffers hold 64 bytes). */
	memset(name, 'n', 63);
	name[63] = '\0';
	expect_set_ok(&cfg, "game", "event", name);
	assert_int_equal(strlen(cfg.event), 63);
	expect_set_ok(&cfg, "game", "round", "123456789012345");
	expect_set_bad("game", "round", "1234567890123456", "round");
}

static void test_detect_keys(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	expect_set_ok(&cfg, "detect", "settle-ms", "20");
	assert_int_equal(cfg.detect.settle_ms, 20);
	expect_set_ok(&cfg, "detect", "settle-ms", "5000");
	assert_int_equal(cfg.detect.settle_ms, 5000);
	expect_set_ok(&cfg, "detect", "mismatch-ms", "200");
	assert_int_equal(cfg.detect.mismatch_ms, 200);
	expect_set_ok(&cfg, "detect", "mismatch-ms", "600000");
	expect_set_ok(&cfg, "detect", "castle-wait-ms", "0");
	assert_int_equal(cfg.detect.castle_wait_ms, 0);
	expect_set_ok(&cfg, "detect", "castle-wait-ms", "10000");
	expect_set_ok(&cfg, "detect", "in-hand-ms", "200");
	expect_set_ok(&cfg, "detect", "in-hand-ms", "3600000");
	assert_int_equal(cfg.detect.in_hand_ms, 3600000);

	expect_set_bad("detect", "settle-ms", "19", "settle-ms");
	expect_set_bad("detect", "settle-ms", "5001", "settle-ms");
	expect_set_bad("detect", "settle-ms", "-150", "settle-ms");
	expect_set_bad("detect", "settle-ms", "150ms", "settle-ms");
	expect_set_bad("detect", "mismatch-ms", "199", "mismatch-ms");
	expect_set_bad("detect", "mismatch-ms", "99999999999999999999", "mismatch-ms");
	expect_set_bad("detect", "castle-wait-ms", "-1", "castle-wait-ms");
	expect_set_bad("detect", "castle-wait-ms", "10001", "castle-wait-ms");
	expect_set_bad("detect", "in-hand-ms", "100", "in-hand-ms");
	expect_set_bad("detect", "in-hand-ms", "3600001", "in-hand-ms");
	expect_set_bad("detect", "settle", "150", "settle");
}

static void test_voice_keys(void **state)
{
	static const struct {
		const char *code;
		enum phrase_lang lang;
	} langs[] = {{"de", PHRASE_DE}, {"en", PHRASE_EN}, {"sv", PHRASE_SV}, {"nl", PHRASE_NL}};
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++) {
		expect_set_ok(&cfg, "voice", "language", langs[i].code);
		assert_int_equal(cfg.phrases.lang, langs[i].lang);
	}
	expect_set_ok(&cfg, "voice", "short-form", "yes");
	assert_true(cfg.phrases.short_form);
	expect_set_ok(&cfg, "voice", "short-form", "no");
	assert_false(cfg.phrases.short_form);
	expect_set_ok(&cfg, "voice", "national-ranks", "true");
	assert_true(cfg.phrases.national_ranks);
	expect_set_ok(&cfg, "voice", "national-ranks", "0");
	assert_false(cfg.phrases.national_ranks);
	assert_false(cfg.announce_check_set);
	expect_set_ok(&cfg, "voice", "announce-check", "off");
	assert_false(cfg.phrases.announce_check);
	assert_true(cfg.announce_check_set);
	expect_set_ok(&cfg, "voice", "announce-check", "on");
	assert_true(cfg.phrases.announce_check);
	expect_set_ok(&cfg, "voice", "record", "1");
	assert_true(cfg.voice.record);
	expect_set_ok(&cfg, "voice", "record", "false");
	assert_false(cfg.voice.record);
	expect_set_ok(&cfg, "voice", "audio", "wav");
	assert_int_equal(cfg.voice.sink, VOICE_SINK_WAV);
	expect_set_ok(&cfg, "voice", "audio", "none");
	assert_int_equal(cfg.voice.sink, VOICE_SINK_NONE);
	expect_set_ok(&cfg, "voice", "audio", "alsa");
	assert_int_equal(cfg.voice.engine, VOICE_ENGINE_LIBRARY);
	expect_set_ok(&cfg, "voice", "engine", "process");
	assert_int_equal(cfg.voice.engine, VOICE_ENGINE_PROCESS);
	expect_set_ok(&cfg, "voice", "engine", "library");
	assert_int_equal(cfg.voice.engine, VOICE_ENGINE_LIBRARY);
	assert_int_equal(cfg.clock_info, PRESENT_INFO_LEFT);
	expect_set_ok(&cfg, "clock", "info", "used");
	assert_int_equal(cfg.clock_info, PRESENT_INFO_USED);
	expect_set_ok(&cfg, "clock", "info", "both");
	assert_int_equal(cfg.clock_info, PRESENT_INFO_BOTH);
	assert_int_equal(cfg.keep_audio, 50);
	expect_set_ok(&cfg, "state", "keep-audio", "3");
	assert_int_equal(cfg.keep_audio, 3);
	expect_set_ok(&cfg, "state", "keep-games", "all");
	assert_int_equal(cfg.keep_games, -1);
	assert_int_equal(cfg.voice.sink, VOICE_SINK_ALSA);
	expect_set_ok(&cfg, "voice", "rate", "80");
	expect_set_ok(&cfg, "voice", "rate", "450");
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].rate, 450);
	expect_set_ok(&cfg, "voice", "pitch", "0");
	expect_set_ok(&cfg, "voice", "pitch", "100");
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].pitch, 100);
	expect_set_ok(&cfg, "voice", "volume", "0");
	expect_set_ok(&cfg, "voice", "volume", "200");
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].volume, 200);
	expect_set_ok(&cfg, "voice", "public-device", "hw:1,0");
	assert_string_equal(cfg.voice.device[VOICE_PUBLIC], "hw:1,0");
	expect_set_ok(&cfg, "voice", "private-device", "plughw:CARD=Headset");
	assert_string_equal(cfg.voice.device[VOICE_PRIVATE], "plughw:CARD=Headset");

	expect_set_bad("voice", "language", "fr", "language");
	expect_set_bad("voice", "language", "DE", "language");
	expect_set_bad("voice", "short-form", "maybe", "short-form");
	expect_set_bad("voice", "national-ranks", "", "national-ranks");
	expect_set_bad("voice", "announce-check", "2", "announce-check");
	expect_set_bad("voice", "record", "yess", "record");
	expect_set_bad("voice", "audio", "pulse", "audio");
	expect_set_bad("voice", "engine", "festival", "engine");
	expect_set_bad("clock", "info", "remaining", "info");
	expect_set_bad("state", "keep-audio", "0", "keep-audio");
	expect_set_bad("state", "keep-games", "many", "keep-games");
	expect_set_bad("voice", "rate", "79", "rate");
	expect_set_bad("voice", "rate", "451", "rate");
	expect_set_bad("voice", "pitch", "101", "pitch");
	expect_set_bad("voice", "pitch", "-1", "pitch");
	expect_set_bad("voice", "volume", "201", "volume");
	expect_set_bad("voice", "volume", "loud", "volume");
	expect_set_bad("voice", "public-device",
		       "a-device-name-that-is-far-too-long-for-the-sixty-four-byte-buffer-x",
		       "public-device");
	expect_set_bad("voice", "private-device",
		       "a-device-name-that-is-far-too-long-for-the-sixty-four-byte-buffer-x",
		       "private-device");
	expect_set_bad("voice", "speed", "160", "speed");
}

/* Per-channel voices, pronunciation overrides, the slow repeat, the braille display. */
static void test_speech_and_braille_keys(void **state)
{
	(void)state;
	struct config cfg;

	config_defaults(&cfg);
	assert_int_equal(cfg.slow_repeat, 70);
	assert_false(cfg.braille_display);
	assert_int_equal(cfg.braille_tty, -1);
	expect_set_ok(&cfg, "voice", "rate", "200");
	expect_set_ok(&cfg, "voice", "private-rate", "140");
	expect_set_ok(&cfg, "voice", "public-pitch", "30");
	expect_set_ok(&cfg, "voice", "private-volume", "150");
	expect_set_ok(&cfg, "voice", "variant", "f2");
	expect_set_ok(&cfg, "voice", "public-variant", "");
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].rate, 200);
	assert_int_equal(cfg.voice.params[VOICE_PRIVATE].rate, 140);
	assert_int_equal(cfg.voice.params[VOICE_PUBLIC].pitch, 30);
	assert_int_equal(cfg.voice.params[VOICE_PRIVATE].pitch, 50);
	assert_int_equal(cfg.voice.params[VOICE_PRIVATE].volume, 150);
	assert_string_equal(cfg.voice.params[VOICE_PRIVATE].variant, "f2");
	assert_string_equal(cfg.voice.params[VOICE_PUBLIC].variant, "");
	expect_set_bad("voice", "private-rate", "20", "private-rate");
	expect_set_bad("voice", "variant", "f2; rm", "variant");
	expect_set_bad("voice", "middle-rate", "100", "middle-rate");

	expect_set_ok(&cfg, "speech", "pronounce Cesar", "ts'e:zA:r");
	expect_set_ok(&cfg, "speech", "pronounce en passant", "A~pas'A~");
	expect_set_ok(&cfg, "speech", "pronounce-sv remi", "rEm'i:");
	expect_set_ok(&cfg, "speech", "pronounce Cesar", "ts'e:zar");
	assert_int_equal(cfg.voice.pronounce.count, 3);
	assert_string_equal(pronounce_lookup(&cfg.voice.pronounce, PHRASE_DE, "Cesar"), "ts'e:zar");
	assert_string_equal(pronounce_lookup(&cfg.voice.pronounce, PHRASE_SV, "remi"), "rEm'i:");
	assert_null(pronounce_lookup(&cfg.voice.pronounce, PHRASE_EN, "remi"));
	expect_set_bad("speech", "pronounce", "x", "pronounce");
	expect_set_bad("speech", "pronounce-fr mot", "x", "pronounce-fr");
	expect_set_bad("speech", "pronounce Ce3ar", "x", "letters");
	expect_set_bad("speech", "pronounce Cesar", "[[x]]", "brackets");
	expect_set_bad("speech", "pronounce Cesar", "", "phonemes");
	expect_set_ok(&cfg, "speech", "slow-repeat", "60");
	assert_int_equal(cfg.slow_repeat, 60);
	expect_set_bad("speech", "slow-repeat", "20", "slow-repeat");
	expect_set_bad("speech", "voice", "x", "unknown key");

	expect_set_ok(&cfg, "braille", "display", "yes");
	expect_set_ok(&cfg, "braille", "host", "localhost:1");
	expect_set_ok(&cfg, "braille", "auth", "none");
	expect_set_ok(&cfg, "braille", "tty", "3");
	expect_set_ok(&cfg, "braille", "notation", "computer");
	assert_true(cfg.braille_display);
	assert_string_equal(cfg.braille_host, "localhost:1");
	assert_int_equal(cfg.braille_tty, 3);
	assert_int_equal(cfg.braille_notation, BRAILLE_NOTATION_COMPUTER);
	expect_set_ok(&cfg, "braille", "tty", "root");
	assert_int_equal(cfg.braille_tty, -1);
	expect_set_bad("braille", "notation", "ueb", "notation");
	expect_set_bad("braille", "tty", "x", "tty");
	expect_set_bad("braille", "speed", "1", "unknown key");
}

static void test_board_keys(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	expect_set_ok(&cfg, "board", "wiring", "matrix");
	assert_int_equal(cfg.board.wiring, BOARD_WIRING_MATRIX);
	expect_set_ok(&cfg, "board", "wiring", "shift");
	assert_int_equal(cfg.board.wiring, BOARD_WIRING_SHIFT);
	expect_set_ok(&cfg, "board", "wiring", "direct");
	assert_int_equal(cfg.board.wiring, BOARD_WIRING_DIRECT);
	expect_set_ok(&cfg, "board", "chip", "/dev/gpiochip4");
	assert_string_equal(cfg.board.chip, "/dev/gpiochip4");
	expect_set_ok(&cfg, "board", "squares", "63-0");
	assert_int_equal(cfg.board.square_lines[0], 63);
	assert_int_equal(cfg.board.square_lines[63], 0);
	expect_set_ok(&cfg, "board", "squares", "0-31 32-63");
	assert_int_equal(cfg.board.square_lines[40], 40);
	expect_set_ok(&cfg, "board", "rows", "0-7");
	expect_set_ok(&cfg, "board", "columns", "8-15");
	assert_int_equal(cfg.board.column_lines[7], 15);
	expect_set_ok(&cfg, "board", "load", "20");
	expect_set_ok(&cfg, "board", "clock", "21");
	expect_set_ok(&cfg, "board", "data", "22");
	assert_int_equal(cfg.board.shift_load, 20);
	assert_int_equal(cfg.board.shift_clock, 21);
	assert_int_equal(cfg.board.shift_data, 22);
	expect_set_ok(&cfg, "board", "button-player-clock", "70");
	assert_int_equal(cfg.board.button_lines[BOARD_BUTTON_PLAYER_CLOCK], 70);
	expect_set_ok(&cfg, "board", "button-opponent-clock", "71");
	expect_set_ok(&cfg, "board", "button-info", "72");
	expect_set_ok(&cfg, "board", "button-repeat", "73");
	expect_set_ok(&cfg, "board", "button-select", "74");
	expect_set_ok(&cfg, "board", "button-pause", "none");
	assert_int_equal(cfg.board.button_lines[BOARD_BUTTON_PAUSE], BOARD_NO_LINE);
	assert_int_equal(cfg.board.button_lines[BOARD_BUTTON_SELECT], 74);
	expect_set_ok(&cfg, "board", "active-low", "yes");
	assert_true(cfg.board.active_low_squares);
	expect_set_ok(&cfg, "board", "debounce-ms", "0");
	expect_set_ok(&cfg, "board", "debounce-ms", "1000");
	assert_int_equal(cfg.board.debounce_ms, 1000);
	expect_set_ok(&cfg, "board", "scan-hz", "1");
	expect_set_ok(&cfg, "board", "scan-hz", "1000");
	assert_int_equal(cfg.board.scan_hz, 1000);

	expect_set_bad("board", "wiring", "i2c", NULL);
	expect_set_bad("board", "squares", "0-62", NULL);
	expect_set_bad("board", "squares", "x", NULL);
	expect_set_bad("board", "rows", "0-6", NULL);
	expect_set_bad("board", "columns", "0-8", NULL);
	expect_set_bad("board", "load", "-5", NULL);
	expect_set_bad("board", "clock", "abc", NULL);
	expect_set_bad("board", "data", "", NULL);
	expect_set_bad("board", "button-player-clock", "x", NULL);
	expect_set_bad("board", "button-fire", "5", NULL);
	expect_set_bad("board", "active-low", "perhaps", NULL);
	expect_set_bad("board", "debounce-ms", "1001", NULL);
	expect_set_bad("board", "scan-hz", "0", NULL);
	expect_set_bad("board", "scan-hz", "1001", NULL);
	expect_set_bad("board", "pins", "1", NULL);
}

static void test_clock_state_log_keys(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	expect_set_ok(&cfg, "clock", "warnings", "300, 60");
	assert_int_equal(cfg.warning_count, 2);
	assert_int_equal(cfg.warnings_s[0], 300);
	assert_int_equal(cfg.warnings_s[1], 60);
	expect_set_ok(&cfg, "clock", "warnings", "1,2,3,4,5,6,7,36000");
	assert_int_equal(cfg.warning_count, 8);
	assert_int_equal(cfg.warnings_s[7], 36000);
	expect_set_ok(&cfg, "clock", "warnings", "");
	assert_int_equal(cfg.warning_count, 0);
	expect_set_bad("clock", "warnings", "1,2,3,4,5,6,7,8,9", "warnings");
	expect_set_bad("clock", "warnings", "0", "warnings");
	expect_set_bad("clock", "warnings", "36001", "warnings");
	expect_set_bad("clock", "warnings", "5m", "warnings");
	/* Unset: as the edition's Laws say (public; private in 2005 rapid and blitz, B7). */
	assert_int_equal(cfg.flag_announce, FLAG_ANNOUNCE_LAWS);
	expect_set_ok(&cfg, "clock", "flag-announce", "private");
	assert_int_equal(cfg.flag_announce, FLAG_ANNOUNCE_PRIVATE);
	expect_set_ok(&cfg, "clock", "flag-announce", "off");
	assert_int_equal(cfg.flag_announce, FLAG_ANNOUNCE_OFF);
	expect_set_ok(&cfg, "clock", "flag-announce", "public");
	assert_int_equal(cfg.flag_announce, FLAG_ANNOUNCE_PUBLIC);
	expect_set_bad("clock", "flag-announce", "loud", "flag-announce");
	expect_set_bad("clock", "flag", "yes", "flag");

	expect_set_ok(&cfg, "state", "dir", "/tmp/annabella-state");
	assert_string_equal(cfg.state_dir, "/tmp/annabella-state");
	expect_set_ok(&cfg, "state", "sync", "no");
	assert_false(cfg.sync);
	expect_set_ok(&cfg, "state", "sync", "yes");
	assert_true(cfg.sync);
	{
		char dir[300];

		memset(dir, 'd', sizeof(dir) - 1);
		dir[sizeof(dir) - 1] = '\0';
		expect_set_bad("state", "dir", dir, "dir");
	}
	expect_set_bad("state", "sync", "sometimes", "sync");
	expect_set_bad("state", "path", "/tmp", "path");

	expect_set_ok(&cfg, "log", "level", "error");
	assert_int_equal(cfg.log_level, LOG_LEVEL_ERROR);
	expect_set_ok(&cfg, "log", "level", "warn");
	expect_set_ok(&cfg, "log", "level", "info");
	expect_set_ok(&cfg, "log", "level", "debug");
	assert_int_equal(cfg.log_level, LOG_LEVEL_DEBUG);
	expect_set_bad("log", "level", "verbose", "level");
	expect_set_bad("log", "file", "/tmp/x", "file");

	expect_set_bad("audio", "device", "x", "audio");
	expect_set_bad("", "player", "white", "outside a section");
}

/* ------------------------------------------------------------------ config_load */

static void test_load_values(void **state)
{
	struct config cfg;
	char err[300];

	(void)state;
	assert_int_equal(load_text("# comment\n; another\n\n[game]\nplayer = black\n"
				   "time-control = 900+10\nevent = Club Open\n"
				   "[detect]\nsettle-ms=200\n[voice]\nlanguage = sv\naudio = none\n"
				   "[clock]\nwarnings = 300, 60\n[state]\ndir = /tmp/x\nsync = no\n"
				   "[log]\nlevel = debug\n",
				   &cfg, err, sizeof(err), NULL, 0),
			 0);
	assert_int_equal(cfg.player, CHESS_BLACK);
	assert_string_equal(cfg.time_control, "900+10");
	assert_string_equal(cfg.event, "Club Open");
	assert_int_equal(cfg.detect.settle_ms, 200);
	assert_int_equal(cfg.phrases.lang, PHRASE_SV);
	assert_int_equal(cfg.voice.sink, VOICE_SINK_NONE);
	assert_int_equal(cfg.warning_count, 2);
	assert_string_equal(cfg.state_dir, "/tmp/x");
	assert_false(cfg.sync);
	assert_int_equal(cfg.log_level, LOG_LEVEL_DEBUG);
	/* An empty file is all defaults. */
	assert_int_equal(load_text("", &cfg, err, sizeof(err), NULL, 0), 0);
	assert_int_equal(cfg.player, CHESS_WHITE);
}

static void test_load_errors_name_line(void **state)
{
	(void)state;
	expect_error_at("[game]\nplayer = white\n\n# c\ncolour = white\n", 5, "colour");
	expect_error_at("[game]\nplayer = green\n", 2, "player must be white or black");
	expect_error_at("# head\n\nplayer = white\n[game]\n", 3, "outside a section");
	expect_error_at("[game]\nplayer = white\nmode\n", 3, "syntax error");
	expect_error_at("[game]\nplayer = white\n[game\nmode = casual\n", 3, "syntax error");
	expect_error_at("[game]\n[detect]\nsettle-ms = 1\n", 3, "settle-ms");
	expect_error_at("[sound]\nvolume = 3\n", 2, "unknown section");
	expect_error_at("[game]\nplayer = white\n[board]\nwiring = direct\ndebounce-ms = x\n", 5,
			NULL);
	/* The first of two errors counts, whichever kind. */
	expect_error_at("[game]\nmode = x\nplayer\n", 2, "mode");
	expect_error_at("[game]\nplayer\nmode = x\n", 2, "syntax error");
	/* Windows line ends. */
	expect_error_at("[game]\r\nplayer = white\r\nrules = 1999\r\n", 3, "rules");
}

/* A comment line longer than libinih's line buffer (200 bytes by default) is still one
 * comment line: it must neither cause an error nor shift the line numbers of later errors. */
static void test_load_long_comment_line(void **state)
{
	char text[1024];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "# ");
	for (int i = 0; i < 6; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "a long note about the wiring of this board, ");
	n += snprintf(text + n, sizeof(text) - (size_t)n, "\n[game]\nplayer = black\nfoo = 1\n");
	expect_error_at(text, 4, "unknown key 'foo'");
}

/* A key line longer than the parser's buffer (198 characters) is refused with its own line,
 * and does not shift the lines of later errors. */
static void test_load_long_key_line(void **state)
{
	char text[1024];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "[board]\nsquares = ");
	for (int i = 63; i >= 0; i--)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d%s", i, i ? ", " : "\n");
	snprintf(text + n, sizeof(text) - (size_t)n, "[game]\nfoo = 1\n");
	expect_error_at(text, 2, "line too long");
}

/* The 64 line numbers of a direct wiring, spread over indented continuation lines. */
static void test_load_squares_continued(void **state)
{
	struct config cfg;
	char err[300];
	char text[1024];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "[board]\n# reversed\nsquares = ");
	for (int i = 63; i >= 0; i--)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d%s", i,
			      !i	    ? "\n"
			      : i % 16 == 0 ? ",\n    "
					    : ", ");
	snprintf(text + n, sizeof(text) - (size_t)n, "debounce-ms = 10\n");
	if (load_text(text, &cfg, err, sizeof(err), NULL, 0) != 0)
		fail_msg("squares over continuation lines refused: %s\n%s", err, text);
	for (int i = 0; i < 64; i++)
		assert_int_equal(cfg.board.square_lines[i], 63 - i);
	assert_int_equal(cfg.board.debounce_ms, 10);

	/* A bad list names the line of its key. */
	expect_error_at("[board]\nwiring = direct\nsquares = 0-31\n  32-62\n", 3, NULL);
}

/* Every other key given twice takes the later value; squares too (an override appended to
 * a shipped file), rather than the two lists being joined into one of 128 numbers. */
static void test_load_squares_given_twice(void **state)
{
	struct config cfg;
	char err[300];

	(void)state;
	assert_int_equal(
	    load_text("[game]\nplayer = black\nplayer = white\n", &cfg, err, sizeof(err), NULL, 0),
	    0);
	assert_int_equal(cfg.player, CHESS_WHITE);
	if (load_text("[board]\nsquares = 0-63\n[board]\nsquares = 63-0\n", &cfg, err, sizeof(err),
		      NULL, 0) != 0)
		fail_msg("squares given twice: %s", err);
	assert_int_equal(cfg.board.square_lines[0], 63);
}

static void test_rules_and_control_keys(void **state)
{
	struct config cfg;

	(void)state;
	config_defaults(&cfg);
	assert_int_equal(cfg.edition, RULES_2023);
	assert_string_equal(cfg.control_socket, "/run/annabella/control");
	assert_string_equal(cfg.control_group, "annabella");
	assert_int_equal(cfg.arbiter_count, 1);
	assert_string_equal(cfg.arbiters[0], "root");
	expect_set_ok(&cfg, "rules", "edition", "2005");
	assert_int_equal(cfg.edition, RULES_2005);
	expect_set_bad("rules", "edition", "2020", "edition must be 2023, 2018 or 2005");
	expect_set_bad("rules", "penalty", "2", "unknown key 'penalty' in [rules]");
	expect_set_ok(&cfg, "control", "socket", "none");
	assert_string_equal(cfg.control_socket, "none");
	expect_set_ok(&cfg, "control", "socket", "/tmp/annabella.sock");
	expect_set_bad("control", "socket", "relative/path", "absolute path or none");
	expect_set_ok(&cfg, "control", "arbiters", "anna, bert carl");
	assert_int_equal(cfg.arbiter_count, 3);
	assert_string_equal(cfg.arbiters[2], "carl");
	expect_set_bad("control", "arbiters", "a b c d e f g h i", "up to 8 user names");
	expect_set_ok(&cfg, "control", "arbiter-pin", "4711");
	expect_set_bad("control", "assistant-pin", "12", "at least 4 digits");
	expect_set_bad("control", "assistant-pin", "12ab", "at least 4 digits");
	{
		struct config c2;
		char err[200];

		config_defaults(&c2);
		expect_set_ok(&c2, "control", "arbiter-pin", "4711");
		assert_int_equal(
		    config_set(&c2, "control", "assistant-pin", "4711", err, sizeof(err)), -1);
		assert_non_null(strstr(err, "must differ"));
	}
	expect_set_ok(&cfg, "game", "menu-hold-ms", "1500");
	assert_int_equal(cfg.menu_hold_ms, 1500);
	expect_set_bad("game", "menu-hold-ms", "100", "menu-hold-ms must be 300..10000");
	expect_set_bad("game", "menu-ms", "100", "menu-ms must be 2000..600000");
}

/* ------------------------------------------------------------------ drop-ins */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* FILE.d/NAME.conf after FILE, in byte order of NAME; a later setting wins; hidden files
 * and the package manager's leftovers are not read; an error names the drop-in's own file
 * and line. */
static void test_load_dropins(void **state)
{
	char base[] = "/tmp/annabella-dropin-XXXXXX";
	char main_path[160], dir[170], path[220], err[400], want[300];
	struct config cfg;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(main_path, sizeof(main_path), "%s/annabella.conf", base);
	snprintf(dir, sizeof(dir), "%s.d", main_path);
	write_file(main_path, "[game]\nplayer = white\ntime-control = 5400+30\nevent = Shipped\n"
			      "[voice]\nlanguage = de\n");

	/* No FILE.d: the file alone. */
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, main_path, err, sizeof(err)), 0);
	assert_string_equal(cfg.event, "Shipped");

	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/20-club.conf", dir);
	write_file(path, "[game]\nevent = Club Open\n[voice]\nlanguage = en\n");
	snprintf(path, sizeof(path), "%s/10-board.conf", dir);
	write_file(path, "[game]\nplayer = black\nevent = Board first\n");
	snprintf(path, sizeof(path), "%s/.30-hidden.conf", dir);
	write_file(path, "[game]\nevent = hidden\n");
	snprintf(path, sizeof(path), "%s/40-old.conf.dpkg-old", dir);
	write_file(path, "[game]\nevent = leftover\n");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	write_file(path, "not a configuration\n");
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, main_path, err, sizeof(err)), 0);
	assert_int_equal(cfg.player, CHESS_BLACK);	  /* 10-board */
	assert_string_equal(cfg.event, "Club Open");	  /* 20-club after 10-board */
	assert_int_equal(cfg.phrases.lang, PHRASE_EN);	  /* 20-club over the file */
	assert_string_equal(cfg.time_control, "5400+30"); /* the file's, untouched */

	/* A bad line in a drop-in: its own file and line. */
	snprintf(path, sizeof(path), "%s/15-typo.conf", dir);
	write_file(path, "# local\n[game]\n\nplayr = black\n");
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, main_path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:4: ", path);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("expected '%s...', got '%s'", want, err);
	assert_non_null(strstr(err, "playr"));
	unlink(path);

	/* A directory named like a drop-in is refused by name. */
	snprintf(path, sizeof(path), "%s/50-dir.conf", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, main_path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "directory"));
	rmdir(path);

	/* FILE.d that is a file, not a directory. */
	{
		static const char *const left[] = {"20-club.conf", "10-board.conf",
						   ".30-hidden.conf", "40-old.conf.dpkg-old",
						   "notes.txt"};

		for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, left[i]);
			assert_int_equal(unlink(path), 0);
		}
		assert_int_equal(rmdir(dir), 0);
	}
	write_file(dir, "[game]\n");
	config_defaults(&cfg);
	assert_int_equal(config_load(&cfg, main_path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, dir));
	unlink(dir);
	unlink(main_path);
	rmdir(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_shipped_config_loads),
	    cmocka_unit_test(test_rules_and_control_keys),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_game_keys),
	    cmocka_unit_test(test_game_text_limits),
	    cmocka_unit_test(test_detect_keys),
	    cmocka_unit_test(test_voice_keys),
	    cmocka_unit_test(test_speech_and_braille_keys),
	    cmocka_unit_test(test_board_keys),
	    cmocka_unit_test(test_clock_state_log_keys),
	    cmocka_unit_test(test_load_values),
	    cmocka_unit_test(test_load_errors_name_line),
	    cmocka_unit_test(test_load_long_comment_line),
	    cmocka_unit_test(test_load_long_key_line),
	    cmocka_unit_test(test_load_squares_continued),
	    cmocka_unit_test(test_load_squares_given_twice),
	    cmocka_unit_test(test_broadcast_and_relay),
	    cmocka_unit_test(test_display_section),
	    cmocka_unit_test(test_load_dropins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
