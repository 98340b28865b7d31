// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collector/live/holders_exact.h"
#include "holders_exact.skel.h"

struct lrs_holders_exact {
	struct holders_exact_bpf *skel;
};

/* Does the kernel have this function (fentry needs its BTF)? */
static bool kernel_has_func(const struct btf *vmlinux, const char *name)
{
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

int lrs_holders_exact__prepare(struct lrs_holders_exact **out, char *why, size_t why_len)
{
	struct lrs_holders_exact *ex = calloc(1, sizeof(*ex));
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *prog;
	int ret, loadable = 0;

	/* a probe: where fentry cannot load, libbpf's complaints are expected noise */
	libbpf_print_fn_t old_print = libbpf_set_print(NULL);

	if (!ex) {
		ret = -ENOMEM;
		goto fail;
	}
	ex->skel = holders_exact_bpf__open();
	if (!ex->skel) {
		ret = -errno;
		snprintf(why, why_len, "cannot open the fentry object: %s", strerror(errno));
		goto fail;
	}
	bpf_object__for_each_program(prog, ex->skel->obj) {
		const char *sec = bpf_program__section_name(prog), *target = strchr(sec, '/');

		if (target && kernel_has_func(vmlinux, target + 1))
			loadable++;
		else
			bpf_program__set_autoload(prog, false);
	}
	if (!loadable) {
		ret = -ENOENT;
		snprintf(why, why_len, "no folio_lruvec_lock* in the kernel's BTF");
		goto fail;
	}
	ret = holders_exact_bpf__load(ex->skel);
	if (ret) {
		snprintf(why, why_len, "fentry does not load here (%s)", strerror(-ret));
		goto fail;
	}
	btf__free(vmlinux);
	libbpf_set_print(old_print);
	*out = ex;
	return 0;
fail:
	btf__free(vmlinux);
	libbpf_set_print(old_print);
	lrs_holders_exact__destroy(ex);
	return ret;
}

int lrs_holders_exact__start(struct lrs_holders_exact *ex, char *why, size_t why_len)
{
	int ret = holders_exact_bpf__attach(ex->skel);

	if (ret)
		snprintf(why, why_len, "fentry does not attach here (%s)", strerror(-ret));
	return ret;
}

int lrs_holders_exact__map_fd(const struct lrs_holders_exact *ex)
{
	return bpf_map__fd(ex->skel->maps.exact_last);
}

void lrs_holders_exact__counters(const struct lrs_holders_exact *ex, uint64_t *acquisitions,
				 uint64_t *drop_full)
{
	*acquisitions = ex ? ex->skel->bss->exact_acquisitions : 0;
	*drop_full = ex ? ex->skel->bss->exact_drop_full : 0;
}

const struct bpf_object *lrs_holders_exact__object(const struct lrs_holders_exact *ex)
{
	return ex && ex->skel ? ex->skel->obj : NULL;
}

void lrs_holders_exact__destroy(struct lrs_holders_exact *ex)
{
	if (!ex)
		return;
	holders_exact_bpf__destroy(ex->skel);
	free(ex);
}
