// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "collector/live/spin_choice.h"

int lrs_spin_request__parse(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "auto"))
		return LRS_SPIN_ASK_AUTO;
	if (!strcmp(s, "tracepoint"))
		return LRS_SPIN_ASK_TRACEPOINT;
	if (!strcmp(s, "slowpath"))
		return LRS_SPIN_ASK_SLOWPATH;
	return -1;
}

const char *lrs_spinlock_kind__str(enum lrs_spinlock_kind kind)
{
	switch (kind) {
	case LRS_SPINLOCKS_NATIVE:
		return "native queued spinlocks";
	case LRS_SPINLOCKS_PARAVIRT:
		return "paravirt spinlocks";
	case LRS_SPINLOCKS_TAS:
		return "test-and-set spinlocks";
	default:
		return "spinlock kind unknown";
	}
}

/* The kernel log's paravirt-spinlock line ("kvm-guest: PV spinlocks enabled"), copied to buf. */
static const char *pv_log_line(const char *klog, char *buf, size_t len)
{
	const char *hit = klog ? strstr(klog, "PV spinlocks ") : NULL;
	const char *start, *end;

	if (!hit)
		return NULL;
	for (start = hit; start > klog && start[-1] != '\n'; start--)
		;
	/* a syslog prefix ("<6>[    0.09] "): keep what follows the timestamp */
	const char *ts = memchr(start, ']', (size_t)(hit - start));

	if (ts)
		start = ts + 1;
	while (*start == ' ')
		start++;
	end = strchr(hit, '\n');
	snprintf(buf, len, "%.*s", (int)(end ? end - start : (long)strlen(start)), start);
	return buf;
}

void lrs_spin__judge_kind(const struct lrs_spin_evidence *e, struct lrs_spin_facts *f)
{
	char line[120];
	const char *log = pv_log_line(e->klog, line, sizeof(line));

	if (e->key_on == 1) {
		f->kind = LRS_SPINLOCKS_TAS;
		snprintf(f->kind_why, sizeof(f->kind_why), "sure: virt_spin_lock_key is on");
	} else if (e->key_on == 0 && e->pv_slowpath >= 0) {
		f->kind = e->pv_slowpath ? LRS_SPINLOCKS_PARAVIRT : LRS_SPINLOCKS_NATIVE;
		snprintf(f->kind_why, sizeof(f->kind_why),
			 "sure: virt_spin_lock_key is off, pv_ops %s",
			 e->pv_slowpath ? "takes the paravirt slow path" :
					  "takes the native slow path");
	} else if (e->hypervisor == 0) {
		/* native_pv_lock_init() turns the key off on bare metal, and no paravirt is set up */
		f->kind = LRS_SPINLOCKS_NATIVE;
		snprintf(f->kind_why, sizeof(f->kind_why), "sure: no hypervisor CPU flag");
	} else if (log && strstr(log, "PV spinlocks enabled")) {
		f->kind = LRS_SPINLOCKS_PARAVIRT;
		snprintf(f->kind_why, sizeof(f->kind_why), "kernel log: \"%s\"", log);
	} else if (log && strstr(log, "no host support")) {
		/* kvm_spinlock_init() returns early, leaving virt_spin_lock_key on */
		f->kind = LRS_SPINLOCKS_TAS;
		snprintf(f->kind_why, sizeof(f->kind_why), "kernel log: \"%s\"", log);
	} else if (log && strstr(log, "PV spinlocks disabled")) {
		/* the other reasons (dedicated CPUs, one CPU, nopvspin) turn the key off */
		f->kind = LRS_SPINLOCKS_NATIVE;
		snprintf(f->kind_why, sizeof(f->kind_why), "kernel log: \"%s\"", log);
	} else if (e->hypervisor == 1 && e->klog) {
		f->kind = LRS_SPINLOCKS_TAS;
		snprintf(f->kind_why, sizeof(f->kind_why),
			 "probably: a hypervisor and no paravirt spinlocks in the kernel log");
	} else {
		f->kind = LRS_SPINLOCKS_UNSURE;
		snprintf(f->kind_why, sizeof(f->kind_why), "%s",
			 e->hypervisor == 1 ? "a hypervisor, and the kernel log is unreadable" :
					      "the CPU flags are unreadable");
	}
}

bool lrs_spin__want_slowpath(enum lrs_spin_request req, const struct lrs_spin_facts *f)
{
	if (req == LRS_SPIN_ASK_SLOWPATH)
		return true;
	if (req == LRS_SPIN_ASK_TRACEPOINT)
		return false;
	/* the tracepoint sees every waiter there, at less cost */
	return !(f->kind == LRS_SPINLOCKS_PARAVIRT && f->tracepoint);
}

/* What the tracepoint misses on this kind of spinlock; NULL: nothing. */
static const char *tracepoint_gap(enum lrs_spinlock_kind kind)
{
	switch (kind) {
	case LRS_SPINLOCKS_PARAVIRT:
		return NULL;
	case LRS_SPINLOCKS_NATIVE:
		return "the tracepoint misses each lock's first waiter";
	case LRS_SPINLOCKS_TAS:
		return "the tracepoint sees no spinlock wait";
	default:
		return "the tracepoint may miss first waiters";
	}
}

static void set(struct lrs_spin_source *out, enum lrs_spin_name name, bool first_waiter,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct lrs_spin_source *out, enum lrs_spin_name name, bool first_waiter,
		const char *fmt, ...)
{
	va_list ap;

	out->name = name;
	out->first_waiter = first_waiter;
	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
}

int lrs_spin__choose(enum lrs_spin_request req, const struct lrs_spin_facts *f,
		     struct lrs_spin_source *out, char *err, size_t err_len)
{
	const char *kind = lrs_spinlock_kind__str(f->kind), *gap = tracepoint_gap(f->kind);

	memset(out, 0, sizeof(*out));
	if (req == LRS_SPIN_ASK_SLOWPATH) {
		if (!f->slowpath) {
			snprintf(err, err_len,
				 "lruscope: --spin-source slowpath: the slowpath hooks cannot load "
				 "here: %s",
				 f->slowpath_why);
			return -ENOTSUP;
		}
		set(out, LRS_SPIN_SLOWPATH, true, "asked for; %s (%s)", kind, f->kind_why);
		return 0;
	}
	if (req == LRS_SPIN_ASK_TRACEPOINT) {
		if (!f->tracepoint) {
			snprintf(err, err_len,
				 "lruscope: --spin-source tracepoint: this kernel has no "
				 "lock:contention_begin/end tracepoints (Linux 5.19+)");
			return -ENOTSUP;
		}
		if (f->kind == LRS_SPINLOCKS_TAS)
			set(out, LRS_SPIN_NONE, false, "asked for the tracepoint; %s (%s): %s",
			    kind, f->kind_why, gap);
		else
			set(out, LRS_SPIN_TRACEPOINT, !gap, "asked for; %s (%s)%s", kind,
			    f->kind_why,
			    gap ? ": the tracepoint misses each lock's first waiter" : "");
		return 0;
	}
	if (f->kind == LRS_SPINLOCKS_PARAVIRT && f->tracepoint) {
		set(out, LRS_SPIN_TRACEPOINT, true,
		    "%s (%s): every waiter queues where the tracepoint sits", kind, f->kind_why);
		return 0;
	}
	if (f->slowpath) {
		if (!f->tracepoint)
			set(out, LRS_SPIN_SLOWPATH, true,
			    "no contention tracepoint (Linux 5.19+); %s (%s)", kind, f->kind_why);
		else
			set(out, LRS_SPIN_SLOWPATH, true, "%s (%s): %s", kind, f->kind_why, gap);
		return 0;
	}
	if (!f->tracepoint) {
		snprintf(err, err_len,
			 "lruscope: no source of lock waits here: no lock:contention_begin/end "
			 "tracepoints (Linux 5.19+), and the slowpath hooks cannot load: %s",
			 f->slowpath_why);
		return -ENOTSUP;
	}
	if (f->kind == LRS_SPINLOCKS_TAS) {
		set(out, LRS_SPIN_NONE, false,
		    "%s (%s): the tracepoint sees no spinlock wait, and the "
		    "slowpath hooks cannot load (%s); sleeping locks are still seen",
		    kind, f->kind_why, f->slowpath_why);
		return 0;
	}
	set(out, LRS_SPIN_TRACEPOINT, false, "%s (%s): %s; the slowpath hooks cannot load (%s)",
	    kind, f->kind_why, gap, f->slowpath_why);
	return 0;
}
