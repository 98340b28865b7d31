# Sourced by the lab guests' PID 1 scripts (busybox sh): the first steps every guest takes.

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

# lrs_attached PID: wait (up to 10 minutes) until lruscope PID holds BPF links and no new one
# came for 5 s: every hook is in (loading and verifying takes minutes under TCG), and its
# first snapshot, where a report's window starts, follows at once. 1 if it ended first.
lrs_attached() {
	local last=0 same=0 now i
	for i in $(seq 1 1200); do
		kill -0 "$1" 2>/dev/null || return 1
		now=$(ls -l /proc/"$1"/fd 2>/dev/null | grep -c bpf_link)
		if [ "$now" -gt 0 ] && [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ "$same" -ge 10 ] && return 0
		else
			same=0
		fi
		last=$now
		sleep 0.5
	done
	return 1
}
