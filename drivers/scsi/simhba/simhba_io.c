// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: the command path.  queuecommand, the DMA mapping and the data
 * movement through the DMA addresses, the hrtimers that complete commands
 * at their modelled time, and the error handler's abort and resets.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-direct.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include <kunit/visibility.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>

#include "simhba.h"

u64 simhba_epoch;

/* ---- clock ------------------------------------------------------------------ */

u64 simhba_model_now(void)
{
	return (ktime_get_ns() - simhba_epoch) * simhba_time_scale;
}

static ktime_t model_to_ktime(u64 t)
{
	return ns_to_ktime(simhba_epoch + div_u64(t + simhba_time_scale - 1, simhba_time_scale));
}

/* What the adapter moved for one command. */
struct simhba_dma_count {
	u64 segs;
	u64 bytes;
	u64 bounce_segs;
	u64 bounce_bytes;
};

static void simhba_dma_count_add(struct simhba_host *h,
				 const struct simhba_dma_count *n)
{
	atomic64_add(n->segs, &h->map_segs);
	atomic64_add(n->bytes, &h->map_bytes);
	atomic64_add(n->bounce_segs, &h->bounce_segs);
	atomic64_add(n->bounce_bytes, &h->bounce_bytes);
}

/*
 * Move the data of a mapped command the way the adapter would: through the
 * DMA addresses, i.e. out of or into the swiotlb bounce slots when the DMA
 * API bounced a segment, and no more than the command's @len bytes.  With
 * an IOMMU in the way (DMA addresses that are not physical ones) fall back
 * to the CPU addresses of the scatterlist.  The host's counters of
 * mapped and bounced segments count each command once: not when it fails
 * with -ENOMEM to be retried, but when it moves its data.
 */
static int simhba_move_data(struct simhba_host *h, struct scsi_cmnd *sc,
			    int nseg, u64 lba, u64 len, bool write)
{
	struct device *dev = &h->dev;
	bool direct = !get_dma_ops(dev);
	struct simhba_lun *lun = sc->device->hostdata;
	int i, err = 0, most = atomic_read(&h->max_segs);
	u64 pos = lba * SIMHBA_SECTOR;
	struct simhba_dma_count n = { };
	struct scatterlist *sg;

	while (nseg > most && !atomic_try_cmpxchg(&h->max_segs, &most, nseg))
		;
	for_each_sg(scsi_sglist(sc), sg, nseg, i) {
		unsigned int seg = min_t(u64, sg_dma_len(sg), len);
		void *va;

		if (!seg)
			break;
		n.segs++;
		n.bytes += seg;
		if (direct) {
			phys_addr_t pa = dma_to_phys(dev, sg_dma_address(sg));

			if (swiotlb_find_pool(dev, pa)) {
				n.bounce_segs++;
				n.bounce_bytes += seg;
			}
			va = phys_to_virt(pa);
		} else {
			va = sg_virt(sg);
		}
		simhba_store_copy(lun, pos, va, seg, write, &err);
		/* a passing shortage: the command comes back, count it then */
		if (err == -ENOMEM)
			return err;
		if (err)
			break;
		pos += seg;
		len -= seg;
	}
	simhba_dma_count_add(h, &n);
	return err;
}

/* ---- ownership of commands ------------------------------------------------ */

/* @to takes @c if @from has it. */
bool simhba_own_take(struct simhba_cmd *c, enum simhba_owner from,
		     enum simhba_owner to)
{
	if (c->owner != from)
		return false;
	WRITE_ONCE(c->owner, to);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_own_take);

/*
 * The owner @by is done with @c: true if it was @by's, and then @by alone
 * finishes it.  No lock: nobody takes a command from TIMER, ABORT or RESET.
 */
bool simhba_own_release(struct simhba_cmd *c, enum simhba_owner by)
{
	if (READ_ONCE(c->owner) != by)
		return false;
	WRITE_ONCE(c->owner, SIMHBA_OWN_NONE);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_own_release);

/* A media command goes to the LUN: the disks have it, or it is lost there. */
void simhba_cmd_issue(struct simhba_lun *lun, struct simhba_cmd *c)
{
	lockdep_assert_held(&lun->dom->lock);
	if (WARN_ON_ONCE(!simhba_own_take(c, SIMHBA_OWN_NONE, SIMHBA_OWN_DISK)))
		return;
	list_add_tail(&c->node, &lun->inflight);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_cmd_issue);

/* The last operation of @c finished: its completion timer takes it. */
void simhba_cmd_reaped(struct simhba_cmd *c, struct list_head *done)
{
	if (!simhba_own_take(c, SIMHBA_OWN_DISK, SIMHBA_OWN_TIMER))
		return;
	list_del_init(&c->node);
	list_add_tail(&c->done, done);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_cmd_reaped);

/* Take @c off the disks: the operations it still had there are dropped. */
static void cmd_unqueue(struct simhba_lun *lun, struct simhba_cmd *c)
{
	unsigned int i;

	list_del_init(&c->node);
	for (i = 0; i < c->nops; i++) {
		simhba_disk_cancel(&lun->m[c->member[i]].disk, &c->op[i]);
		c->op[i].priv = NULL;
	}
	c->pending = 0;
}

/*
 * The abort takes @c if it is still at the disks, or if its quick timer
 * has not taken it yet: true if it did.
 */
bool simhba_cmd_abort_take(struct simhba_lun *lun, struct simhba_cmd *c)
{
	if (simhba_own_take(c, SIMHBA_OWN_QUICK, SIMHBA_OWN_ABORT))
		return true;
	if (!lun || !simhba_own_take(c, SIMHBA_OWN_DISK, SIMHBA_OWN_ABORT))
		return false;
	lockdep_assert_held(&lun->dom->lock);
	cmd_unqueue(lun, c);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_cmd_abort_take);

/* A reset takes every command of @lun still at the disks onto @list. */
void simhba_lun_reset_take(struct simhba_lun *lun, struct list_head *list)
{
	struct simhba_cmd *c, *tmp;

	lockdep_assert_held(&lun->dom->lock);
	list_for_each_entry_safe(c, tmp, &lun->inflight, node) {
		if (WARN_ON_ONCE(!simhba_own_take(c, SIMHBA_OWN_DISK,
						  SIMHBA_OWN_RESET)))
			continue;
		cmd_unqueue(lun, c);
		list_add_tail(&c->done, list);
	}
}
EXPORT_SYMBOL_IF_KUNIT(simhba_lun_reset_take);

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
 * Step every disk of @lun's domain up to @now in the order of their
 * events, so that the decisions of disks that share a link are taken in
 * model time, whenever each one's timer fires; the disks of other domains
 * are not touched.  Finished operations wait on their disk's done list for
 * their own timer.
 */
void simhba_lun_advance(struct simhba_lun *lun, u64 now)
{
	lockdep_assert_held(&lun->dom->lock);
	simhba_advance(lun->dom->disks, lun->dom->ndisks, now);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_lun_advance);

/* The lock under which @lun's commands change owner (see simhba_domain). */
static spinlock_t *cmd_lock(struct simhba_host *h, struct simhba_lun *lun)
{
	return lun ? &lun->dom->lock : &h->shared.lock;
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

enum hrtimer_restart simhba_member_timer_fn(struct hrtimer *t)
{
	struct simhba_member *m = container_of(t, struct simhba_member, timer);
	struct simhba_lun *lun = m->lun;
	struct simhba_cmd *c, *tmp;
	struct simhba_op *op;
	unsigned long flags;
	LIST_HEAD(done);
	u64 now;

	rcu_read_lock();
	spin_lock_irqsave(&lun->dom->lock, flags);
	now = simhba_model_now();
	simhba_lun_advance(lun, now);
	while (simhba_disk_reap(&m->disk, now, &op)) {
		c = op->priv;
		if (WARN_ON_ONCE(!c))
			continue;
		if (--c->pending == 0)
			simhba_cmd_reaped(c, &done);
	}
	member_arm(m);
	spin_unlock_irqrestore(&lun->dom->lock, flags);

	list_for_each_entry_safe(c, tmp, &done, done) {
		list_del_init(&c->done);
		if (simhba_own_release(c, SIMHBA_OWN_TIMER))
			simhba_finish(priv_to_cmd(c));
	}
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart cmd_timer_fn(struct hrtimer *t)
{
	struct simhba_cmd *c = container_of(t, struct simhba_cmd, timer);
	struct scsi_cmnd *sc = priv_to_cmd(c);
	spinlock_t *lock = cmd_lock(to_simhba(sc->device->host), c->lun);
	unsigned long flags;
	bool mine;

	spin_lock_irqsave(lock, flags);
	mine = simhba_own_take(c, SIMHBA_OWN_QUICK, SIMHBA_OWN_TIMER);
	spin_unlock_irqrestore(lock, flags);
	if (mine && simhba_own_release(c, SIMHBA_OWN_TIMER))
		simhba_finish(sc);
	return HRTIMER_NORESTART;
}

/* Complete a command that needs no media access after the overhead. */
static int simhba_quick(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	u64 ovh = lun ? lun->m[0].disk.p.overhead_ns : 20000;

	c->owner = SIMHBA_OWN_QUICK;
	hrtimer_start(&c->timer, model_to_ktime(simhba_model_now() + ovh),
		      HRTIMER_MODE_ABS);
	return 0;
}

/* ---- media commands --------------------------------------------------------- */

/* Hand the pieces of a command to the member disks. */
static void simhba_submit(struct simhba_lun *lun, struct simhba_cmd *c,
			  u64 lba, u32 n, bool write, bool fua, bool flush)
{
	struct simhba_domain *dom = lun->dom;
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

	spin_lock_irqsave(&dom->lock, flags);
	now = simhba_model_now();
	simhba_lun_advance(lun, now);
	/* the adapter's processor takes the commands one at a time */
	dom->cmd_free = max(now, dom->cmd_free) + lun->host->cmd_ns;
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
	simhba_cmd_issue(lun, c);
	for (i = 0; i < k; i++) {
		struct simhba_member *m = &lun->m[c->member[i]];

		simhba_disk_enqueue(&m->disk, &c->op[i], now,
				    dom->cmd_free - now);
		simhba_disk_dispatch(&m->disk, now);
		member_arm(m);
	}
	spin_unlock_irqrestore(&dom->lock, flags);
}

static int simhba_rw(struct Scsi_Host *shost, struct scsi_cmnd *sc,
		     struct simhba_lun *lun, const struct simhba_rw *rw)
{
	struct simhba_host *h = to_simhba(shost);
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	bool write = rw->write, fua = rw->fua;
	u64 lba = rw->lba, med_end;
	u32 n = rw->nsect;
	unsigned long flags;
	int nseg, err;

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
				   h->id, lun->lun, simhba_store_mb);
		/* SPACE ALLOCATION FAILED WRITE PROTECT */
		scsi_build_sense(sc, 0, DATA_PROTECT, 0x27, 0x07);
		return simhba_quick(sc, lun);
	}

	if (!write) {
		spin_lock_irqsave(&lun->dom->lock, flags);
		med_end = lun->medium_lba + lun->medium_sectors;
		if (lun->medium_sectors && lba < med_end &&
		    lba + n > lun->medium_lba) {
			c->medium_error = true;
			c->bad_lba = max(lba, lun->medium_lba);
			atomic64_inc(&lun->medium_errors);
		}
		spin_unlock_irqrestore(&lun->dom->lock, flags);
	}

	if (atomic_add_unless(&lun->timeout_next, -1, 0)) {
		/* Lost in the firmware: only the error handler gets it back. */
		atomic64_inc(&lun->timeouts);
		spin_lock_irqsave(&lun->dom->lock, flags);
		simhba_cmd_issue(lun, c);
		spin_unlock_irqrestore(&lun->dom->lock, flags);
		return 0;
	}
	simhba_submit(lun, c, lba, n, write, fua, false);
	return 0;
}

int simhba_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct simhba_lun *lun = sc->device->hostdata;
	struct simhba_host *h = to_simhba(shost);
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	u8 b[SIMHBA_RESP_MAX] = { };
	struct simhba_result res;
	struct simhba_rw rw;

	INIT_LIST_HEAD(&c->node);
	INIT_LIST_HEAD(&c->done);
	c->lun = lun;
	c->owner = SIMHBA_OWN_NONE;
	c->pending = 0;
	c->nops = 0;
	c->mapped = false;
	c->medium_error = false;
	sc->result = 0;

	switch (simhba_emulate(lun, h->nluns, sc->cmnd, b, &res, &rw)) {
	case SIMHBA_EMUL_MEDIA:
		if (!rw.flush)
			return simhba_rw(shost, sc, lun, &rw);
		simhba_submit(lun, c, 0, 0, true, false, true);
		return 0;
	case SIMHBA_EMUL_DONE:
		break;
	}
	if (res.key)
		scsi_build_sense(sc, 0, res.key, res.asc, res.ascq);
	else if (res.len)
		scsi_sg_copy_from_buffer(sc, b, res.len);
	return simhba_quick(sc, lun);
}

/* ---- error handling ------------------------------------------------------- */

/*
 * The error handler's entry points may run at once (an abort from the
 * midlayer's work queue, a reset from SG_SCSI_RESET): eh_mutex serialises
 * them, so that a command taken by one is never seen half-finished by the
 * other.
 */
int simhba_eh_abort(struct scsi_cmnd *sc)
{
	struct simhba_host *h = to_simhba(sc->device->host);
	struct simhba_lun *lun = sc->device->hostdata;
	struct simhba_cmd *c = scsi_cmd_priv(sc);
	spinlock_t *lock = cmd_lock(h, lun);
	unsigned long flags;
	bool owned;

	mutex_lock(&h->eh_mutex);
	spin_lock_irqsave(lock, flags);
	if (lun)
		simhba_lun_advance(lun, simhba_model_now());
	owned = simhba_cmd_abort_take(lun, c);
	spin_unlock_irqrestore(lock, flags);
	if (lun)
		atomic64_inc(&lun->aborts);
	/* a quick timer that lost the command, or one still running, ends */
	hrtimer_cancel(&c->timer);
	if (owned && simhba_own_release(c, SIMHBA_OWN_ABORT)) {
		if (c->mapped) {
			scsi_dma_unmap(sc);
			c->mapped = false;
		}
	} else {
		synchronize_rcu();	/* its owner's completion finishes */
	}
	mutex_unlock(&h->eh_mutex);
	return SUCCESS;
}

static void simhba_reset_lun(struct simhba_lun *lun)
{
	struct simhba_cmd *c, *tmp;
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&lun->dom->lock, flags);
	simhba_lun_advance(lun, simhba_model_now());
	simhba_lun_reset_take(lun, &list);
	spin_unlock_irqrestore(&lun->dom->lock, flags);
	atomic64_inc(&lun->resets);
	/*
	 * Commands a completion timer took before us are its own; let it
	 * finish them before the midlayer reuses their requests.
	 */
	synchronize_rcu();

	list_for_each_entry_safe(c, tmp, &list, done) {
		struct scsi_cmnd *sc = priv_to_cmd(c);

		list_del_init(&c->done);
		if (!simhba_own_release(c, SIMHBA_OWN_RESET))
			continue;
		c->medium_error = false;
		sc->result = DID_RESET << 16;
		simhba_finish(sc);
	}
}

int simhba_eh_device_reset(struct scsi_cmnd *sc)
{
	struct simhba_host *h = to_simhba(sc->device->host);
	struct simhba_lun *lun = sc->device->hostdata;

	mutex_lock(&h->eh_mutex);
	if (lun)
		simhba_reset_lun(lun);
	mutex_unlock(&h->eh_mutex);
	return SUCCESS;
}

int simhba_eh_host_reset(struct scsi_cmnd *sc)
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

int simhba_slave_alloc(struct scsi_device *sdev)
{
	struct simhba_host *h = to_simhba(sdev->host);

	if (sdev->channel == 0 && sdev->id == 0 && sdev->lun < h->nluns)
		sdev->hostdata = &h->lun[sdev->lun];
	return 0;
}

int simhba_slave_configure(struct scsi_device *sdev)
{
	struct simhba_lun *lun = sdev->hostdata;

	if (lun)
		scsi_change_queue_depth(sdev, lun->qdepth);
	return 0;
}

void simhba_slave_destroy(struct scsi_device *sdev)
{
	sdev->hostdata = NULL;
}

int simhba_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct simhba_cmd *c = scsi_cmd_priv(sc);

	INIT_LIST_HEAD(&c->node);
	INIT_LIST_HEAD(&c->done);
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	c->timer.function = cmd_timer_fn;
	return 0;
}
