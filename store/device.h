/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device's serial: which board recorded a game (the journal's device note, the
 * finished game's `DeviceSerial` tag, `annabella verify`).  On a Raspberry Pi the SoC's
 * serial number (the device tree's serial-number, as /proc/cpuinfo's Serial shows it);
 * elsewhere the machine's /etc/machine-id, prefixed "machine-id:".
 */
#ifndef ANNABELLA_DEVICE_H
#define ANNABELLA_DEVICE_H

#include <stddef.h>

/* The serial into buf (letters, digits, ':' and '-' only); "unknown" when none is found. */
void device_serial(char *buf, size_t size);

#endif
