// SPDX-License-Identifier: GPL-2.0
/*
 * lrs-floor OBJ FUNC: load lrs-floor.bpf.o (OBJ) with its slow-path pair on the
 * kernel function FUNC ("-": the tracepoint pair only), attach it, and on
 * SIGINT or SIGTERM print, for tests/lab/lib/spin_bench.py:
 *   LRS floor prog NAME RUN_TIME_NS RUN_CNT    (kernel.bpf_stats_enabled must be on)
 *   LRS floor waits SOURCE WAITS WAIT_NS        (SOURCE: tracepoint or slowpath)
 * "LRS floor attached" once it runs. A bench helper, never shipped.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct slot {
	unsigned long long start, wait_ns, waits;
};

static void print_waits(struct bpf_object *obj)
{
	static const char *const sources[] = { "tracepoint", "slowpath" };
	int fd = bpf_object__find_map_fd_by_name(obj, "floor_slots");
	int cpus = libbpf_num_possible_cpus();
	struct slot per_cpu[cpus > 0 ? cpus : 1];

	for (unsigned int k = 0; k < 2 && fd >= 0 && cpus > 0; k++) {
		unsigned long long waits = 0, ns = 0;

		if (bpf_map_lookup_elem(fd, &k, per_cpu))
			continue;
		for (int c = 0; c < cpus; c++) {
			waits += per_cpu[c].waits;
			ns += per_cpu[c].wait_ns;
		}
		printf("LRS floor waits %s %llu %llu\n", sources[k], waits, ns);
	}
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: lrs-floor OBJ FUNC|-\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "lrs-floor: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (strncmp(bpf_program__name(prog), "floor_sp_", 9))
			continue;
		if (!strcmp(argv[2], "-"))
			bpf_program__set_autoload(prog, false);
		else
			bpf_program__set_attach_target(prog, 0, argv[2]);
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "lrs-floor: cannot load %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "lrs-floor: cannot attach %s: %s\n",
				bpf_program__name(prog), strerror(errno));
			return 1;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("LRS floor attached\n");
	fflush(stdout);
	while (!stop)
		pause();
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(prog) ||
		    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		printf("LRS floor prog %s %llu %llu\n", bpf_program__name(prog),
		       (unsigned long long)info.run_time_ns, (unsigned long long)info.run_cnt);
	}
	print_waits(obj);
	bpf_object__close(obj);
	return 0;
}
