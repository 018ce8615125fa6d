/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock display's bus: i2c-dev, SMBus writes. */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "clockface/i2c.h"

int face_i2c_open(const char *bus, int address, char *err, size_t err_size)
{
	unsigned long funcs = 0;
	int fd = open(bus, O_RDWR | O_CLOEXEC);
	int e;

	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", bus, strerror(errno));
		return -1;
	}
	if (ioctl(fd, I2C_FUNCS, &funcs) < 0) {
		e = errno;
		snprintf(err, err_size, "%s: not an I2C bus: %s", bus, strerror(e));
		goto fail;
	}
	if (!(funcs & I2C_FUNC_SMBUS_WRITE_BYTE) || !(funcs & I2C_FUNC_SMBUS_WRITE_I2C_BLOCK)) {
		e = EOPNOTSUPP;
		snprintf(err, err_size, "%s: the adapter cannot write SMBus bytes and I2C blocks",
			 bus);
		goto fail;
	}
	if (ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0) {
		e = errno;
		snprintf(err, err_size, "%s: address 0x%02x: %s", bus, address, strerror(e));
		goto fail;
	}
	return fd;

fail:
	close(fd);
	errno = e;
	return -1;
}

static int send_one(int fd, const struct face_msg *m)
{
	union i2c_smbus_data data;
	struct i2c_smbus_ioctl_data args = {
	    .read_write = I2C_SMBUS_WRITE,
	    .command = m->b[0],
	    .size = I2C_SMBUS_BYTE,
	    .data = NULL,
	};

	if (m->len == 0)
		return 0;
	if (m->len > 1) {
		data.block[0] = (uint8_t)(m->len - 1);
		memcpy(data.block + 1, m->b + 1, m->len - 1u);
		args.size = I2C_SMBUS_I2C_BLOCK_DATA;
		args.data = &data;
	}
	return ioctl(fd, I2C_SMBUS, &args) < 0 ? -1 : 0;
}

int face_i2c_send(int fd, const struct face_out *out, int *failed)
{
	for (int i = 0; i < out->n; i++) {
		const struct face_msg *m = &out->msg[i];

		if (send_one(fd, m)) {
			if (failed)
				*failed = i;
			return -1;
		}
		if (m->wait_us) {
			struct timespec ts = {0, (long)m->wait_us * 1000};

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
	}
	return 0;
}

void face_i2c_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
