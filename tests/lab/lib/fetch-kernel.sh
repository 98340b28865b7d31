#!/bin/bash
# Fetch Debian's cloud kernel and its debug vmlinux into the lab cache, once per version.
# Usage: fetch-kernel.sh CACHE_DIR   -> prints the directory holding vmlinuz, vmlinux,
#        qemu_fw_cfg.ko and VERSION on stdout. Progress goes to stderr.
# The ABI (6.1.0-NN) moves as the archive moves: resolve it through the meta packages.
set -euo pipefail
cache=${1:?usage: fetch-kernel.sh CACHE_DIR}
log() { echo "lab: $*" >&2; }

resolve() {  # meta package -> concrete package it depends on
	apt-cache depends "$1" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}'
}
img=$(resolve linux-image-cloud-amd64)
dbg=$(resolve linux-image-cloud-amd64-dbg)
if { [ -z "$img" ] || [ -z "$dbg" ]; } && [ "$(id -u)" = 0 ]; then
	# a machine whose package lists were never fetched (or were cleaned): fetch them once
	log "refreshing the package lists (apt-get update)"
	apt-get update -qq >&2 || true
	img=$(resolve linux-image-cloud-amd64)
	dbg=$(resolve linux-image-cloud-amd64-dbg)
fi
if [ -z "$img" ] || [ -z "$dbg" ]; then
	if [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock)" ]; then
		log "apt lists are empty: run apt-get update"
	fi
	log "cannot resolve linux-image-cloud-amd64 through apt-cache"; exit 2
fi
abi=${img#linux-image-}
ver=$(apt-cache show "$dbg" | awk '/^Version:/ {print $2; exit}')
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
apt-cache show "$pkg" >/dev/null 2>&1 || pkg="$img"
log "downloading $pkg (about 26 MB)"
apt-get download -qq "$pkg=$ver" >&2 || apt-get download -qq "$pkg" >&2
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
apt-get download -qq "$dbg=$ver" >&2 || apt-get download -qq "$dbg" >&2
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
