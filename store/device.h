/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device's serial: which board recorded a game (the journal's device note, the
 * finished game's `DeviceSerial` tag, `annabella verify`).  On a Raspberry Pi the SoC's
 * serial number (the device tree's serial-number, as /proc/cpuinfo's Serial shows it);
 * elsewhere an id of annabella's own derived from /etc/machine-id, prefixed "machine-app:".
 * machine-id(5) asks that the machine id itself never be published: the id here is its
 * application-specific form (HMAC-SHA256 keyed by the machine id over annabella's
 * application id, made a version 4 UUID), as sd_id128_get_machine_app_specific() and
 * `systemd-id128 machine-id --app-specific=DEVICE_APP_ID` make it: the same on the same
 * machine, and no way back to the machine id.
 */
#ifndef ANNABELLA_DEVICE_H
#define ANNABELLA_DEVICE_H

#include <stddef.h>

#define DEVICE_APP_ID "af5ae885521a45248f8c736024d2fea8"

/* The serial into buf (letters, digits, ':' and '-' only); "unknown" when none is found. */
void device_serial(char *buf, size_t size);

#endif
