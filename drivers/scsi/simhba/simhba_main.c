// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: a simulated SCSI host adapter whose disks follow a timing model.
 *
 * Each host is a Scsi_Host on a struct device of its own, with the DMA mask
 * of its personality; scatterlists are mapped with the DMA API against that
 * device, so a 32-bit mask really bounces through swiotlb.  Each LUN is one
 * modelled disk (or a RAID0 set of them) with a sparse in-memory data store.
 * Completions are delivered by hrtimers at the modelled time.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-direct.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/swiotlb.h>
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/log2.h>
#include <linux/unaligned.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_proto.h>
#include <scsi/scsi_common.h>

#include "simhba_model.h"

#define SIMHBA_MAX_HOSTS	16
#define SIMHBA_MAX_LUNS		64

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

static unsigned int time_scale = 1;
module_param(time_scale, uint, 0444);
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

static bool nostore;
module_param(nostore, bool, 0444);
MODULE_PARM_DESC(nostore, "discard writes, reads return zeros (default N)");

static unsigned int store_mb = 512;
module_param(store_mb, uint, 0444);
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

struct simhba_pers {
	const char *name;
	unsigned int sg_tablesize;
	unsigned int max_sectors;
	unsigned int max_segment_size;	/* bytes, 0: the midlayer's default */
	unsigned int can_queue;
	unsigned int link_mbps;		/* host link, 10^6 B/s; 0: each disk's own */
	bool full_duplex;		/* one link each way */
	unsigned int cmd_us;		/* adapter processor time per command */
	bool aac;
	bool qla;
};

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

/* ---- state ---------------------------------------------------------------- */

struct simhba_lun;

struct simhba_member {
	struct simhba_disk disk;
	struct hrtimer timer;
	struct simhba_lun *lun;
};

struct simhba_lun {
	struct simhba_host *host;
	unsigned int lun;
	u64 capacity;			/* sectors */
	const char *profile;
	unsigned int nmembers;
	u32 chunk;			/* raid0 chunk in sectors, 0 if not raid */
	struct simhba_member *m;
	struct list_head inflight;
	struct xarray store;
	bool rotational;
	bool wce;
	unsigned int qdepth;
	/* faults */
	u64 medium_lba;
	u64 medium_sectors;
	atomic_t timeout_next;
	atomic_t busy_next;
	u64 timer_lag_ns;		/* debugfs: fire completion timers late */
	atomic64_t medium_errors;
	atomic64_t timeouts;
	atomic64_t busies;
	atomic64_t aborts;
	atomic64_t resets;
	struct dentry *dbg;
};

struct simhba_host {
	struct device dev;
	u64 dma_mask;
	int id;
	const struct simhba_pers *pers;
	struct Scsi_Host *shost;
	struct mutex eh_mutex;		/* one abort or reset at a time */
	/*
	 * The model of every LUN (disks, links, the adapter's processor) and
	 * their inflight lists and fault settings: one lock, since the disks
	 * of a host share its link.
	 */
	spinlock_t lock;
	struct simhba_link link[2];	/* to the host, to the disks */
	struct simhba_disk **disks;	/* every member disk of every LUN */
	unsigned int ndisks;
	u64 cmd_ns;			/* adapter processor time per command */
	u64 cmd_free;			/* the processor is free from here */
	unsigned int dma_bits;
	unsigned int nluns;
	struct simhba_lun *lun;
	atomic64_t map_segs;
	atomic64_t map_bytes;
	atomic64_t bounce_segs;
	atomic64_t bounce_bytes;
	atomic64_t map_failures;
	atomic_t max_segs;		/* most segments one command had */
	bool added;
};

enum simhba_cmd_kind {
	SIMHBA_CMD_NONE,
	SIMHBA_CMD_QUICK,	/* completed by its own timer */
	SIMHBA_CMD_MEDIA,	/* completed by the member disk timers */
};

/*
 * A media command is owned by the model while it is on lun->inflight.
 * Whoever takes it off that list under the host's lock, the completion timer when
 * its last operation finishes or the error handler, owns it from then on
 * and alone finishes it; the taker's private lists use ->done, never ->node,
 * so that a command being finished is never found on a list it left.
 */
struct simhba_cmd {
	struct list_head node;		/* lun->inflight */
	struct list_head done;		/* the taker's list */
	struct hrtimer timer;
	struct simhba_lun *lun;
	enum simhba_cmd_kind kind;
	unsigned int nops;
	unsigned int pending;
	bool mapped;
	bool medium_error;
	u64 bad_lba;
	struct simhba_op op[SIMHBA_MAX_MEMBERS];
	u8 member[SIMHBA_MAX_MEMBERS];
};

static struct simhba_host *simhba_hosts[SIMHBA_MAX_HOSTS];
static struct device *simhba_root;
static struct dentry *simhba_dbg_root;
static u64 simhba_epoch;
static atomic_long_t simhba_store_pages = ATOMIC_LONG_INIT(0);

/* scsi_cmd_priv() is the memory right after the command. */
static struct scsi_cmnd *priv_to_cmd(struct simhba_cmd *c)
{
	return (struct scsi_cmnd *)c - 1;
}

static struct simhba_host *to_simhba(struct Scsi_Host *shost)
{
	return *(struct simhba_host **)shost_priv(shost);
}

/* ---- clock ------------------------------------------------------------------ */

static u64 model_now(void)
{
	return (ktime_get_ns() - simhba_epoch) * time_scale;
}

static ktime_t model_to_ktime(u64 t)
{
	return ns_to_ktime(simhba_epoch + div_u64(t + time_scale - 1, time_scale));
}

/* ---- data store ------------------------------------------------------------- */

/*
 * Copy between @buf and the LUN's store.  *@err: -ENOSPC when the store
 * reached store_mb (a lasting condition), -ENOMEM when a page could not be
 * had without sleeping (a passing one).
 */
static void store_copy(struct simhba_lun *lun, u64 pos, void *buf, size_t len,
		       bool write, int *err)
{
	while (len) {
		pgoff_t idx = pos >> PAGE_SHIFT;
		size_t off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page = xa_load(&lun->store, idx);

		if (!write) {
			if (page)
				memcpy_from_page(buf, page, off, n);
			else
				memset(buf, 0, n);
		} else if (!nostore) {
			if (!page) {
				struct page *old;

				if (atomic_long_inc_return(&simhba_store_pages) >
				    (long)store_mb << (20 - PAGE_SHIFT)) {
					atomic_long_dec(&simhba_store_pages);
					*err = -ENOSPC;
					return;
				}
				page = alloc_page(GFP_NOWAIT | __GFP_ZERO |
						  __GFP_NOWARN);
				if (!page) {
					atomic_long_dec(&simhba_store_pages);
					*err = -ENOMEM;
					return;
				}
				old = xa_cmpxchg(&lun->store, idx, NULL, page,
						 GFP_NOWAIT | __GFP_NOWARN);
				if (old) {
					__free_page(page);
					atomic_long_dec(&simhba_store_pages);
					if (xa_is_err(old)) {
						*err = xa_err(old);
						return;
					}
					page = old;
				}
			}
			memcpy_to_page(page, off, buf, n);
		}
		pos += n;
		buf += n;
		len -= n;
	}
}

static void store_free(struct simhba_lun *lun)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&lun->store, idx, page) {
		__free_page(page);
		atomic_long_dec(&simhba_store_pages);
	}
	xa_destroy(&lun->store);
}

/*
 * Move the data of a mapped command the way the adapter would: through the
 * DMA addresses, i.e. out of or into the swiotlb bounce slots when the DMA
 * API bounced a segment, and no more than the command's @len bytes.  With
 * an IOMMU in the way (DMA addresses that are not physical ones) fall back
 * to the CPU addresses of the scatterlist.
 */
static int simhba_move_data(struct simhba_host *h, struct scsi_cmnd *sc,
			    int nseg, u64 lba, u64 len, bool write)
{
	struct device *dev = &h->dev;
	bool direct = !get_dma_ops(dev);
	struct simhba_lun *lun = sc->device->hostdata;
	int i, err = 0, most = atomic_read(&h->max_segs);
	u64 pos = lba * SIMHBA_SECTOR;
	struct scatterlist *sg;

	while (nseg > most && !atomic_try_cmpxchg(&h->max_segs, &most, nseg))
		;
	for_each_sg(scsi_sglist(sc), sg, nseg, i) {
		unsigned int n = min_t(u64, sg_dma_len(sg), len);
		void *va;

		if (!n)
			break;
		atomic64_inc(&h->map_segs);
		atomic64_add(n, &h->map_bytes);
		if (direct) {
			phys_addr_t pa = dma_to_phys(dev, sg_dma_address(sg));

			if (swiotlb_find_pool(dev, pa)) {
				atomic64_inc(&h->bounce_segs);
				atomic64_add(n, &h->bounce_bytes);
			}
			va = phys_to_virt(pa);
		} else {
			va = sg_virt(sg);
		}
		store_copy(lun, pos, va, n, write, &err);
		if (err)
			return err;
		pos += n;
		len -= n;
	}
	return 0;
}

/* ---- completion ------------------------------------------------------------- */

static void simhba_finish(struct scsi_cmnd *sc)
{
	struct simhba_cmd *c = scsi_cmd_priv(sc);

	if (c->mapped) {
		scsi_dma_unmap(sc);
		c->mapped = false;
	}
	if (c->medium_error) {
		scsi_build_sense(sc, 0, MEDIUM_ERROR, 0x11, 0x00);
		scsi_set_sense_information(sc->sense_buffer,
					   SCSI_SENSE_BUFFERSIZE, c->bad_lba);
	}
	scsi_done(sc);
}

/*
 * Step every disk of the host up to @now in the order of their events, so
 * that the decisions of disks that share a link are taken in model time,
 * whenever each one's timer fires.  Finished operations wait on their
 * disk's done list for their own timer.
 */
static void host_advance(struct simhba_host *h, u64 now)
{
	lockdep_assert_held(&h->lock);
	simhba_advance(h->disks, h->ndisks, now);
}

/*
 * Arm the member's timer for its next completion.  timer_lag_ns makes it
 * fire late on purpose, as a busy host does: the model's schedule must not
 * change, only the completions' delivery.
 */
static void member_arm(struct simhba_member *m)
{
	u64 next = simhba_disk_next_delivery(&m->disk);
	u64 lag = READ_ONCE(m->lun->timer_lag_ns);

	if (next != U64_MAX)
		hrtimer_start(&m->timer, ktime_add_ns(model_to_ktime(next), lag),
			      HRTIMER_MODE_ABS);
}

static enum hrtimer_restart member_timer_fn(struct hrtimer *t)
{
	struct simhba_member *m = container_of(t, struct simhba_member, timer);
	struct simhba_lun *lun = m->lun;
	struct simhba_host *h = lun->host;
	struct simhba_cmd *c, *tmp;
	struct simhba_op *op;
	unsigned long flags;
	LIST_HEAD(done);
	u64 now;

	rcu_read_lock();
	spin_lock_irqsave(&h->lock, flags);
	now = model_now();
	host_advance(h, now);
	while (simhba_disk_reap(&m->disk, now, &op)) {
		c = op->priv;
		if (WARN_ON_ONCE(!c))
			continue;
		if (--c->pending == 0) {
			list_del_init(&c->node);
			list_add_tail(&c->done, &done);
		}
	}
	member_arm(m);
	spin_unlock_irqrestore(&h->lock, flags);

	list_for_each_entry_safe(c, tmp, &done, done) {
		list_del_init(&c->done);
		simhba_finish(priv_to_cmd(c));
	}
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart cmd_timer_fn(struct hrtimer *t)
{
	struct simhba_cmd *c = container_of(t, struct simhba_cmd, timer);

	simhba_finish(priv_to_cmd(c));
	return HRTIMER_NORESTART;
}

/* Complete a command that needs no media access after the overhead. */
static int simhba_quick(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	u64 ovh = lun ? lun->m[0].disk.p.overhead_ns : 20000;

	c->kind = SIMHBA_CMD_QUICK;
	hrtimer_start(&c->timer, model_to_ktime(model_now() + ovh),
		      HRTIMER_MODE_ABS);
	return 0;
}

/* ---- SCSI commands without media access -------------------------------- */

static int fill_vpd(struct simhba_lun *lun, u8 page, u8 *b)
{
	struct simhba_host *h = lun->host;
	int n;

	b[0] = TYPE_DISK;
	b[1] = page;
	switch (page) {
	case 0x00:
		b[4] = 0x00;
		b[5] = 0x80;
		b[6] = 0x83;
		b[7] = 0xb0;
		b[8] = 0xb1;
		b[3] = 5;
		return 9;
	case 0x80:
		n = scnprintf(&b[4], 32, "SIMHBA%02d%04u", h->id, lun->lun);
		b[3] = n;
		return n + 4;
	case 0x83:
		/* T10 vendor identification designator, ASCII */
		b[4] = 0x02;
		b[5] = 0x01;
		n = scnprintf(&b[8], 40, "SIMHBA  %s-%02d-%04u",
			      lun->profile, h->id, lun->lun);
		b[7] = n;
		b[3] = n + 4;
		return n + 8;
	case 0xb0:
		b[3] = 0x3c;
		return 0x40;
	case 0xb1:
		b[3] = 0x3c;
		put_unaligned_be16(lun->rotational ?
				   lun->m[0].disk.p.rpm : 1, &b[4]);
		return 0x40;
	}
	return -1;
}

static int do_inquiry(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	u8 *cdb = sc->cmnd;
	u16 alloc = get_unaligned_be16(&cdb[3]);
	u8 b[96] = { };
	int len;

	if (!lun) {
		b[0] = 0x7f;	/* no logical unit here */
		b[2] = 6;
		b[3] = 2;
		b[4] = 31;
		len = 36;
	} else if (cdb[1] & 1) {
		len = fill_vpd(lun, cdb[2], b);
		if (len < 0) {
			scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
			return 0;
		}
	} else {
		if (cdb[2]) {
			scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
			return 0;
		}
		b[0] = TYPE_DISK;
		b[2] = 6;		/* SPC-4 */
		b[3] = 2;
		b[4] = 91;
		b[7] = 0x02;		/* CmdQue */
		memcpy(&b[8], "SIMHBA  ", 8);
		memset(&b[16], ' ', 16);
		memcpy(&b[16], lun->m[0].disk.p.product,
		       min_t(size_t, 16, strlen(lun->m[0].disk.p.product)));
		if (lun->chunk)
			memcpy(&b[16], "SIM RAID0       ", 16);
		memcpy(&b[32], "0001", 4);
		len = 96;
	}
	scsi_sg_copy_from_buffer(sc, b, min_t(int, len, alloc));
	return 0;
}

static void do_mode_sense(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	u8 *cdb = sc->cmnd;
	bool ten = cdb[0] == MODE_SENSE_10;
	bool dbd = cdb[1] & 0x08;
	u8 pc = cdb[2] >> 6, page = cdb[2] & 0x3f;
	unsigned int alloc = ten ? get_unaligned_be16(&cdb[7]) : cdb[4];
	int hdr = ten ? 8 : 4, len;
	u8 b[128] = { };
	u8 *p;

	if (pc == 3) {
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x39, 0);
		return;
	}
	len = hdr;
	if (!dbd) {
		put_unaligned_be32(min_t(u64, lun->capacity, 0xffffff), &b[len]);
		b[len] = 0;
		put_unaligned_be32(SIMHBA_SECTOR, &b[len + 4]);
		len += 8;
	}
	if (page == 0x08 || page == 0x3f) {
		p = &b[len];
		p[0] = 0x08;
		p[1] = 0x12;
		if (pc == 0 || pc == 2)
			p[2] = lun->wce ? 0x04 : 0;
		len += 20;
	}
	if (page == 0x0a || page == 0x3f) {
		p = &b[len];
		p[0] = 0x0a;
		p[1] = 0x0a;
		len += 12;
	}
	if (len == hdr + (dbd ? 0 : 8) && page != 0x3f) {
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
		return;
	}
	if (ten) {
		put_unaligned_be16(len - 2, &b[0]);
		b[3] = 0x10;		/* DPOFUA */
		b[7] = dbd ? 0 : 8;
	} else {
		b[0] = len - 1;
		b[2] = 0x10;
		b[3] = dbd ? 0 : 8;
	}
	scsi_sg_copy_from_buffer(sc, b, min_t(unsigned int, len, alloc));
}

static void do_report_luns(struct scsi_cmnd *sc, struct simhba_host *h)
{
	unsigned int alloc = get_unaligned_be32(&sc->cmnd[6]);
	unsigned int len = 8 + 8 * h->nluns, i;
	u8 *b;

	b = kzalloc(len, GFP_ATOMIC);
	if (!b) {
		sc->result = DID_REQUEUE << 16;
		return;
	}
	put_unaligned_be32(8 * h->nluns, &b[0]);
	for (i = 0; i < h->nluns; i++)
		int_to_scsilun(i, (struct scsi_lun *)&b[8 + 8 * i]);
	scsi_sg_copy_from_buffer(sc, b, min(len, alloc));
	kfree(b);
}

/* ---- media commands --------------------------------------------------------- */

static bool parse_rw(struct scsi_cmnd *sc, u64 *lba, u32 *n, bool *write,
		     bool *fua)
{
	u8 *cdb = sc->cmnd;

	*fua = false;
	switch (cdb[0]) {
	case READ_6:
	case WRITE_6:
		*lba = get_unaligned_be24(&cdb[1]) & 0x1fffff;
		*n = cdb[4] ? cdb[4] : 256;
		break;
	case READ_10:
	case WRITE_10:
		*lba = get_unaligned_be32(&cdb[2]);
		*n = get_unaligned_be16(&cdb[7]);
		*fua = cdb[1] & 0x08;
		break;
	case READ_16:
	case WRITE_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*n = get_unaligned_be32(&cdb[10]);
		*fua = cdb[1] & 0x08;
		break;
	default:
		return false;
	}
	*write = cdb[0] == WRITE_6 || cdb[0] == WRITE_10 || cdb[0] == WRITE_16;
	return true;
}

/* Hand the pieces of a command to the member disks. */
static void simhba_submit(struct simhba_lun *lun, struct simhba_cmd *c,
			  u64 lba, u32 n, bool write, bool fua, bool flush)
{
	struct simhba_host *h = lun->host;
	u64 mlba[SIMHBA_MAX_MEMBERS];
	u32 mn[SIMHBA_MAX_MEMBERS];
	unsigned long flags;
	unsigned int i, k = 0;
	u64 now;

	if (flush) {
		for (i = 0; i < lun->nmembers; i++) {
			mlba[i] = 0;
			mn[i] = 1;
		}
	} else if (lun->chunk) {
		simhba_raid0_split(lba, n, lun->nmembers, lun->chunk, mlba, mn);
	} else {
		mlba[0] = lba;
		mn[0] = n;
	}

	spin_lock_irqsave(&h->lock, flags);
	now = model_now();
	host_advance(h, now);
	/* the adapter's processor takes the commands one at a time */
	h->cmd_free = max(now, h->cmd_free) + h->cmd_ns;
	for (i = 0; i < lun->nmembers; i++) {
		struct simhba_op *op = &c->op[k];

		if (!mn[i] || (!lun->chunk && i))
			continue;
		INIT_LIST_HEAD(&op->node);
		op->lba = mlba[i];
		op->nsect = flush ? 0 : mn[i];
		op->write = write;
		op->fua = fua;
		op->flush = flush;
		op->priv = c;
		c->member[k] = i;
		k++;
	}
	c->pending = k;
	c->nops = k;
	list_add_tail(&c->node, &lun->inflight);
	for (i = 0; i < k; i++) {
		struct simhba_member *m = &lun->m[c->member[i]];

		simhba_disk_enqueue(&m->disk, &c->op[i], now,
				    h->cmd_free - now);
		simhba_disk_dispatch(&m->disk, now);
		member_arm(m);
	}
	spin_unlock_irqrestore(&h->lock, flags);
}

static int simhba_rw(struct Scsi_Host *shost, struct scsi_cmnd *sc,
		     struct simhba_lun *lun)
{
	struct simhba_host *h = to_simhba(shost);
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	u64 lba, med_end;
	bool write, fua;
	unsigned long flags;
	int nseg, err;
	u32 n;

	parse_rw(sc, &lba, &n, &write, &fua);
	if (lba + n > lun->capacity || lba + n < lba) {
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x21, 0);
		return simhba_quick(sc, lun);
	}
	if (!n)
		return simhba_quick(sc, lun);
	/*
	 * The buffer must hold what the CDB asks for (SG_IO can pass any
	 * pair): a shorter one is a data overrun, which an adapter reports as
	 * an error; of a longer one the CDB's length moves and the rest is
	 * the residue.
	 */
	if ((u64)n * SIMHBA_SECTOR > scsi_bufflen(sc)) {
		sc->result = DID_ERROR << 16;
		return simhba_quick(sc, lun);
	}
	scsi_set_resid(sc, scsi_bufflen(sc) - n * SIMHBA_SECTOR);

	if (atomic_add_unless(&lun->busy_next, -1, 0)) {
		atomic64_inc(&lun->busies);
		sc->result = SAM_STAT_TASK_SET_FULL;
		return simhba_quick(sc, lun);
	}

	nseg = scsi_dma_map(sc);
	if (nseg < 0) {
		atomic64_inc(&h->map_failures);
		return SCSI_MLQUEUE_HOST_BUSY;
	}
	c->mapped = true;

	err = simhba_move_data(h, sc, nseg, lba, (u64)n * SIMHBA_SECTOR, write);
	if (err == -ENOMEM) {
		/* no page without sleeping just now: the midlayer retries */
		scsi_dma_unmap(sc);
		c->mapped = false;
		return SCSI_MLQUEUE_DEVICE_BUSY;
	}
	if (err) {
		pr_err_ratelimited("host %d lun %u: data store full (store_mb=%u)\n",
				   h->id, lun->lun, store_mb);
		/* SPACE ALLOCATION FAILED WRITE PROTECT */
		scsi_build_sense(sc, 0, DATA_PROTECT, 0x27, 0x07);
		return simhba_quick(sc, lun);
	}

	if (!write) {
		spin_lock_irqsave(&lun->host->lock, flags);
		med_end = lun->medium_lba + lun->medium_sectors;
		if (lun->medium_sectors && lba < med_end &&
		    lba + n > lun->medium_lba) {
			c->medium_error = true;
			c->bad_lba = max(lba, lun->medium_lba);
			atomic64_inc(&lun->medium_errors);
		}
		spin_unlock_irqrestore(&lun->host->lock, flags);
	}

	c->kind = SIMHBA_CMD_MEDIA;
	if (atomic_add_unless(&lun->timeout_next, -1, 0)) {
		/* Lost in the firmware: only the error handler gets it back. */
		atomic64_inc(&lun->timeouts);
		spin_lock_irqsave(&lun->host->lock, flags);
		list_add_tail(&c->node, &lun->inflight);
		spin_unlock_irqrestore(&lun->host->lock, flags);
		return 0;
	}
	simhba_submit(lun, c, lba, n, write, fua, false);
	return 0;
}

static int simhba_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct simhba_lun *lun = sc->device->hostdata;
	struct simhba_host *h = to_simhba(shost);
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	u8 *cdb = sc->cmnd;
	u8 b[32] = { };

	INIT_LIST_HEAD(&c->node);
	INIT_LIST_HEAD(&c->done);
	c->lun = lun;
	c->kind = SIMHBA_CMD_NONE;
	c->pending = 0;
	c->nops = 0;
	c->mapped = false;
	c->medium_error = false;
	sc->result = 0;

	if (cdb[0] == INQUIRY) {
		do_inquiry(sc, lun);
		return simhba_quick(sc, lun);
	}
	if (cdb[0] == REPORT_LUNS) {
		do_report_luns(sc, h);
		return simhba_quick(sc, lun);
	}
	if (!lun) {
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x25, 0);
		return simhba_quick(sc, lun);
	}

	switch (cdb[0]) {
	case READ_6:
	case READ_10:
	case READ_16:
	case WRITE_6:
	case WRITE_10:
	case WRITE_16:
		return simhba_rw(shost, sc, lun);
	case SYNCHRONIZE_CACHE:
	case SYNCHRONIZE_CACHE_16:
		c->kind = SIMHBA_CMD_MEDIA;
		simhba_submit(lun, c, 0, 0, true, false, true);
		return 0;
	case TEST_UNIT_READY:
	case START_STOP:
	case VERIFY:
	case VERIFY_16:
		break;
	case REQUEST_SENSE:
		b[0] = 0x70;
		b[7] = 10;
		scsi_sg_copy_from_buffer(sc, b, min_t(u8, 18, cdb[4]));
		break;
	case READ_CAPACITY:
		put_unaligned_be32(min_t(u64, lun->capacity - 1, 0xffffffff),
				   &b[0]);
		put_unaligned_be32(SIMHBA_SECTOR, &b[4]);
		scsi_sg_copy_from_buffer(sc, b, 8);
		break;
	case SERVICE_ACTION_IN_16:
		if ((cdb[1] & 0x1f) != SAI_READ_CAPACITY_16) {
			scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
			break;
		}
		put_unaligned_be64(lun->capacity - 1, &b[0]);
		put_unaligned_be32(SIMHBA_SECTOR, &b[8]);
		scsi_sg_copy_from_buffer(sc, b,
					 min_t(u32, 32, get_unaligned_be32(&cdb[10])));
		break;
	case MODE_SENSE:
	case MODE_SENSE_10:
		do_mode_sense(sc, lun);
		break;
	default:
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x20, 0);
		break;
	}
	return simhba_quick(sc, lun);
}

/* ---- error handling ------------------------------------------------------- */

/* Take @c away from the model; true if we owned it (it had not completed). */
static bool simhba_take(struct simhba_lun *lun, struct simhba_cmd *c)
{
	unsigned int i;

	lockdep_assert_held(&lun->host->lock);
	if (list_empty(&c->node))
		return false;
	list_del_init(&c->node);
	for (i = 0; i < c->nops; i++) {
		simhba_disk_cancel(&lun->m[c->member[i]].disk, &c->op[i]);
		c->op[i].priv = NULL;
	}
	c->pending = 0;
	return true;
}

/*
 * The error handler's entry points may run at once (an abort from the
 * midlayer's work queue, a reset from SG_SCSI_RESET): eh_mutex serialises
 * them, so that a command taken by one is never seen half-finished by the
 * other.
 */
static int simhba_eh_abort(struct scsi_cmnd *sc)
{
	struct simhba_host *h = to_simhba(sc->device->host);
	struct simhba_lun *lun = sc->device->hostdata;
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	unsigned long flags;
	bool owned;

	mutex_lock(&h->eh_mutex);
	/* A quick command whose timer had not run yet is ours. */
	owned = hrtimer_cancel(&c->timer) == 1;
	if (lun) {
		spin_lock_irqsave(&h->lock, flags);
		host_advance(h, model_now());
		owned |= simhba_take(lun, c);
		spin_unlock_irqrestore(&h->lock, flags);
		atomic64_inc(&lun->aborts);
	}
	if (!owned) {
		synchronize_rcu();	/* its owner's completion finishes */
	} else if (c->mapped) {
		scsi_dma_unmap(sc);
		c->mapped = false;
	}
	mutex_unlock(&h->eh_mutex);
	return SUCCESS;
}

static void simhba_reset_lun(struct simhba_lun *lun)
{
	struct simhba_cmd *c, *tmp;
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&lun->host->lock, flags);
	host_advance(lun->host, model_now());
	list_for_each_entry_safe(c, tmp, &lun->inflight, node) {
		simhba_take(lun, c);
		list_add_tail(&c->done, &list);
	}
	spin_unlock_irqrestore(&lun->host->lock, flags);
	atomic64_inc(&lun->resets);
	/*
	 * Commands a completion timer took before us are its own; let it
	 * finish them before the midlayer reuses their requests.
	 */
	synchronize_rcu();

	list_for_each_entry_safe(c, tmp, &list, done) {
		struct scsi_cmnd *sc = priv_to_cmd(c);

		list_del_init(&c->done);
		c->medium_error = false;
		sc->result = DID_RESET << 16;
		simhba_finish(sc);
	}
}

static int simhba_eh_device_reset(struct scsi_cmnd *sc)
{
	struct simhba_host *h = to_simhba(sc->device->host);
	struct simhba_lun *lun = sc->device->hostdata;

	mutex_lock(&h->eh_mutex);
	if (lun)
		simhba_reset_lun(lun);
	mutex_unlock(&h->eh_mutex);
	return SUCCESS;
}

static int simhba_eh_host_reset(struct scsi_cmnd *sc)
{
	struct simhba_host *h = to_simhba(sc->device->host);
	unsigned int i;

	mutex_lock(&h->eh_mutex);
	for (i = 0; i < h->nluns; i++)
		simhba_reset_lun(&h->lun[i]);
	mutex_unlock(&h->eh_mutex);
	return SUCCESS;
}

/* ---- device attach -------------------------------------------------------- */

static int simhba_slave_alloc(struct scsi_device *sdev)
{
	struct simhba_host *h = to_simhba(sdev->host);

	if (sdev->channel == 0 && sdev->id == 0 && sdev->lun < h->nluns)
		sdev->hostdata = &h->lun[sdev->lun];
	return 0;
}

static int simhba_slave_configure(struct scsi_device *sdev)
{
	struct simhba_lun *lun = sdev->hostdata;

	if (lun)
		scsi_change_queue_depth(sdev, lun->qdepth);
	return 0;
}

static void simhba_slave_destroy(struct scsi_device *sdev)
{
	sdev->hostdata = NULL;
}

static int simhba_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct simhba_cmd *c = scsi_cmd_priv(sc);

	INIT_LIST_HEAD(&c->node);
	INIT_LIST_HEAD(&c->done);
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	c->timer.function = cmd_timer_fn;
	return 0;
}

/* ---- sysfs ------------------------------------------------------------------- */

static struct simhba_lun *dev_to_lun(struct device *dev)
{
	return to_scsi_device(dev)->hostdata;
}

static ssize_t simhba_stats_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	struct simhba_stats s = { };
	unsigned long flags;
	unsigned int i, j;
	int n;

	if (!lun)
		return -ENODEV;
	spin_lock_irqsave(&lun->host->lock, flags);
	host_advance(lun->host, model_now());
	for (i = 0; i < lun->nmembers; i++) {
		const struct simhba_stats *m = &lun->m[i].disk.st;

		s.cmds += m->cmds;
		s.reads += m->reads;
		s.writes += m->writes;
		s.flushes += m->flushes;
		s.read_bytes += m->read_bytes;
		s.write_bytes += m->write_bytes;
		s.seeks += m->seeks;
		s.seek_cyls += m->seek_cyls;
		s.busy_ns = max(s.busy_ns, m->busy_ns);
		s.ra_hits += m->ra_hits;
		s.wc_hits += m->wc_hits;
		s.destages += m->destages;
		s.destage_bytes += m->destage_bytes;
		for (j = 0; j < SIMHBA_QD_BUCKETS; j++)
			s.qd_hist[j] += m->qd_hist[j];
	}
	spin_unlock_irqrestore(&lun->host->lock, flags);

	n = sysfs_emit(buf,
		       "commands %llu\nreads %llu\nwrites %llu\nflushes %llu\n"
		       "read_bytes %llu\nwrite_bytes %llu\nseeks %llu\n"
		       "seek_cylinders %llu\nbusy_ns %llu\nra_hits %llu\n"
		       "wc_hits %llu\ndestages %llu\ndestage_bytes %llu\n"
		       "medium_errors %lld\ntimeouts %lld\n"
		       "busy %lld\naborts %lld\nresets %lld\nqd_hist",
		       s.cmds, s.reads, s.writes, s.flushes, s.read_bytes,
		       s.write_bytes, s.seeks, s.seek_cyls, s.busy_ns,
		       s.ra_hits, s.wc_hits, s.destages, s.destage_bytes,
		       atomic64_read(&lun->medium_errors),
		       atomic64_read(&lun->timeouts),
		       atomic64_read(&lun->busies),
		       atomic64_read(&lun->aborts),
		       atomic64_read(&lun->resets));
	for (j = 0; j < SIMHBA_QD_BUCKETS; j++)
		n += sysfs_emit_at(buf, n, " %llu", s.qd_hist[j]);
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
static DEVICE_ATTR_RO(simhba_stats);

static ssize_t simhba_profile_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	if (!lun)
		return -ENODEV;
	if (lun->chunk)
		return sysfs_emit(buf, "raid0 %u x %s chunk %u KiB\n",
				  lun->nmembers, lun->profile,
				  lun->chunk / 2);
	return sysfs_emit(buf, "%s\n", lun->profile);
}
static DEVICE_ATTR_RO(simhba_profile);

/* The model's parameters, for analytic expectations in user space. */
static ssize_t simhba_model_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	const struct simhba_disk *d;
	const struct simhba_profile *p;

	if (!lun)
		return -ENODEV;
	d = &lun->m[0].disk;
	p = &d->p;
	return sysfs_emit(buf,
			  "kind %s\nmembers %u\nchunk_sectors %u\n"
			  "capacity_sectors %llu\nmember_sectors %llu\n"
			  "cylinders %u\nheads %u\nrpm %u\nrot_ns %llu\n"
			  "t2t_ns %u\navg_ns %u\nfull_ns %u\nhead_switch_ns %u\n"
			  "outer_Bps %llu\ninner_Bps %llu\n"
			  "outer_sustained_Bps %llu\ninner_sustained_Bps %llu\n"
			  "spec_outer_Bps %llu\nspec_inner_Bps %llu\n"
			  "knee_ns %llu\niface_mbps %u\n"
			  "overhead_ns %u\ncmd_ns %llu\nchannels %u\nread_ns %u\n"
			  "write_ns %u\nchan_mbps %u\nra_kib %u\nwc_kib %u\n"
			  "time_scale %u\n",
			  p->kind == SIMHBA_SSD ? "ssd" : "hdd", lun->nmembers,
			  lun->chunk, lun->capacity, d->capacity, d->cyls,
			  p->heads, p->rpm, d->rot_ns, p->t2t_ns, p->avg_ns,
			  p->full_ns, p->head_switch_ns,
			  simhba_media_rate(d, 0),
			  simhba_media_rate(d, d->capacity - 1),
			  simhba_sustained_rate(d, 0),
			  simhba_sustained_rate(d, d->capacity - 1),
			  p->spec_outer_kbps * 1000ULL, p->spec_inner_kbps * 1000ULL,
			  d->knee_ns, p->iface_mbps,
			  p->overhead_ns, lun->host->cmd_ns, d->nch, p->read_ns,
			  p->write_ns, p->chan_mbps, p->ra_kib, p->wc_kib,
			  time_scale);
}
static DEVICE_ATTR_RO(simhba_model);

static ssize_t simhba_wce_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	return lun ? sysfs_emit(buf, "%d\n", lun->wce) : -ENODEV;
}

static ssize_t simhba_wce_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	unsigned long flags;
	unsigned int i, v;

	if (!lun)
		return -ENODEV;
	if (kstrtouint(buf, 0, &v) || v > 1)
		return -EINVAL;
	spin_lock_irqsave(&lun->host->lock, flags);
	host_advance(lun->host, model_now());
	lun->wce = v;
	for (i = 0; i < lun->nmembers; i++)
		lun->m[i].disk.wce = v;
	spin_unlock_irqrestore(&lun->host->lock, flags);
	return count;
}
static DEVICE_ATTR_RW(simhba_wce);

static ssize_t simhba_ncq_depth_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	return lun ? sysfs_emit(buf, "%u\n", lun->m[0].disk.depth) : -ENODEV;
}

static ssize_t simhba_ncq_depth_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	unsigned long flags;
	unsigned int i, v;

	if (!lun)
		return -ENODEV;
	if (kstrtouint(buf, 0, &v) || v < 1 || v > 256)
		return -EINVAL;
	spin_lock_irqsave(&lun->host->lock, flags);
	host_advance(lun->host, model_now());
	for (i = 0; i < lun->nmembers; i++)
		lun->m[i].disk.depth = v;
	spin_unlock_irqrestore(&lun->host->lock, flags);
	return count;
}
static DEVICE_ATTR_RW(simhba_ncq_depth);

static struct attribute *simhba_sdev_attrs[] = {
	&dev_attr_simhba_stats.attr,
	&dev_attr_simhba_profile.attr,
	&dev_attr_simhba_model.attr,
	&dev_attr_simhba_wce.attr,
	&dev_attr_simhba_ncq_depth.attr,
	NULL,
};
ATTRIBUTE_GROUPS(simhba_sdev);

struct simhba_counter_attr {
	struct device_attribute attr;
	size_t offset;		/* of an atomic64_t in struct simhba_host */
};

static ssize_t simhba_counter_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));
	struct simhba_counter_attr *ca =
		container_of(attr, struct simhba_counter_attr, attr);
	atomic64_t *v = (void *)h + ca->offset;

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

#define SIMHBA_COUNTER(_name, _field)					\
	struct simhba_counter_attr dev_attr_##_name = {			\
		.attr = __ATTR(_name, 0444, simhba_counter_show, NULL),	\
		.offset = offsetof(struct simhba_host, _field),		\
	}

static SIMHBA_COUNTER(simhba_map_segs, map_segs);
static SIMHBA_COUNTER(simhba_map_bytes, map_bytes);
static SIMHBA_COUNTER(simhba_bounce_segs, bounce_segs);
static SIMHBA_COUNTER(simhba_bounce_bytes, bounce_bytes);
static SIMHBA_COUNTER(simhba_map_failures, map_failures);

static ssize_t simhba_personality_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%s\n", h->pers->name);
}
static DEVICE_ATTR_RO(simhba_personality);

static ssize_t simhba_dma_bits_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%u\n", h->dma_bits);
}
static DEVICE_ATTR_RO(simhba_dma_bits);

static ssize_t simhba_max_segs_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%d\n", atomic_read(&h->max_segs));
}
static DEVICE_ATTR_RO(simhba_max_segs);

/* The host's link, each way: rate, modelled busy time and bytes carried. */
static ssize_t simhba_link_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));
	struct simhba_link l[2];
	unsigned long flags;
	unsigned int i;
	int n = 0;

	if (!h->pers->link_mbps)
		return sysfs_emit(buf, "none\n");
	spin_lock_irqsave(&h->lock, flags);
	l[0] = h->link[0];
	l[1] = h->link[1];
	spin_unlock_irqrestore(&h->lock, flags);
	for (i = 0; i < 2; i++) {
		if (i && !h->pers->full_duplex)
			break;
		n += sysfs_emit_at(buf, n, "%s mbps %u busy_ns %llu bytes %llu\n",
				   h->pers->full_duplex ?
				   (i ? "to_disk" : "to_host") : "both",
				   l[i].mbps, l[i].busy_ns, l[i].bytes);
	}
	return n;
}
static DEVICE_ATTR_RO(simhba_link);

static struct attribute *simhba_shost_attrs[] = {
	&dev_attr_simhba_personality.attr,
	&dev_attr_simhba_dma_bits.attr,
	&dev_attr_simhba_max_segs.attr,
	&dev_attr_simhba_link.attr,
	&dev_attr_simhba_map_segs.attr.attr,
	&dev_attr_simhba_map_bytes.attr.attr,
	&dev_attr_simhba_bounce_segs.attr.attr,
	&dev_attr_simhba_bounce_bytes.attr.attr,
	&dev_attr_simhba_map_failures.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(simhba_shost);

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

static int timer_lag_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct simhba_lun *)data)->timer_lag_ns);
	return 0;
}

/* At most a second: a test knob, not a way to stall the LUN. */
static int timer_lag_set(void *data, u64 val)
{
	if (val > NSEC_PER_SEC)
		return -EINVAL;
	WRITE_ONCE(((struct simhba_lun *)data)->timer_lag_ns, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(timer_lag_fops, timer_lag_get, timer_lag_set, "%llu\n");

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
	INIT_LIST_HEAD(&lun->inflight);
	xa_init(&lun->store);

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
	if (!cap)
		return -EINVAL;
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
		if (ret)
			return ret;
		m->disk.depth = lun->qdepth;
		m->disk.age_ns = (u64)ncq_age_ms * NSEC_PER_MSEC;
		m->disk.wce = lun->wce;
		if (h->pers->link_mbps) {
			m->disk.link[0] = &h->link[0];
			m->disk.link[1] = &h->link[h->pers->full_duplex];
		}
		m->lun = lun;
		hrtimer_init(&m->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		m->timer.function = member_timer_fn;
	}

	snprintf(name, sizeof(name), "%d:%u", h->id, idx);
	lun->dbg = debugfs_create_dir(name, simhba_dbg_root);
	debugfs_create_u64("medium_error_lba", 0600, lun->dbg, &lun->medium_lba);
	debugfs_create_u64("medium_error_sectors", 0600, lun->dbg,
			   &lun->medium_sectors);
	debugfs_create_atomic_t("timeout_next", 0600, lun->dbg,
				&lun->timeout_next);
	debugfs_create_atomic_t("busy_next", 0600, lun->dbg, &lun->busy_next);
	debugfs_create_file_unsafe("timer_lag_ns", 0600, lun->dbg, lun,
				   &timer_lag_fops);
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
	store_free(lun);
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

static void simhba_host_destroy(struct simhba_host *h)
{
	unsigned int i;

	if (h->added)
		scsi_remove_host(h->shost);
	if (h->shost)
		scsi_host_put(h->shost);
	if (h->lun) {
		/*
		 * A member's timer advances every disk of the host: stop them
		 * all before any LUN's disks go (an aborted command's channel
		 * keeps its timer armed until the modelled finish).
		 */
		for (i = 0; i < h->nluns; i++)
			simhba_lun_stop(&h->lun[i]);
		for (i = 0; i < h->nluns; i++)
			simhba_lun_free(&h->lun[i]);
		kfree(h->lun);
	}
	kfree(h->disks);
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
	spin_lock_init(&h->lock);
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
		h->ndisks += h->lun[i].nmembers;
	}
	h->disks = kcalloc(h->ndisks, sizeof(*h->disks), GFP_KERNEL);
	if (!h->disks) {
		ret = -ENOMEM;
		goto fail;
	}
	h->ndisks = 0;
	for (i = 0; i < luns; i++) {
		unsigned int j;

		for (j = 0; j < h->lun[i].nmembers; j++)
			h->disks[h->ndisks++] = &h->lun[i].m[j].disk;
	}

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

static int __init simhba_check_params(void)
{
	int i;

	if (hosts < 1 || hosts > SIMHBA_MAX_HOSTS) {
		pr_err("hosts=%u: must be 1-%d\n", hosts, SIMHBA_MAX_HOSTS);
		return -EINVAL;
	}
	if (luns < 1 || luns > SIMHBA_MAX_LUNS) {
		pr_err("luns=%u: must be 1-%d\n", luns, SIMHBA_MAX_LUNS);
		return -EINVAL;
	}
	if (time_scale < 1 || time_scale > 10000) {
		pr_err("time_scale=%u: must be 1-10000\n", time_scale);
		return -EINVAL;
	}
	if (qdepth > 256) {
		pr_err("qdepth=%u: must be 0-256\n", qdepth);
		return -EINVAL;
	}
	if (wce < -1 || wce > 1) {
		pr_err("wce=%d: must be -1, 0 or 1\n", wce);
		return -EINVAL;
	}
	if (ncq_age_ms < 1 || ncq_age_ms > 10000) {
		pr_err("ncq_age_ms=%u: must be 1-10000\n", ncq_age_ms);
		return -EINVAL;
	}
	if (store_mb < 1 || store_mb > 1048576) {
		pr_err("store_mb=%u: must be 1-1048576\n", store_mb);
		return -EINVAL;
	}
	if (dma_bits < 32 || dma_bits > 64) {
		pr_err("dma_bits=%u: must be 32-64\n", dma_bits);
		return -EINVAL;
	}
	if (fw_overhead_us > 100000) {
		pr_err("fw_overhead_us=%u: must be 0-100000\n", fw_overhead_us);
		return -EINVAL;
	}
	if (sg_segments != 32 && sg_segments != 64) {
		pr_err("sg_segments=%u: must be 32 or 64\n", sg_segments);
		return -EINVAL;
	}
	if (sg_tablesize > SG_MAX_SEGMENTS) {
		pr_err("sg_tablesize=%u: must be 0-%d\n", sg_tablesize, SG_MAX_SEGMENTS);
		return -EINVAL;
	}
	if (max_sectors && (max_sectors < 8 || max_sectors > 65535)) {
		pr_err("max_sectors=%u: must be 0 or 8-65535\n", max_sectors);
		return -EINVAL;
	}
	if (capacity_mb > (1U << 24)) {
		pr_err("capacity_mb=%u: must be at most 16777216\n", capacity_mb);
		return -EINVAL;
	}
	if (raid_members < 2 || raid_members > SIMHBA_MAX_MEMBERS) {
		pr_err("raid_members=%u: must be 2-%d\n", raid_members, SIMHBA_MAX_MEMBERS);
		return -EINVAL;
	}
	if (raid_chunk_kb < 4 || raid_chunk_kb > 4096 || !is_power_of_2(raid_chunk_kb)) {
		pr_err("raid_chunk_kb=%u: must be a power of two, 4-4096\n",
		       raid_chunk_kb);
		return -EINVAL;
	}
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
	if (capacity_mb && capacity_mb < 4) {
		pr_err("capacity_mb=%u: must be 0 or at least 4\n", capacity_mb);
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
