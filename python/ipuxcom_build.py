# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Build ipuxcom._ipuxcom: libipuxcom through CFFI in API (out-of-line) mode.

The C compiler compiles the declarations below against the library's real
headers (libuser/include), so every struct member and constant is checked;
structs whose layout is the compiler's business are declared partial
(``...;``).  The extension links the library's position-independent objects
(an archive of build/lib/pic/*.o) so that it needs no libipuxcom.so at run
time; it links libmnl and libelf like the library does.

Usage (the Makefile's `make python` runs it with /usr/bin/python3):
    /usr/bin/python3 python/ipuxcom_build.py OUTDIR SRCDIR PICARCHIVE

pip (python/pyproject.toml, python/setup.py) uses pip_builder() instead: the
library's sources from the tree compiled into the extension.
"""
import glob
import os
import re
import sys
from typing import List

import cffi

CDEF = r"""
/* ---------------------------------------------------------------- versions, errors */
#define IPUXCOM_TILES ...
#define IPUXCOM_PHYS_ROWS ...
#define IPUXCOM_PHYS_COLS ...
#define IPUXCOM_SRAM_BASE ...
#define IPUXCOM_SRAM_SIZE ...
#define IPUXCOM_PLAN_MAX_COUNT ...
#define IPUXCOM_PLAN_MAX_WIDE_COUNT ...
#define IPUXCOM_ROW_WORDS ...
#define IPUXCOM_MCAST_DST_BASE ...
#define IPUXCOM_PLAN_LOGICAL ...
#define IPUXCOM_PLAN_PHYSICAL ...
#define IPUXCOM_PLAN_WIDE ...
#define IPUXCOM_IDLE_RAW ...
#define IPUXCOM_ERRC_BASE ...
#define IPUXCOM_TIMING_NAME_LEN ...
#define IPUXCOM_FANOUT_MULTICAST ...
#define IPUXCOM_FANOUT_SERIALIZED ...
#define IPUXCOM_FANOUT_RELAY ...
#define IPUXCOM_FANOUT_ALL ...
#define IPUXCOM_XSIM_ANY_DIRECTION ...
#define IPUXCOM_XSIM_ALL_TILES ...
#define IPUXCOM_XSIM_LOG_WRITES ...
#define IPUXCOM_XSIM_RESET_SRAM ...
#define IPUXCOM_XSIM_PROG_DATA0 ...
#define IPUXCOM_XSIM_MAX_EVENTS ...
#define IPUXCOM_XSIM_A_SEND ...
#define IPUXCOM_XSIM_A_MUX ...
#define IPUXCOM_XSIM_A_PIC ...
#define IPUXCOM_XSIM_ERROR ...
#define IPUXCOM_XSIM_NOTE ...
#define IPUXCOM_SCHEDULE_EXACT_WINDOW ...
#define IPUXCOM_SCHEDULE_LEGACY ...
#define IPUXCOM_SCHEDULE_QUICK ...
#define IPUXCOM_SCHEDULE_PHYSICAL ...
#define IPUXCOM_SCHEDULE_LOAD_IDLE ...
#define IPUXCOM_SCHEDULE_LIST_PHYSICAL ...
#define IPUXCOM_DEMO_PACKED ...
#define IPUXCOM_DEMO_SUM_ROUNDS ...
#define IPUXCOM_IMG_TILES ...
#define IPUXCOM_IMG_PAYLOAD_BASE ...
#define IPUXCOM_IMG_TEMPLATE_AUTO ...
#define IPUXCOM_DRIVER_SIGNAL_FIRST ...
#define IPUXCOM_DRIVER_SIGNAL_LAST ...

const char *ipuxcom_version(void);
uint32_t ipuxcom_version_number(void);
const char *ipuxcom_strerror(int err);
int ipuxcom_last_error(uint32_t *domain);
const char *ipuxcom_err_domain_name(uint32_t domain);

enum ipuxcom_plan_errc { IPUXCOM_PLAN_OK, IPUXCOM_PLAN_E_NULL, IPUXCOM_PLAN_E_FLAGS,
	IPUXCOM_PLAN_E_TILE, IPUXCOM_PLAN_E_COUNT, IPUXCOM_PLAN_E_SELF, IPUXCOM_PLAN_E_DUP,
	IPUXCOM_PLAN_E_NRECV, IPUXCOM_PLAN_E_FIELD, IPUXCOM_PLAN_E_SCHEDULE,
	IPUXCOM_PLAN_E_ALIGN, IPUXCOM_PLAN_E_ADDR, IPUXCOM_PLAN_E_ADDR_FLAG,
	IPUXCOM_PLAN_E_TIMING, IPUXCOM_PLAN_E_FORMAT, IPUXCOM_PLAN_E_IO, IPUXCOM_PLAN_E_NOMEM,
	IPUXCOM_PLAN_E_SPACE, IPUXCOM_PLAN_E_WORD, IPUXCOM_PLAN_E_METHOD,
	IPUXCOM_PLAN_E_INFEASIBLE, IPUXCOM_PLAN_E_NAME, IPUXCOM_PLAN_E_INTERNAL,
	IPUXCOM_PLAN_E_SIZE, IPUXCOM_PLAN_E_MAX, ... };

struct ipuxcom_plan_error {
	enum ipuxcom_plan_errc code;
	int err;
	char field[32];
	char msg[160];
	...;
};

struct ipuxcom_errmsg { char msg[...]; };

/* ---------------------------------------------------------------- tile map, timing */
struct ipuxcom_tile {
	uint16_t logical, physical, row, column, pair_physical, pair_logical;
	...;
};
int ipuxcom_tile_physical(uint32_t logical, uint32_t *physical);
int ipuxcom_tile_logical(uint32_t physical, uint32_t *logical);
int ipuxcom_tile_info(uint32_t id, uint32_t flags, struct ipuxcom_tile *out,
		      struct ipuxcom_plan_error *err);

struct ipuxcom_timing;
const struct ipuxcom_timing *ipuxcom_timing_default(void);
int ipuxcom_timing_from_table(const int16_t *time_to_mux, const uint8_t *direction,
			      const char *name, struct ipuxcom_timing **out,
			      struct ipuxcom_plan_error *err);
int ipuxcom_timing_load(const char *path, struct ipuxcom_timing **out,
			struct ipuxcom_plan_error *err);
int ipuxcom_timing_save(const struct ipuxcom_timing *tm, const char *path, uint32_t flags,
			struct ipuxcom_plan_error *err);
void ipuxcom_timing_free(struct ipuxcom_timing *tm);
const char *ipuxcom_timing_name(const struct ipuxcom_timing *tm);
int ipuxcom_timing_kind(const struct ipuxcom_timing *tm);
int ipuxcom_time_to_mux(const struct ipuxcom_timing *tm, uint32_t src, uint32_t dst,
			int *out, struct ipuxcom_plan_error *err);
int ipuxcom_route_direction(const struct ipuxcom_timing *tm, uint32_t src, uint32_t dst,
			    unsigned int *out, struct ipuxcom_plan_error *err);

/* ---------------------------------------------------------------- words */
struct ipuxcom_ctl { uint8_t kind; uint8_t when; uint8_t form; uint32_t value; ...; };
struct ipuxcom_decoded {
	uint32_t op, nwords;
	uint32_t f[6];
	uint32_t flags, sctl, events, src_word, nctl;
	struct ipuxcom_ctl ctl[2];
	...;
};
int ipuxcom_decode_insn(const uint32_t *words, size_t n, struct ipuxcom_decoded *out);
int ipuxcom_encode_insn(const struct ipuxcom_decoded *in, uint32_t words[2],
			struct ipuxcom_plan_error *err);
int ipuxcom_disasm_insn(const uint32_t *words, size_t n, char *buf, size_t len, size_t *used);
const char *ipuxcom_op_name(uint32_t op);

/* ---------------------------------------------------------------- plans */
struct ipuxcom_plan_row {
	uint32_t words[...];
	uint16_t tile;
	uint8_t role;
	uint8_t nwords;
	int8_t patch;
	int8_t addr;
	int32_t event;
	...;
};
int ipuxcom_plan_row_disasm(const struct ipuxcom_plan_row *row, unsigned int index,
			    char *buf, size_t len);

struct ipuxcom_p2p_plan {
	uint32_t size;
	struct ipuxcom_plan_row send, recv;
	uint32_t count;
	int32_t time_to_mux;
	uint8_t direction;
	uint8_t sync_boundary;
	uint16_t timing_kind;
	char timing_model[...];
	...;
};
int ipuxcom_plan_p2p(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
		     uint32_t count, uint32_t flags, struct ipuxcom_p2p_plan *out,
		     struct ipuxcom_plan_error *err);

struct ipuxcom_p2p_wide_info {
	uint32_t size;
	uint32_t items, partner;
	int32_t time_to_mux, partner_time_to_mux, pair_time;
	uint32_t xpic_owner, sctl, wide;
	...;
};
const char *ipuxcom_plan_wide_str(uint32_t why);
int ipuxcom_plan_p2p_wide(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
			  uint32_t count, uint32_t src_addr, uint32_t dst_addr, uint32_t flags,
			  struct ipuxcom_p2p_plan *out, struct ipuxcom_p2p_wide_info *info,
			  struct ipuxcom_plan_error *err);

struct ipuxcom_fanout_req {
	uint32_t size;
	uint32_t sender, count, flags, nrecv;
	const uint32_t *receivers;
	uint32_t src_addr, schedule_offset;
	const uint32_t *dst_addr;
	...;
};
struct ipuxcom_multicast_info {
	uint32_t size;
	int32_t min_t, max_t;
	uint32_t start;
	int32_t send_delay;
	uint32_t max_recv_time;
	uint16_t timing_kind;
	char timing_model[...];
	uint32_t sctl, items, wide, wide_recv;
	...;
};
int ipuxcom_plan_multicast(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			   struct ipuxcom_plan_row *rows, size_t nrows,
			   struct ipuxcom_multicast_info *info, struct ipuxcom_plan_error *err);
struct ipuxcom_serialized_info {
	uint32_t size;
	uint32_t first_send, max_recv_time;
	uint16_t timing_kind;
	char timing_model[...];
	...;
};
int ipuxcom_plan_serialized(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			    struct ipuxcom_plan_row *rows, size_t nrows,
			    struct ipuxcom_serialized_info *info, struct ipuxcom_plan_error *err);
struct ipuxcom_relay_step { uint16_t round, sender, receiver; ...; };
int ipuxcom_plan_relay(const struct ipuxcom_fanout_req *req, struct ipuxcom_relay_step *steps,
		       size_t nsteps, uint32_t *rounds, struct ipuxcom_plan_error *err);
struct ipuxcom_fanout_cost {
	uint32_t method;
	int32_t reject;
	uint32_t launches, copies;
	uint64_t cycles, total;
	char why[...];
	...;
};
struct ipuxcom_dispatch {
	uint32_t size;
	uint32_t chosen;
	struct ipuxcom_fanout_cost cand[3];
	char reason[...];
	...;
};
int ipuxcom_plan_dispatch(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			  uint32_t methods, struct ipuxcom_dispatch *out,
			  struct ipuxcom_plan_error *err);
const char *ipuxcom_fanout_method_name(uint32_t method);
int ipuxcom_plan_idle(uint32_t tile, uint32_t flags, struct ipuxcom_plan_row *row,
		      struct ipuxcom_plan_error *err);

int ipuxcom_patch_index(const uint32_t *words, size_t nwords, size_t *index,
			struct ipuxcom_plan_error *err);
int ipuxcom_patch_recv(uint32_t *words, size_t nwords, uint32_t tile_selector,
		       struct ipuxcom_plan_error *err);
int ipuxcom_patch_recv_restore(uint32_t *words, size_t nwords, struct ipuxcom_plan_error *err);
int ipuxcom_patch_send_base(uint32_t data, uint32_t element_selector, uint32_t *outgoing_base,
			    struct ipuxcom_plan_error *err);
int ipuxcom_patch_mcast_src(uint32_t *words, size_t nwords, uint32_t src_addr,
			    struct ipuxcom_plan_error *err);
int ipuxcom_patch_mcast_dst(uint32_t *words, size_t nwords, uint32_t dst_addr,
			    struct ipuxcom_plan_error *err);

/* ---------------------------------------------------------------- simulator */
struct ipuxcom_xsim_hazard {
	uint32_t kind, severity, tile, other;
	int32_t event, program, word;
	uint32_t occurrences;
	char msg[...];
	...;
};
const char *ipuxcom_xsim_kind_name(uint32_t kind);
uint32_t ipuxcom_xsim_kind_severity(uint32_t kind);
struct ipuxcom_xsim;
struct ipuxcom_xsim_config {
	uint32_t size;
	const struct ipuxcom_timing *timing;
	uint32_t flags, max_events, max_hazards;
	...;
};
int ipuxcom_xsim_create(const struct ipuxcom_xsim_config *cfg, struct ipuxcom_xsim **out,
			struct ipuxcom_plan_error *err);
void ipuxcom_xsim_free(struct ipuxcom_xsim *sim);
int ipuxcom_xsim_reset(struct ipuxcom_xsim *sim, uint32_t flags, struct ipuxcom_plan_error *err);
int ipuxcom_xsim_sram_write(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			    const uint32_t *words, size_t n, struct ipuxcom_plan_error *err);
int ipuxcom_xsim_sram_read(const struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			   uint32_t *words, size_t n, struct ipuxcom_plan_error *err);
struct ipuxcom_xsim_program {
	uint32_t tile, flags;
	const uint32_t *words;
	uint32_t nwords, incoming_base, outgoing_base;
	...;
};
int ipuxcom_xsim_add_program(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_program *prog,
			     struct ipuxcom_plan_error *err);
struct ipuxcom_xsim_xfer {
	uint32_t size;
	uint32_t sender, src_addr, count, flags, nrecv;
	const uint32_t *receivers;
	const uint32_t *dst_addr;
	...;
};
int ipuxcom_xsim_declare(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_xfer *x,
			 struct ipuxcom_plan_error *err);
int ipuxcom_xsim_add_row(struct ipuxcom_xsim *sim, const struct ipuxcom_plan_row *row,
			 uint32_t base, struct ipuxcom_plan_error *err);
int ipuxcom_xsim_add_p2p(struct ipuxcom_xsim *sim, const struct ipuxcom_p2p_plan *plan,
			 uint32_t src_addr, uint32_t dst_addr, struct ipuxcom_plan_error *err);
int ipuxcom_xsim_add_multicast(struct ipuxcom_xsim *sim, const struct ipuxcom_fanout_req *req,
			       const struct ipuxcom_plan_row *rows, size_t nrows,
			       struct ipuxcom_plan_error *err);
int ipuxcom_xsim_fill_idle(struct ipuxcom_xsim *sim, struct ipuxcom_plan_error *err);
struct ipuxcom_xsim_result {
	uint32_t size;
	uint32_t events, programs, tiles, active_tiles, errors, notes, dropped, streams;
	uint64_t words_sent, words_captured, words_written, tile_events;
	uint32_t declared, delivered;
	uint16_t timing_kind;
	char timing_model[...];
	...;
};
int ipuxcom_xsim_run(struct ipuxcom_xsim *sim, struct ipuxcom_xsim_result *res,
		     struct ipuxcom_plan_error *err);
const struct ipuxcom_xsim_hazard *ipuxcom_xsim_hazards(const struct ipuxcom_xsim *sim, size_t *n);
size_t ipuxcom_xsim_count(const struct ipuxcom_xsim *sim, uint32_t kind);
struct ipuxcom_xsim_write {
	int32_t event, send_event;
	uint16_t tile, src_tile;
	uint32_t addr, src_addr, value;
	...;
};
const struct ipuxcom_xsim_write *ipuxcom_xsim_writes(const struct ipuxcom_xsim *sim, size_t *n);
struct ipuxcom_xsim_action {
	uint32_t size, kind, tile;
	int32_t event;
	uint32_t words, value, dir, stream;
	int32_t program, word;
	...;
};
size_t ipuxcom_xsim_nactions(const struct ipuxcom_xsim *sim);
int ipuxcom_xsim_action(const struct ipuxcom_xsim *sim, size_t i, struct ipuxcom_xsim_action *out);
int32_t ipuxcom_xsim_tile_end(const struct ipuxcom_xsim *sim, uint32_t tile);
int ipuxcom_xsim_hazard_format(const struct ipuxcom_xsim_hazard *h, char *buf, size_t len);

/* ---------------------------------------------------------------- scheduler */
struct ipuxcom_schedule_xfer {
	uint32_t sender, count, nrecv;
	const uint32_t *receivers;
	uint32_t src_addr;
	const uint32_t *dst_addr;
	...;
};
struct ipuxcom_schedule_opts {
	uint32_t size;
	const struct ipuxcom_timing *timing;
	uint32_t flags, max_events, effort;
	...;
};
struct ipuxcom_schedule_slot {
	uint32_t size;
	int32_t start, first_arrival, last_write;
	uint32_t gap;
	uint32_t sctl, items, wide;
	...;
};
struct ipuxcom_schedule;
int ipuxcom_schedule_build(const struct ipuxcom_schedule_opts *opts,
			   const struct ipuxcom_schedule_xfer *xfers, size_t n,
			   struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err);
void ipuxcom_schedule_free(struct ipuxcom_schedule *s);
uint32_t ipuxcom_schedule_events(const struct ipuxcom_schedule *s);
size_t ipuxcom_schedule_nxfers(const struct ipuxcom_schedule *s);
int ipuxcom_schedule_slot(const struct ipuxcom_schedule *s, size_t i,
			  struct ipuxcom_schedule_slot *out);
size_t ipuxcom_schedule_nprograms(const struct ipuxcom_schedule *s);
int ipuxcom_schedule_program(const struct ipuxcom_schedule *s, size_t i,
			     struct ipuxcom_xsim_program *out);
int ipuxcom_schedule_load(const struct ipuxcom_schedule *s, struct ipuxcom_xsim *sim,
			  uint32_t flags, struct ipuxcom_plan_error *err);
int ipuxcom_schedule_stagger(const struct ipuxcom_schedule_opts *opts,
			     const struct ipuxcom_schedule_xfer *xfers, size_t n, uint32_t step,
			     struct ipuxcom_xsim *sim, uint32_t flags,
			     struct ipuxcom_plan_error *err);
struct ipuxcom_schedule_list {
	size_t n;
	struct ipuxcom_schedule_xfer *xfers;
	uint32_t *line;
	...;
};
int ipuxcom_schedule_list_parse(const char *text, size_t len, uint32_t flags,
				struct ipuxcom_schedule_list **out, struct ipuxcom_plan_error *err);
void ipuxcom_schedule_list_free(struct ipuxcom_schedule_list *l);

/* ---------------------------------------------------------------- demos */
struct ipuxcom_demo_sum {
	uint32_t size;
	uint32_t tiles, rounds;
	uint32_t transfers[...];
	uint32_t events[...];
	uint64_t sum, expected;
	uint32_t errors, notes;
	bool pass;
	char timing_model[...];
	...;
};
struct ipuxcom_demo_matmul {
	uint32_t size;
	int32_t a[4][4], b[4][4], c[4][4], expected[4][4];
	uint32_t active_tiles, streams, words_per_stream;
	uint32_t events, stagger_events, packed_events, errors, notes;
	bool matches_notes, pass;
	char timing_model[...];
	...;
};
struct ipuxcom_demo_watch {
	uint32_t size;
	void (*phase)(void *ctx, const struct ipuxcom_xsim *sim,
		      const struct ipuxcom_xsim_result *res, const char *name);
	void *ctx;
	uint32_t sim_flags;
	...;
};
int ipuxcom_demo_sum_watch(const struct ipuxcom_timing *tm, const struct ipuxcom_demo_watch *watch,
			   struct ipuxcom_demo_sum *out, struct ipuxcom_plan_error *err);
int ipuxcom_demo_matmul_watch(const struct ipuxcom_timing *tm, uint32_t flags,
			      const struct ipuxcom_demo_watch *watch,
			      struct ipuxcom_demo_matmul *out, struct ipuxcom_plan_error *err);
extern "Python" void _pyx_watch_phase(void *, const struct ipuxcom_xsim *,
				      const struct ipuxcom_xsim_result *, const char *);

/* ---------------------------------------------------------------- images */
uint32_t ipuxcom_crc32(uint32_t crc, const void *buf, size_t len);
struct ipuxcom_image;
struct ipuxcom_image_info {
	uint32_t size;
	uint32_t load_base, image_size, entry, tile_count, template_tile, template_crc32;
	uint32_t patch_area_size, meta_crc32;
	uint64_t file_size, patch_count, patch_data;
	uint32_t unpatched_tiles, max_tile_patch_size;
	...;
};
struct ipuxcom_image_tile {
	uint32_t size;
	uint32_t patch_offset, patch_size, crc32, patch_count, patch_data;
	...;
};
int ipuxcom_image_open(const char *path, struct ipuxcom_image **out, struct ipuxcom_errmsg *em);
int ipuxcom_image_from_buffer(const void *data, size_t len, struct ipuxcom_image **out,
			      struct ipuxcom_errmsg *em);
void ipuxcom_image_free(struct ipuxcom_image *img);
int ipuxcom_image_get_info(const struct ipuxcom_image *img, struct ipuxcom_image_info *info);
int ipuxcom_image_get_tile(const struct ipuxcom_image *img, uint32_t tile,
			   struct ipuxcom_image_tile *out);
int ipuxcom_image_extract(const struct ipuxcom_image *img, uint32_t tile, void *buf, size_t len,
			  struct ipuxcom_errmsg *em);
int ipuxcom_image_verify_tile(const struct ipuxcom_image *img, uint32_t tile,
			      struct ipuxcom_errmsg *em);
int ipuxcom_image_verify(const struct ipuxcom_image *img, struct ipuxcom_errmsg *em);
struct ipuxcom_image_pack_params {
	uint32_t size;
	uint32_t tile_count, image_size, load_base, entry, template_tile;
	...;
};
int ipuxcom_image_pack_buffers(const struct ipuxcom_image_pack_params *params,
			       const void *const *images, void **out, size_t *out_len,
			       struct ipuxcom_errmsg *em);
struct ipuxcom_image_dir_opts {
	uint32_t size;
	uint32_t tile_count, template_tile, load_base, entry;
	...;
};
int ipuxcom_image_dir_opts_init(struct ipuxcom_image_dir_opts *opts);
int ipuxcom_image_pack_raw_dir(const char *dir, const struct ipuxcom_image_dir_opts *opts,
			       void **out, size_t *out_len, struct ipuxcom_errmsg *em);
int ipuxcom_image_pack_elf_dir(const char *dir, const struct ipuxcom_image_dir_opts *opts,
			       void **out, size_t *out_len, struct ipuxcom_errmsg *em);
struct ipuxcom_redirect_spec {
	uint32_t size;
	bool by_marker;
	uint32_t marker[2];
	uint32_t target;
	...;
};
struct ipuxcom_redirect_report { uint32_t size, tiles, target_min, target_max; ...; };
int ipuxcom_image_redirect(const struct ipuxcom_image *img, const struct ipuxcom_redirect_spec *spec,
			   void **out, size_t *out_len, struct ipuxcom_redirect_report *report,
			   struct ipuxcom_errmsg *em);

/* ---------------------------------------------------------------- loader frames */
#define IPUXCOM_FRAMES_DESC_AREA ...
#define IPUXCOM_FRAMES_DESC_ENTRIES ...
#define IPUXCOM_FRAME_SIZE ...
#define IPUXCOM_FRAME_HEADER ...
#define IPUXCOM_FRAME_PAYLOAD ...
#define IPUXCOM_FRAME_TRAILER ...
#define IPUXCOM_FRAME_FLAGS_FINAL ...
#define IPUXCOM_FRAMES_MAX_PER_TILE ...
#define IPUXCOM_FRAMES_MIN_PAYLOAD ...
#define IPUXCOM_FRAMES_MIN_PER_TILE ...
enum ipuxcom_frame_error { IPUXCOM_FRAME_ERR_OK, IPUXCOM_FRAME_ERR_DESC_TAIL,
	IPUXCOM_FRAME_ERR_DESC_COUNT, IPUXCOM_FRAME_ERR_DESC_OFFSET, IPUXCOM_FRAME_ERR_CHUNK,
	IPUXCOM_FRAME_ERR_TILE, IPUXCOM_FRAME_ERR_FLAGS, IPUXCOM_FRAME_ERR_RESERVED,
	IPUXCOM_FRAME_ERR_TRAILER, ... };
int ipuxcom_frames_per_tile(uint32_t image_size, uint32_t *frames, struct ipuxcom_errmsg *em);
int ipuxcom_frames_batch_size(const struct ipuxcom_image *img, uint32_t first, uint32_t last,
			      size_t *size, struct ipuxcom_errmsg *em);
int ipuxcom_frames_build(const struct ipuxcom_image *img, uint32_t first, uint32_t last,
			 void *buf, size_t len, struct ipuxcom_errmsg *em);
const char *ipuxcom_frame_error_name(uint32_t reason);

/* ---------------------------------------------------------------- IPUCFG1 */
#define IPUXCOM_CFG_HEADER_SIZE ...
#define IPUXCOM_CFG_BAR_SIZE ...
#define IPUXCOM_CFG_MAX_RECORDS ...
struct ipuxcom_cfg_record { uint32_t offset; uint32_t value; };
int ipuxcom_cfg_parse(const void *data, size_t len, struct ipuxcom_cfg_record **recs,
		      uint32_t *count, struct ipuxcom_errmsg *em);
int ipuxcom_cfg_load(const char *path, struct ipuxcom_cfg_record **recs, uint32_t *count,
		     struct ipuxcom_errmsg *em);
int ipuxcom_cfg_serialize(const struct ipuxcom_cfg_record *recs, uint32_t count, void **out,
			  size_t *out_len, struct ipuxcom_errmsg *em);
const char *ipuxcom_cfg_reg_name(uint32_t offset, char *buf, size_t len);
int ipuxcom_cfg_hsp_parse(const char *name);
struct ipuxcom_cfg_block {
	char name[40];
	uint32_t first, last, writes, registers, units;
	bool named;
};
int ipuxcom_cfg_summarize(const struct ipuxcom_cfg_record *recs, uint32_t count,
			  struct ipuxcom_cfg_block **blocks, size_t *nblocks);

/* ---------------------------------------------------------------- host-sync manifests */
struct ipuxcom_hsp_call { char name[...]; uint32_t id, phases; ...; };
struct ipuxcom_hsp_slice { uint32_t call, dir, page, offset, size; ...; };
struct ipuxcom_hsp_manifest {
	uint32_t npages;
	uint32_t page_size[...];
	uint32_t attach_order[...];
	uint32_t command_page, command_offset, ncalls;
	struct ipuxcom_hsp_call calls[...];
	uint32_t nslices;
	struct ipuxcom_hsp_slice slices[...];
	...;
};
int ipuxcom_hsp_parse(const char *text, size_t len, struct ipuxcom_hsp_manifest *m,
		      struct ipuxcom_errmsg *em);
int ipuxcom_hsp_load(const char *path, struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em);
int ipuxcom_hsp_validate(const struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em);
int ipuxcom_hsp_format(const struct ipuxcom_hsp_manifest *m, char **text, size_t *len,
		       struct ipuxcom_errmsg *em);
int ipuxcom_hsp_find_call(const struct ipuxcom_hsp_manifest *m, const char *name);

/* ---------------------------------------------------------------- device */
#define IPUXCOM_LOAD_BATCHES ...
#define IPUXCOM_LOAD_F_NO_INIT ...
#define IPUXCOM_LOAD_F_NO_CFG ...
#define IPUXCOM_CAP_IPU_DRIVER ...
#define IPUXCOM_TDI_NREGS ...
struct ipuxcom;
struct ipuxcom_nl;
int ipuxcom_block_driver_signals(void);
int ipuxcom_open(const char *path, struct ipuxcom **out);
void ipuxcom_close(struct ipuxcom *ipu);
int ipuxcom_fd(const struct ipuxcom *ipu);
const char *ipuxcom_errmsg(const struct ipuxcom *ipu);
struct ipuxcom_info {
	uint32_t size;
	uint32_t uapi_version, device_count, max_config_bar;
	uint64_t capabilities;
	...;
};
int ipuxcom_get_info(struct ipuxcom *ipu, struct ipuxcom_info *info);
int ipuxcom_attach(struct ipuxcom *ipu, uint32_t dev_id);
struct ipuxcom_device_info {
	uint32_t dev_id, state, tile_count, config_bar_size, attached_pid;
	uint64_t capabilities;
	char backend[...];
	char ipu_node[...];
	uint32_t attached;
	...;
};
int ipuxcom_dev_query(struct ipuxcom *ipu, struct ipuxcom_device_info *dev);
int ipuxcom_reg_read(struct ipuxcom *ipu, uint32_t offset, uint32_t *value);
int ipuxcom_reg_write(struct ipuxcom *ipu, uint32_t offset, uint32_t value);
int ipuxcom_reset(struct ipuxcom *ipu, uint32_t *state_out);
struct ipuxcom_init_report {
	uint32_t size;
	uint32_t ipu_driver;
	char ipu_node[...];
	uint32_t status[...];
	uint32_t failed_step;
	int32_t error;
	uint32_t icu_reply_valid;
	uint32_t icu_reply[5];
	uint32_t state;
	char msg[...];
	...;
};
int ipuxcom_dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep);
const char *ipuxcom_init_step_name(uint32_t step);
const char *ipuxcom_init_status_name(uint32_t status);
const char *ipuxcom_dev_state_name(uint32_t state);
int ipuxcom_nl_open(struct ipuxcom_nl **out);
void ipuxcom_nl_close(struct ipuxcom_nl *nl);
int ipuxcom_nl_dev_list(struct ipuxcom_nl *nl, struct ipuxcom_device_info **devs, size_t *count);
void ipuxcom_nl_dev_list_free(struct ipuxcom_device_info *devs);
const char *ipuxcom_nl_errmsg(const struct ipuxcom_nl *nl);

struct ipuxcom_bootloader {
	uint32_t size;
	uint8_t *image;
	size_t image_size;
	...;
};
int ipuxcom_bootloader_parse(const void *data, size_t len, struct ipuxcom_bootloader *out,
			     struct ipuxcom_errmsg *em);
void ipuxcom_bootloader_free(struct ipuxcom_bootloader *bl);
struct ipuxcom_load_progress {
	uint32_t batch, batches;
	uint64_t bytes, total;
	...;
};
struct ipuxcom_load_params {
	uint32_t size;
	const struct ipuxcom_image *image;
	const void *bootloader;
	size_t bootloader_size;
	const struct ipuxcom_cfg_record *cfg;
	uint32_t cfg_count;
	uint32_t cfg_hsp;
	uint64_t timeout_ns;
	void (*progress)(void *ctx, const struct ipuxcom_load_progress *p);
	void *ctx;
	uint32_t flags;
	...;
};
struct ipuxcom_load_result {
	uint32_t size, step, batch;
	uint32_t syscalls;
	char msg[...];
	...;
};
int ipuxcom_load(struct ipuxcom *ipu, const struct ipuxcom_load_params *params,
		 struct ipuxcom_load_result *res);
extern "Python" void _pyx_load_progress(void *, const struct ipuxcom_load_progress *);
int ipuxcom_exch_write(struct ipuxcom *ipu, uint32_t logical_tile, uint32_t addr,
		       const void *data, uint32_t bytes, uint64_t timeout_ns, uint32_t *tileupdr);
int ipuxcom_tdi_read_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr, uint32_t *words,
			  uint32_t count, uint32_t *done);
int ipuxcom_tdi_write_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr,
			   const uint32_t *words, uint32_t count, uint32_t *done);
struct ipuxcom_hostx_buf { void *data; size_t size; ...; };
int ipuxcom_hostx_setup(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
			uint64_t timeout_ns, struct ipuxcom_errmsg *em);
int ipuxcom_hostx_call(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
		       const char *name, const struct ipuxcom_hostx_buf *in, size_t nin,
		       struct ipuxcom_hostx_buf *out, size_t nout, uint64_t timeout_ns,
		       struct ipuxcom_errmsg *em);
int ipuxcom_tdi_read_regs(struct ipuxcom *ipu, uint32_t tile, uint32_t *regs);
const char *ipuxcom_tdi_reg_name(uint32_t reg);

struct ipuxcom_monitor;
struct ipuxcom_event {
	uint32_t size, type, dev_id, state, old_state, batch, batches;
	uint64_t bytes;
	uint32_t reg, value;
	int32_t error;
	struct ipuxcom_device_info dev;
	...;
};
int ipuxcom_monitor_open(struct ipuxcom_monitor **out);
void ipuxcom_monitor_close(struct ipuxcom_monitor *mon);
int ipuxcom_monitor_fd(const struct ipuxcom_monitor *mon);
int ipuxcom_monitor_next(struct ipuxcom_monitor *mon, struct ipuxcom_event *ev, int timeout_ms);
const char *ipuxcom_event_name(uint32_t type);

/* ---------------------------------------------------------------- this module's helpers */
int pyx_plan_p2p_batch(const struct ipuxcom_timing *tm, const uint32_t *senders,
		       const uint32_t *receivers, const uint32_t *counts, size_t n,
		       uint32_t flags, uint32_t *send_words, uint32_t *recv_words,
		       size_t *failed, struct ipuxcom_plan_error *err);
int pyx_plan_p2p_loop(const struct ipuxcom_timing *tm, const uint32_t *senders,
		      const uint32_t *receivers, const uint32_t *counts, size_t n,
		      uint32_t flags);
void free(void *);
"""

# The helpers: loops that would cost a Python call per plan.
SOURCE = r"""
#include <stdlib.h>
#include <string.h>
#include <ipuxcom.h>
#include <ipuxcom_plan.h>
#include <ipuxcom_xsim.h>
#include <ipuxcom_image.h>
#include <ipuxcom_datapath.h>
#include <ipuxcom_events.h>

/* A plan struct as the library wants it handed in (its size set, once it has one). */
#ifdef IPUXCOM_P2P_PLAN_INIT
#define PYX_P2P_PLAN(name)	struct ipuxcom_p2p_plan name = IPUXCOM_P2P_PLAN_INIT
#else
#define PYX_P2P_PLAN(name)	struct ipuxcom_p2p_plan name
#endif

/*
 * @n p2p plans; the rows' nine words go to send_words[9 * i] and
 * recv_words[9 * i]. Stops at the first failure: *failed its index.
 */
static int pyx_plan_p2p_batch(const struct ipuxcom_timing *tm, const uint32_t *senders,
			      const uint32_t *receivers, const uint32_t *counts, size_t n,
			      uint32_t flags, uint32_t *send_words, uint32_t *recv_words,
			      size_t *failed, struct ipuxcom_plan_error *err)
{
	PYX_P2P_PLAN(plan);
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		/* No error struct to fill on the way; the failing plan again with it. */
		rc = ipuxcom_plan_p2p(tm, senders[i], receivers[i], counts[i], flags, &plan, NULL);
		if (rc < 0) {
			*failed = i;
			return ipuxcom_plan_p2p(tm, senders[i], receivers[i], counts[i], flags, &plan,
						err);
		}
		memcpy(send_words + i * IPUXCOM_ROW_WORDS, plan.send.words,
		       sizeof(plan.send.words));
		memcpy(recv_words + i * IPUXCOM_ROW_WORDS, plan.recv.words,
		       sizeof(plan.recv.words));
	}
	return 0;
}

/*
 * The benchmark's baseline (python/bench/p2p_bench.py): the same @n plans
 * as a C program makes them, into one struct, nothing copied out.
 */
static int pyx_plan_p2p_loop(const struct ipuxcom_timing *tm, const uint32_t *senders,
			     const uint32_t *receivers, const uint32_t *counts, size_t n,
			     uint32_t flags)
{
	PYX_P2P_PLAN(plan);
	int rc;

	for (size_t i = 0; i < n; i++)
		if ((rc = ipuxcom_plan_p2p(tm, senders[i], receivers[i], counts[i], flags, &plan,
					   NULL)) < 0)
			return rc;
	return 0;
}
"""


_CFLAGS = ["-std=gnu11", "-Wall", "-Werror", "-Wno-unused-parameter", "-Wno-unused-function"]


def builder(srcdir: str, archive: str) -> cffi.FFI:
    """The FFI builder: declarations above, compiled against @srcdir's headers,
    linked with the library's PIC objects in @archive (make python)."""
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(
        "ipuxcom._ipuxcom",
        SOURCE,
        include_dirs=[srcdir + "/libuser/include", srcdir + "/uapi"],
        extra_objects=[archive],
        libraries=["mnl", "elf"],
        extra_compile_args=_CFLAGS,
    )
    return ffi


def source_tree() -> str:
    """The ipuxcom source tree this file sits in (python/..), or $IPUXCOM_SRCDIR."""
    top = os.environ.get("IPUXCOM_SRCDIR") or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isfile(os.path.join(top, "libuser", "include", "ipuxcom.h")):
        raise SystemExit(f"ipuxcom_build.py: no libipuxcom sources in {top} (libuser/): "
                         "pip builds the package from the ipuxcom source tree "
                         "(pip install ./python), or set IPUXCOM_SRCDIR")
    return top


def pip_builder() -> cffi.FFI:
    """The FFI builder for pip (setup.py's cffi_modules): the library's own
    sources (libuser/src/*.c) compiled into the extension, as the archive
    of `make python` is, with the library's hidden visibility; only
    libmnl and libelf are needed besides."""
    top = source_tree()
    # setuptools takes sources relative to setup.py's directory (the cwd) only
    lib_srcs = sorted(os.path.relpath(p) for p in
                      glob.glob(os.path.join(top, "libuser", "src", "*.c")))
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(
        "ipuxcom._ipuxcom",
        SOURCE,
        sources=lib_srcs,
        include_dirs=[os.path.join(top, "libuser", "include"), os.path.join(top, "uapi")],
        define_macros=[("_GNU_SOURCE", None)],
        libraries=["mnl", "elf"],
        extra_compile_args=_CFLAGS + ["-fvisibility=hidden"],
    )
    return ffi


def lib_version() -> str:
    """IPUXCOM_LIB_VERSION of the source tree's ipuxcom.h (the package's version)."""
    with open(os.path.join(source_tree(), "libuser", "include", "ipuxcom.h")) as f:
        m = re.search(r'^#define IPUXCOM_LIB_VERSION\s+"([^"]+)"', f.read(), re.M)
    if not m:
        raise SystemExit("ipuxcom_build.py: IPUXCOM_LIB_VERSION not found in ipuxcom.h")
    return m.group(1)


def main(argv: List[str]) -> int:
    """make python: OUTDIR SRCDIR PICARCHIVE."""
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, srcdir, archive = (os.path.abspath(a) for a in argv[1:])
    builder(srcdir, archive).compile(tmpdir=outdir, verbose=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
