#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet.
# Quick when everything is there; works as root or through sudo.
set -euo pipefail
missing=()
for p in "$@"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { $sudo apt-get -o DPkg::Lock::Timeout=900 update -qq && $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	cat "$log" >&2
	echo "deps: apt-get failed" >&2
	exit 1
fi
rm -f "$log"
echo "deps: installed"
