// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom load: the whole session the record runs before every load --
 * the initialisation, on a card the replay of its config capture, then
 * autoloader, 23 frame batches with their handshakes, release and start
 * -- from an IPUIMG1 image, with a progress bar drawn from the module's
 * netlink LOAD_PROGRESS events (what `ipuxcom monitor` shows), or from
 * the library's callback when events cannot be watched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "cli.h"
#include "explain.h"
#include "load.h"
#include "outfile.h"
#include "json.h"
#include "input.h"
#include "privilege.h"

static const char *dev_arg, *boot_arg, *cfg_arg, *timeout_arg, *hostx_arg, *cfg_hsp_arg;
static bool quiet, init, no_init, no_cfg, check_only;

static const struct cli_opt load_opts[] = {
	{ .lname = "bootloader", .sname = 'b', .arg = "FILE",
	  .help = "tile bootloader, the SDK's ELF or raw (required)", .value = &boot_arg },
	{ .lname = "config", .sname = 'c', .arg = "FILE",
	  .help = "the card's IPUCFG1 config capture, replayed first (required on a card)",
	  .value = &cfg_arg },
	{ .lname = "no-config", .help = "load a card without replaying a config capture",
	  .flag = &no_cfg },
	{ .lname = "cfg-hsp", .arg = "MODE",
	  .help = "the config's GS1/GS2 records: clear (default), keep-gs2 or replay",
	  .value = &cfg_hsp_arg },
	{ .lname = "dev", .arg = "ID", .help = "device id (default: the lowest registered)", .value = &dev_arg },
	{ .lname = "timeout-ms", .arg = "MS", .help = "per handshake (default: module's)",
	  .value = &timeout_arg },
	{ .lname = "no-init", .help = "do not initialise the device first (it must be idle)",
	  .flag = &no_init },
	{ .lname = "init", .help = "initialise the device first (the default; kept for scripts)",
	  .flag = &init },
	{ .lname = "quiet", .sname = 'q', .help = "no progress output", .flag = &quiet },
	{ .lname = "check", .help = "only check every input and output, touch no device",
	  .flag = &check_only },
	{ .lname = "hostx", .arg = "MANIFEST",
	  .help = "then run CALLs through this host-sync manifest", .value = &hostx_arg },
};

#define NOPTS (sizeof(load_opts) / sizeof(load_opts[0]))

/* Read a whole small file ("-": standard input); returns 0 or -errno. */
static int read_file(const char *path, size_t max, void **data, size_t *len)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "rb");
	size_t n;
	char *buf;

	if (!f)
		return -errno;
	buf = malloc(max + 1);
	if (!buf) {
		if (!std)
			fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f)) {
		if (!std)
			fclose(f);
		free(buf);
		return -EIO;
	}
	if (!std)
		fclose(f);
	if (n > max) {
		free(buf);
		return -EFBIG;
	}
	*data = buf;
	*len = n;
	return 0;
}

/* What the progress bar is drawn from. */
struct load_progress {
	const char *what;
	bool tty;
	struct ipuxcom_monitor *mon;	/* NULL: the callback's numbers */
	uint32_t dev_id;
	uint32_t batch;			/* last batch an event reported */
	uint64_t bytes;			/* frame payload bytes the events reported */
};

static void draw(const struct load_progress *lp, uint32_t batch, uint32_t batches,
		 uint64_t bytes, uint64_t total)
{
	int width = 23, done = (int)(batch * (uint32_t)width / batches);

	if (lp->tty) {
		fprintf(stderr, "\r[%.*s%*s] batch %2" PRIu32 "/%" PRIu32 "  %6.1f MiB",
			done, "#######################", width - done, "", batch, batches,
			(double)bytes / (1024 * 1024));
		if (batch == batches)
			fputc('\n', stderr);
	} else if (total) {
		fprintf(stderr, "batch %" PRIu32 "/%" PRIu32 " (%" PRIu64 " of %" PRIu64 " byte%s)\n",
			batch, batches, bytes, total, cli_s(total));
	} else {
		fprintf(stderr, "batch %" PRIu32 "/%" PRIu32 " (%" PRIu64 " frame byte%s so far)\n",
			batch, batches, bytes, cli_s(bytes));
	}
}

/* Stop using events for the rest of the load, saying why (once). */
static void events_give_up(struct load_progress *lp, const char *why)
{
	if (lp->tty && lp->batch)
		fputc('\n', stderr);
	cli_err(lp->what, "%s: progress from the library from now on", why);
	ipuxcom_monitor_close(lp->mon);
	lp->mon = NULL;
}

/*
 * After each batch: the module multicast its LOAD_PROGRESS event before
 * LOAD_BATCH returned, so it is already queued on the monitor. Drain what
 * is pending without waiting and draw from this device's events.
 */
static void progress(void *ctx, const struct ipuxcom_load_progress *p)
{
	struct load_progress *lp = ctx;
	struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;
	int err;

	while (lp->mon) {
		err = ipuxcom_monitor_next(lp->mon, &ev, 0);
		if (err == -EAGAIN)
			break;
		if (err == -ENOBUFS) {
			events_give_up(lp, "load events were lost (receive buffer overflow)");
			break;
		}
		if (err == -EPROTO)
			continue;	/* a dropped event shows up as a gap below */
		if (err) {
			events_give_up(lp, ipuxcom_strerror(err));
			break;
		}
		if (ev.type != IPUXCOM_GENL_CMD_LOAD_PROGRESS || ev.dev_id != lp->dev_id)
			continue;
		lp->batch = ev.batch;
		lp->bytes += ev.bytes;
		draw(lp, ev.batch, ev.batches, lp->bytes, 0);
	}
	if (lp->mon && lp->batch != p->batch) {
		char why[64];

		snprintf(why, sizeof(why), "no load event for batch %" PRIu32, p->batch);
		events_give_up(lp, why);
	}
	if (!lp->mon)
		draw(lp, p->batch, p->batches, p->bytes, p->total);
}

/* Host-exchange calls after the load: NAME[:in=FILE]...[:out=FILE]... (load.h) */

/* Split a CALL argument into @sp; its name is checked against the manifest later. */
static int hostx_parse_spec(const struct cli_call *call, char *arg, struct hostx_spec *sp)
{
	char *part, *save = NULL;

	memset(sp, 0, sizeof(*sp));
	part = strtok_r(arg, ":", &save);
	if (!part || strlen(part) >= sizeof(sp->name))
		return cli_usage_err(call, "invalid call '%s'", arg);
	strcpy(sp->name, part);
	while ((part = strtok_r(NULL, ":", &save))) {
		if (!strncmp(part, "in=", 3) && sp->nin < HOSTX_MAX_IO)
			sp->in[sp->nin++] = part + 3;
		else if (!strncmp(part, "out=", 4) && sp->nout < HOSTX_MAX_IO)
			sp->out[sp->nout++] = part + 4;
		else
			return cli_usage_err(call, "call '%s': invalid part '%s' (in=FILE or out=FILE)",
					     sp->name, part);
	}
	return CLI_CONTINUE;
}

/* A call the manifest does not have, or given the wrong number of files. */
static int hostx_match_spec(const struct cli_call *call, const struct ipuxcom_hsp_manifest *m,
			    const struct hostx_spec *sp)
{
	int idx, want_in = 0, want_out = 0;

	idx = ipuxcom_hsp_find_call(m, sp->name);
	if (idx < 0)
		return cli_usage_err(call, "the manifest has no call '%s'", sp->name);
	for (uint32_t i = 0; i < m->nslices; i++) {
		if (m->slices[i].call != (uint32_t)idx)
			continue;
		if (m->slices[i].dir == IPUXCOM_HSP_INPUT)
			want_in++;
		else
			want_out++;
	}
	if (sp->nin != want_in || sp->nout != want_out)
		return cli_usage_err(call, "call '%s' takes %d in= and %d out= files, %d and %d given",
				     sp->name, want_in, want_out, sp->nin, sp->nout);
	return CLI_CONTINUE;
}

static int hostx_run_calls(const struct cli_call *call, struct ipuxcom *ipu,
			   const struct ipuxcom_hsp_manifest *m, struct hostx_spec *specs,
			   int n, uint64_t timeout_ns)
{
	struct ipuxcom_hostx_buf in[HOSTX_MAX_IO], out[HOSTX_MAX_IO];
	struct ipuxcom_errmsg em;
	int rc = CLI_EXIT_ERR, err;

	err = ipuxcom_hostx_setup(ipu, m, timeout_ns, &em);
	if (err) {
		cli_err(call->what, "host exchange: %s", em.msg);
		return CLI_EXIT_ERR;
	}
	for (int c = 0; c < n; c++) {
		struct hostx_spec *sp = &specs[c];
		int idx = ipuxcom_hsp_find_call(m, sp->name), k = 0;

		memset(in, 0, sizeof(in));
		memset(out, 0, sizeof(out));
		for (int i = 0; i < sp->nin; i++) {
			err = read_file(sp->in[i], IPUXCOM_HSP_MAX_PAGE_SIZE, &in[i].data, &in[i].size);
			if (err) {
				cli_err(call->what, "call '%s': %s: %s", sp->name, sp->in[i],
					strerror(-err));
				goto free;
			}
		}
		for (uint32_t i = 0; i < m->nslices; i++) {
			if (m->slices[i].call != (uint32_t)idx || m->slices[i].dir != IPUXCOM_HSP_OUTPUT)
				continue;
			out[k].size = m->slices[i].size;
			out[k].data = calloc(1, out[k].size);
			if (!out[k++].data) {
				cli_err(call->what, "out of memory");
				goto free;
			}
		}
		err = ipuxcom_hostx_call(ipu, m, sp->name, in, (size_t)sp->nin, out,
					 (size_t)sp->nout, timeout_ns, &em);
		if (err) {
			cli_err(call->what, "%s", em.msg);
			goto free;
		}
		for (int i = 0; i < sp->nout; i++) {
			if (outfile_write_all(call, sp->out[i], out[i].data, out[i].size))
				goto free;
		}
		/* With -j, the load's JSON object lists the calls once all are done. */
		if (!call->json)
			printf("call %s: %" PRIu32 " phases done\n", sp->name,
			       m->calls[idx].phases);
		for (int i = 0; i < HOSTX_MAX_IO; i++) {
			free(in[i].data);
			free(out[i].data);
		}
		continue;
free:
		for (int i = 0; i < HOSTX_MAX_IO; i++) {
			free(in[i].data);
			free(out[i].data);
		}
		return rc;
	}
	return CLI_EXIT_OK;
}

static void load_json(const struct cli_call *call, const char *image, uint32_t dev, const struct ipuxcom_load_result *res,
		      const struct ipuxcom_hsp_manifest *m, const struct hostx_spec *specs,
		      int ncalls)
{
	struct json_writer w;

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	json_kv_uint(&w, "dev", dev);
	json_kv_string(&w, "image", image);
	json_kv_uint(&w, "tiles", 1472);
	json_kv_uint(&w, "syscalls", res->syscalls);
	json_kv_string(&w, "state", "running");
	json_key(&w, "calls");
	json_begin_array(&w);
	for (int c = 0; m && c < ncalls; c++) {
		json_begin_object(&w);
		json_kv_string(&w, "name", specs[c].name);
		json_kv_uint(&w, "phases", m->calls[ipuxcom_hsp_find_call(m, specs[c].name)].phases);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
}

/*
 * Whether device @which (NULL: the lowest registered, as the attach
 * picks it) is a card held through ipu_driver, from the module's netlink
 * list, which touches no device: 1, 0, or -1 when it cannot be told (no
 * list, no such device; the query after the attach then decides).
 */
static int load_dev_is_card(const char *which)
{
	struct ipuxcom_device_info *list = NULL;
	struct ipuxcom_nl *nl = NULL;
	uint32_t id = 0;
	int card = -1;
	size_t n = 0, pick = 0;

	if (which && !cli_parse_u32(which, &id))
		return -1;
	if (ipuxcom_nl_open(&nl))
		return -1;
	if (!ipuxcom_nl_dev_list(nl, &list, &n) && n) {
		for (size_t i = 0; i < n; i++)
			if (which ? list[i].dev_id == id : list[i].dev_id < list[pick].dev_id)
				pick = i;
		if (!which || list[pick].dev_id == id)
			card = !!(list[pick].capabilities & IPUXCOM_CAP_IPU_DRIVER);
	}
	ipuxcom_nl_dev_list_free(list);
	ipuxcom_nl_close(nl);
	return card;
}

/* The fix for a card load without a config, in the command's words. */
#define LOAD_CFG_FIX								\
	"give the card's IPUCFG1 config capture with -c FILE (the design notes' "	\
	"c600-init.ipucfg is one for a C600 on firmware 2.7.1; '" CLI_PROG " cfg inspect "	\
	"FILE' checks one), or load without it with --no-config"

/* An input the library could not read: its message names the file (as cli_file_err()). */
static void check_lib_fail(struct checklist *cl, const char *name, const char *path,
			   const struct ipuxcom_errmsg *em, int err)
{
	if (em->msg[0])
		checklist_add(cl, CHECK_FAIL, name, path, NULL, "%s", em->msg);
	else
		checklist_add(cl, CHECK_FAIL, name, path, NULL, "%s: %s", path,
			      ipuxcom_strerror(err));
}

/*
 * Read and check every input the load needs, and the files of the calls,
 * into @cl: nothing is sent to a device until all of it is right.
 */
static void load_check_inputs(struct checklist *cl, const char *image_path,
			      struct ipuxcom_image **img, struct ipuxcom_bootloader *boot,
			      struct ipuxcom_cfg_record **recs, uint32_t *nrecs,
			      const struct ipuxcom_hsp_manifest *m, int manifest_err,
			      const struct ipuxcom_errmsg *manifest_em,
			      const struct hostx_spec *specs, int ncalls, int card)
{
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	int err;

	/* An ELF (by its magic) gives its PT_LOAD at 0x4c000; anything else is raw. */
	err = cli_input_bootloader(boot_arg, boot, &em);
	if (err)
		check_lib_fail(cl, "bootloader", boot_arg, &em, err);
	else
		checklist_add(cl, CHECK_OK, "bootloader", boot_arg, NULL, "%s: %s, %zu byte%s",
			      boot_arg, boot->from_elf ? "ELF segment" : "raw", boot->image_size,
			      boot->image_size == 1 ? "" : "s");
	err = cli_input_image(image_path, img, &em);
	if (err) {
		check_lib_fail(cl, "image", image_path, &em, err);
	} else {
		ipuxcom_image_get_info(*img, &info);
		checklist_add(cl, CHECK_OK, "image", image_path, NULL,
			      "%s: IPUIMG1, %" PRIu32 " tiles, %" PRIu64 " bytes", image_path,
			      info.tile_count, info.file_size);
	}
	if (cfg_arg) {
		err = cli_input_cfg(cfg_arg, recs, nrecs, &em);
		if (err)
			check_lib_fail(cl, "config", cfg_arg, &em, err);
		else
			checklist_add(cl, CHECK_OK, "config", cfg_arg, NULL,
				      "%s: IPUCFG1, %" PRIu32 " records", cfg_arg, *nrecs);
	} else if (no_cfg) {
		checklist_add(cl, card > 0 ? CHECK_WARN : CHECK_OK, "config", NULL, NULL,
			      "--no-config: no config replay%s", card > 0 ?
			      " (no record says a card loads without one)" : "");
	} else if (card > 0) {
		/* Refused here, before the device is opened: nothing reaches the card. */
		checklist_add(cl, CHECK_FAIL, "config", NULL, LOAD_CFG_FIX,
			      "none given: a card load replays the card's config capture "
			      "after the initialisation, as every load in the record does "
			      "(-c FILE, or --no-config to load without)");
	}
	/* Without it the first load ioctl fails, after the init has reset the device. */
	if (!priv_has_cap_sys_rawio())
		checklist_add(cl, CHECK_FAIL, "privilege", NULL, "run it as root",
			      "CAP_SYS_RAWIO not held: the device would refuse the load (EPERM)");
	else
		checklist_add(cl, CHECK_OK, "privilege", NULL, NULL, "CAP_SYS_RAWIO %s",
			      priv_has_cap_sys_rawio() > 0 ? "held" : "not known: /proc unreadable");
	if (hostx_arg) {
		if (manifest_err)
			check_lib_fail(cl, "manifest", hostx_arg, manifest_em, manifest_err);
		else
			checklist_add(cl, CHECK_OK, "manifest", hostx_arg, NULL,
				      "%s: %" PRIu32 " calls, %" PRIu32 " pages", hostx_arg,
				      m->ncalls, m->npages);
		load_check_call_files(cl, manifest_err ? NULL : m, specs, ncalls);
	}
}

static int load_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_load_params params = IPUXCOM_LOAD_PARAMS_INIT;
	struct load_progress lp = { .what = call->what };
	struct ipuxcom_device_info info;
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_cfg_record *recs = NULL;
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg manifest_em = { "" };
	struct checklist cl = { 0 };
	struct ipuxcom *ipu = NULL;
	struct ipuxcom_bootloader boot = IPUXCOM_BOOTLOADER_INIT;
	uint32_t ms = 0, nrecs = 0;
	char why[256];
	static struct hostx_spec specs[HOSTX_MAX_CALLS];
	static struct ipuxcom_hsp_manifest manifest;
	char *pos[1 + HOSTX_MAX_CALLS];
	int npos, rc, err, manifest_err = 0;

	dev_arg = boot_arg = cfg_arg = timeout_arg = hostx_arg = cfg_hsp_arg = NULL;
	quiet = init = no_init = no_cfg = check_only = false;
	rc = cli_parse(call, argc, argv, load_opts, NOPTS, true, pos,
		       1 + HOSTX_MAX_CALLS, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	/* Usage first: a typo is reported as one, whatever the files hold. */
	if (npos < 1 || (npos > 1 && !hostx_arg))
		return cli_usage_err(call, "expected IMAGE (CALLs need --hostx MANIFEST)");
	if (!boot_arg)
		return cli_usage_err(call, "--bootloader FILE is required (the simulator accepts "
				     "any 1..4096-byte image)");
	if (timeout_arg && (!cli_parse_u32(timeout_arg, &ms) || !ms))
		return cli_usage_err(call, "invalid --timeout-ms '%s': a decimal number of "
				     "milliseconds, 1 or more", timeout_arg);
	if (cfg_hsp_arg && ipuxcom_cfg_hsp_parse(cfg_hsp_arg) < 0)
		return cli_usage_err(call, "invalid --cfg-hsp '%s' (clear, keep-gs2 or replay)",
				     cfg_hsp_arg);
	if (cfg_hsp_arg && !cfg_arg)
		return cli_usage_err(call, "--cfg-hsp needs -c FILE");
	if (init && no_init)
		return cli_usage_err(call, "--init and --no-init contradict each other");
	if (cfg_arg && no_cfg)
		return cli_usage_err(call, "-c FILE and --no-config contradict each other");
	for (int i = 1; i < npos; i++) {
		rc = hostx_parse_spec(call, pos[i], &specs[i - 1]);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	/* An out=- writes standard output: the load's report then goes to stderr. */
	for (int i = 1; i < npos; i++)
		for (int k = 0; k < specs[i - 1].nout; k++)
			if ((rc = outfile_claim_stdout(call, specs[i - 1].out[k])))
				return rc;
	if (hostx_arg) {
		manifest_err = cli_input_hsp(hostx_arg, &manifest, &manifest_em);
		for (int i = 1; i < npos && !manifest_err; i++) {
			rc = hostx_match_spec(call, &manifest, &specs[i - 1]);
			if (rc != CLI_CONTINUE)
				return rc;
		}
	}

	load_check_inputs(&cl, pos[0], &img, &boot, &recs, &nrecs, &manifest, manifest_err,
			  &manifest_em, specs, npos - 1,
			  load_dev_is_card(dev_arg ? dev_arg : call->dev));
	if (check_only) {
		checklist_print(&cl, call, stdout);
		checklist_report_failures(&cl, call);
		rc = cl.failures ? CLI_EXIT_ERR : CLI_EXIT_OK;
		goto out;
	}
	if (cl.failures) {
		checklist_report_failures(&cl, call);
		cli_err(call->what, "%u problem%s found: nothing was done to the device",
			cl.failures, cl.failures > 1 ? "s" : "");
		rc = CLI_EXIT_ERR;
		goto out;
	}

	rc = cli_open_attached(call, dev_arg, &ipu);
	if (rc)
		goto out;
	/*
	 * The same rule when the list did not say (ipuxcom_load() keeps it
	 * too): before the initialisation, so nothing reaches the card.
	 */
	if (!cfg_arg && !no_cfg) {
		err = ipuxcom_dev_query(ipu, &info);
		if (!err && (info.capabilities & IPUXCOM_CAP_IPU_DRIVER)) {
			cli_err(call->what, "config: none given: a card load replays the card's "
				"config capture after the initialisation, as every load in the "
				"record does: nothing was done to the card");
			cli_err(call->what, "%s", LOAD_CFG_FIX);
			rc = CLI_EXIT_ERR;
			goto out;
		}
	}
	/*
	 * Initialise in this same ipu_driver session, as the peer does before
	 * every load (HW-DRV-INIT: STOP/START
	 * monitoring, the ICU mailbox reset, ACCUMULATE_ERRORS, RESET_DEVICE
	 * 0, SET_SECONDARY_IPU_ID; a module RESET on the simulator). Silent
	 * when it works; a failure lists the steps on stderr. Here rather
	 * than in ipuxcom_load() (IPUXCOM_LOAD_F_NO_INIT below) for that list.
	 */
	if (!no_init) {
		struct cli_call init_call = *call;

		init_call.json = false;
		rc = cli_dev_init(&init_call, ipu, 0, true, stderr);
		if (rc)
			goto out;
	}
	lp.tty = isatty(STDERR_FILENO);
	/* The device id attached to, for the JSON object. */
	if (call->json && (err = ipuxcom_dev_query(ipu, &info))) {
		cli_err(call->what, "%s", ipuxcom_strerror(err));
		rc = CLI_EXIT_ERR;
		goto out;
	}
	if (!quiet) {
		/* Joined before the load starts, so no event of it is missed. */
		err = ipuxcom_dev_query(ipu, &info);
		if (!err)
			err = ipuxcom_monitor_open(&lp.mon);
		if (err)
			cli_err(call->what, "cannot watch load events (%s): progress from the "
				"library", ipuxcom_strerror(err));
		else
			lp.dev_id = info.dev_id;
	}

	params.image = img;
	params.bootloader = boot.image;
	params.bootloader_size = boot.image_size;
	params.cfg = recs;
	params.cfg_count = nrecs;
	params.cfg_hsp = cfg_hsp_arg ? (uint32_t)ipuxcom_cfg_hsp_parse(cfg_hsp_arg) :
				       IPUXCOM_CFG_HSP_CLEAR;
	params.timeout_ns = (uint64_t)ms * 1000000;
	/* initialised above (or --no-init); --no-config on a card */
	params.flags = IPUXCOM_LOAD_F_NO_INIT | (no_cfg ? IPUXCOM_LOAD_F_NO_CFG : 0);
	params.progress = quiet ? NULL : progress;
	params.ctx = &lp;
	err = ipuxcom_load(ipu, &params, &res);
	if (err) {
		if (lp.tty && !quiet && res.batch)
			fputc('\n', stderr);
		cli_err(call->what, "%s", res.msg);
		if (err == -ETIMEDOUT)
			cli_err(call->what, "the device now needs '" CLI_PROG " dev reset'");
		else if (err == -EBADFD)	/* which state, and the way out of it */
			cli_err(call->what, "%s", cli_dev_strerror(ipu, err, why, sizeof(why)));
		rc = CLI_EXIT_ERR;
		goto out;
	}
	if (!quiet && !call->json)
		printf("loaded %s: 1472 tiles, %" PRIu32 " system calls, device running\n",
		       pos[0], res.syscalls);
	rc = CLI_EXIT_OK;
	if (hostx_arg)
		rc = hostx_run_calls(call, ipu, &manifest, specs, npos - 1, params.timeout_ns);
	if (!rc && call->json)
		load_json(call, pos[0], info.dev_id, &res, hostx_arg ? &manifest : NULL, specs,
			  npos - 1);
out:
	checklist_free(&cl);
	ipuxcom_monitor_close(lp.mon);
	ipuxcom_close(ipu);
	ipuxcom_image_free(img);
	free(recs);
	ipuxcom_bootloader_free(&boot);
	return rc;
}

static const struct cli_cmd load_cmds[] = {
	{
		.name = NULL,
		.args = "IMAGE -b|--bootloader FILE [-c FILE [--cfg-hsp MODE] | --no-config] [--dev ID] "
			"[--no-init] [--timeout-ms MS] [-q] [-j] [--check] [--hostx MANIFEST CALL...]",
		.summary = "load an IPUIMG1 image onto every tile and start it",
		.description =
			"Attach to device ID (default: the lowest registered) and run, in that one\n"
			"session, what the record runs before every load:\n"
			"1. the initialisation, as '" CLI_PROG " dev init' does it (on a card held through\n"
			"   ipu_driver its initialisation from driver-idle, the ICU mailbox reset\n"
			"   among it; a reset on the simulator; its steps are listed on stderr only\n"
			"   if it fails); --no-init skips it, and the device must then be idle\n"
			"   (--init, the default, is accepted for older scripts);\n"
			"2. the replay of the IPUCFG1 config capture -c FILE (needs CAP_SYS_RAWIO).\n"
			"   On a card it is required: without -c, and without --no-config, the\n"
			"   command refuses before anything reaches the card. On the simulator it\n"
			"   is optional (there is no card whose capture it would be);\n"
			"3. the load: install the bootloader with the hardware autoloader, attach\n"
			"   the transport buffer (this process's memory, pinned by the module and\n"
			"   charged to its user's RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK; on a device\n"
			"   held through ipu_driver also BUFFER_ATTACHed there), write the 23\n"
			"   batches of 64 tiles' loader frames into it (no copy) and hand each to\n"
			"   the loaders with a GS1 mark-1 handshake, then the 0xff release\n"
			"   transaction and the start mark 23.\n"
			"Progress goes to stderr. On a timeout the device needs '" CLI_PROG " dev reset'.\n"
			"The bootloader FILE is either the tile bootloader ELF as the SDK ships it\n"
			"(told apart by its \\x7fELF magic; 32-bit little-endian), of which the one\n"
			"PT_LOAD segment at 0x4c000 is installed (its file bytes, then zeros up to\n"
			"its memory size), or the raw image, installed unchanged. Either way it is\n"
			"1..4096 bytes.\n"
			"A captured config writes the HSP marks GS1/GS2 (the real C600 capture\n"
			"ends with GS2=1, GS1=1); --cfg-hsp says what to do with those records:\n"
			"'clear' (default) skips them and clears both marks, as the loader that\n"
			"completed full loads on a C600 does; 'keep-gs2' replays GS2's (the\n"
			"notes' preloaded GS2 mark) and clears GS1; 'replay' writes them all, and\n"
			"a GS1 mark left pending then stops batch 0 (docs/hardware-sequence.md).\n"
			"With --hostx MANIFEST (a .ipuhsp host-sync manifest, docs/ipuhsp-format.md)\n"
			"the same session then allocates the manifest's host pages, runs the\n"
			"load-completion transition (attaching the pages in the manifest's order)\n"
			"and the CALLs in order, each given as\n"
			"NAME[:in=FILE]...[:out=FILE]... (one file per input/output slice of the\n"
			"call, in manifest order), e.g. write:in=x.bin run read:out=y.bin;\n"
			"in=- reads standard input (once), out=- writes standard output.\n"
			"Before the device is opened every input is read and checked (image,\n"
			"bootloader, config, and a config given when the device is a card;\n"
			"manifest; each in= file readable and, when a\n"
			"regular file, of its slice's size, unless an earlier call's out= makes\n"
			"it), every out= file must be writable or creatable, and the process\n"
			"must hold CAP_SYS_RAWIO, without which the module refuses loads; all\n"
			"problems are listed and the command fails with nothing done to the\n"
			"device.\n"
			"With --check it does only that, touching no device: one line per check\n"
			"(ok or FAIL) and a summary, or with --json one object {\"checks\":\n"
			"[{\"name\",\"file\",\"status\",\"detail\",\"fix\"}...],\"ok\",\"warnings\",\n"
			"\"failures\"}; exit 0 when all is well, 1 when a check failed.\n"
			"With --json (a load): one object once everything is done, {\"dev\",\"image\",\n"
			"\"tiles\",\"syscalls\",\"state\":\"running\",\"calls\":[{\"name\",\"phases\"}]}\n"
			"(progress still goes to stderr; the init's steps are not printed).",
		.run = load_run,
		.takes_dev = true,
	},
};

const struct cli_object cli_obj_load = {
	.name = "load",
	.summary = "load an image onto a device and start it",
	.cmds = load_cmds,
	.ncmds = sizeof(load_cmds) / sizeof(load_cmds[0]),
	.default_cmd = NULL,
};
