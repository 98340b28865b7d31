#!/bin/busybox sh
# PID 1 of the live guest (tests/lab/lib/live_guest.py): the host's own programs on a root
# image (NVMe serial lrsroot, opened with snapshot=on), the repository at the host's path
# (lrsrepo), a scratch disk for /tmp and /var/tmp (lrswork), which also holds the run
# script the host wrote (/tmp/live/run.sh), and the kernel's vmlinux (lrsdebug) for drgn.
# Mounts what a host has (proc, sys, dev, devpts, cgroup v2 with the memory and cpu
# controllers) and runs the script chrooted; its lines reach the host on the console.
. /guest-lib.sh
lrs_guest_boot
echo "LRS kernel $(uname -r)"
# the NVMe namespace whose controller has serial $1
disk() {
	for c in /sys/class/nvme/nvme*; do
		[ "$(tr -d ' ' <"$c/serial")" = "$1" ] && { echo "/dev/${c##*/}n1"; return; }
	done
}
R=/newroot
mkdir -p $R
mount -t ext4 "$(disk lrsroot)" $R || echo "LRS warn mount root image failed"
mount -t ext4 "$(disk lrswork)" $R/tmp || echo "LRS warn mount work disk failed"
chmod 1777 $R/tmp
mkdir -p $R/tmp/.var-tmp && chmod 1777 $R/tmp/.var-tmp
mount -o bind $R/tmp/.var-tmp $R/var/tmp
repo=$(cat $R/tmp/live/root)
mkdir -p "$R$repo"
mount -t ext4 "$(disk lrsrepo)" "$R$repo" || echo "LRS warn mount repository disk failed"
# the kernel's vmlinux (lrsdebug, where given) where drgn looks for a live kernel's debug info
dbg=$(disk lrsdebug)
if [ -n "$dbg" ]; then
	mkdir -p $R/usr/lib/debug/boot
	mount -t ext4 -o ro "$dbg" $R/usr/lib/debug/boot || echo "LRS warn mount debug disk failed"
fi
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts -o ptmxmode=0666,newinstance devpts $R/dev/pts
ln -sf pts/ptmx $R/dev/ptmx 2>/dev/null
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs tmpfs $R/run
mount -t cgroup2 none $R/sys/fs/cgroup
echo "+memory +cpu" > $R/sys/fs/cgroup/cgroup.subtree_control || echo "LRS warn cgroup controllers"
mount -t bpf bpf $R/sys/fs/bpf 2>/dev/null
hostname lrs-lab
ip link set lo up || echo "LRS warn loopback"	# servers the tests start listen on 127.0.0.1
echo LRS-LIVE-READY
chroot $R /bin/bash /tmp/live/run.sh
echo "LRS run_rc $?"
sync
umount $R/tmp 2>/dev/null
echo LRS-LIVE-DONE
poweroff -f
