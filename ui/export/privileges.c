// SPDX-License-Identifier: GPL-2.0
/* Drop to an unprivileged user with CAP_BPF and CAP_PERFMON only. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "ui/export/privileges.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static const int kept[] = { CAP_BPF, CAP_PERFMON };

static int fail(char *err, size_t err_len, const char *user, const char *step)
{
	int e = errno ? errno : EPERM;

	snprintf(err, err_len, "dropping privileges to '%s': %s failed: %s", user, step,
		 strerror(e));
	return -e;
}

static bool is_kept(int cap)
{
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (kept[i] == cap)
			return true;
	return false;
}

int lrs_privileges__drop(const char *user, char *err, size_t err_len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		snprintf(err, err_len, "--user %s: no such user%s", user,
			 errno ? strerror(errno) : "");
		return -ENOENT;
	}
	/* the bounding set first: dropping from it needs CAP_SETPCAP, which goes next */
	for (int cap = 0; cap <= 63; cap++) {
		if (is_kept(cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			return fail(err, err_len, user, "PR_CAPBSET_DROP");
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return fail(err, err_len, user, "PR_SET_KEEPCAPS");
	if (setgroups(0, NULL))
		return fail(err, err_len, user, "setgroups");
	if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid))
		return fail(err, err_len, user, "setresgid");
	if (setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid))
		return fail(err, err_len, user, "setresuid");
	memset(data, 0, sizeof(data));
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		data[kept[i] / 32].permitted |= 1U << (kept[i] % 32);
		data[kept[i] / 32].effective |= 1U << (kept[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		return fail(err, err_len, user, "capset");
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return fail(err, err_len, user, "PR_SET_NO_NEW_PRIVS");
	return 0;
}
