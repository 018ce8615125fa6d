/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's audio record as the voice thread writes it (voice/record.h; docs/state.md
 * "State directory"): switched by the queue's record commands (voice_record_to()), and one
 * that could not be opened or written, or was removed or replaced, opened again at the next
 * public utterance.
 */
#include "voice/voice_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileplace.h"
#include "base/log.h"

/* The record's file as opened (its device and inode), to see later whether it is still the
 * one at its path. */
static void record_found(struct voice *v)
{
	struct stat st;

	v->record_known = v->record_path[0] && stat(v->record_path, &st) == 0;
	if (v->record_known) {
		v->record_dev = st.st_dev;
		v->record_ino = st.st_ino;
	}
}

void voice_record_switch(struct voice *v, int fd, const char *path, bool opus)
{
	audio_record_close(&v->record);
	snprintf(v->record_path, sizeof(v->record_path), "%s", path);
	v->record_known = false;
	if (fd < 0)
		return;
	if (audio_record_open_fd(&v->record, fd, opus ? ".opus" : ".wav",
				 (unsigned)v->sample_rate) != 0)
		log_warn(LOG_VOICE, "record: cannot write: %s", strerror(errno));
	else
		record_found(v);
}

/* Whether the record takes what is said now.  One that could not be opened (read-only
 * storage at the game's start) or whose write failed (a full card) is tried again here, at
 * each public utterance, so the record goes on once storage works again (what was said
 * meanwhile is not in it). */
bool voice_record_ready(struct voice *v)
{
	/* Its file gone with the state directory, or another in its place (the storage
	 * mounted again): opened again there (what it held before is not in the new one). */
	if (audio_record_is_open(&v->record) && v->record_path[0] && v->record_known &&
	    !file_id_in_place(v->record_dev, v->record_ino, v->record_path)) {
		log_warn(LOG_VOICE, "record %s was removed or replaced: opened again",
			 v->record_path);
		audio_record_close(&v->record);
	}
	if (audio_record_is_open(&v->record) && !audio_record_failed(&v->record))
		return true;
	if (!v->record_path[0])
		return false; /* no record, or none to try again */
	if (!audio_record_is_open(&v->record)) {
		/* games/ made again: it could not be made at a read-only start, or went. */
		if (audio_record_open(&v->record, v->record_path, (unsigned)v->sample_rate) != 0 &&
		    (errno != ENOENT || file_make_dir(v->record_path) ||
		     audio_record_open(&v->record, v->record_path, (unsigned)v->sample_rate) != 0))
			return false;
		record_found(v);
		log_info(LOG_VOICE, "record %s: opened", v->record_path);
		return true;
	}
	if (audio_record_failed(&v->record)) {
		if (audio_record_resume(&v->record) != 0)
			return false;
		log_info(LOG_VOICE, "record %s: written again", v->record_path);
	}
	return true;
}
