/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The braille display thread: BrlAPI connection, reconnection with back-off, window
 * writes and key reading.  See display.h.
 */
#include "braille/display.h"
#include "base/log.h"
#include "base/timeutil.h"

#include <brlapi.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define COMMAND_QUEUE 16

struct braille_display {
	/* Set at open, read-only after. */
	char *host, *auth;
	int tty;
	int retry_min_ms, retry_max_ms;
	int wake[2];   /* loop -> thread */
	int notify[2]; /* thread -> loop */
	pthread_t thread;

	pthread_mutex_t lock; /* everything below */
	struct braille_panel panel;
	uint64_t version; /* bumped by every change of the panel */
	bool stop;
	enum braille_command queue[COMMAND_QUEUE];
	int queue_head, queue_count;
	struct braille_display_stats stats;
};

static void poke(int fd)
{
	char byte = 1;
	/* A full pipe already holds a wake-up. */
	if (write(fd, &byte, 1) < 0 && errno != EAGAIN)
		log_debug(LOG_BRAILLE, "wake-up: %s", strerror(errno));
}

static void drain(int fd)
{
	char buf[64];
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		fds[0] = fds[1] = -1;
		return -1;
	}
	return 0;
}

static void close_pipe(int fds[2])
{
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
}

/* ---------------------------------------------------------------- the thread */

struct connection {
	brlapi_handle_t *handle;
	bool open;
	unsigned width, height;
	unsigned char *dots; /* width * height cells, allocated at connection */
	uint64_t written;    /* panel version on the display */
	bool written_any;
};

/* libbrlapi's default handler aborts the process; a protocol error here only drops the
 * connection (the failing call then returns an error and the thread reconnects). */
static void on_exception(brlapi_handle_t *handle, int error, brlapi_packetType_t type,
			 const void *packet, size_t size)
{
	(void)handle;
	(void)packet;
	(void)size;
	brlapi_error_t e = {.brlerrno = error};
	char text[128];
	brlapi_strerror_r(&e, text, sizeof(text));
	log_warn(LOG_BRAILLE, "BrlAPI exception: %s (packet %s)", text,
		 brlapi_getPacketTypeName(type));
}

static void disconnect(struct braille_display *d, struct connection *c, const char *why)
{
	if (!c->open)
		return;
	log_warn(LOG_BRAILLE, "braille display lost (%s); reconnecting", why);
	/* brlapi__closeConnection waits for BRLTTY's reply; the server is gone or broken, so
	 * the socket is closed under it instead. */
	int fd = brlapi__getFileDescriptor(c->handle);
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
	brlapi__closeConnection(c->handle);
	c->open = false;
	pthread_mutex_lock(&d->lock);
	d->stats.connected = false;
	pthread_mutex_unlock(&d->lock);
}

static const char *brlapi_message(void)
{
	static __thread char buf[160];
	brlapi_strerror_r(&brlapi_error, buf, sizeof(buf));
	return buf;
}

static bool try_connect(struct braille_display *d, struct connection *c)
{
	brlapi_connectionSettings_t settings = {d->auth, d->host};
	if (brlapi__openConnection(c->handle, &settings, NULL) == BRLAPI_INVALID_FILE_DESCRIPTOR) {
		log_debug(LOG_BRAILLE, "BrlAPI connection: %s", brlapi_message());
		return false;
	}
	brlapi__setExceptionHandler(c->handle, on_exception);
	unsigned x = 0, y = 0;
	int tty = -1;
	if (brlapi__getDisplaySize(c->handle, &x, &y) < 0 || x == 0) {
		log_debug(LOG_BRAILLE, "BrlAPI display size: %s", brlapi_message());
		goto fail;
	}
	if (d->tty >= 0)
		tty = brlapi__enterTtyMode(c->handle, d->tty, NULL);
	else
		tty = brlapi__enterTtyModeWithPath(c->handle, NULL, 0, NULL);
	if (tty < 0) {
		log_warn(LOG_BRAILLE, "BrlAPI tty mode: %s", brlapi_message());
		goto fail;
	}
	unsigned char *dots = realloc(c->dots, (size_t)x * (y ? y : 1));
	if (!dots) {
		log_error(LOG_BRAILLE, "braille display: out of memory");
		goto fail;
	}
	c->dots = dots;
	c->open = true;
	c->width = x;
	c->height = y ? y : 1;
	c->written_any = false;
	pthread_mutex_lock(&d->lock);
	braille_panel_set_width(&d->panel, (int)x);
	d->stats.connected = true;
	d->stats.connects++;
	d->stats.width = (int)x;
	d->stats.height = (int)c->height;
	pthread_mutex_unlock(&d->lock);
	log_info(LOG_BRAILLE, "braille display: %u cells", x);
	return true;
fail:
	brlapi__closeConnection(c->handle);
	return false;
}

/* Writes the window if the panel changed since the last write. */
static void refresh(struct braille_display *d, struct connection *c)
{
	unsigned char *dots = c->dots;
	size_t size = (size_t)c->width * c->height;
	pthread_mutex_lock(&d->lock);
	uint64_t version = d->version;
	if (c->written_any && c->written == version) {
		pthread_mutex_unlock(&d->lock);
		return;
	}
	memset(dots, 0, size);
	braille_panel_window(&d->panel, dots);
	pthread_mutex_unlock(&d->lock);
	if (brlapi__writeDots(c->handle, dots) < 0) {
		disconnect(d, c, brlapi_message());
		return;
	}
	c->written = version;
	c->written_any = true;
	pthread_mutex_lock(&d->lock);
	d->stats.writes++;
	d->stats.last_write_ns = (int64_t)monotonic_ns();
	d->stats.shown_version = version;
	pthread_mutex_unlock(&d->lock);
}

static void queue_command(struct braille_display *d, enum braille_command cmd)
{
	pthread_mutex_lock(&d->lock);
	if (d->queue_count < COMMAND_QUEUE) {
		d->queue[(d->queue_head + d->queue_count) % COMMAND_QUEUE] = cmd;
		d->queue_count++;
	} else {
		log_warn(LOG_BRAILLE, "braille key dropped: the loop does not read them");
	}
	pthread_mutex_unlock(&d->lock);
	poke(d->notify[1]);
}

static void navigate(struct braille_display *d, enum braille_panel_key key)
{
	pthread_mutex_lock(&d->lock);
	if (braille_panel_key(&d->panel, key))
		d->version++;
	pthread_mutex_unlock(&d->lock);
}

static void handle_key(struct braille_display *d, brlapi_keyCode_t code)
{
	if ((code & BRLAPI_KEY_TYPE_MASK) != BRLAPI_KEY_TYPE_CMD)
		return;
	brlapi_keyCode_t block = code & BRLAPI_KEY_CMD_BLK_MASK;
	unsigned arg = (unsigned)(code & BRLAPI_KEY_CMD_ARG_MASK);
	if (block == BRLAPI_KEY_CMD_ROUTE) {
		pthread_mutex_lock(&d->lock);
		enum braille_command cmd = braille_panel_route(&d->panel, (int)arg);
		pthread_mutex_unlock(&d->lock);
		if (cmd != BRAILLE_COMMAND_NONE)
			queue_command(d, cmd);
		return;
	}
	if (block != 0)
		return;
	switch (code & BRLAPI_KEY_CODE_MASK) {
	case BRLAPI_KEY_CMD_FWINLT:
	case BRLAPI_KEY_CMD_FWINLTSKIP:
		navigate(d, BRAILLE_KEY_PAN_LEFT);
		break;
	case BRLAPI_KEY_CMD_FWINRT:
	case BRLAPI_KEY_CMD_FWINRTSKIP:
		navigate(d, BRAILLE_KEY_PAN_RIGHT);
		break;
	case BRLAPI_KEY_CMD_LNUP:
		navigate(d, BRAILLE_KEY_LINE_UP);
		break;
	case BRLAPI_KEY_CMD_LNDN:
		navigate(d, BRAILLE_KEY_LINE_DOWN);
		break;
	case BRLAPI_KEY_CMD_TOP:
		navigate(d, BRAILLE_KEY_TOP);
		break;
	case BRLAPI_KEY_CMD_BOT:
		navigate(d, BRAILLE_KEY_BOTTOM);
		break;
	case BRLAPI_KEY_CMD_HOME:
	case BRLAPI_KEY_CMD_RETURN:
		navigate(d, BRAILLE_KEY_HOME);
		break;
	case BRLAPI_KEY_CMD_INFO:
	case BRLAPI_KEY_CMD_TIME:
		queue_command(d, BRAILLE_COMMAND_INFO);
		break;
	default:
		log_debug(LOG_BRAILLE, "braille key 0x%llx not used", (unsigned long long)code);
		break;
	}
}

static void read_keys(struct braille_display *d, struct connection *c)
{
	for (;;) {
		brlapi_keyCode_t code;
		int r = brlapi__readKeyWithTimeout(c->handle, 0, &code);
		if (r == 0)
			return;
		if (r < 0) {
			if (brlapi_errno == BRLAPI_ERROR_LIBCERR && brlapi_libcerrno == EINTR)
				continue;
			disconnect(d, c, brlapi_message());
			return;
		}
		handle_key(d, code);
	}
}

static bool stopping(struct braille_display *d)
{
	pthread_mutex_lock(&d->lock);
	bool stop = d->stop;
	pthread_mutex_unlock(&d->lock);
	return stop;
}

static void *display_thread(void *arg)
{
	struct braille_display *d = arg;
	/* A write to a BRLTTY that just died must not kill the daemon: SIGPIPE stays pending
	 * for this thread and the write fails with EPIPE. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

	struct connection c = {0};
	c.handle = malloc(brlapi_getHandleSize());
	if (!c.handle) {
		log_error(LOG_BRAILLE, "braille display: out of memory");
		return NULL;
	}
	int backoff = d->retry_min_ms;
	int64_t next_try = 0;
	while (!stopping(d)) {
		int64_t now = (int64_t)monotonic_ns();
		if (!c.open && now >= next_try) {
			if (try_connect(d, &c)) {
				backoff = d->retry_min_ms;
			} else {
				next_try = now + (int64_t)backoff * 1000000;
				backoff =
				    backoff * 2 > d->retry_max_ms ? d->retry_max_ms : backoff * 2;
			}
		}
		if (c.open)
			refresh(d, &c);

		struct pollfd fds[2] = {{d->wake[0], POLLIN, 0}, {-1, POLLIN, 0}};
		int timeout = -1;
		if (c.open) {
			fds[1].fd = brlapi__getFileDescriptor(c.handle);
		} else {
			int64_t wait = (next_try - (int64_t)monotonic_ns()) / 1000000;
			timeout = wait < 0 ? 0 : (int)wait + 1;
		}
		if (poll(fds, 2, timeout) < 0 && errno != EINTR) {
			log_error(LOG_BRAILLE, "braille display poll: %s", strerror(errno));
			break;
		}
		if (fds[0].revents)
			drain(d->wake[0]);
		if (c.open && fds[1].revents)
			read_keys(d, &c);
		/* Clear a SIGPIPE a failed write left pending. */
		struct timespec zero = {0, 0};
		while (sigtimedwait(&pipe_set, NULL, &zero) > 0)
			;
	}
	if (c.open) {
		brlapi__leaveTtyMode(c.handle);
		brlapi__closeConnection(c.handle);
	}
	free(c.dots);
	free(c.handle);
	return NULL;
}

/* ---------------------------------------------------------------- the loop's side */

struct braille_display *braille_display_open(const struct braille_display_config *config)
{
	struct braille_display *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->wake[0] = d->wake[1] = d->notify[0] = d->notify[1] = -1;
	int err = ENOMEM;
	if ((config->host && !(d->host = strdup(config->host))) ||
	    (config->auth && !(d->auth = strdup(config->auth))))
		goto fail;
	d->tty = config->tty;
	d->retry_min_ms = config->retry_min_ms > 0 ? config->retry_min_ms : 100;
	d->retry_max_ms = config->retry_max_ms > 0 ? config->retry_max_ms : 2000;
	if (d->retry_max_ms < d->retry_min_ms)
		d->retry_max_ms = d->retry_min_ms;
	braille_panel_init(&d->panel, config->notation, 40);
	d->panel.signs = config->signs;
	if (make_pipe(d->wake) < 0 || make_pipe(d->notify) < 0) {
		err = errno;
		goto fail;
	}
	pthread_mutex_init(&d->lock, NULL);
	err = pthread_create(&d->thread, NULL, display_thread, d);
	if (err) {
		pthread_mutex_destroy(&d->lock);
		goto fail;
	}
	return d;
fail:
	close_pipe(d->wake);
	close_pipe(d->notify);
	free(d->host);
	free(d->auth);
	free(d);
	errno = err;
	return NULL;
}

void braille_display_close(struct braille_display *d)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_mutex_unlock(&d->lock);
	poke(d->wake[1]);
	/* A BRLTTY that accepted the connection but never answers holds the thread inside
	 * libbrlapi; at exit it is cancelled there rather than waited for. */
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 2;
	if (pthread_timedjoin_np(d->thread, NULL, &deadline) != 0) {
		log_warn(LOG_BRAILLE, "braille display: BRLTTY does not answer; leaving it");
		pthread_cancel(d->thread);
		pthread_join(d->thread, NULL);
	}
	pthread_mutex_destroy(&d->lock);
	close_pipe(d->wake);
	close_pipe(d->notify);
	free(d->host);
	free(d->auth);
	free(d);
}

int braille_display_fd(const struct braille_display *d)
{
	return d->notify[0];
}

int braille_display_service(struct braille_display *d, enum braille_command *cmds, int max)
{
	drain(d->notify[0]);
	pthread_mutex_lock(&d->lock);
	int n = 0;
	while (n < max && d->queue_count > 0) {
		cmds[n++] = d->queue[d->queue_head];
		d->queue_head = (d->queue_head + 1) % COMMAND_QUEUE;
		d->queue_count--;
	}
	bool more = d->queue_count > 0;
	pthread_mutex_unlock(&d->lock);
	if (more)
		poke(d->notify[1]);
	return n;
}

/* Ends a change of the panel: a new version, and the thread is woken to write it. */
static uint64_t changed(struct braille_display *d)
{
	uint64_t version = ++d->version;
	pthread_mutex_unlock(&d->lock);
	poke(d->wake[1]);
	return version;
}

uint64_t braille_display_show_move(struct braille_display *d, int ply,
				   const struct chess_pos *before, chess_move m)
{
	char san[CHESS_SAN_MAX];
	if (!chess_pos_is_legal(before, m)) {
		log_error(LOG_BRAILLE, "braille display: move %d is not legal", ply);
		return 0;
	}
	chess_move_to_san(before, m, san, sizeof(san));
	pthread_mutex_lock(&d->lock);
	braille_panel_move_san(&d->panel, ply, san, before->fullmove_number,
			       (enum chess_color)before->side);
	return changed(d);
}

uint64_t braille_display_show_clock(struct braille_display *d, int64_t white_ms, int64_t black_ms)
{
	pthread_mutex_lock(&d->lock);
	braille_panel_clock(&d->panel, white_ms, black_ms);
	return changed(d);
}

uint64_t braille_display_set_scoresheet(struct braille_display *d,
					const struct scoresheet_san *sheet)
{
	pthread_mutex_lock(&d->lock);
	braille_panel_sheet(&d->panel, sheet);
	return changed(d);
}

uint64_t braille_display_show_pages(struct braille_display *d, const char *brf, int page,
				    int *shown, int *count)
{
	int n;

	pthread_mutex_lock(&d->lock);
	n = braille_panel_pages(&d->panel, brf, page, count);
	if (shown)
		*shown = n;
	return changed(d);
}

uint64_t braille_display_home(struct braille_display *d)
{
	pthread_mutex_lock(&d->lock);
	braille_panel_key(&d->panel, BRAILLE_KEY_HOME);
	return changed(d);
}

uint64_t braille_display_show_message(struct braille_display *d, const char *brf)
{
	pthread_mutex_lock(&d->lock);
	braille_panel_message(&d->panel, brf);
	return changed(d);
}

void braille_display_set_notation(struct braille_display *d, enum braille_notation notation)
{
	pthread_mutex_lock(&d->lock);
	d->panel.notation = notation;
	changed(d);
}

void braille_display_stats(struct braille_display *d, struct braille_display_stats *stats)
{
	pthread_mutex_lock(&d->lock);
	*stats = d->stats;
	pthread_mutex_unlock(&d->lock);
}
