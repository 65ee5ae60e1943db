// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The library's version at run time. IPUXCOM_LIB_VERSION is what a program
 * was compiled against; a program linked with libipuxcom.so may run with a
 * newer library of the same soname, and only these calls tell which.
 */
#include "ipuxcom.h"

const char *ipuxcom_version(void)
{
	return IPUXCOM_LIB_VERSION;
}

uint32_t ipuxcom_version_number(void)
{
	return IPUXCOM_LIB_VERSION_NUMBER;
}
