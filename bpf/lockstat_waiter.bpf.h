/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who waits, part of lockstat.bpf.c (one object: fill() runs it inline on
 * every lruvec wait, with this CPU's wait stack at hand): the waiter's memcg
 * and pid, and whether the lock is the waiter's own mmap_lock.
 */

static __always_inline __u64 cgroup_id_of_css(struct cgroup_subsys_state *css)
{
	return css ? BPF_CORE_READ(css, cgroup, kn, id) : 0;
}

static __always_inline __u64 current_memcg_cgid(struct task_struct *task)
{
	struct cgroup_subsys_state *css;

	css = BPF_CORE_READ(task, cgroups,
			    subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]);
	return cgroup_id_of_css(css);
}

/*
 * The memcg id of the current task's css_set, by direct loads: reached from
 * bpf_get_current_task_btf(), each field is one load, not a probe-read helper
 * call (this runs on every lruvec wait the cache below misses).
 */
static __always_inline __u64 css_set_memcg_cgid(struct css_set *cset)
{
	struct cgroup_subsys_state *css;

	css = cset->subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)];
	return css ? css->cgroup->kn->id : 0;
}

/* check mode (with classify_check): each hit of the waiter's memcg cache read again */
__u64 waiter_cache_hits = 0;	   /* hits whose fresh read agreed */
__u64 waiter_cache_mismatches = 0; /* hits whose fresh read differed */
__u64 waiter_cache_misses = 0;

/*
 * The current task's memcg, through this CPU's cache of its last waiter's
 * css_set. A css_set never changes its cgroups (a task that moves gets
 * another), so the same css_set has the same memcg; the four loads from it to
 * the cgroup id touch memory (the css_set, the memcg, its cgroup, the kernfs
 * node) that the lock's own code did not. As the classification cache, an
 * entry lives for one generation: a css_set freed and its memory reused by
 * another within it is what could make one wrong.
 */
static __always_inline __u64 own_memcg_cgid(struct task_struct *task, struct pending_stack *cs)
{
	struct css_set *cset = task->cgroups;
	__u32 gen = classify_gen;
	__u64 cgid;

	if (cs->waiter_cset == (__u64)cset && cs->waiter_gen == gen) {
		if (!classify_check)
			return cs->waiter_cgid;
		cgid = css_set_memcg_cgid(cset);
		__sync_fetch_and_add(
			cgid == cs->waiter_cgid ? &waiter_cache_hits : &waiter_cache_mismatches, 1);
	} else {
		cgid = css_set_memcg_cgid(cset);
		if (classify_check)
			__sync_fetch_and_add(&waiter_cache_misses, 1);
	}
	cs->waiter_cset = (__u64)cset;
	cs->waiter_cgid = cgid;
	cs->waiter_gen = gen;
	return cgid;
}

static __always_inline bool is_own_mmap_lock(struct task_struct *task, void *lock)
{
	struct mm_struct *mm = task->mm; /* direct load, as above */

	return mm &&
	       (char *)mm + bpf_core_field_offset(struct mm_struct, mmap_lock) == (char *)lock;
}

/*
 * The waiter's memcg and pid, with or without a BTF task; and whether lock is
 * its own mmap_lock. The pid is read here, where the task is at hand, so that
 * the end of the wait needs no helper call for it: a spinning wait ends on the
 * task that began it.
 */
static __always_inline void waiter_of(struct pending *p, struct pending_stack *cs)
{
	struct task_struct *task;

	if (have_task_btf) {
		task = bpf_get_current_task_btf();
		p->waiter_cgid = own_memcg_cgid(task, cs);
		p->pid = (__u32)task->pid;
		return;
	}
	p->waiter_cgid = current_memcg_cgid((struct task_struct *)bpf_get_current_task());
	p->pid = (__u32)bpf_get_current_pid_tgid();
}

static __always_inline bool waits_on_own_mmap_lock(void *lock)
{
	struct task_struct *task;
	struct mm_struct *mm;

	if (have_task_btf)
		return is_own_mmap_lock(bpf_get_current_task_btf(), lock);
	task = (struct task_struct *)bpf_get_current_task();
	mm = BPF_CORE_READ(task, mm);
	return mm &&
	       (char *)mm + bpf_core_field_offset(struct mm_struct, mmap_lock) == (char *)lock;
}
