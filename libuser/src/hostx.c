// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Host tensor exchange through a host-sync manifest [S "Host Tensor
 * Exchange"]: the pages, the callable-id word and the slices come from
 * the manifest; the module does the GS2 handoffs (HOSTX_SETUP/CALL).
 * Every argument is checked against the manifest before anything is
 * written to the pages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "ipuxcom.h"
#include "internal.h"

__attribute__((format(printf, 3, 4)))
static int hx_err(struct ipuxcom_errmsg *em, int err, const char *fmt, ...)
{
	va_list ap;

	if (em) {
		va_start(ap, fmt);
		vsnprintf(em->msg, sizeof(em->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Undo a setup that failed: detach what was attached, free the pages. */
static void hx_unwind(struct ipuxcom *ipu, void **pages, const size_t *sizes, uint32_t npages,
		      const uint32_t *attached, uint32_t nattached)
{
	for (uint32_t k = 0; k < nattached; k++)
		ixc_buf_detach(ipu, IPUXCOM_BUF_SLOT_HOSTX(attached[k]));
	for (uint32_t i = 0; i < npages; i++)
		if (pages[i])
			munmap(pages[i], sizes[i]);
}

int ipuxcom_hostx_setup(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
			uint64_t timeout_ns, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_ioc_hostx_setup hs = { .size = sizeof(hs), .timeout_ns = timeout_ns };
	void *pages[IPUXCOM_HOSTX_MAX_PAGES] = { 0 };
	size_t sizes[IPUXCOM_HOSTX_MAX_PAGES] = { 0 };
	uint32_t attached[IPUXCOM_HOSTX_MAX_PAGES], nattached = 0;
	int err;

	if (em)
		em->msg[0] = '\0';
	if (!ipu || !m)
		return hx_err(em, -EINVAL, "no device or manifest");
	err = ipuxcom_hsp_validate(m, em);
	if (err)
		return err;
	if (m->npages > IPUXCOM_HOSTX_MAX_PAGES)
		return hx_err(em, -EINVAL, "manifest has %" PRIu32 " pages, the module takes %u",
			      m->npages, IPUXCOM_HOSTX_MAX_PAGES);
	if (ipu->hpages)
		return hx_err(em, -EEXIST, "host pages already set up on this file");
	hs.npages = m->npages;
	for (uint32_t i = 0; i < m->npages; i++) {
		hs.page_bytes[i] = m->page_size[i];
		hs.attach_order[i] = m->attach_order[i];
	}
	/* The pages are this library's memory, zero-filled, pinned by BUF_ATTACH. */
	for (uint32_t i = 0; i < m->npages; i++) {
		void *p = mmap(NULL, m->page_size[i], PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			err = -errno;
			hx_unwind(ipu, pages, sizes, m->npages, attached, 0);
			return hx_err(em, err, "allocating host page %" PRIu32 " (%" PRIu32
				      " bytes): %s", i, m->page_size[i], strerror(-err));
		}
		pages[i] = p;
		sizes[i] = m->page_size[i];
	}
	/*
	 * Host page 0 takes ipu_driver's index 0: the loader's buffer must be
	 * detached there first (HW-LOAD
	 * steps 8-9); LOAD_FINISH normally did it. The module's BEGIN refuses
	 * while its own slot 0 is still the loader's.
	 */
	if (ipu->ipu_fd >= 0 && (ipu->drv_bufs & (1u << IPUXCOM_BUF_SLOT_LOADER)) &&
	    !ipu->xbuf_attached) {
		err = ixc_xbuf_finished(ipu);
		if (err) {
			hx_unwind(ipu, pages, sizes, m->npages, attached, 0);
			return hx_err(em, err, "%s", ipu->errmsg);
		}
	}
	/* 1: HEXOPT, GS1 mark 1, the preloaded GS2 mark back to zero [S]. */
	hs.flags = IPUXCOM_HOSTX_F_BEGIN;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_HOSTX_SETUP, &hs);
	if (err) {
		hx_unwind(ipu, pages, sizes, m->npages, attached, 0);
		return hx_err(em, err, "load-completion transition (GS2 mark %" PRIu32 "): %s",
			      hs.mark, ipuxcom_strerror(err));
	}
	/*
	 * 2: the pages in the manifest's attach order, page i at index i, as
	 * the peer and the notes attach them (HW-BUF-INDEX): a tile program
	 * finds a host page by that index.
	 */
	for (uint32_t k = 0; k < m->npages; k++) {
		uint32_t pg = m->attach_order[k];

		ipu->errmsg[0] = '\0';
		err = ixc_buf_attach(ipu, IPUXCOM_BUF_SLOT_HOSTX(pg), pages[pg], sizes[pg], NULL);
		if (err) {
			hx_unwind(ipu, pages, sizes, m->npages, attached, nattached);
			return hx_err(em, err, "host page %" PRIu32 ": %s (the device needs a reset)",
				      pg, ipu->errmsg);
		}
		attached[nattached++] = pg;
	}
	/* 3: every page in place with its size; the GS2 load-completion mark. */
	hs.flags = IPUXCOM_HOSTX_F_COMMIT;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_HOSTX_SETUP, &hs);
	if (err) {
		hx_unwind(ipu, pages, sizes, m->npages, attached, nattached);
		return hx_err(em, err, "load-completion mark (GS2 mark %" PRIu32 "): %s",
			      hs.mark, ipuxcom_strerror(err));
	}
	for (uint32_t i = 0; i < m->npages; i++) {
		ipu->hpage[i] = pages[i];
		ipu->hpage_size[i] = sizes[i];
	}
	ipu->hpages = m->npages;
	return 0;
}

/* The @dir slices of call @call, in manifest order, must match @bufs. */
static int hx_check_slices(const struct ipuxcom_hsp_manifest *m, uint32_t call, uint32_t dir,
			   const struct ipuxcom_hostx_buf *bufs, size_t n,
			   struct ipuxcom_errmsg *em)
{
	const char *what = dir == IPUXCOM_HSP_INPUT ? "input" : "output";
	size_t k = 0;

	for (uint32_t i = 0; i < m->nslices; i++) {
		const struct ipuxcom_hsp_slice *sl = &m->slices[i];

		if (sl->call != call || sl->dir != dir)
			continue;
		if (k >= n)
			return hx_err(em, -EINVAL, "call '%s': %s slice %zu (%" PRIu32
				      " bytes) not given", m->calls[call].name, what, k, sl->size);
		if (!bufs[k].data || bufs[k].size != sl->size)
			return hx_err(em, -EINVAL, "call '%s': %s %zu is %zu bytes, the slice "
				      "takes %" PRIu32, m->calls[call].name, what, k, bufs[k].size,
				      sl->size);
		k++;
	}
	if (k != n)
		return hx_err(em, -EINVAL, "call '%s' has %zu %s slices, %zu given",
			      m->calls[call].name, k, what, n);
	return 0;
}

static void hx_copy_slices(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
			   uint32_t call, uint32_t dir, struct ipuxcom_hostx_buf *bufs)
{
	size_t k = 0;

	for (uint32_t i = 0; i < m->nslices; i++) {
		const struct ipuxcom_hsp_slice *sl = &m->slices[i];
		uint8_t *page = ipu->hpage[sl->page];

		if (sl->call != call || sl->dir != dir)
			continue;
		if (dir == IPUXCOM_HSP_INPUT)
			memcpy(page + sl->offset, bufs[k].data, sl->size);
		else
			memcpy(bufs[k].data, page + sl->offset, sl->size);
		k++;
	}
}

int ipuxcom_hostx_call(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
		       const char *name, const struct ipuxcom_hostx_buf *in, size_t nin,
		       struct ipuxcom_hostx_buf *out, size_t nout, uint64_t timeout_ns,
		       struct ipuxcom_errmsg *em)
{
	struct ipuxcom_ioc_hostx_call hc = { .size = sizeof(hc), .timeout_ns = timeout_ns };
	uint32_t id;
	int call, err;

	if (em)
		em->msg[0] = '\0';
	if (!ipu || !m || !name || (nin && !in) || (nout && !out))
		return hx_err(em, -EINVAL, "missing argument");
	call = ipuxcom_hsp_find_call(m, name);
	if (call < 0)
		return hx_err(em, -ENOENT, "the manifest has no call '%s'", name);
	if (!ipu->hpages)
		return hx_err(em, -ENOBUFS, "host pages not set up (ipuxcom_hostx_setup)");
	if (ipu->hpages != m->npages)
		return hx_err(em, -EINVAL, "%" PRIu32 " host pages set up, the manifest has %" PRIu32,
			      ipu->hpages, m->npages);
	err = hx_check_slices(m, (uint32_t)call, IPUXCOM_HSP_INPUT, in, nin, em);
	if (!err)
		err = hx_check_slices(m, (uint32_t)call, IPUXCOM_HSP_OUTPUT, out, nout, em);
	if (err)
		return err;

	hx_copy_slices(ipu, m, (uint32_t)call, IPUXCOM_HSP_INPUT, (struct ipuxcom_hostx_buf *)in);
	id = m->calls[call].id;
	memcpy((uint8_t *)ipu->hpage[m->command_page] + m->command_offset, &id, sizeof(id));
	hc.phases = m->calls[call].phases;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_HOSTX_CALL, &hc);
	if (err)
		return hx_err(em, err, "call '%s': phase %" PRIu32 " of %" PRIu32
			      " (GS2 mark %" PRIu32 "): %s", name, hc.done + 1, hc.phases, hc.mark,
			      ipuxcom_strerror(err));
	hx_copy_slices(ipu, m, (uint32_t)call, IPUXCOM_HSP_OUTPUT, out);
	return 0;
}
