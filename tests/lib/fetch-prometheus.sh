#!/bin/bash
# Debian's Prometheus (prometheus and promtool) for the exporter's tests and bench,
# unpacked from its package into the cache, once per version: installing the
# package would also enable and start a Prometheus service on the machine.
# Usage: fetch-prometheus.sh CACHE_DIR  -> prints the directory holding both
# binaries on stdout (/usr/bin when the package is installed). Progress on stderr.
set -euo pipefail
cache=${1:?usage: fetch-prometheus.sh CACHE_DIR}
log() { echo "prometheus: $*" >&2; }

if [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ]; then
	echo /usr/bin; exit 0
fi
candidate() { apt-cache show prometheus 2>/dev/null | awk '/^Version:/ {print $2; exit}'; }
ver=$(candidate) || ver=""
if [ -z "$ver" ]; then
	# apt busy or its lists gone: a version unpacked before will do
	for d in "$cache"/prometheus/*/; do
		[ -x "$d/prometheus" ] && [ -x "$d/promtool" ] && { echo "${d%/}"; exit 0; }
	done
fi
if [ -z "$ver" ] && [ "$(id -u)" = 0 ]; then
	log "refreshing the package lists (apt-get update)"
	apt-get update -qq >&2 || true
	ver=$(candidate) || ver=""
fi
[ -n "$ver" ] || { log "apt-cache knows no 'prometheus' package: run apt-get update"; exit 2; }
dir="$cache/prometheus/$ver"
if [ -x "$dir/prometheus" ] && [ -x "$dir/promtool" ]; then
	echo "$dir"; exit 0
fi
mkdir -p "$cache/prometheus"
tmp=$(mktemp -d "$cache/prometheus/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
log "downloading prometheus $ver (about 25 MB, once)"
apt-get download -qq "prometheus=$ver" >&2
dpkg-deb --fsys-tarfile ./prometheus_*.deb | tar -x ./usr/bin/prometheus ./usr/bin/promtool
mkdir -p "$dir"
mv usr/bin/prometheus usr/bin/promtool "$dir/"
echo "$dir"
