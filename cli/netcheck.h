/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What an arbiter checks before a round (11.3.2; README "Security model"): network interfaces other
 * than loopback that are up, and radios (Wi-Fi, Bluetooth) that rfkill leaves unblocked.  Read from
 * /sys; the CLI prints it with `annabella status`.
 */
#ifndef ANNABELLA_NETCHECK_H
#define ANNABELLA_NETCHECK_H

#include <stdio.h>

/* Lines "Network: ..." and "Radios: ..." for a person. */
void netcheck_print(FILE *out);

#endif
