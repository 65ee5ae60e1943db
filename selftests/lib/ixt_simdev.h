/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A simulated device of the test's own, added through ipuxcom_sim's
 * "devices" parameter and removed again (the newest one goes first), for
 * tests that remove a device under an open file or give it other
 * parameters. Include after ipuxcom.h and ipuxcom_test.h.
 */
#ifndef IXT_SIMDEV_H
#define IXT_SIMDEV_H

#include <string.h>

#define IXT_MAX_IDS	256

/* ids[i] = 1 for every simulated device id i (from netlink). */
static inline void ixt_sim_device_ids(unsigned char ids[IXT_MAX_IDS])
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl;
	size_t n = 0;

	memset(ids, 0, IXT_MAX_IDS);
	if (ipuxcom_nl_open(&nl))
		return;
	if (ipuxcom_nl_dev_list(nl, &devs, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			if (devs[i].dev_id < IXT_MAX_IDS && !strcmp(devs[i].backend, "sim"))
				ids[devs[i].dev_id] = 1;
		ipuxcom_nl_dev_list_free(devs);
	}
	ipuxcom_nl_close(nl);
}

/*
 * The simulated device that is not in @before, i.e. the one just added
 * (not "the highest id": ids are allocated cyclically and wrap around,
 * and on a machine with a card a higher id may be a hardware device); -1
 * unless there is exactly one.
 */
static inline int ixt_added_sim_device(const unsigned char before[IXT_MAX_IDS])
{
	unsigned char now[IXT_MAX_IDS];
	int id = -1;

	ixt_sim_device_ids(now);
	for (int i = 0; i < IXT_MAX_IDS; i++) {
		if (now[i] && !before[i]) {
			if (id >= 0)
				return -1;
			id = i;
		}
	}
	return id;
}

#endif /* IXT_SIMDEV_H */
