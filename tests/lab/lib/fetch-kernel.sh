#!/bin/bash
# Fetch Debian's cloud kernel and its debug vmlinux into the lab cache, once per version.
# Usage: fetch-kernel.sh CACHE_DIR [5.10]   -> prints the directory holding vmlinuz, vmlinux,
#        qemu_fw_cfg.ko and VERSION on stdout. Progress goes to stderr.
# Default: this machine's own suite (6.1 on bookworm). 5.10: bullseye's kernel (one lru_lock
# per node, before the per-memcg lru_lock), through a private apt configuration under
# CACHE_DIR/apt-bullseye: the machine's sources stay as they are.
# The ABI (6.1.0-NN) moves as the archive moves: resolve it through the meta packages.
set -euo pipefail
cache=${1:?usage: fetch-kernel.sh CACHE_DIR [5.10]}
release=${2:-}
log() { echo "lab: $*" >&2; }
apt_get=(apt-get)
apt_cache=(apt-cache)

# The archive URI of the machine's own Debian source (deb822 URIs: field, not -security).
debian_uri() {
	awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) if ($i !~ /-security/) { print $i; exit } }' \
		/etc/apt/sources.list.d/debian.sources 2>/dev/null
}

# apt-get/apt-cache on bullseye alone, with lists and caches of their own under CACHE_DIR.
use_bullseye() {
	local d="$cache/apt-bullseye" uri
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	if [ ! -s "$d/sources.list" ]; then
		uri=$(debian_uri)
		[ -n "$uri" ] || { log "no URIs: in /etc/apt/sources.list.d/debian.sources"; exit 2; }
		echo "deb $uri bullseye main" > "$d/sources.list"
	fi
	local opts=(-o Dir::Etc::sourcelist="$d/sources.list" -o Dir::Etc::sourceparts=/dev/null
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache")
	apt_get=(apt-get "${opts[@]}")
	apt_cache=(apt-cache "${opts[@]}")
}

case "$release" in
"") ;;
5.10) use_bullseye ;;
*) log "unknown kernel release '$release' (known: 5.10; none for this machine's own)"; exit 2 ;;
esac

resolve() {  # meta package -> concrete package it depends on ("" when apt knows neither)
	{ "${apt_cache[@]}" depends "$1" 2>/dev/null || true; } |
		awk '/Depends: linux-image-/ {print $2; exit}'
}
img=$(resolve linux-image-cloud-amd64)
dbg=$(resolve linux-image-cloud-amd64-dbg)
if { [ -z "$img" ] || [ -z "$dbg" ]; } && [ "$(id -u)" = 0 ]; then
	# a machine whose package lists were never fetched (or were cleaned): fetch them once
	log "refreshing the package lists (apt-get update${release:+, bullseye, private lists})"
	"${apt_get[@]}" update -qq >&2 || true
	img=$(resolve linux-image-cloud-amd64)
	dbg=$(resolve linux-image-cloud-amd64-dbg)
fi
if [ -z "$img" ] || [ -z "$dbg" ]; then
	if [ -z "$release" ] && [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock)" ]; then
		log "apt lists are empty: run apt-get update"
	fi
	log "cannot resolve linux-image-cloud-amd64 through apt-cache${release:+ ($release: as root, the private lists are fetched)}"; exit 2
fi
abi=${img#linux-image-}
ver=$("${apt_cache[@]}" show "$dbg" | awk '/^Version:/ {print $2; exit}')
dir="$cache/kernel/$abi-$ver"
if [ -s "$dir/vmlinux" ] && [ -s "$dir/vmlinuz" ] && [ -s "$dir/qemu_fw_cfg.ko" ]; then
	echo "$dir"; exit 0
fi
mkdir -p "$dir"
tmp=$(mktemp -d "$cache/kernel/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# The signed image package carries no modules of its own in some releases; the -unsigned one
# holds vmlinuz and the modules (qemu_fw_cfg.ko) together.
pkg="$img-unsigned"
"${apt_cache[@]}" show "$pkg" >/dev/null 2>&1 || pkg="$img"
log "downloading $pkg (21 to 26 MB)"
"${apt_get[@]}" download -qq "$pkg=$ver" >&2 || "${apt_get[@]}" download -qq "$pkg" >&2
dpkg-deb -x ./"$pkg"_*.deb x
cp x/boot/vmlinuz-"$abi" vmlinuz
fw=$(find x/lib/modules -name 'qemu_fw_cfg.ko*' | head -n1)
case "$fw" in
*.xz) xz -dc "$fw" > qemu_fw_cfg.ko ;;
*.zst) zstd -dc "$fw" > qemu_fw_cfg.ko ;;
*) cp "$fw" qemu_fw_cfg.ko ;;
esac
rm -rf x ./"$pkg"_*.deb
log "downloading $dbg (about 280 MB, a few minutes on a cold cache)"
"${apt_get[@]}" download -qq "$dbg=$ver" >&2 || "${apt_get[@]}" download -qq "$dbg" >&2
log "extracting vmlinux-$abi"
dpkg-deb --fsys-tarfile ./"$dbg"_*.deb | tar -x "./usr/lib/debug/boot/vmlinux-$abi"
rm -f ./"$dbg"_*.deb
# Relocations are of no use to drgn and double the size.
objcopy -R '.rela.*' "usr/lib/debug/boot/vmlinux-$abi" vmlinux
rm -rf usr
echo "$abi $ver" > VERSION
mv vmlinuz qemu_fw_cfg.ko VERSION "$dir"/
mv vmlinux "$dir"/vmlinux
log "kernel $abi ($ver) cached in $dir"
echo "$dir"
