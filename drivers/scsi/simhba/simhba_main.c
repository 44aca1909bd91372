// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: a simulated SCSI host adapter whose disks follow a timing model.
 *
 * Each host is a Scsi_Host on a struct device of its own, with the DMA mask
 * of its personality; scatterlists are mapped with the DMA API against that
 * device, so a 32-bit mask really bounces through swiotlb.  Each LUN is one
 * modelled disk (or a RAID0 set of them) with a sparse in-memory data store.
 * Completions are delivered by hrtimers at the modelled time.
 *
 * This file holds the module parameters, the personalities and the
 * lifecycle of hosts and LUNs; simhba_io.c the command path, simhba_scsi.c
 * the emulated commands, simhba_store.c the data store, simhba_sysfs.c
 * sysfs and debugfs, simhba_model.c the timing model.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "simhba.h"

/* ---- module parameters ------------------------------------------------ */

static unsigned int hosts = 1;
module_param(hosts, uint, 0444);
MODULE_PARM_DESC(hosts, "number of host adapters, 1-16 (default 1)");

static unsigned int luns = 1;
module_param(luns, uint, 0444);
MODULE_PARM_DESC(luns, "LUNs per host, 1-64 (default 1)");

static char *personality[SIMHBA_MAX_HOSTS];
static int n_personality;
module_param_array(personality, charp, &n_personality, 0444);
MODULE_PARM_DESC(personality,
		 "per host, comma separated: generic, aacraid or qla2xxx; the last one given applies to the remaining hosts (default generic)");

static char *profile[SIMHBA_MAX_HOSTS];
static int n_profile;
module_param_array(profile, charp, &n_profile, 0444);
MODULE_PARM_DESC(profile,
		 "per host, comma separated: u320-10k, sata-7200, ssd or raid0; the last one given applies to the remaining hosts (default sata-7200)");

static unsigned int capacity_mb;
module_param(capacity_mb, uint, 0444);
MODULE_PARM_DESC(capacity_mb,
		 "capacity of each LUN in MiB, 0 = the profile's (default 0)");

unsigned int simhba_time_scale = 1;
module_param_named(time_scale, simhba_time_scale, uint, 0444);
MODULE_PARM_DESC(time_scale,
		 "divide every modelled time by this factor, 1-10000 (default 1)");

static unsigned int qdepth;
module_param(qdepth, uint, 0444);
MODULE_PARM_DESC(qdepth,
		 "tagged queue depth per LUN, 1-256, 0 = the profile's (default 0)");

static int wce = -1;
module_param(wce, int, 0444);
MODULE_PARM_DESC(wce,
		 "write-back cache: 0 off, 1 on, -1 the profile's (default -1)");

static unsigned int ncq_age_ms = 1000;
module_param(ncq_age_ms, uint, 0444);
MODULE_PARM_DESC(ncq_age_ms,
		 "aging limit of firmware reordering in modelled ms, 1-10000 (default 1000)");

bool simhba_nostore;
module_param_named(nostore, simhba_nostore, bool, 0444);
MODULE_PARM_DESC(nostore, "discard writes, reads return zeros (default N)");

unsigned int simhba_store_mb = 512;
module_param_named(store_mb, simhba_store_mb, uint, 0444);
MODULE_PARM_DESC(store_mb,
		 "limit of the data store of all LUNs together in MiB, 1-1048576 (default 512)");

static unsigned int dma_bits = 32;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits,
		 "DMA mask width of aacraid hosts, 32-64 (default 32)");

static unsigned int fw_overhead_us = 100;
module_param(fw_overhead_us, uint, 0444);
MODULE_PARM_DESC(fw_overhead_us,
		 "aacraid firmware overhead per command in us, 0-100000 (default 100)");

static unsigned int sg_segments = 32;
module_param(sg_segments, uint, 0444);
MODULE_PARM_DESC(sg_segments,
		 "scatter-gather segments of qla2xxx hosts, 32 or 64 (default 32)");

static unsigned int sg_tablesize;
module_param(sg_tablesize, uint, 0444);
MODULE_PARM_DESC(sg_tablesize,
		 "override the personality's sg_tablesize, 0 = keep, else 1-2048 (default 0)");

static unsigned int max_sectors;
module_param(max_sectors, uint, 0444);
MODULE_PARM_DESC(max_sectors,
		 "override the personality's max_sectors (512-byte units), 0 = keep, else 8-65535 (default 0)");

static unsigned int raid_members = 4;
module_param(raid_members, uint, 0444);
MODULE_PARM_DESC(raid_members, "member disks of a raid0 LUN, 2-16 (default 4)");

static unsigned int raid_chunk_kb = 64;
module_param(raid_chunk_kb, uint, 0444);
MODULE_PARM_DESC(raid_chunk_kb,
		 "raid0 chunk size in KiB, a power of two, 4-4096 (default 64)");

static char *raid_member = "u320-10k";
module_param(raid_member, charp, 0444);
MODULE_PARM_DESC(raid_member,
		 "profile of raid0 member disks: u320-10k, sata-7200 or ssd (default u320-10k)");

/* ---- personalities ------------------------------------------------------ */

static const struct simhba_pers simhba_pers[] = {
	{ .name = "generic", .sg_tablesize = SG_MAX_SEGMENTS,
	  .max_sectors = 65535, .can_queue = 2048 },
	/* aacraid's 34-entry quirk: 34 * 8 + 112 sectors, 64 KiB segments */
	/* one Ultra320 bus (half duplex); fw_overhead_us per command */
	{ .name = "aacraid", .sg_tablesize = 34, .max_sectors = 384,
	  .max_segment_size = 65536,
	  .can_queue = 512, .link_mbps = 320, .aac = true },
	/* one 2 Gb/s Fibre Channel port: 200 MB/s each way */
	{ .name = "qla2xxx", .sg_tablesize = 32, .max_sectors = 512,
	  .can_queue = 2048, .link_mbps = 200, .full_duplex = true,
	  .cmd_us = 30, .qla = true },
};

static struct simhba_host *simhba_hosts[SIMHBA_MAX_HOSTS];
static struct device *simhba_root;
struct dentry *simhba_dbg_root;

static const struct scsi_host_template simhba_template = {
	.module			= THIS_MODULE,
	.name			= "simhba",
	.proc_name		= "simhba",
	.queuecommand		= simhba_queuecommand,
	.eh_abort_handler	= simhba_eh_abort,
	.eh_device_reset_handler = simhba_eh_device_reset,
	.eh_host_reset_handler	= simhba_eh_host_reset,
	.slave_alloc		= simhba_slave_alloc,
	.slave_configure	= simhba_slave_configure,
	.slave_destroy		= simhba_slave_destroy,
	.init_cmd_priv		= simhba_init_cmd_priv,
	.cmd_size		= sizeof(struct simhba_cmd),
	.can_queue		= 2048,
	.cmd_per_lun		= 32,
	.this_id		= 7,
	/* nothing to settle after a host reset: no 10 s sleep in the EH */
	.skip_settle_delay	= 1,
	.sg_tablesize		= SG_MAX_SEGMENTS,
	.max_sectors		= 65535,
	.max_segment_size	= -1U,
	.shost_groups		= simhba_shost_groups,
	.sdev_groups		= simhba_sdev_groups,
};

/* ---- setup and teardown -------------------------------------------------- */

static void simhba_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct simhba_host, dev));
}

static int simhba_lun_init(struct simhba_host *h, struct simhba_lun *lun,
			   unsigned int idx, const char *prof_name)
{
	const struct simhba_profile *p;
	u64 cap = (u64)capacity_mb << 11, mcap;
	unsigned int i;
	char name[16];
	int ret;

	lun->host = h;
	lun->lun = idx;

	if (!strcmp(prof_name, "raid0")) {
		p = simhba_find_profile(raid_member);
		lun->nmembers = raid_members;
		lun->chunk = raid_chunk_kb * 2;
		if (!cap)
			cap = p->capacity * raid_members;
		/* whole stripes only */
		cap = div_u64(cap, (u64)lun->chunk * raid_members) *
			lun->chunk * raid_members;
		mcap = div_u64(cap, raid_members);
		lun->profile = raid_member;
	} else {
		p = simhba_find_profile(prof_name);
		lun->nmembers = 1;
		if (!cap)
			cap = p->capacity;
		mcap = cap;
		lun->profile = p->name;
	}
	if (!cap) {
		pr_err("capacity_mb=%u: less than one raid0 stripe (%u x %u KiB)\n",
		       capacity_mb, raid_members, raid_chunk_kb);
		return -EINVAL;
	}
	lun->capacity = cap;
	lun->rotational = p->kind == SIMHBA_HDD;
	lun->wce = wce < 0 ? p->wce : wce;
	lun->qdepth = qdepth ? qdepth : p->qdepth;

	lun->m = kcalloc(lun->nmembers, sizeof(*lun->m), GFP_KERNEL);
	if (!lun->m)
		return -ENOMEM;
	for (i = 0; i < lun->nmembers; i++) {
		struct simhba_member *m = &lun->m[i];

		ret = simhba_disk_init(&m->disk, p, mcap);
		if (ret) {
			kfree(lun->m);
			lun->m = NULL;
			return ret;
		}
		m->disk.depth = lun->qdepth;
		m->disk.age_ns = (u64)ncq_age_ms * NSEC_PER_MSEC;
		m->disk.wce = lun->wce;
		if (h->pers->link_mbps) {
			m->disk.link[0] = &h->link[0];
			m->disk.link[1] = &h->link[h->pers->full_duplex];
		}
		m->lun = lun;
		hrtimer_init(&m->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		m->timer.function = simhba_member_timer_fn;
	}

	/* nothing fails from here: simhba_lun_free() undoes what follows */
	INIT_LIST_HEAD(&lun->inflight);
	xa_init(&lun->store);
	snprintf(name, sizeof(name), "%d:%u", h->id, idx);
	simhba_lun_debugfs_init(lun, name);
	return 0;
}

static void simhba_lun_stop(struct simhba_lun *lun)
{
	unsigned int i;

	for (i = 0; lun->m && i < lun->nmembers; i++)
		if (lun->m[i].lun)
			hrtimer_cancel(&lun->m[i].timer);
}

static void simhba_lun_free(struct simhba_lun *lun)
{
	debugfs_remove_recursive(lun->dbg);
	kfree(lun->m);
	lun->m = NULL;
	simhba_store_free(lun);
}

static const char *host_arg(char **arr, int n, int i, const char *def)
{
	if (!n)
		return def;
	return arr[min(i, n - 1)];
}

static const struct simhba_pers *find_pers(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(simhba_pers); i++)
		if (!strcmp(name, simhba_pers[i].name))
			return &simhba_pers[i];
	return NULL;
}

static int domain_init(struct simhba_domain *dom, unsigned int ndisks)
{
	spin_lock_init(&dom->lock);
	dom->disks = kcalloc(ndisks, sizeof(*dom->disks), GFP_KERNEL);
	return dom->disks ? 0 : -ENOMEM;
}

static void domain_add(struct simhba_domain *dom, struct simhba_lun *lun)
{
	unsigned int i;

	for (i = 0; i < lun->nmembers; i++)
		dom->disks[dom->ndisks++] = &lun->m[i].disk;
	lun->dom = dom;
}

/*
 * Give every LUN of @h its domain (see struct simhba_domain): the host's
 * shared one if its disks share a link or the adapter's processor, else
 * one of its own.  A command to no LUN changes owner under the shared
 * domain's lock either way.
 */
int simhba_host_domains(struct simhba_host *h)
{
	bool shared = h->pers->link_mbps || h->cmd_ns;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; shared && i < h->nluns; i++)
		n += h->lun[i].nmembers;
	ret = domain_init(&h->shared, n);
	for (i = 0; !ret && i < h->nluns; i++) {
		struct simhba_lun *lun = &h->lun[i];

		if (shared) {
			domain_add(&h->shared, lun);
			continue;
		}
		ret = domain_init(&lun->own, lun->nmembers);
		if (!ret)
			domain_add(&lun->own, lun);
	}
	if (ret)
		simhba_host_domains_free(h);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_host_domains);

void simhba_host_domains_free(struct simhba_host *h)
{
	unsigned int i;

	for (i = 0; h->lun && i < h->nluns; i++) {
		kfree(h->lun[i].own.disks);
		h->lun[i].own.disks = NULL;
		h->lun[i].dom = NULL;
	}
	kfree(h->shared.disks);
	h->shared.disks = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_host_domains_free);

static void simhba_host_destroy(struct simhba_host *h)
{
	unsigned int i;

	if (h->added)
		scsi_remove_host(h->shost);
	if (h->shost)
		scsi_host_put(h->shost);
	if (h->lun) {
		/*
		 * A member's timer advances every disk of its domain, maybe
		 * the whole host's: stop them all before any LUN's disks go
		 * (an aborted command's channel keeps its timer armed until
		 * the modelled finish).
		 */
		for (i = 0; i < h->nluns_ready; i++)
			simhba_lun_stop(&h->lun[i]);
		for (i = 0; i < h->nluns_ready; i++)
			simhba_lun_free(&h->lun[i]);
		simhba_host_domains_free(h);
		kfree(h->lun);
	}
	device_unregister(&h->dev);
}

static int simhba_host_create(int id)
{
	const char *prof = host_arg(profile, n_profile, id, "sata-7200");
	const struct simhba_pers *pers;
	struct simhba_host *h, **hp;
	struct Scsi_Host *shost;
	unsigned int i;
	int ret;

	pers = find_pers(host_arg(personality, n_personality, id, "generic"));
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->id = id;
	h->pers = pers;
	mutex_init(&h->eh_mutex);
	h->dma_bits = pers->aac ? dma_bits : 64;
	h->cmd_ns = (u64)(pers->aac ? fw_overhead_us : pers->cmd_us) *
		    NSEC_PER_USEC;
	simhba_link_init(&h->link[0], pers->link_mbps);
	simhba_link_init(&h->link[1], pers->link_mbps);
	h->dev.parent = simhba_root;
	h->dev.release = simhba_dev_release;
	h->dev.dma_mask = &h->dma_mask;
	dev_set_name(&h->dev, "adapter%d", id);
	ret = device_register(&h->dev);
	if (ret) {
		put_device(&h->dev);
		return ret;
	}
	ret = dma_set_mask_and_coherent(&h->dev, DMA_BIT_MASK(h->dma_bits));
	if (ret) {
		pr_err("host %d: DMA mask of %u bits refused\n", id, h->dma_bits);
		device_unregister(&h->dev);
		return ret;
	}

	h->nluns = luns;
	h->lun = kcalloc(luns, sizeof(*h->lun), GFP_KERNEL);
	if (!h->lun) {
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < luns; i++) {
		ret = simhba_lun_init(h, &h->lun[i], i, prof);
		if (ret)
			goto fail;
		h->nluns_ready++;
	}
	ret = simhba_host_domains(h);
	if (ret)
		goto fail;

	shost = scsi_host_alloc(&simhba_template, sizeof(h));
	if (!shost) {
		ret = -ENOMEM;
		goto fail;
	}
	hp = shost_priv(shost);
	*hp = h;
	h->shost = shost;
	shost->max_id = 1;
	shost->max_lun = luns;
	shost->max_channel = 0;
	shost->can_queue = pers->can_queue;
	shost->cmd_per_lun = min_t(unsigned int, 256, h->lun[0].qdepth);
	shost->sg_tablesize = sg_tablesize ? sg_tablesize :
		pers->qla ? sg_segments : pers->sg_tablesize;
	shost->max_sectors = max_sectors ? max_sectors : pers->max_sectors;
	if (pers->max_segment_size)
		shost->max_segment_size = pers->max_segment_size;
	ret = scsi_add_host(shost, &h->dev);
	if (ret)
		goto fail;
	h->added = true;
	simhba_hosts[id] = h;
	scsi_scan_host(shost);
	dev_info(&h->dev,
		 "%s host %u: %u x %s LUN(s), dma_bits %u, sg_tablesize %u, max_sectors %u\n",
		 pers->name, shost->host_no, luns, prof, h->dma_bits,
		 shost->sg_tablesize, shost->max_sectors);
	return 0;
fail:
	simhba_host_destroy(h);
	return ret;
}

/*
 * The range of every numeric parameter, checked by one loop so that each
 * refusal names the parameter, the value and what it must be.
 */
struct simhba_param_check {
	const char *name;
	const void *val;	/* unsigned int, or int if @is_int */
	bool is_int;
	s64 min, max;
	bool zero_ok;		/* 0 (keep the default) besides min-max */
	bool pow2;		/* a power of two within min-max */
	bool ends_only;		/* min or max, nothing between */
};

#define SIMHBA_UINT(_v, _min, _max, ...) \
	{ .name = #_v, .val = &(_v), .min = (_min), .max = (_max), __VA_ARGS__ }

static const struct simhba_param_check simhba_param_checks[] __initconst = {
	SIMHBA_UINT(hosts, 1, SIMHBA_MAX_HOSTS),
	SIMHBA_UINT(luns, 1, SIMHBA_MAX_LUNS),
	{ .name = "time_scale", .val = &simhba_time_scale, .min = 1, .max = 10000 },
	SIMHBA_UINT(qdepth, 0, 256),
	{ .name = "wce", .val = &wce, .is_int = true, .min = -1, .max = 1 },
	SIMHBA_UINT(ncq_age_ms, 1, 10000),
	{ .name = "store_mb", .val = &simhba_store_mb, .min = 1, .max = 1048576 },
	SIMHBA_UINT(dma_bits, 32, 64),
	SIMHBA_UINT(fw_overhead_us, 0, 100000),
	SIMHBA_UINT(sg_segments, 32, 64, .ends_only = true),
	SIMHBA_UINT(sg_tablesize, 0, SG_MAX_SEGMENTS),
	SIMHBA_UINT(max_sectors, 8, 65535, .zero_ok = true),
	SIMHBA_UINT(capacity_mb, 4, 1U << 24, .zero_ok = true),
	SIMHBA_UINT(raid_members, 2, SIMHBA_MAX_MEMBERS),
	SIMHBA_UINT(raid_chunk_kb, 4, 4096, .pow2 = true),
};

static int __init simhba_check_param(const struct simhba_param_check *c)
{
	s64 v;
	bool ok;

	if (c->is_int)
		v = *(const int *)c->val;
	else
		v = *(const unsigned int *)c->val;

	if (c->ends_only)
		ok = v == c->min || v == c->max;
	else
		ok = v >= c->min && v <= c->max && (!c->pow2 || is_power_of_2(v));
	if (ok || (c->zero_ok && !v))
		return 0;
	if (c->ends_only)
		pr_err("%s=%lld: must be %lld or %lld\n", c->name, v, c->min,
		       c->max);
	else if (c->max - c->min == 2)
		pr_err("%s=%lld: must be %lld, %lld or %lld\n", c->name, v,
		       c->min, c->min + 1, c->max);
	else
		pr_err("%s=%lld: must be %s%s%lld-%lld\n", c->name, v,
		       c->pow2 ? "a power of two, " : "",
		       c->zero_ok ? "0 or " : "", c->min, c->max);
	return -EINVAL;
}

static int __init simhba_check_params(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(simhba_param_checks); i++)
		if (simhba_check_param(&simhba_param_checks[i]))
			return -EINVAL;
	if (!raid_member || !simhba_find_profile(raid_member)) {
		pr_err("raid_member=%s: unknown profile (u320-10k, sata-7200, ssd)\n",
		       raid_member ? raid_member : "");
		return -EINVAL;
	}
	if (n_personality > (int)hosts) {
		pr_err("%d personalities given for %u hosts\n", n_personality, hosts);
		return -EINVAL;
	}
	if (n_profile > (int)hosts) {
		pr_err("%d profiles given for %u hosts\n", n_profile, hosts);
		return -EINVAL;
	}
	for (i = 0; i < n_personality; i++)
		if (!find_pers(personality[i])) {
			pr_err("personality=%s: unknown (generic, aacraid, qla2xxx)\n",
			       personality[i]);
			return -EINVAL;
		}
	for (i = 0; i < n_profile; i++)
		if (strcmp(profile[i], "raid0") && !simhba_find_profile(profile[i])) {
			pr_err("profile=%s: unknown (u320-10k, sata-7200, ssd, raid0)\n",
			       profile[i]);
			return -EINVAL;
		}
	return 0;
}

static void simhba_teardown(void)
{
	int i;

	for (i = SIMHBA_MAX_HOSTS - 1; i >= 0; i--) {
		if (simhba_hosts[i]) {
			simhba_host_destroy(simhba_hosts[i]);
			simhba_hosts[i] = NULL;
		}
	}
	debugfs_remove_recursive(simhba_dbg_root);
	root_device_unregister(simhba_root);
}

static int __init simhba_init(void)
{
	unsigned int i;
	int ret;

	ret = simhba_check_params();
	if (ret)
		return ret;
	simhba_epoch = ktime_get_ns();
	simhba_root = root_device_register("simhba");
	if (IS_ERR(simhba_root))
		return PTR_ERR(simhba_root);
	simhba_dbg_root = debugfs_create_dir("simhba", NULL);

	for (i = 0; i < hosts; i++) {
		ret = simhba_host_create(i);
		if (ret) {
			pr_err("cannot create host %u: %d\n", i, ret);
			simhba_teardown();
			return ret;
		}
	}
	return 0;
}

static void __exit simhba_exit(void)
{
	simhba_teardown();
}

module_init(simhba_init);
module_exit(simhba_exit);

MODULE_DESCRIPTION("Simulated SCSI host adapter with a disk timing model");
MODULE_AUTHOR("blk26 developers <blk26@example.org>");
MODULE_LICENSE("GPL");
