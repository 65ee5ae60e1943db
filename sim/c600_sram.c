// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tile SRAM page store of the software C600: see c600_sram.h.
 *
 * A page is sealed (in the hash table, keyed by a hash of its contents,
 * possibly shared: refs counts the page-table entries holding it) or dirty
 * (private, on the dirty list, owner names the one entry holding it, its
 * contents may change). Writing a sealed page makes it dirty: in place when
 * it is the only reference, else on a copy.
 */
#include "c600_sram.h"

struct c600_sram_page {
	struct c600_sram_page *next;	/* hash chain, or dirty list */
	struct c600_sram_page **owner;	/* dirty: the page-table entry */
	u64 hash;			/* sealed: of data */
	u32 refs;
	bool dirty;
	u8 *data;			/* C600_SRAM_PAGE_SIZE bytes */
};

#define SRAM_MIN_BUCKETS	512u

#ifndef __KERNEL__
unsigned int sim_user_fail_alloc;
#endif

/* ------------------------------------------------------------------ hash */

/* xxh64's primes and round, four lanes over the page's 64-bit words. */
#define SRAM_P1	0x9e3779b185ebca87ULL
#define SRAM_P2	0xc2b2ae3d27d4eb4fULL
#define SRAM_P3	0x165667b19e3779f9ULL

static inline u64 sram_rotl(u64 x, unsigned int r)
{
	return x << r | x >> (64 - r);
}

static inline u64 sram_round(u64 acc, u64 w)
{
	return sram_rotl(acc + w * SRAM_P2, 31) * SRAM_P1;
}

static inline u64 sram_word(const u8 *p)
{
	u64 w;

	memcpy(&w, p, sizeof(w));	/* @p may be unaligned */
	return w;
}

/* Hash of one page's bytes; *@zero says whether all of them are zero. */
static u64 sram_hash(const u8 *p, bool *zero)
{
	u64 v0 = SRAM_P1 + SRAM_P2, v1 = SRAM_P2, v2 = 0, v3 = 0 - SRAM_P1;
	u64 any = 0, h;
	unsigned int i;

	for (i = 0; i < C600_SRAM_PAGE_SIZE; i += 32) {
		u64 w0 = sram_word(p + i), w1 = sram_word(p + i + 8);
		u64 w2 = sram_word(p + i + 16), w3 = sram_word(p + i + 24);

		any |= w0 | w1 | w2 | w3;
		v0 = sram_round(v0, w0);
		v1 = sram_round(v1, w1);
		v2 = sram_round(v2, w2);
		v3 = sram_round(v3, w3);
	}
	h = sram_rotl(v0, 1) + sram_rotl(v1, 7) + sram_rotl(v2, 12) + sram_rotl(v3, 18);
	h ^= h >> 33;
	h *= SRAM_P2;
	h ^= h >> 29;
	h *= SRAM_P3;
	h ^= h >> 32;
	*zero = !any;
	return h;
}

static bool sram_zero(const u8 *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

/* ----------------------------------------------------------------- pages */

/* A page for @s: the spare, or a new one; contents undefined. */
static struct c600_sram_page *sram_page_get(struct c600_sram *s)
{
	struct c600_sram_page *pg = s->spare;

	if (pg) {
		s->spare = NULL;
	} else {
		pg = sim_zalloc(sizeof(*pg));
		if (!pg)
			return NULL;
		pg->data = sim_zalloc(C600_SRAM_PAGE_SIZE);
		if (!pg->data) {
			sim_free(pg);
			return NULL;
		}
	}
	pg->next = NULL;
	pg->owner = NULL;
	pg->refs = 1;
	pg->dirty = false;
	s->pages++;
	return pg;
}

static void sram_page_free(struct c600_sram_page *pg)
{
	sim_free(pg->data);
	sim_free(pg);
}

/* @pg is in use no more: keep it as the spare, or free it. */
static void sram_page_drop(struct c600_sram *s, struct c600_sram_page *pg)
{
	s->pages--;
	if (!s->spare)
		s->spare = pg;
	else
		sram_page_free(pg);
}

static struct c600_sram_page **sram_bucket(const struct c600_sram *s, u64 hash)
{
	return &s->bucket[hash & (s->nbuckets - 1)];
}

/* Double the table once it holds more pages than buckets; best effort. */
static void sram_grow(struct c600_sram *s)
{
	u32 n = s->nbuckets ? s->nbuckets * 2 : SRAM_MIN_BUCKETS, i;
	struct c600_sram_page **old = s->bucket, **b;

	b = sim_zalloc(sizeof(*b) * n);
	if (!b)
		return;		/* longer chains, still correct */
	s->bucket = b;
	for (i = 0; i < s->nbuckets; i++) {
		while (old[i]) {
			struct c600_sram_page *pg = old[i], **head;

			old[i] = pg->next;
			head = &b[pg->hash & (n - 1)];
			pg->next = *head;
			*head = pg;
		}
	}
	s->nbuckets = n;
	sim_free(old);
}

/* Seal @pg (not dirty, hash set) into the table. */
static void sram_insert(struct c600_sram *s, struct c600_sram_page *pg)
{
	struct c600_sram_page **head;

	if (s->hashed >= s->nbuckets)
		sram_grow(s);
	if (!s->nbuckets) {
		/* No table at all: keep the page, private and dirty. */
		return;
	}
	head = sram_bucket(s, pg->hash);
	pg->next = *head;
	*head = pg;
	s->hashed++;
}

/* Take sealed @pg out of the table. */
static void sram_unhash(struct c600_sram *s, struct c600_sram_page *pg)
{
	struct c600_sram_page **pp = sram_bucket(s, pg->hash);

	while (*pp != pg)
		pp = &(*pp)->next;
	*pp = pg->next;
	pg->next = NULL;
	s->hashed--;
}

static struct c600_sram_page *sram_lookup(const struct c600_sram *s, u64 hash, const u8 *data)
{
	struct c600_sram_page *pg;

	if (!s->nbuckets)
		return NULL;
	for (pg = *sram_bucket(s, hash); pg; pg = pg->next)
		if (pg->hash == hash && !memcmp(pg->data, data, C600_SRAM_PAGE_SIZE))
			return pg;
	return NULL;
}

/* Drop one reference to sealed @pg (or NULL). */
static void sram_put(struct c600_sram *s, struct c600_sram_page *pg)
{
	if (pg && !--pg->refs) {
		sram_unhash(s, pg);
		sram_page_drop(s, pg);
	}
}

static void sram_make_dirty(struct c600_sram *s, struct c600_sram_page *pg,
			    struct c600_sram_page **owner)
{
	pg->dirty = true;
	pg->owner = owner;
	pg->next = s->dirty;
	s->dirty = pg;
	s->ndirty++;
}

void c600_sram_seal(struct c600_sram *s)
{
	struct c600_sram_page *pg, *hit;

	while ((pg = s->dirty)) {
		bool zero;

		s->dirty = pg->next;
		s->ndirty--;
		pg->next = NULL;
		pg->hash = sram_hash(pg->data, &zero);
		if (zero) {
			*pg->owner = NULL;
			sram_page_drop(s, pg);
			continue;
		}
		hit = sram_lookup(s, pg->hash, pg->data);
		if (hit) {
			hit->refs++;
			*pg->owner = hit;
			sram_page_drop(s, pg);
			continue;
		}
		sram_insert(s, pg);
		if (!s->nbuckets) {
			/* No memory for a table: stays dirty, sealed later. */
			sram_make_dirty(s, pg, pg->owner);
			return;
		}
		pg->dirty = false;
		pg->owner = NULL;
	}
}

/* A whole page from @src into entry @slot, hashed and shared at once. */
static int sram_write_page(struct c600_sram *s, struct c600_sram_page **slot, const u8 *src)
{
	struct c600_sram_page *pg = *slot, *hit;
	bool zero;
	u64 hash = sram_hash(src, &zero);

	if (zero) {
		*slot = NULL;
		sram_put(s, pg);
		return 0;
	}
	hit = sram_lookup(s, hash, src);
	if (hit) {
		if (hit != pg) {
			hit->refs++;
			*slot = hit;
			sram_put(s, pg);
		}
		return 0;
	}
	if (pg && pg->refs == 1) {
		sram_unhash(s, pg);
	} else {
		pg = sram_page_get(s);
		if (!pg)
			return -ENOMEM;
		sram_put(s, *slot);
		*slot = pg;
	}
	memcpy(pg->data, src, C600_SRAM_PAGE_SIZE);
	pg->hash = hash;
	sram_insert(s, pg);
	if (!s->nbuckets)
		sram_make_dirty(s, pg, slot);
	return 0;
}

/* @n bytes at @in of entry @slot, @n < a page: the page becomes dirty. */
static int sram_write_part(struct c600_sram *s, struct c600_sram_page **slot, u32 in,
			   const u8 *src, size_t n)
{
	struct c600_sram_page *pg = *slot, *copy;

	if (pg && !memcmp(pg->data + in, src, n))
		return 0;	/* no change: no copy */
	if (pg && pg->refs == 1) {
		sram_unhash(s, pg);
		memcpy(pg->data + in, src, n);
		sram_make_dirty(s, pg, slot);
		return 0;
	}
	if (!pg && sram_zero(src, n))
		return 0;
	copy = sram_page_get(s);
	if (!copy)
		return -ENOMEM;
	if (pg) {
		memcpy(copy->data, pg->data, C600_SRAM_PAGE_SIZE);
		pg->refs--;	/* shared: stays in use */
	} else {
		memset(copy->data, 0, C600_SRAM_PAGE_SIZE);
	}
	memcpy(copy->data + in, src, n);
	*slot = copy;
	sram_make_dirty(s, copy, slot);
	return 0;
}

int c600_sram_write(struct c600_sram *s, struct c600_sram_page **pt, u32 off,
		    const void *src, size_t len)
{
	const u8 *p = src;

	if (s->ndirty >= C600_SRAM_DIRTY_MAX)
		c600_sram_seal(s);
	while (len) {
		struct c600_sram_page **slot = &pt[off >> C600_SRAM_PAGE_SHIFT];
		u32 in = off & (C600_SRAM_PAGE_SIZE - 1);
		size_t n = C600_SRAM_PAGE_SIZE - in;
		int ret;

		if (n > len)
			n = len;
		if (*slot && (*slot)->dirty) {
			memcpy((*slot)->data + in, p, n);
			ret = 0;
		} else if (n == C600_SRAM_PAGE_SIZE) {
			ret = sram_write_page(s, slot, p);
		} else {
			ret = sram_write_part(s, slot, in, p, n);
		}
		if (ret)
			return ret;
		p += n;
		off += (u32)n;
		len -= n;
	}
	return 0;
}

void c600_sram_read(struct c600_sram_page *const *pt, u32 off, void *dst, size_t len)
{
	u8 *p = dst;

	while (len) {
		const struct c600_sram_page *pg = pt[off >> C600_SRAM_PAGE_SHIFT];
		u32 in = off & (C600_SRAM_PAGE_SIZE - 1);
		size_t n = C600_SRAM_PAGE_SIZE - in;

		if (n > len)
			n = len;
		if (pg)
			memcpy(p, pg->data + in, n);
		else
			memset(p, 0, n);
		p += n;
		off += (u32)n;
		len -= n;
	}
}

void c600_sram_free_all(struct c600_sram *s)
{
	struct c600_sram_page *pg;
	u32 i;

	for (i = 0; i < s->nbuckets; i++) {
		while ((pg = s->bucket[i])) {
			s->bucket[i] = pg->next;
			sram_page_free(pg);
		}
	}
	while ((pg = s->dirty)) {
		s->dirty = pg->next;
		sram_page_free(pg);
	}
	if (s->spare)
		sram_page_free(s->spare);
	sim_free(s->bucket);
	memset(s, 0, sizeof(*s));
}
