/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The first line of a small file, as the kernel's files in /sys and /proc give one value
 * each (a battery's capacity, a radio's state, a process's name).
 */
#ifndef ANNABELLA_FIRSTLINE_H
#define ANNABELLA_FIRSTLINE_H

#include <stddef.h>

/* The first line of the file at path into buf (cut at size - 1 bytes), without its newline:
 * 0, or -1 when it cannot be opened or is empty. */
int file_first_line(const char *path, char *buf, size_t size);

#endif
