/*
 * lrs-fillmaps NAME...: fill every BPF hash map called NAME (a running lruscope's counter
 * tables) with distinct keys until the kernel refuses one, so that a lab guest can read the
 * kernel memory of the worst case (every map full) from /proc/meminfo. Prints one line a map:
 *   LRS filled NAME ID PRESENT INSERTED MAX_ENTRIES VALUE_SIZE PERCPU ERRNO
 * (PRESENT: the entries the tool had made itself, counted before filling).
 * Raw bpf(2) calls, no libbpf: built with gcc -static and packed into the guest's initramfs
 * (tests/lab/lib/kmem_bench.py). A bench helper, never shipped.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* CPUs a per-CPU value has a copy for: the kernel's possible mask, "0-103" or "0". */
static int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo = 0, hi = 0, n = 0;

	if (!f)
		return 1;
	while (fscanf(f, "%d", &lo) == 1) {
		hi = lo;
		if (fgetc(f) == '-' && fscanf(f, "%d", &hi) != 1)
			break;
		n += hi - lo + 1;
		if (fgetc(f) != ',')
			break;
	}
	fclose(f);
	return n > 0 ? n : 1;
}

static int wanted(const char *name, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(name, argv[i]))
			return 1;
	return 0;
}

/* entries in the map now, by walking its keys */
static unsigned long count_keys(int fd, unsigned int key_size)
{
	unsigned char *cur = calloc(2, key_size), *next = cur + key_size;
	unsigned long n = 0;
	union bpf_attr a;

	if (!cur)
		return 0;
	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = 0; /* NULL: the first key */
	a.next_key = (uintptr_t)next;
	while (!sys_bpf(BPF_MAP_GET_NEXT_KEY, &a)) {
		n++;
		memcpy(cur, next, key_size);
		a.key = (uintptr_t)cur;
	}
	free(cur);
	return n;
}

static void fill(int fd, const struct bpf_map_info *info, int ncpu)
{
	int percpu = info->type == BPF_MAP_TYPE_PERCPU_HASH ||
		     info->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	size_t vsize = percpu ? ((info->value_size + 7) & ~7u) * (size_t)ncpu : info->value_size;
	unsigned char *key = calloc(1, info->key_size + 8);
	unsigned char *val = calloc(1, vsize);
	unsigned long present = count_keys(fd, info->key_size), inserted = 0;
	int err = 0, nomem = 0;

	if (!key || !val) {
		fprintf(stderr, "lrs-fillmaps: out of memory for map %s\n", info->name);
		exit(1);
	}
	/* keys from the top of the key space: never a real lock address, waiter or stack */
	for (uint64_t i = 0; present + inserted < info->max_entries; i++) {
		union bpf_attr a;
		uint64_t k = ~i;

		memset(key, 0xa5, info->key_size);
		memcpy(key, &k, info->key_size < 8 ? info->key_size : 8);
		memset(&a, 0, sizeof(a));
		a.map_fd = fd;
		a.key = (uintptr_t)key;
		a.value = (uintptr_t)val;
		a.flags = BPF_NOEXIST;
		if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a)) {
			if (errno == EEXIST)
				continue;
			/*
			 * ENOMEM: the map's element cache (refilled from irq_work on 6.1)
			 * ran dry under back-to-back inserts; give it a moment, for a while
			 */
			if (errno == ENOMEM && ++nomem < 1000) {
				usleep(1000);
				i--;
				continue;
			}
			err = errno;
			break;
		}
		nomem = 0;
		inserted++;
	}
	printf("LRS filled %s %u %lu %lu %u %u %d %d\n", info->name, info->id, present, inserted,
	       info->max_entries, info->value_size, percpu, err);
	free(key);
	free(val);
}

int main(int argc, char **argv)
{
	union bpf_attr a;
	uint32_t id = 0;
	int ncpu = possible_cpus(), found = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: lrs-fillmaps MAP_NAME...\n");
		return 2;
	}
	for (;;) {
		struct bpf_map_info info;
		int fd;

		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_MAP_GET_NEXT_ID, &a))
			break; /* ENOENT: no more maps */
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.map_id = id;
		fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = fd;
		a.info.info_len = sizeof(info);
		a.info.info = (uintptr_t)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) && wanted(info.name, argc, argv) &&
		    (info.type == BPF_MAP_TYPE_HASH || info.type == BPF_MAP_TYPE_PERCPU_HASH)) {
			fill(fd, &info, ncpu);
			found++;
		}
		close(fd);
	}
	if (!found)
		fprintf(stderr, "lrs-fillmaps: no hash map of those names is loaded\n");
	return found ? 0 : 1;
}
