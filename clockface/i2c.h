/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An I2C device through the kernel's i2c-dev interface (/dev/i2c-N).  Every write is an SMBus
 * write (the ioctl I2C_SMBUS): a message of one byte as "send byte", a longer one as an "I2C
 * block" write of its first byte and up to 32 more.  On the bus that is the same as a plain
 * write() of those bytes, and adapters that only speak SMBus (the kernel's i2c-stub, which
 * the VM test uses, and some SoC controllers) take it too.
 */
#ifndef ANNABELLA_CLOCKFACE_I2C_H
#define ANNABELLA_CLOCKFACE_I2C_H

#include <stddef.h>

#include "clockface/face.h"

/* The file descriptor, or -1 with errno and a message ("BUS: ...") in err. */
int face_i2c_open(const char *bus, int address, char *err, size_t err_size);
/* Send the messages in order, each followed by its wait.  0, or -1 with errno (the index of
 * the failed message in *failed). */
int face_i2c_send(int fd, const struct face_out *out, int *failed);
void face_i2c_close(int fd);

#endif
