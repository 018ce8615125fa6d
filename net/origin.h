/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's own origin (README "Security model"): which Host names it answers to, and
 * whether a request that changes something comes from the page itself.  Against DNS rebinding
 * (another site's name made to point at the device: its pages would read the device as their
 * own) and against requests made by another site's page in the arbiter's browser.  Pure: the
 * headers as given, NULL when absent.
 */
#ifndef ANNABELLA_ORIGIN_H
#define ANNABELLA_ORIGIN_H

#include <stdbool.h>

/* Whether a Host header (with or without its port) names the page: an IP address (a name a
 * rebinding cannot give), localhost, self (this machine's host name) or self.local, or one of
 * hosts (names separated by spaces or commas); compared without case. */
bool origin_host_ok(const char *host, const char *self, const char *hosts);
/* Whether a request with this Origin and Sec-Fetch-Site comes from the page at scheme://host
 * (tls: https): neither header, or an Origin that is exactly the page's and a Sec-Fetch-Site
 * of same-origin or none.  "null" and every other origin are another's. */
bool origin_same(bool tls, const char *host, const char *origin, const char *site);

#endif
