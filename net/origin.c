/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/origin.h"

#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

bool origin_host_ok(const char *host, const char *self, const char *hosts)
{
	char n[256];
	struct in_addr a;
	const char *end = host[0] == '[' ? strchr(host, ']') : strrchr(host, ':');
	size_t len = host[0] == '[' ? (end ? (size_t)(end - host) + 1 : 0)
		     : end	    ? (size_t)(end - host)
				    : strlen(host);
	size_t own = strlen(self);

	if (!len || len >= sizeof(n))
		return false;
	memcpy(n, host, len);
	n[len] = '\0';
	if (n[0] == '[') {
		struct in6_addr a6;

		n[len - 1] = '\0';
		return inet_pton(AF_INET6, n + 1, &a6) == 1;
	}
	if (inet_pton(AF_INET, n, &a) == 1 || !strcasecmp(n, "localhost"))
		return true;
	if (own && !strncasecmp(n, self, own) && (!n[own] || !strcasecmp(n + own, ".local")))
		return true;
	for (const char *p = hosts; *p;) {
		size_t k;

		p += strspn(p, " \t,");
		k = strcspn(p, " \t,");
		if (k && k == len && !strncasecmp(p, n, k))
			return true;
		p += k;
	}
	return false;
}

bool origin_same(bool tls, const char *host, const char *origin, const char *site)
{
	const char *scheme = tls ? "https://" : "http://";
	size_t sl = strlen(scheme);

	if (site && strcmp(site, "same-origin") && strcmp(site, "none"))
		return false;
	if (!origin)
		return true;
	return host && !strncasecmp(origin, scheme, sl) && !strcasecmp(origin + sl, host);
}
