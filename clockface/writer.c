/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock display's thread, and its configuration. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "clockface/i2c.h"
#include "clockface/writer.h"

void face_config_defaults(struct face_config *c)
{
	memset(c, 0, sizeof(*c));
	c->type = FACE_NONE;
	snprintf(c->bus, sizeof(c->bus), "/dev/i2c-1");
	c->address = -1;
	c->height = 64;
	c->tenths = true;
	c->led[0] = c->led[1] = -1;
}

const char *face_type_name(enum face_type t)
{
	return t == FACE_HD44780 ? "hd44780" : t == FACE_SSD1306 ? "ssd1306" : "none";
}

int face_config_address(const struct face_config *c)
{
	if (c->address >= 0)
		return c->address;
	return c->type == FACE_SSD1306 ? 0x3c : 0x27;
}

static int set_type(struct face_config *c, const char *key, const char *value, char *err,
		    size_t err_size)
{
	(void)key;
	if (!strcmp(value, "none"))
		c->type = FACE_NONE;
	else if (!strcmp(value, "hd44780"))
		c->type = FACE_HD44780;
	else if (!strcmp(value, "ssd1306"))
		c->type = FACE_SSD1306;
	else {
		snprintf(err, err_size, "type must be none, hd44780 or ssd1306, not '%s'", value);
		return -1;
	}
	return 0;
}

static int set_bus(struct face_config *c, const char *key, const char *value, char *err,
		   size_t err_size)
{
	(void)key;
	if (strncmp(value, "/dev/", 5) || strlen(value) >= sizeof(c->bus)) {
		snprintf(err, err_size,
			 "bus must be a device path such as /dev/i2c-1, not "
			 "'%s'",
			 value);
		return -1;
	}
	snprintf(c->bus, sizeof(c->bus), "%s", value);
	return 0;
}

static int set_address(struct face_config *c, const char *key, const char *value, char *err,
		       size_t err_size)
{
	char *end;
	long v;

	(void)key;
	errno = 0;
	v = strtol(value, &end, 0);
	if (errno || end == value || *end || v < 0x03 || v > 0x77) {
		snprintf(err, err_size,
			 "address must be a 7-bit I2C address 0x03..0x77, not "
			 "'%s'",
			 value);
		return -1;
	}
	c->address = (int)v;
	return 0;
}

static int set_height(struct face_config *c, const char *key, const char *value, char *err,
		      size_t err_size)
{
	(void)key;
	if (strcmp(value, "64") && strcmp(value, "32")) {
		snprintf(err, err_size, "height must be 64 or 32 (SSD1306), not '%s'", value);
		return -1;
	}
	c->height = atoi(value);
	return 0;
}

/* A key of two words, one meaning true; the message lists them in the order given. */
static int set_two_words(bool *dst, const char *key, const char *value, const char *first,
			 bool first_means, const char *second, char *err, size_t err_size)
{
	if (!strcmp(value, first))
		*dst = first_means;
	else if (!strcmp(value, second))
		*dst = !first_means;
	else {
		snprintf(err, err_size, "%s must be %s or %s, not '%s'", key, first, second, value);
		return -1;
	}
	return 0;
}

static int set_tenths(struct face_config *c, const char *key, const char *value, char *err,
		      size_t err_size)
{
	return set_two_words(&c->tenths, key, value, "yes", true, "no", err, err_size);
}

static int set_digits(struct face_config *c, const char *key, const char *value, char *err,
		      size_t err_size)
{
	return set_two_words(&c->big, key, value, "normal", false, "big", err, err_size);
}

/* led-white and led-black: a line of the board's chip, or none. */
static int set_led(struct face_config *c, const char *key, const char *value, char *err,
		   size_t err_size)
{
	int side = !strcmp(key, "led-black");
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (!strcmp(value, "none")) {
		c->led[side] = -1;
	} else if (errno || end == value || *end || v < 0 || v > 999) {
		snprintf(err, err_size,
			 "%s must be a line number 0..999 on the board's chip, or none, not "
			 "'%s'",
			 key, value);
		return -1;
	} else {
		c->led[side] = (int)v;
	}
	return 0;
}

/* Each key of [display] and its setter. */
static const struct {
	const char *key;
	int (*set)(struct face_config *c, const char *key, const char *value, char *err,
		   size_t err_size);
} face_keys[] = {
    {"type", set_type},	    {"bus", set_bus},	    {"address", set_address},
    {"height", set_height}, {"tenths", set_tenths}, {"digits", set_digits},
    {"led-white", set_led}, {"led-black", set_led},
};

int face_config_set(struct face_config *c, const char *key, const char *value, char *err,
		    size_t err_size)
{
	for (size_t i = 0; i < sizeof(face_keys) / sizeof(face_keys[0]); i++)
		if (!strcmp(key, face_keys[i].key))
			return face_keys[i].set(c, key, value, err, err_size);
	snprintf(err, err_size, "unknown key '%s' in [display]", key);
	return -1;
}

/* ------------------------------------------------------------------ the thread */

struct face_writer {
	struct face_config cfg;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	bool fresh; /* `want` has not been sent yet */
	bool have;  /* `want` holds a text */
	struct face_text want;
	unsigned long sent, failures; /* copied from the thread's own under the lock */
	/* The thread's own. */
	unsigned long t_sent, t_failures;
	int fd;
	bool failing;
	struct face_screen screen;
	struct face_out out;
};

static void deadline_in(struct timespec *ts, unsigned ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void fault(struct face_writer *w, const char *what)
{
	if (!w->failing)
		log_warn(LOG_CLOCK, "clock display %s at %s 0x%02x: %s; trying again every %d s",
			 face_type_name(w->cfg.type), w->cfg.bus, face_config_address(&w->cfg),
			 what, FACE_RETRY_MS / 1000);
	if (!w->failing)
		w->t_failures++;
	w->failing = true;
	face_i2c_close(w->fd);
	w->fd = -1;
	w->screen.valid = false;
}

static int send(struct face_writer *w, const char *what)
{
	char msg[160];
	int failed = 0;

	if (w->out.overflow)
		log_warn(LOG_CLOCK, "clock display: %s needs more than %d messages", what,
			 FACE_OUT_MAX);
	if (face_i2c_send(w->fd, &w->out, &failed) == 0) {
		w->t_sent += (unsigned long)w->out.n;
		return 0;
	}
	snprintf(msg, sizeof(msg), "%s, message %d of %d: %s", what, failed + 1, w->out.n,
		 strerror(errno));
	w->t_sent += (unsigned long)failed;
	fault(w, msg);
	return -1;
}

/* Bring the display up if it is not, then show the text. */
static void show(struct face_writer *w, const struct face_text *text)
{
	char err[160];

	if (w->fd < 0) {
		w->fd = face_i2c_open(w->cfg.bus, face_config_address(&w->cfg), err, sizeof(err));
		if (w->fd < 0) {
			fault(w, err);
			return;
		}
	}
	if (!w->screen.valid) {
		face_screen_start(&w->screen, &w->out);
		if (send(w, "starting"))
			return;
	}
	face_screen_update(&w->screen, text, &w->out);
	if (send(w, "writing"))
		return;
	if (w->failing) {
		log_info(LOG_CLOCK, "clock display at %s works again", w->cfg.bus);
		w->failing = false;
	}
}

static void *writer_thread(void *arg)
{
	struct face_writer *w = arg;
	struct face_text text;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct timespec until;

		deadline_in(&until, FACE_RETRY_MS);
		while (!w->stop && !w->fresh) {
			if (!w->failing || !w->have) {
				pthread_cond_wait(&w->wake, &w->lock);
				deadline_in(&until, FACE_RETRY_MS);
			} else if (pthread_cond_timedwait(&w->wake, &w->lock, &until) ==
				   ETIMEDOUT) {
				break;
			}
		}
		/* The last text handed over is shown before the thread ends. */
		if (w->stop && !w->fresh)
			break;
		text = w->want;
		w->fresh = false;
		pthread_mutex_unlock(&w->lock);
		show(w, &text);
		pthread_mutex_lock(&w->lock);
		w->sent = w->t_sent;
		w->failures = w->t_failures;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct face_writer *face_writer_start(const struct face_config *cfg, char *err, size_t err_size)
{
	struct face_writer *w = calloc(1, sizeof(*w));
	pthread_condattr_t attr;

	if (!w) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	w->cfg = *cfg;
	w->fd = -1;
	face_screen_init(&w->screen, cfg->type, cfg->height);
	w->screen.big = cfg->big;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (pthread_create(&w->thread, NULL, writer_thread, w)) {
		snprintf(err, err_size, "clock display: cannot start its thread");
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	return w;
}

void face_writer_show(struct face_writer *w, const struct face_text *text)
{
	pthread_mutex_lock(&w->lock);
	w->want = *text;
	w->have = true;
	w->fresh = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void face_writer_stop(struct face_writer *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	face_i2c_close(w->fd);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
