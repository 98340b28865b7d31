# Sourced by the lab guests' PID 1 scripts (busybox sh): the first steps every guest takes.
. /ready.sh	# lrs_ready, shared with the host's tests

# /proc, /sys, /dev and busybox's applets; the kernel's text address.
lrs_guest_boot() {
	/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt /usr/bin /sbin /usr/sbin
	/bin/busybox --install -s
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	# where the kernel's text runs (KASLR): the host names a hung guest's vCPUs by it
	echo "LRS ktext $(grep -m1 ' _text$' /proc/kallsyms | cut -d' ' -f1)"
}

# The value of kernel command line word $1=VALUE, or $2 if there is none.
lrs_guest_arg() {
	for w in $(cat /proc/cmdline); do
		case "$w" in "$1"=*) echo "${w#*=}"; return ;; esac
	done
	echo "$2"
}

# The memory controller on cgroup v2 (v2) or on a v1 hierarchy of its own (v1); sets R to
# its mount point and prints "LRS mode v1|v2".
lrs_guest_cgroups() {
	if [ "$1" = v1 ]; then
		mount -t tmpfs cgroup /sys/fs/cgroup
		mkdir -p /sys/fs/cgroup/memory
		mount -t cgroup -o memory memory /sys/fs/cgroup/memory
		R=/sys/fs/cgroup/memory
	else
		mount -t cgroup2 none /sys/fs/cgroup
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control
		R=/sys/fs/cgroup
	fi
	echo "LRS mode $1"
}

# The ext4 data disk at /mnt, where lruscope writes its files and the host reads them back.
lrs_guest_data_disk() {
	mount -t ext4 /dev/nvme0n1 /mnt || echo "LRS warn mount data disk failed"
	export LRS_WORKDIR=/mnt HOME=/tmp
}
