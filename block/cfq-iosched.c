// SPDX-License-Identifier: GPL-2.0
/*
 * CFQ, the Completely Fair Queueing I/O scheduler, for blk-mq.
 *
 * The idea (Jens Axboe's CFQ, Linux's default scheduler from 2.6.18 until
 * the legacy request path was removed in 5.0): every process gets its own
 * queue of synchronous requests and, in turn, exclusive use of the disk for
 * a time slice.  Within a slice the queue is served in sector order; when
 * it runs dry, the disk idles for up to slice_idle in case the process
 * issues its next read close by (the "deceptive idleness" that the
 * anticipatory scheduler also fights).  Asynchronous writeback goes to
 * queues shared per priority class and level.
 *
 * - Classes and priorities.  ionice's RT class is always served before BE,
 *   and IDLE only when the disk has had nothing else to do for a while.
 *   The level (0 high .. 7 low) scales the slice length.
 * - Service trees.  Busy queues wait in a tree per class and workload type
 *   (SYNC: idling queues; SYNC_NOIDLE: seeky ones; ASYNC), ordered by a
 *   key that is the time they became busy, so each tree is round-robin.
 *   Workload types share the class's time in proportion to their queues.
 * - Latency.  With low_latency, slices shrink so that all busy queues of a
 *   class get a turn within target_latency.  Also with low_latency, a
 *   process that has just started doing I/O may be boosted for new_boost
 *   (0, off, by default):
 *   its sync queue takes the disk from queues that are not boosted as
 *   soon as it has a request, waits at the front of its tree, idles for
 *   its next request whatever its seeks and think time, and has its
 *   slice extended while no other boosted queue of its group waits (once
 *   a turn while async work waits).  While it idles and its process
 *   thinks longer than slice_idle, other queues of its group send
 *   requests beside it, as many as its reads show do not slow them
 *   (injection, as bfq does).
 *   Starting an application is a burst of small scattered reads with
 *   think time between them; served in turn with streaming readers, each
 *   read waits for their slices (bfq's weight raising answers the same).
 * - Idling.  A sync queue idles only if its think time is below
 *   slice_idle and it is not seeky; the SYNC_NOIDLE workload idles once,
 *   at its end.  On a device that keeps a deep queue busy (hw_tag) the
 *   latter only while other workloads of the group wait: an array serves
 *   seeky queues' requests in parallel.  On a deep SSD no queue or
 *   workload idles (a group may).
 * - Groups.  Queues belong to a group (a cgroup, with
 *   CONFIG_CFQ_GROUP_IOSCHED; else the root group).  Groups take turns by
 *   virtual disk time: the time a group's queues used, divided by its
 *   hierarchical weight (its part of the disk, as the weights of the
 *   cgroup hierarchy divide it).  group_idle keeps the disk for a group
 *   whose last queue ran dry while other groups wait, unless the device
 *   is deep and the queue has no window (its idle window, or with
 *   slice_idle 0 its group window): a seeky queue has none, and that is
 *   the fix for the striped-array collapse of 2.6's group idling.  A
 *   group's only queue whose slice ends with nothing queued keeps the
 *   disk for its next request (wait_busy), so that the group does not
 *   lose its place on the tree.
 * - Close cooperators.  Processes that read one stream between them, a
 *   piece each in turn, have a queue each; when the active queue runs dry
 *   and another queue's next request follows where it left the disk,
 *   that queue goes next, without idling, and the two merge (split again
 *   once the shared queue turns seeky).
 *
 * blk-mq pulls requests: dispatch_request() returns one or none.  Idling
 * means has_work() says no and an hrtimer reruns the queue; every decision
 * is made under cfq_data->lock and counted in debugfs.
 *
 * See Documentation/block/cfq-iosched.rst
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/bio.h>
#include <linux/hrtimer.h>
#include <linux/ioprio.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rbtree.h>
#include <linux/sbitmap.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <trace/events/block.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-debugfs.h"
#include "blk-mq-sched.h"
#include "blk-wbt.h"
#include "cfq-iosched.h"
#include "elv-common.h"

/* Defaults of the tunables (those of the 2.6 scheduler), in ms. */
#define CFQ_FIFO_EXPIRE_SYNC_MS		125
#define CFQ_FIFO_EXPIRE_ASYNC_MS	250
#define CFQ_SLICE_SYNC_MS		100
#define CFQ_SLICE_ASYNC_MS		40
#define CFQ_SLICE_IDLE_MS		8
#define CFQ_GROUP_IDLE_MS		8
#define CFQ_TARGET_LATENCY_MS		300
#define CFQ_NEW_BOOST_MS		0
#define CFQ_BACK_SEEK_MAX_KB		(16 * 1024)
#define CFQ_BACK_SEEK_PENALTY		2
#define CFQ_SLICE_ASYNC_RQ		2
#define CFQ_QUANTUM			8
#define CFQ_MAX_MS			60000
#define CFQ_MS_TO_NS(ms)	((u64)(ms) * NSEC_PER_MSEC)
#define CFQ_NS_TO_MS(ns)	div_u64(ns, NSEC_PER_MSEC)

/* A slice lasts base + base / CFQ_SLICE_SCALE per level above 4. */
#define CFQ_SLICE_SCALE			5
/* No slice is made shorter than this, whatever low_latency says. */
#define CFQ_MIN_TT_NS			(2 * NSEC_PER_MSEC)
/* A group is charged at least this much for a turn. */
#define CFQ_MIN_CHARGE_NS		(NSEC_PER_MSEC / 10)
/* The idle class waits this long after other I/O. */
#define CFQ_IDLE_DELAY_NS		(200 * NSEC_PER_MSEC)
/*
 * A seek: more than 800 sectors (400 KiB) from the previous request, on
 * an SSD a request under 64 sectors (32 KiB): 2.6.33's CFQQ_SEEK_THR and
 * CFQQ_SECT_THR_NONROT (see cfq_seeky() for "seeky").
 */
#define CFQ_SEEK_THR_SECTORS		800
#define CFQ_SEEK_THR_NONROT_SECTORS	64
/*
 * A close cooperator: a queue whose next request starts within 8192
 * sectors (4 MiB) of where the last dispatch ended (2.6.33's
 * CFQQ_CLOSE_THR).
 */
#define CFQ_CLOSE_THR_SECTORS		(8 * 1024)
/* hw_tag: a device holding this many requests has a deep queue. */
#define CFQ_HW_QUEUE_MIN		5
#define CFQ_HW_TAG_SAMPLES		50
/*
 * Processes that start within 180 ms of one another are a burst; from
 * the ninth on they are not boosted (bfq's burst_interval and
 * large_burst_thresh).
 */
#define CFQ_BURST_NS			(180 * NSEC_PER_MSEC)
/* A boosted queue idles at least this long (bfq's idle for such queues). */
#define CFQ_BOOST_IDLE_NS		(20 * NSEC_PER_MSEC)
#define CFQ_BURST_MAX			8
/*
 * Beside a boosted queue that idles, other queues' requests may go to the
 * device while its reads take less than 3/2 of their time alone (bfq's
 * injection; see also CFQ_INJECT_PROBE_NS).
 */
#define CFQ_INJECT_SLOWER_NUM		3
#define CFQ_INJECT_SLOWER_DEN		2

static const char *const cfq_expire_name[CFQ_NR_EXPIRE] = {
	[CFQ_EXP_SLICE]		= "slice",
	[CFQ_EXP_EMPTY]		= "empty",
	[CFQ_EXP_IDLE_TIMEOUT]	= "idle_timeout",
	[CFQ_EXP_PREEMPTED]	= "preempted",
	[CFQ_EXP_ASYNC_RQ]	= "async_rq",
	[CFQ_EXP_GONE]		= "gone",
	[CFQ_EXP_COOP]		= "coop",
};

static struct kmem_cache *cfq_pool;

/* ---- pure helpers (KUnit: cfq-iosched-test.c) ---------------------------- */

/* The slice of level @ioprio (0..7) for base slice @base_ns. */
VISIBLE_IF_KUNIT u64 cfq_prio_slice(u64 base_ns, unsigned short ioprio)
{
	s64 step = div_u64(base_ns, CFQ_SLICE_SCALE);

	return base_ns + step * (4 - (int)min_t(unsigned short, ioprio, 7));
}
EXPORT_SYMBOL_IF_KUNIT(cfq_prio_slice);

/*
 * low_latency: if @busy queues with slices of slice_sync would take longer
 * than @group_slice to get a turn each, shrink @slice in proportion, but
 * never below what two idle periods cost (nor below CFQ_MIN_TT_NS).
 */
VISIBLE_IF_KUNIT u64 cfq_low_latency_slice(u64 slice, u64 slice_sync,
					   u64 slice_idle, unsigned int busy,
					   u64 group_slice)
{
	u64 expect = slice_sync * busy;
	u64 low;

	if (!busy || !slice_sync || expect <= group_slice)
		return slice;
	/* Each tunable is at most CFQ_MAX_MS: their products overflow u64. */
	low = max_t(u64, 2 * slice_idle, CFQ_MIN_TT_NS);
	low = min(slice, mul_u64_u64_div_u64(low, slice, slice_sync));
	return max(mul_u64_u64_div_u64(slice, group_slice, expect), low);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_low_latency_slice);

/*
 * Virtual time a group is charged for @charge_ns of disk time at the
 * hierarchical weight @hweight (CFQ_HW_SHIFT fraction bits).
 */
VISIBLE_IF_KUNIT u64 cfq_scale_charge(u64 charge_ns, unsigned int hweight)
{
	return div_u64(charge_ns * (CFQ_WEIGHT_DEFAULT << CFQ_HW_SHIFT),
		       max(hweight, 1U));
}
EXPORT_SYMBOL_IF_KUNIT(cfq_scale_charge);

/* A group's share of target_latency: @weight of @total_weight. */
VISIBLE_IF_KUNIT u64 cfq_group_slice(u64 target_latency, u64 weight,
				     u64 total_weight)
{
	if (!total_weight || weight >= total_weight)
		return target_latency;
	return mul_u64_u64_div_u64(target_latency, weight, total_weight);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_group_slice);

/*
 * The time a workload type gets before the others are considered: its
 * share (@count of @busy_avg queues) of the group slice; async work gets
 * that scaled by slice_async / slice_sync, sync work at least two idles.
 */
VISIBLE_IF_KUNIT u64 cfq_workload_slice(u64 group_slice, unsigned int count,
					unsigned int busy_avg, bool async,
					u64 slice_sync, u64 slice_async,
					u64 slice_idle)
{
	u64 slice = div_u64(group_slice * count, max3(busy_avg, count, 1U));

	if (async && slice_sync)
		slice = mul_u64_u64_div_u64(slice, slice_async, slice_sync);
	else if (!async)
		slice = max(slice, 2 * slice_idle);
	return max_t(u64, slice, CFQ_MIN_TT_NS);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_workload_slice);

/*
 * The disk time a group is charged when its queue's turn ends at @now, as
 * 2.6 charged it: from the start of the slice (the queue's first
 * completion, @slice_start), not from its first dispatch (@dispatch_start).
 * The time between the two is mostly the seek to where the queue's work
 * lies: one per turn, whatever the slice, so charging it would cost a
 * group of short slices (a low weight) a larger part of its time than one
 * of long slices, and the weights would not give the shares they say.
 * A turn that ends at or before its first completion (one request, then
 * no idling; a preemption) is charged from its first dispatch; every turn
 * is charged CFQ_MIN_CHARGE_NS at least.
 */
VISIBLE_IF_KUNIT u64 cfq_slice_charge(u64 dispatch_start, u64 slice_start,
				      u64 now)
{
	u64 from = slice_start && slice_start < now ? slice_start :
						      dispatch_start;

	if (!from || now <= from + CFQ_MIN_CHARGE_NS)
		return CFQ_MIN_CHARGE_NS;
	return now - from;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_slice_charge);

/*
 * Think time: an exponentially decaying mean in fixed point, weight 7/8 on
 * the past, as 2.6 did; samples above @cap_ns count as @cap_ns.
 */
VISIBLE_IF_KUNIT void cfq_ttime_add(struct cfq_ttime *tt, u64 sample_ns,
				    u64 cap_ns)
{
	sample_ns = min(sample_ns, cap_ns);
	tt->samples = (7 * tt->samples + 256) / 8;
	tt->total = div_u64(7 * tt->total + 256 * sample_ns, 8);
	tt->mean_ns = div_u64(tt->total + 128, tt->samples);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_ttime_add);

/* Enough samples to judge (about four requests). */
VISIBLE_IF_KUNIT bool cfq_ttime_valid(const struct cfq_ttime *tt)
{
	return tt->samples > 80;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_ttime_valid);

VISIBLE_IF_KUNIT u32 cfq_seek_push(u32 history, bool seeky)
{
	return history << 1 | seeky;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_seek_push);

/*
 * Seeky: more than one in eight of the last @samples (at most 32) requests
 * seeked.  With a full history that is 2.6's rule (more than 4 of 32); a
 * new queue is judged from the requests it has made so far, so a random
 * reader shows what it is at its second request, not at its sixth.
 */
VISIBLE_IF_KUNIT bool cfq_seeky(u32 history, unsigned int samples)
{
	return hweight32(history) * 8 > min(samples, 32U);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_seeky);

/*
 * The cost of going from @head to a request at @pos: the distance, or
 * @back_penalty times it backwards within @back_max sectors; -1 when the
 * request is further back than that.
 */
VISIBLE_IF_KUNIT s64 cfq_req_cost(sector_t head, sector_t pos,
				  sector_t back_max, unsigned int back_penalty)
{
	if (pos >= head)
		return pos - head;
	if (head - pos <= back_max)
		return (s64)(head - pos) * back_penalty;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_req_cost);

/* Requests an async queue of level @ioprio may dispatch in one slice. */
VISIBLE_IF_KUNIT unsigned int cfq_prio_to_maxrq(unsigned int slice_async_rq,
						unsigned short ioprio)
{
	return 2 * slice_async_rq * (IOPRIO_NR_LEVELS - min_t(unsigned short, ioprio, 7));
}
EXPORT_SYMBOL_IF_KUNIT(cfq_prio_to_maxrq);

VISIBLE_IF_KUNIT enum cfq_wl_class cfq_wl_class_of(unsigned short ioprio_class)
{
	switch (ioprio_class) {
	case IOPRIO_CLASS_RT:
		return CFQ_RT_WL;
	case IOPRIO_CLASS_IDLE:
		return CFQ_IDLE_WL;
	default:
		return CFQ_BE_WL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cfq_wl_class_of);

/* ---- small accessors ---------------------------------------------------- */

static inline struct cfq_io_cq *icq_to_cic(struct io_cq *icq)
{
	return container_of_const(icq, struct cfq_io_cq, icq);
}

static inline struct cfq_queue *rq_cfqq(struct request *rq)
{
	return rq->elv.priv[0];
}

static inline unsigned long cfq_rq_flags(struct request *rq)
{
	return (unsigned long)rq->elv.priv[1];
}

static inline void cfq_rq_set_flags(struct request *rq, unsigned long flags)
{
	rq->elv.priv[1] = (void *)flags;
}

static inline bool cfqq_class_idle(const struct cfq_queue *cfqq)
{
	return cfqq->ioprio_class == IOPRIO_CLASS_IDLE;
}

static inline bool cfqq_class_rt(const struct cfq_queue *cfqq)
{
	return cfqq->ioprio_class == IOPRIO_CLASS_RT;
}

/*
 * Is @cfqq boosted at @now: the sync queue of a process whose first sync
 * request came less than new_boost ago (cfq_boost_new()), with
 * low_latency on and new_boost not 0 now?  Never the idle class.
 */
VISIBLE_IF_KUNIT bool cfqq_boosted(const struct cfq_data *cfqd,
				   const struct cfq_queue *cfqq, u64 now)
{
	return now < cfqq->boost_end && !cfqq_class_idle(cfqq) &&
	       READ_ONCE(cfqd->low_latency) && READ_ONCE(cfqd->new_boost);
}
EXPORT_SYMBOL_IF_KUNIT(cfqq_boosted);

static inline enum cfq_wl_type cfqq_type(const struct cfq_queue *cfqq)
{
	if (!cfqq_sync(cfqq))
		return CFQ_ASYNC_WL;
	return cfqq_idle_window(cfqq) ? CFQ_SYNC_WL : CFQ_SYNC_NOIDLE_WL;
}

static struct cfq_rb_root *cfq_st(struct cfq_group *cfqg,
				  enum cfq_wl_class c, enum cfq_wl_type t)
{
	/* The idle class has one tree. */
	return &cfqg->st[c][c == CFQ_IDLE_WL ? CFQ_SYNC_WL : t];
}

static unsigned int cfq_class_busy(struct cfq_group *cfqg, enum cfq_wl_class c)
{
	enum cfq_wl_type t;
	unsigned int n = 0;

	for (t = 0; t < CFQ_NR_WL_TYPES; t++)
		n += cfqg->st[c][t].count;
	return n;
}

/* The workload tree @cfqq is on, or else the one of its kind. */
static struct cfq_rb_root *cfq_kind_st(struct cfq_queue *cfqq)
{
	if (cfqq->service_tree)
		return cfqq->service_tree;
	return cfq_st(cfqq->cfqg, cfq_wl_class_of(cfqq->ioprio_class),
		      cfqq_type(cfqq));
}

static bool cfq_deep(struct cfq_data *cfqd)
{
	return cfqd->hw_tag == 1;
}

static void cfq_kick(struct cfq_data *cfqd)
{
	blk_mq_run_hw_queues(cfqd->q, true);
}

/*
 * Drop cfqd->lock; if something ended a hold (rerun) while dispatch was
 * refusing work (held), run the queue again: nothing else would, since
 * has_work() says no while held.
 */
static void cfq_unlock(struct cfq_data *cfqd, unsigned long flags)
	__releases(&cfqd->lock)
{
	bool kick = cfqd->rerun && cfqd->held;

	cfqd->rerun = false;
	if (kick) {
		WRITE_ONCE(cfqd->held, false);
		cfqd->stat_kicks++;
	}
	spin_unlock_irqrestore(&cfqd->lock, flags);
	if (kick)
		cfq_kick(cfqd);
}

unsigned int cfq_group_weight(const struct cfq_group *cfqg)
{
	unsigned int w = READ_ONCE(cfqg->dev_weight);

	return w ?: READ_ONCE(cfqg->new_weight);
}

/* ---- groups ------------------------------------------------------------- */

static void cfq_get_group(struct cfq_group *cfqg)
{
	refcount_inc(&cfqg->ref);
}

void cfq_init_group(struct cfq_group *cfqg, struct cfq_data *cfqd,
		    struct cfq_group *parent, unsigned int weight)
{
	int c, t;

	cfqg->cfqd = cfqd;
	if (parent) {
		cfq_get_group(parent);
		cfqg->parent = parent;
	}
	RB_CLEAR_NODE(&cfqg->rb_node);
	cfqg->new_weight = weight;
	cfqg->weight = weight;
	for (c = 0; c < CFQ_NR_WL_CLASSES; c++)
		for (t = 0; t < CFQ_NR_WL_TYPES; t++)
			cfqg->st[c][t].rb = RB_ROOT_CACHED;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_init_group);

/*
 * Groups are referenced by their queues and by the cgroup policy; the last
 * reference may go after the scheduler exited (a cgroup's blkg is freed
 * late), so this touches nothing but the group.
 */
void cfq_put_group(struct cfq_group *cfqg)
{
	struct cfq_group *parent;

	for (; cfqg && refcount_dec_and_test(&cfqg->ref); cfqg = parent) {
		WARN_ON_ONCE(cfqg->on_st || cfqg->nr_cfqq || cfqg->nr_active);
		parent = cfqg->parent;
		kfree(cfqg);
	}
}
EXPORT_SYMBOL_IF_KUNIT(cfq_put_group);

static bool cfq_group_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct cfq_group, rb_node)->vdisktime <
	       rb_entry(b, struct cfq_group, rb_node)->vdisktime;
}

static void cfq_group_st_add(struct cfq_data *cfqd, struct cfq_group *cfqg)
{
	rb_add_cached(&cfqg->rb_node, &cfqd->grp_st.rb, cfq_group_less);
	cfqd->grp_st.count++;
}

static void cfq_group_st_del(struct cfq_data *cfqd, struct cfq_group *cfqg)
{
	rb_erase_cached(&cfqg->rb_node, &cfqd->grp_st.rb);
	RB_CLEAR_NODE(&cfqg->rb_node);
	cfqd->grp_st.count--;
}

static void cfq_update_min_vdisktime(struct cfq_data *cfqd)
{
	struct rb_node *n = rb_first_cached(&cfqd->grp_st.rb);

	if (n) {
		struct cfq_group *g = rb_entry(n, struct cfq_group, rb_node);

		cfqd->grp_st.min_vdisktime = max(cfqd->grp_st.min_vdisktime,
						 g->vdisktime);
	}
}

/*
 * The groups follow the cgroup hierarchy.  A group is active while it is
 * on the tree (its own queues are busy) or one of its children is active;
 * its children_weight is the sum of the weights of its active entities:
 * its own queues, at the group's weight, and each active child.  The
 * tree itself is flat, of the groups with busy queues, ordered by a
 * virtual disk time that each group's service advances in inverse
 * proportion to its hierarchical weight: its part of the disk, as the
 * weights along its path through the hierarchy divide it, expressed in
 * the weight units of the top level (grp_st.total_weight).  A group
 * directly under the top with no active children has its own weight, as
 * if the hierarchy were flat.
 */
static void cfq_group_add_weight(struct cfq_data *cfqd, struct cfq_group *cfqg,
				 int delta)
{
	cfqg->children_weight += delta;
	if (!cfqg->parent)
		cfqd->grp_st.total_weight += delta;
}

/* Apply a weight written since, correcting the sums that count @cfqg's. */
static void cfq_group_update_weight(struct cfq_data *cfqd,
				    struct cfq_group *cfqg)
{
	unsigned int w = cfq_group_weight(cfqg);
	int delta = w - cfqg->weight;

	if (!delta)
		return;
	if (cfqg->on_st)
		cfq_group_add_weight(cfqd, cfqg, delta);
	if (cfqg->nr_active && cfqg->parent)
		cfq_group_add_weight(cfqd, cfqg->parent, delta);
	cfqg->weight = w;
}

/* An entity of weight @w became active in @cfqg: so may its ancestors. */
static void cfq_group_activate(struct cfq_data *cfqd, struct cfq_group *cfqg,
			       unsigned int w)
{
	for (;;) {
		cfq_group_add_weight(cfqd, cfqg, w);
		if (cfqg->nr_active++ || !cfqg->parent)
			return;
		/* not yet counted in its parent: no sum to correct */
		if (!cfqg->on_st)
			cfqg->weight = cfq_group_weight(cfqg);
		w = cfqg->weight;
		cfqg = cfqg->parent;
	}
}

static void cfq_group_deactivate(struct cfq_data *cfqd,
				 struct cfq_group *cfqg, unsigned int w)
{
	for (;;) {
		cfq_group_add_weight(cfqd, cfqg, -w);
		if (WARN_ON_ONCE(!cfqg->nr_active) || --cfqg->nr_active ||
		    !cfqg->parent)
			return;
		w = cfqg->weight;
		cfqg = cfqg->parent;
	}
}

/* Precision of the fraction of a level that cfq_group_hweight() carries. */
#define CFQ_FRAC_SHIFT		20

/*
 * The hierarchical weight of @cfqg, on the tree: its own queues' part of
 * each level's children_weight, multiplied up to the top, in top-level
 * weight units with CFQ_HW_SHIFT fraction bits (at least one such unit).
 * A group whose ancestors below the top have no other active entity
 * gets exactly its own part.
 */
VISIBLE_IF_KUNIT unsigned int cfq_group_hweight(const struct cfq_group *cfqg)
{
	u64 frac = 1ULL << CFQ_FRAC_SHIFT;
	unsigned int w = cfqg->weight;

	for (; cfqg->parent; cfqg = cfqg->parent) {
		unsigned int cw = cfqg->children_weight;

		if (cw && cw != w)
			frac = div_u64(frac * w + cw / 2, cw);
		w = cfqg->weight;
	}
	/* the top's share of its own children_weight, in its units */
	frac = (frac * w + (1ULL << (CFQ_FRAC_SHIFT - CFQ_HW_SHIFT - 1))) >>
	       (CFQ_FRAC_SHIFT - CFQ_HW_SHIFT);
	return max_t(u64, frac, 1);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_group_hweight);

/*
 * The hierarchical weight @cfqg's slices and charges are scaled by now.
 * Off the tree, the one it had when it left (a weight written since
 * counts from its return).
 */
static unsigned int cfq_group_cur_hweight(struct cfq_group *cfqg)
{
	if (cfqg->on_st)
		cfqg->hweight = cfq_group_hweight(cfqg);
	return cfqg->hweight ?: cfq_group_weight(cfqg) << CFQ_HW_SHIFT;
}

/*
 * A queue of @cfqg became busy: the group goes on the tree with its first.
 * A group that left the tree lost its place: it comes back no earlier
 * than the busy groups (else it would take the disk for the time it was
 * away).  That is why a group that is about to leave only because its
 * queue's slice ended keeps the disk a little (cfq_should_wait_busy()).
 */
static void cfq_group_queue_add(struct cfq_data *cfqd, struct cfq_group *cfqg)
{
	cfqg->nr_cfqq++;
	if (cfqg->on_st)
		return;
	cfqg->vdisktime = max(cfqg->vdisktime, cfqd->grp_st.min_vdisktime);
	cfq_group_update_weight(cfqd, cfqg);
	cfqg->on_st = true;
	cfq_group_activate(cfqd, cfqg, cfqg->weight);
	cfq_group_st_add(cfqd, cfqg);
}

/* A queue of @cfqg is no longer busy: the group leaves with its last. */
static void cfq_group_queue_del(struct cfq_data *cfqd, struct cfq_group *cfqg)
{
	if (WARN_ON_ONCE(!cfqg->nr_cfqq) || --cfqg->nr_cfqq)
		return;
	/* a charge that comes after it left is at its share of now */
	cfqg->hweight = cfq_group_hweight(cfqg);
	cfqg->on_st = false;
	cfq_group_deactivate(cfqd, cfqg, cfqg->weight);
	cfq_group_st_del(cfqd, cfqg);
	if (cfqd->serving_group == cfqg)
		cfqd->serving_group = NULL;
}

/* Charge @cfqg for @used_ns of disk time and move it in the tree. */
static void cfq_group_served(struct cfq_data *cfqd, struct cfq_group *cfqg,
			     u64 used_ns)
{
	struct cfq_group *g;

	cfqg->served_ns += used_ns;
	/* Off the tree (a tail's charge): cfq_group_queue_add() places it. */
	if (!cfqg->on_st) {
		cfqg->vdisktime += cfq_scale_charge(used_ns,
						    cfq_group_cur_hweight(cfqg));
		return;
	}
	cfq_group_st_del(cfqd, cfqg);
	cfqg->vdisktime += cfq_scale_charge(used_ns,
					    cfq_group_cur_hweight(cfqg));
	/* Weights written meanwhile, on its path, take effect here. */
	for (g = cfqg; g; g = g->parent)
		cfq_group_update_weight(cfqd, g);
	cfq_group_st_add(cfqd, cfqg);
	cfq_update_min_vdisktime(cfqd);
}

static struct cfq_group *cfq_first_group(struct cfq_data *cfqd)
{
	struct rb_node *n = rb_first_cached(&cfqd->grp_st.rb);

	return n ? rb_entry(n, struct cfq_group, rb_node) : NULL;
}

/* ---- service trees ------------------------------------------------------ */

static struct cfq_queue *cfq_st_first(struct cfq_rb_root *st)
{
	struct rb_node *n = rb_first_cached(&st->rb);

	return n ? rb_entry(n, struct cfq_queue, rb_node) : NULL;
}

/*
 * The first queue of @st other than @cfqq, the active queue, which stays
 * on its tree until it expires.
 */
static struct cfq_queue *cfq_st_first_other(struct cfq_rb_root *st,
					    struct cfq_queue *cfqq)
{
	struct rb_node *n = rb_first_cached(&st->rb);

	if (n && rb_entry(n, struct cfq_queue, rb_node) == cfqq)
		n = rb_next(n);
	return n ? rb_entry(n, struct cfq_queue, rb_node) : NULL;
}

static bool cfq_queue_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct cfq_queue, rb_node)->rb_key <
	       rb_entry(b, struct cfq_queue, rb_node)->rb_key;
}

static void cfq_st_insert(struct cfq_rb_root *st, struct cfq_queue *cfqq)
{
	rb_add_cached(&cfqq->rb_node, &st->rb, cfq_queue_less);
	st->count++;
	cfqq->service_tree = st;
}

static void cfq_st_remove(struct cfq_queue *cfqq)
{
	struct cfq_rb_root *st = cfqq->service_tree;

	if (!st)
		return;
	rb_erase_cached(&cfqq->rb_node, &st->rb);
	RB_CLEAR_NODE(&cfqq->rb_node);
	st->count--;
	cfqq->service_tree = NULL;
}

/*
 * (Re)place @cfqq in its service tree.  @requeue: it just had its turn, or
 * just became busy, so it goes behind the queues already waiting; lower
 * levels behind higher ones by the difference of their slices.  The idle
 * class goes behind everything of its tree.
 */
static void cfq_service_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				 bool requeue, u64 now)
{
	enum cfq_wl_class c = cfq_wl_class_of(cfqq->ioprio_class);
	struct cfq_rb_root *st;
	u64 key = cfqq->rb_key;

	cfqq->wl_type = cfqq_type(cfqq);
	st = cfq_st(cfqq->cfqg, c, cfqq->wl_type);

	if (c == CFQ_IDLE_WL) {
		struct rb_node *n = rb_last(&st->rb.rb_root);

		key = n ? rb_entry(n, struct cfq_queue, rb_node)->rb_key +
			  CFQ_IDLE_DELAY_NS : now;
	} else if (requeue || !cfqq->service_tree) {
		u64 top = cfq_prio_slice(cfqd->slice[1], 0);
		u64 mine = cfq_prio_slice(cfqd->slice[cfqq_sync(cfqq)], cfqq->ioprio);

		key = now + (top > mine ? top - mine : 0) * (st->count);
		key -= min_t(s64, max_t(s64, cfqq->slice_resid, 0), key);
		cfqq->slice_resid = 0;
	}
	cfq_st_remove(cfqq);
	cfqq->rb_key = key;
	cfq_st_insert(st, cfqq);
}

/*
 * @cfqq, boosted and in its service tree, goes to the front of it, behind
 * the boosted queues already there: a boosted queue that becomes busy, or
 * that ends its slice with requests queued, is served before the queues
 * that are not boosted, whose turn would otherwise come first.  Each of
 * its requests would take the disk from them anyway (cfq_should_preempt())
 * but a request already queued, or one queued while another queue is
 * boosted, would wait a turn of every stream.
 */
static void cfq_boost_front(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    u64 now)
{
	struct cfq_rb_root *st = cfqq->service_tree;
	struct cfq_queue *q, *last = NULL, *first = NULL;
	struct rb_node *n;

	if (!st || !cfqq_boosted(cfqd, cfqq, now))
		return;
	cfq_st_remove(cfqq);
	for (n = rb_first_cached(&st->rb); n; n = rb_next(n)) {
		q = rb_entry(n, struct cfq_queue, rb_node);
		if (!cfqq_boosted(cfqd, q, now)) {
			first = q;
			break;
		}
		last = q;
	}
	/* Equal keys go behind one another. */
	if (last)
		cfqq->rb_key = last->rb_key;
	else if (first && first->rb_key)
		cfqq->rb_key = min(cfqq->rb_key, first->rb_key - 1);
	cfq_st_insert(st, cfqq);
}

/*
 * Does a boosted queue of @cfqq's group and class other than @cfqq wait?
 * Boosted queues are at the front of their trees (cfq_boost_front()), and
 * async queues are never boosted.
 */
static bool cfq_boost_waits(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    u64 now)
{
	enum cfq_wl_class c = cfq_wl_class_of(cfqq->ioprio_class);
	enum cfq_wl_type t;
	struct cfq_queue *q;

	for (t = CFQ_SYNC_NOIDLE_WL; t < CFQ_NR_WL_TYPES; t++) {
		q = cfq_st_first_other(cfq_st(cfqq->cfqg, c, t), cfqq);
		if (q && cfqq_boosted(cfqd, q, now))
			return true;
	}
	return false;
}

/* ---- positions: close cooperators -------------------------------------- */

/*
 * Processes that read one stream between them (the I/O threads of a
 * virtual machine or of a file server, dump's readers) each have a queue
 * of their own, and each queue alone looks like a reader that skips: the
 * disk idles for each in turn while the next piece of the stream waits in
 * another.  The busy sync queues of each level are kept in a tree by the
 * sector of their next request, so that the active queue, run dry, finds
 * a queue whose next request follows where it left the disk: that queue
 * is served next, without idling or a seek (cfq_select_queue()), and the
 * two queues are set up to merge: the processes of the one with fewer
 * move to the other at their next request (cfq_get_queue()).  A shared
 * queue that turns seeky (the processes no longer cooperate) is split
 * again, one process at a time.
 */
static sector_t cfqq_pos(const struct cfq_queue *cfqq)
{
	return blk_rq_pos(cfqq->next_rq);
}

static void cfq_pos_tree_del(struct cfq_queue *cfqq)
{
	if (!cfqq->pos_root)
		return;
	rb_erase(&cfqq->pos_node, cfqq->pos_root);
	cfqq->pos_root = NULL;
}

/*
 * File @cfqq under the sector of its next request, if it is a sync queue
 * of the RT or BE class with one (after any queue at the same sector).
 */
static void cfq_pos_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct rb_node **p, *parent = NULL;
	struct rb_root *root;
	sector_t pos;

	cfq_pos_tree_del(cfqq);
	if (!cfqq_sync(cfqq) || cfqq_class_idle(cfqq) || !cfqq->next_rq)
		return;
	root = &cfqd->pos_tree[cfqq->ioprio];
	pos = cfqq_pos(cfqq);
	p = &root->rb_node;
	while (*p) {
		struct cfq_queue *other = rb_entry(*p, struct cfq_queue,
						   pos_node);

		parent = *p;
		p = pos < cfqq_pos(other) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&cfqq->pos_node, parent, p);
	rb_insert_color(&cfqq->pos_node, root);
	cfqq->pos_root = root;
}

/*
 * @rq (or NULL) is the request @cfqq serves next: the queue is filed anew
 * if that changes its sector (a front merge re-files it itself).
 */
static void cfq_set_next_rq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    struct request *rq)
{
	if (rq == cfqq->next_rq)
		return;
	cfqq->next_rq = rq;
	cfq_pos_tree_add(cfqd, cfqq);
}

/* The references to @cfqq that processes hold (not its requests). */
static int cfqq_process_refs(const struct cfq_queue *cfqq)
{
	WARN_ON_ONCE(cfqq->allocated > cfqq->ref);
	return cfqq->ref - cfqq->allocated;
}

/*
 * @cfqq and @new serve one stream: merge them, in the direction that
 * moves fewer processes.  Each process to move holds a reference to its
 * new queue from now on, so that a chain of merges stays valid while any
 * of its processes has yet to move.
 */
static void cfq_setup_merge(struct cfq_queue *cfqq, struct cfq_queue *new)
{
	struct cfq_queue *next;
	int refs, new_refs;

	/* Without processes, @new's chain may lead to freed queues. */
	if (cfqq_process_refs(new) <= 0)
		return;
	/* Merge into the end of a chain already set up; never a loop. */
	while ((next = new->new_cfqq)) {
		if (next == cfqq)
			return;
		new = next;
	}
	refs = cfqq_process_refs(cfqq);
	new_refs = cfqq_process_refs(new);
	if (refs <= 0 || new_refs <= 0)
		return;
	if (new_refs >= refs) {
		cfqq->new_cfqq = new;
		new->ref += refs;
	} else {
		new->new_cfqq = cfqq;
		cfqq->ref += new_refs;
	}
}

static void cfq_put_queue(struct cfq_queue *cfqq);
static void cfq_orphan(struct cfq_data *cfqd, struct cfq_queue *cfqq);

/*
 * A process gives up its reference to the sync queue @cfqq.  If no other
 * process holds the queue, the requests it has left are its last: it is
 * orphaned (never idled for again) before they complete, and its merge
 * target, which only its processes kept, is forgotten.
 */
static void cfq_put_process(struct cfq_queue *cfqq)
{
	if (cfqq_process_refs(cfqq) == 1) {
		cfq_orphan(cfqq->cfqd, cfqq);
		cfqq->new_cfqq = NULL;
	}
	cfq_put_queue(cfqq);
}

/* A process of @cfqq leaves it: the references it holds for merges go. */
static void cfq_put_cooperator(struct cfq_queue *cfqq)
{
	struct cfq_queue *next, *q = cfqq->new_cfqq;

	while (q) {
		if (WARN_ON_ONCE(q == cfqq))
			break;
		next = q->new_cfqq;
		cfq_put_process(q);
		q = next;
	}
}

/*
 * @cfqq is the sync queue of @cic's process, which is about to queue a
 * request of priority @class and @level.  A shared queue gives the
 * process a queue of its own again (NULL: one is allocated) when it is
 * marked for splitting, when cooperators are off or when the process's
 * priority is not the queue's, unless the process is its last; then a
 * queue set up to merge, of the process's priority, hands the process
 * over to the merged queue.
 */
static struct cfq_queue *cfq_coop_queue(struct cfq_data *cfqd,
					struct cfq_io_cq *cic,
					struct cfq_queue *cfqq,
					unsigned short class,
					unsigned short level)
{
	bool own = cfqq->ioprio_class != class || cfqq->ioprio != level;
	bool on = READ_ONCE(cfqd->cooperators);
	struct cfq_queue *new;

	if (cfqq_coop(cfqq) && (cfqq_split_coop(cfqq) || !on || own)) {
		if (cfqq_process_refs(cfqq) > 1) {
			blk_add_trace_msg(cfqd->q, "cfq%d split: pid %d",
					  cfqq->pid, current->pid);
			cfqd->stat_coop_splits++;
			cic->cfqq[1] = NULL;
			cfq_put_cooperator(cfqq);
			cfq_put_process(cfqq);
			return NULL;
		}
		/* The last process: the queue is its own again. */
		cfqq->pid = current->pid;
		cfqq_clear_coop(cfqq);
		cfqq_clear_split_coop(cfqq);
	}
	new = cfqq->new_cfqq;
	if (!new || !on || own || new->ioprio_class != class ||
	    new->ioprio != level)
		return cfqq;
	blk_add_trace_msg(cfqd->q, "cfq%d merged into cfq%d: pid %d",
			  cfqq->pid, new->pid, current->pid);
	cfqd->stat_coop_merges++;
	/* The reference cfq_setup_merge() took for this process. */
	cic->cfqq[1] = new;
	cfqq_mark_coop(new);
	cfq_put_process(cfqq);
	return new;
}

/* @cfqq has requests: put it on a service tree. */
static void cfq_add_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq, u64 now)
{
	cfqq_mark_on_rr(cfqq);
	cfqd->busy_queues++;
	cfq_group_queue_add(cfqd, cfqq->cfqg);
	cfq_service_tree_add(cfqd, cfqq, false, now);
	cfq_boost_front(cfqd, cfqq, now);
}

/* @cfqq has no requests left: take it off its service tree. */
static void cfq_del_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!cfqq_on_rr(cfqq))
		return;
	cfqq_clear_on_rr(cfqq);
	cfq_st_remove(cfqq);
	cfqd->busy_queues--;
	cfq_group_queue_del(cfqd, cfqq->cfqg);
}

/* ---- queues ------------------------------------------------------------- */

static void cfq_init_cfqq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			  struct cfq_group *cfqg, bool sync,
			  unsigned short ioprio_class, unsigned short ioprio)
{
	memset(cfqq, 0, sizeof(*cfqq));
	cfqq->cfqd = cfqd;
	cfqq->cfqg = cfqg;
	cfq_get_group(cfqg);
	RB_CLEAR_NODE(&cfqq->rb_node);
	cfqq->sort_list = RB_ROOT;
	INIT_LIST_HEAD(&cfqq->fifo);
	cfqq->ioprio_class = ioprio_class;
	cfqq->ioprio = ioprio;
	cfqq->pid = current->pid;
	if (sync) {
		cfqq_mark_sync(cfqq);
		/*
		 * Idle until the queue shows it does not pay; on a deep
		 * device, only once it shows it does (cfq_update_idle_window).
		 */
		if (ioprio_class != IOPRIO_CLASS_IDLE && !cfq_deep(cfqd))
			cfqq_mark_idle_window(cfqq);
	}
}

static void cfq_slice_expired(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			      enum cfq_expire_why why);

static void cfq_put_queue(struct cfq_queue *cfqq)
{
	struct cfq_data *cfqd = cfqq->cfqd;

	lockdep_assert_held(&cfqd->lock);
	if (WARN_ON_ONCE(cfqq->ref <= 0) || --cfqq->ref)
		return;
	/* The fallback queue keeps a reference of its own (cfq_init_root()). */
	if (WARN_ON_ONCE(cfqq == &cfqd->oom_cfqq)) {
		cfqq->ref = 1;
		return;
	}
	WARN_ON_ONCE(cfqq->queued || cfqq->dispatched || cfqq->allocated ||
		     cfqq->pos_root);
	if (cfqd->active_queue == cfqq) {
		cfq_slice_expired(cfqd, cfqq, CFQ_EXP_GONE);
		cfqd->rerun = true;
	}
	cfq_del_rr(cfqd, cfqq);
	cfq_put_group(cfqq->cfqg);
	cfqd->nr_queues--;
	kmem_cache_free(cfq_pool, cfqq);
}

/*
 * The class and level of @rq's queue.  A sync queue is its process's and
 * takes the process's priority (ioprio_set(), else from its nice value),
 * recorded when the request was allocated (cfq_prepare_request()); a
 * priority set per request (io_uring, aio, blk-ioprio) does not change it,
 * as in bfq: it would move the process's whole queue, with the requests
 * queued before it, from one class to another at every request.  An async
 * request goes to the shared queue of the priority it carries
 * (bio_set_ioprio() filled it in).
 */
static void cfq_rq_prio(struct request *rq, unsigned short *class,
			unsigned short *level)
{
	unsigned short prio = rq_is_sync(rq) ?
		cfq_rq_flags(rq) >> CFQ_RQ_PRIO_SHIFT : req_get_ioprio(rq);

	*class = IOPRIO_PRIO_CLASS(prio);
	*level = IOPRIO_PRIO_LEVEL(prio);
	switch (*class) {
	case IOPRIO_CLASS_RT:
	case IOPRIO_CLASS_BE:
		*level = min_t(unsigned short, *level, IOPRIO_NR_LEVELS - 1);
		break;
	case IOPRIO_CLASS_IDLE:
		*level = IOPRIO_NR_LEVELS - 1;
		break;
	default:
		*class = IOPRIO_CLASS_BE;
		*level = IOPRIO_BE_NORM;
		break;
	}
}

static struct cfq_queue **cfq_async_slot(struct cfq_group *cfqg,
					 unsigned short class,
					 unsigned short level)
{
	if (class == IOPRIO_CLASS_IDLE)
		return &cfqg->async_idle_cfqq;
	return &cfqg->async_cfqq[class == IOPRIO_CLASS_RT ? 0 : 1][level];
}

static struct cfq_queue *cfq_alloc_queue(struct cfq_data *cfqd,
					 struct cfq_group *cfqg, bool sync,
					 unsigned short class,
					 unsigned short level)
{
	struct cfq_queue *cfqq;

	cfqq = kmem_cache_alloc_node(cfq_pool, GFP_NOWAIT | __GFP_NOWARN,
				     cfqd->q->node);
	/* The fallback queue is looked up again at the next request. */
	if (!cfqq) {
		cfqd->stat_oom++;
		cfqd->oom_cfqq.ref++;
		return &cfqd->oom_cfqq;
	}
	cfq_init_cfqq(cfqd, cfqq, cfqg, sync, class, level);
	cfqd->nr_queues++;
	cfqq->ref = 1;
	return cfqq;
}

/*
 * The process of the sync queue @cfqq is gone (exited, or moved to another
 * group): no request will follow, so never idle for it again.
 */
static void cfq_orphan(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	cfqq_mark_orphan(cfqq);
	cfqq_clear_idle_window(cfqq);
	cfqq_clear_group_window(cfqq);
	if (cfqq == cfqd->active_queue && cfqq_wait_request(cfqq)) {
		cfq_slice_expired(cfqd, cfqq, CFQ_EXP_GONE);
		cfqd->rerun = true;
	}
}

/*
 * Give up the io_cq's reference to its queue @cfqq (sync if @sync), and
 * those it holds for merges.  A shared queue is left by its last process
 * only when no other process holds it.
 */
static void cfq_cic_put(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			bool sync)
{
	if (sync && cfqq != &cfqd->oom_cfqq) {
		cfq_put_cooperator(cfqq);
		cfq_put_process(cfqq);
		return;
	}
	cfq_put_queue(cfqq);
}

/* The group of @bio, or the root group. */
static struct cfq_group *cfq_bio_group(struct cfq_data *cfqd, struct bio *bio)
{
#ifdef CONFIG_CFQ_GROUP_IOSCHED
	struct cfq_group *cfqg = bio ? cfq_lookup_group(cfqd, bio) : NULL;

	if (cfqg && !cfqg->offline)
		return cfqg;
#endif
	return cfqd->root_group;
}

/*
 * The first sync request of the process of @cic: boost it for new_boost
 * from now (cfqq_boosted()), unless it is the ninth or later of processes
 * that started within CFQ_BURST_NS of one another.  Such a burst (make -j,
 * a service manager starting units) is not one application starting, and
 * boosting each of its processes in turn would take the disk from the
 * streams for as long as the burst goes on (bfq's large bursts).
 */
static void cfq_boost_new(struct cfq_data *cfqd, struct cfq_io_cq *cic)
{
	u64 boost = READ_ONCE(cfqd->new_boost);
	u64 now = ktime_get_ns();

	cic->boost_set = true;
	if (!boost || !READ_ONCE(cfqd->low_latency))
		return;
	if (now - cfqd->burst_last > CFQ_BURST_NS)
		cfqd->burst_size = 0;
	cfqd->burst_last = now;
	if (++cfqd->burst_size > CFQ_BURST_MAX) {
		cfqd->stat_burst_unboosted++;
		blk_add_trace_msg(cfqd->q, "cfq%d burst %u: no boost",
				  current->pid, cfqd->burst_size);
		return;
	}
	cic->boost_end = now + boost;
	cfqd->stat_boosts++;
	blk_add_trace_msg(cfqd->q, "cfq%d boost %llu ms", current->pid,
			  CFQ_NS_TO_MS(boost));
}

/*
 * The queue @rq goes to, with a reference for the request.  Sync queues
 * belong to the io_cq; async ones are shared per group, class and level.
 */
static struct cfq_queue *cfq_get_queue(struct cfq_data *cfqd,
				       struct cfq_io_cq *cic, struct request *rq)
{
	struct cfq_group *cfqg = cfq_bio_group(cfqd, rq->bio);
	bool sync = rq_is_sync(rq);
	unsigned short class, level;
	struct cfq_queue *cfqq, **slot;

	cfq_rq_prio(rq, &class, &level);

	cfqq = cic->cfqq[sync];
	/*
	 * A process that moved to another group, a new async ioprio, or the
	 * fallback queue given when a queue could not be allocated.
	 */
	if (cfqq && (cfqq == &cfqd->oom_cfqq || cfqq->cfqg != cfqg ||
		     (!sync && (cfqq->ioprio_class != class ||
				cfqq->ioprio != level)))) {
		cic->cfqq[sync] = NULL;
		cfq_cic_put(cfqd, cfqq, sync);
		cfqq = NULL;
	}
	if (cfqq && sync)
		cfqq = cfq_coop_queue(cfqd, cic, cfqq, class, level);
	/* The process's priority changed: its queue moves. */
	if (cfqq && sync && (cfqq->ioprio_class != class ||
			     cfqq->ioprio != level)) {
		cfqq->ioprio_class = class;
		cfqq->ioprio = level;
		if (class == IOPRIO_CLASS_IDLE) {
			cfqq_clear_idle_window(cfqq);
			cfqq_clear_group_window(cfqq);
		}
		if (cfqq_on_rr(cfqq))
			cfq_service_tree_add(cfqd, cfqq, true, ktime_get_ns());
		cfq_pos_tree_add(cfqd, cfqq);
	}
	if (!cfqq) {
		if (sync) {
			cfqq = cfq_alloc_queue(cfqd, cfqg, true, class, level);
			/*
			 * A boost runs from the process's first sync request,
			 * whatever queue it has since (another group, one of
			 * its own after a cooperators' split).
			 */
			if (!cic->boost_set)
				cfq_boost_new(cfqd, cic);
			if (cfqq != &cfqd->oom_cfqq)
				cfqq->boost_end = cic->boost_end;
		} else {
			slot = cfq_async_slot(cfqg, class, level);
			cfqq = *slot;
			if (!cfqq) {
				/* The group's reference: never the fallback's. */
				cfqq = cfq_alloc_queue(cfqd, cfqg, false, class,
						       level);
				if (cfqq != &cfqd->oom_cfqq)
					*slot = cfqq;
			}
			if (cfqq == *slot)
				cfqq->ref++;	/* the io_cq's reference */
		}
		cic->cfqq[sync] = cfqq;
	}
	cfqq->ref++;				/* the request's reference */
	cfqq->allocated++;
	return cfqq;
}

/* @rq gives up its reference to its queue. */
static void cfq_rq_put_queue(struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	rq->elv.priv[0] = NULL;
	cfqq->allocated--;
	cfq_put_queue(cfqq);
}

/* Give up the async queues of @cfqg (its cgroup went away or cfq exits). */
static void cfq_put_async_queues(struct cfq_group *cfqg)
{
	int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < IOPRIO_NR_LEVELS; j++) {
			if (cfqg->async_cfqq[i][j])
				cfq_put_queue(cfqg->async_cfqq[i][j]);
			cfqg->async_cfqq[i][j] = NULL;
		}
	if (cfqg->async_idle_cfqq)
		cfq_put_queue(cfqg->async_idle_cfqq);
	cfqg->async_idle_cfqq = NULL;
}

void cfq_group_offline(struct cfq_group *cfqg)
{
	struct cfq_data *cfqd = cfqg->cfqd;
	unsigned long flags;

	spin_lock_irqsave(&cfqd->lock, flags);
	cfqg->offline = true;
	cfq_put_async_queues(cfqg);
	/* An async queue that was active may have ended a hold. */
	cfq_unlock(cfqd, flags);
}

/* ---- per-request bookkeeping -------------------------------------------- */

/* The queued request of @cfqq after @last, two-way, with back seeks. */
static struct request *cfq_choose_req(struct cfq_data *cfqd,
				      struct request *a, struct request *b,
				      sector_t head)
{
	sector_t back = (sector_t)cfqd->back_seek_max * 2;
	s64 ca, cb;

	if (!a || a == b)
		return b;
	if (!b)
		return a;
	if (rq_is_sync(a) != rq_is_sync(b))
		return rq_is_sync(a) ? a : b;
	if ((a->cmd_flags & REQ_META) != (b->cmd_flags & REQ_META))
		return a->cmd_flags & REQ_META ? a : b;
	ca = cfq_req_cost(head, blk_rq_pos(a), back, cfqd->back_seek_penalty);
	cb = cfq_req_cost(head, blk_rq_pos(b), back, cfqd->back_seek_penalty);
	if (ca < 0 && cb < 0)		/* both far back: the nearer start */
		return blk_rq_pos(a) >= blk_rq_pos(b) ? a : b;
	if (ca < 0)
		return b;
	if (cb < 0)
		return a;
	return ca <= cb ? a : b;
}

/* The best request of @cfqq to follow @last (which is leaving the tree). */
static struct request *cfq_find_next_rq(struct cfq_data *cfqd,
					struct cfq_queue *cfqq,
					struct request *last)
{
	struct rb_node *next = rb_next(&last->rb_node);
	struct rb_node *prev = rb_prev(&last->rb_node);
	struct request *n = NULL, *p = NULL;

	if (next)
		n = rb_entry_rq(next);
	if (prev)
		p = rb_entry_rq(prev);
	if (!n && !p) {
		struct rb_node *first = rb_first(&cfqq->sort_list);

		if (first && first != &last->rb_node)
			n = rb_entry_rq(first);
	}
	return cfq_choose_req(cfqd, n, p, blk_rq_pos(last) + blk_rq_sectors(last));
}

/* Take @rq out of its queue's lists (dispatch or merge). */
static void cfq_remove_rq(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);
	unsigned long flags = cfq_rq_flags(rq);

	if (!(flags & CFQ_RQ_QUEUED))
		return;
	cfq_rq_set_flags(rq, flags & ~CFQ_RQ_QUEUED);
	if (cfqq->next_rq == rq)
		cfq_set_next_rq(cfqd, cfqq, cfq_find_next_rq(cfqd, cfqq, rq));
	list_del_init(&rq->queuelist);
	elv_rb_del(&cfqq->sort_list, rq);
	elv_rqhash_del(cfqd->q, rq);
	if (cfqd->q->last_merge == rq)
		cfqd->q->last_merge = NULL;
	cfqq->queued--;
	WRITE_ONCE(cfqd->rq_queued, cfqd->rq_queued - 1);
	if (RB_EMPTY_ROOT(&cfqq->sort_list)) {
		cfq_set_next_rq(cfqd, cfqq, NULL);
		/* The active queue stays on its tree until it expires. */
		if (cfqd->active_queue != cfqq)
			cfq_del_rr(cfqd, cfqq);
	}
}

static void cfq_update_seek(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    struct request *rq)
{
	sector_t pos = blk_rq_pos(rq);
	sector_t last = cfqq->last_pos;
	bool seeky;

	cfqq->last_pos = pos + blk_rq_sectors(rq);
	if (blk_queue_nonrot(cfqd->q))		/* small I/O costs an SSD */
		seeky = blk_rq_sectors(rq) < CFQ_SEEK_THR_NONROT_SECTORS;
	else if (last)
		seeky = (pos > last ? pos - last : last - pos) > CFQ_SEEK_THR_SECTORS;
	else
		return;		/* a first request: no distance to judge */
	cfqq->seek_history = cfq_seek_push(cfqq->seek_history, seeky);
	if (cfqq->seek_samples < 32)
		cfqq->seek_samples++;
}

/*
 * Is @cfqq seeky?  On a deep device judged from the requests it has made
 * so far, elsewhere over 2.6's full window (see cfq_update_idle_window()).
 */
static bool cfqq_seeky(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	return cfq_seeky(cfqq->seek_history,
			 cfq_deep(cfqd) ? cfqq->seek_samples : 32);
}

/*
 * A sync write that does not ask for idling: REQ_SYNC without REQ_IDLE
 * (O_SYNC and fsync writeback, a journal), after which its process is not
 * expected to issue more I/O soon.  O_DIRECT writes carry REQ_IDLE.  This
 * is 4.10's req_noidle(), which took over 2.6's REQ_NOIDLE.
 */
VISIBLE_IF_KUNIT bool cfq_rq_noidle(const struct request *rq)
{
	return req_op(rq) == REQ_OP_WRITE &&
	       (rq->cmd_flags & (REQ_SYNC | REQ_IDLE)) == REQ_SYNC;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_rq_noidle);

/*
 * The idle a queue's window is judged against: slice_idle, or group_idle
 * when slice_idle is 0 (then only the group may idle for the queue).
 */
static u64 cfq_window_idle(struct cfq_data *cfqd, u64 slice_idle)
{
	return slice_idle ?: READ_ONCE(cfqd->group_idle);
}

/*
 * The window of @cfqq that @slice_idle uses: its idle window, or with
 * slice_idle 0 its group window.  The other one may be stale, from
 * before slice_idle was last written, until the queue's next request.
 */
static bool cfqq_window(struct cfq_queue *cfqq, u64 slice_idle)
{
	return slice_idle ? cfqq_idle_window(cfqq) : cfqq_group_window(cfqq);
}

/*
 * Should the sync queue @cfqq idle when it runs dry?  Not if its process
 * thinks longer than slice_idle, not if seeky (unless it keeps a deep
 * queue of its own), not if its process exited, not while its next
 * request is a sync write that says no more I/O follows (cfq_rq_noidle();
 * the next request, not the newest, as 2.6 and 4.x judged it: the window
 * is decided again at every request the queue receives).  The end of the
 * SYNC_NOIDLE workload may still idle for such a queue (cfq_should_idle()),
 * as in 4.x.  A new queue idles on trust (2.6's rule) except on
 * a deep device: there it idles once a request close to its last one
 * shows it sequential, and is judged seeky from the requests it has made
 * so far.  Trusting every new process there costs an idle period each,
 * with the device's queue left empty meanwhile: with hundreds of new
 * random readers that is seconds before the last one's first read.
 * Elsewhere 2.6's full window of 32 judges a new queue, so that one early
 * seek (a second file) does not cost a sequential reader its idling.
 *
 * With slice_idle 0 no queue has an idle window.  The same judgement,
 * with group_idle in place of slice_idle, then gives the group window:
 * whether the queue's group may idle for it on a deep device
 * (cfq_should_group_idle()).
 *
 * A boosted queue idles whatever its think time and seeks, for at least
 * CFQ_BOOST_IDLE_NS (cfq_idle_wait()), as bfq idles for a queue whose
 * weight it raised: a starting application's reads are scattered over its
 * files, it computes between them, and each read it finds behind a
 * stream's costs more than the wait.
 */
static void cfq_update_idle_window(struct cfq_data *cfqd,
				   struct cfq_queue *cfqq, struct cfq_io_cq *cic,
				   u64 now)
{
	u64 slice_idle = READ_ONCE(cfqd->slice_idle);
	u64 window = cfq_window_idle(cfqd, slice_idle);
	bool group = !slice_idle;
	bool idle = group ? cfqq_group_window(cfqq) : cfqq_idle_window(cfqq);
	bool old = idle;

	if (!cfqq_sync(cfqq) || cfqq_class_idle(cfqq))
		return;
	if (cfqq->queued >= 4)
		cfqq_mark_deep(cfqq);
	if (cfqq->next_rq && cfq_rq_noidle(cfqq->next_rq))
		idle = false;
	else if (!atomic_read(&cic->icq.ioc->active_ref) || !window)
		idle = false;
	else if (cfqq_boosted(cfqd, cfqq, now))
		idle = true;
	else if (!cfqq_deep(cfqq) && cfqq_seeky(cfqd, cfqq))
		idle = false;
	else if (cfq_ttime_valid(&cfqq->ttime))
		idle = cfqq->ttime.mean_ns <= window;
	else if (cfq_deep(cfqd))
		idle = cfqq->seek_samples;
	/* Drop the window the current setting does not use. */
	if (group)
		cfqq_clear_idle_window(cfqq);
	else
		cfqq_clear_group_window(cfqq);
	if (idle == old)
		return;
	if (group)
		__assign_bit(cfqq_bit_group_window, &cfqq->flags, idle);
	else
		__assign_bit(cfqq_bit_idle_window, &cfqq->flags, idle);
	blk_add_trace_msg(cfqd->q, "cfq%d %s=%d", cfqq->pid,
			  group ? "group_window" : "idle", idle);
}

/* ---- slices ------------------------------------------------------------- */

/* @cfqg's share of target_latency, by its hierarchical weight now. */
static u64 cfq_group_target_slice(struct cfq_data *cfqd,
				  struct cfq_group *cfqg)
{
	return cfq_group_slice(cfqd->target_latency,
			       cfq_group_cur_hweight(cfqg),
			       (u64)cfqd->grp_st.total_weight << CFQ_HW_SHIFT);
}

static u64 cfq_scaled_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	u64 slice = cfq_prio_slice(cfqd->slice[cfqq_sync(cfqq)], cfqq->ioprio);
	struct cfq_group *cfqg = cfqq->cfqg;
	enum cfq_wl_class c = cfq_wl_class_of(cfqq->ioprio_class);

	if (!READ_ONCE(cfqd->low_latency))
		return slice;
	return cfq_low_latency_slice(slice, cfqd->slice[1], cfqd->slice_idle,
				     max(cfqg->busy_queues_avg[c],
					 cfq_class_busy(cfqg, c)),
				     cfq_group_target_slice(cfqd, cfqg));
}

static void cfq_set_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			  u64 now)
{
	cfqq->slice_start = now;
	cfqq->slice_end = now + cfq_scaled_slice(cfqd, cfqq);
	cfqq_clear_slice_new(cfqq);
	blk_add_trace_msg(cfqd->q, "cfq%d set_slice=%llu us", cfqq->pid,
			  div_u64(cfqq->slice_end - now, NSEC_PER_USEC));
}

static bool cfq_slice_used(struct cfq_queue *cfqq, u64 now)
{
	return !cfqq_slice_new(cfqq) && now >= cfqq->slice_end;
}

/* Does async work of @cfqg wait (its RT or BE async tree)? */
static bool cfq_async_waits(struct cfq_group *cfqg)
{
	return cfq_st(cfqg, CFQ_RT_WL, CFQ_ASYNC_WL)->count ||
	       cfq_st(cfqg, CFQ_BE_WL, CFQ_ASYNC_WL)->count;
}

/*
 * Is the slice of the active queue @cfqq over at @now?  A boosted queue's
 * slice is extended instead, by another slice from now, while its group
 * is the only busy one and no other boosted queue waits: a starting
 * application keeps the disk between its reads rather than leave it to
 * the streams at each slice's end and then find their requests at the
 * disk ahead of its next read.  While the group's async work waits, only
 * once a turn: writeback must go on, or dirty throttling stops every
 * process that writes.  The group is charged the whole time at the
 * slice's end, from the slice's start.
 */
static bool cfq_slice_over(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			   u64 now)
{
	if (!cfq_slice_used(cfqq, now))
		return false;
	if (!cfqq_boosted(cfqd, cfqq, now) || cfqd->grp_st.count > 1 ||
	    cfq_boost_waits(cfqd, cfqq, now))
		return true;
	if (cfqq->boost_extends && cfq_async_waits(cfqq->cfqg))
		return true;
	cfqq->boost_extends++;
	cfqd->stat_boost_extended++;
	cfqq->slice_end = now + cfq_scaled_slice(cfqd, cfqq);
	blk_add_trace_msg(cfqd->q, "cfq%d boost: slice_end +%llu us", cfqq->pid,
			  div_u64(cfqq->slice_end - now, NSEC_PER_USEC));
	return false;
}

/* The slice of @cfqq ends at @now, for reason @why. */
static void cfq_slice_expired_at(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				 enum cfq_expire_why why, u64 now)
{
	lockdep_assert_held(&cfqd->lock);
	if (cfqq_wait_request(cfqq))
		hrtimer_try_to_cancel(&cfqd->idle_timer);
	cfqq_clear_wait_request(cfqq);
	cfqq_clear_group_idle(cfqq);
	cfqd->stat_expire[why]++;
	blk_add_trace_msg(cfqd->q, "cfq%d expired %s", cfqq->pid,
			  cfq_expire_name[why]);

	/* Not the time a wait_busy added: the slice was over. */
	if (why == CFQ_EXP_PREEMPTED && !cfqq_slice_new(cfqq) &&
	    !cfqq_wait_busy(cfqq) && cfqq->slice_end > now)
		cfqq->slice_resid = cfqq->slice_end - now;
	cfqq_clear_wait_busy(cfqq);

	if (cfqq->dispatch_start) {
		u64 charge = cfq_slice_charge(cfqq->dispatch_start,
					      cfqq->slice_start, now);

		/* Not the time another queue's tail was charged for. */
		if (cfqd->tail_charged > now - charge)
			charge = max_t(u64, now - min(cfqd->tail_charged, now),
				       CFQ_MIN_CHARGE_NS);
		cfq_group_served(cfqd, cfqq->cfqg, charge);
		cfqd->tail_charged = max(cfqd->tail_charged, now);
		cfqq->charged_until = cfqq->dispatched ? now : 0;
	}

	if (cfqq == cfqd->active_queue)
		cfqd->active_queue = NULL;
	/* A shared queue that turned seeky: its processes no longer cooperate. */
	if (cfqq_coop(cfqq) && cfqq_seeky(cfqd, cfqq))
		cfqq_mark_split_coop(cfqq);

	if (RB_EMPTY_ROOT(&cfqq->sort_list)) {
		cfq_del_rr(cfqd, cfqq);
	} else if (cfqq_on_rr(cfqq)) {
		cfq_service_tree_add(cfqd, cfqq, true, now);
		cfq_boost_front(cfqd, cfqq, now);
	}
}

static void cfq_slice_expired(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			      enum cfq_expire_why why)
{
	cfq_slice_expired_at(cfqd, cfqq, why, ktime_get_ns());
}

static void cfq_set_active(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	cfqd->active_queue = cfqq;
	if (!cfqq)
		return;
	cfqq->slice_start = 0;
	cfqq->slice_end = 0;
	cfqq->dispatch_start = 0;
	cfqq->charged_until = 0;
	cfqq->slice_dispatch = 0;
	cfqq->boost_extends = 0;
	cfqq_clear_fifo_checked(cfqq);
	cfqq_clear_wait_busy(cfqq);
	cfqq_mark_slice_new(cfqq);
	cfqd->stat_slices++;
	blk_add_trace_msg(cfqd->q,
			  "cfq%d set_active wl_class:%d wl_type:%d class %u prio %u",
			  cfqq->pid, cfqd->serving_wl_class,
			  cfqd->serving_wl_type, cfqq->ioprio_class,
			  cfqq->ioprio);
}

/* ---- choosing the next queue -------------------------------------------- */

/* The workload type of class @c whose first queue has waited longest. */
static enum cfq_wl_type cfq_oldest_type(struct cfq_group *cfqg,
					enum cfq_wl_class c)
{
	enum cfq_wl_type t, best = CFQ_SYNC_WL;
	u64 key = U64_MAX;

	for (t = 0; t < CFQ_NR_WL_TYPES; t++) {
		struct cfq_queue *q = cfq_st_first(&cfqg->st[c][t]);

		if (q && q->rb_key < key) {
			key = q->rb_key;
			best = t;
		}
	}
	return best;
}

/* Update the decaying average of busy queues per class (2.6's avg). */
static void cfq_update_busy_avg(struct cfq_group *cfqg, enum cfq_wl_class c)
{
	unsigned int busy = cfq_class_busy(cfqg, c);
	unsigned int *avg = &cfqg->busy_queues_avg[c];

	*avg = busy > *avg ? busy : (*avg * 3 + busy + 3) / 4;
}

/* Serve workload type @t of class @c in @cfqg, for its share of time. */
static void cfq_start_workload(struct cfq_data *cfqd, struct cfq_group *cfqg,
			       enum cfq_wl_class c, enum cfq_wl_type t, u64 now)
{
	struct cfq_rb_root *st = cfq_st(cfqg, c, t);
	u64 slice;

	cfq_update_busy_avg(cfqg, c);
	slice = cfq_workload_slice(cfq_group_target_slice(cfqd, cfqg),
				   st->count, cfqg->busy_queues_avg[c],
				   t == CFQ_ASYNC_WL, cfqd->slice[1],
				   cfqd->slice[0], cfqd->slice_idle);
	cfqd->serving_group = cfqg;
	cfqd->serving_wl_class = c;
	cfqd->serving_wl_type = t;
	cfqd->workload_expires = now + slice;
}

/*
 * Pick the class and workload type to serve in @cfqg.  Returns false when
 * only the idle class has work and it must wait (the timer is armed).
 */
static bool cfq_choose_workload(struct cfq_data *cfqd, struct cfq_group *cfqg,
				u64 now)
{
	enum cfq_wl_class c;

	if (cfq_class_busy(cfqg, CFQ_RT_WL))
		c = CFQ_RT_WL;
	else if (cfq_class_busy(cfqg, CFQ_BE_WL))
		c = CFQ_BE_WL;
	else
		c = CFQ_IDLE_WL;

	if (c == CFQ_IDLE_WL) {
		u64 ready = cfqd->last_busy_ns + CFQ_IDLE_DELAY_NS;

		if (now < ready && cfqd->busy_queues == cfq_class_busy(cfqg, c)) {
			hrtimer_start(&cfqd->idle_timer, ns_to_ktime(ready),
				      HRTIMER_MODE_ABS);
			return false;
		}
		cfqd->serving_wl_class = c;
		cfqd->serving_wl_type = CFQ_SYNC_WL;
		cfqd->workload_expires = now + CFQ_MIN_TT_NS;
		return true;
	}

	/* Keep the current workload while its slice lasts and it has work. */
	if (c == cfqd->serving_wl_class && now < cfqd->workload_expires &&
	    cfq_st(cfqg, c, cfqd->serving_wl_type)->count)
		return true;

	cfq_start_workload(cfqd, cfqg, c, cfq_oldest_type(cfqg, c), now);
	return true;
}

static struct cfq_queue *cfq_next_queue(struct cfq_data *cfqd, u64 now)
{
	struct cfq_group *cfqg = cfq_first_group(cfqd);

	if (!cfqg)
		return NULL;
	if (cfqd->serving_group != cfqg) {
		/* A new group: its workload choice starts afresh. */
		cfqd->serving_group = cfqg;
		cfqd->workload_expires = 0;
	}
	if (!cfq_choose_workload(cfqd, cfqg, now))
		return NULL;
	return cfq_st_first(cfq_st(cfqg, cfqd->serving_wl_class,
				   cfqd->serving_wl_type));
}

/*
 * Should the active queue @cfqq, now empty, keep the disk?  A queue that
 * idles by itself (sequential sync); the last queue of the SYNC_NOIDLE
 * workload, to keep that workload from losing the disk to the other
 * workloads after every request: else each seeky queue gets one request
 * per round however long its workload's slice.
 *
 * 2.6.33 idled there on every rotational disk, NCQ or not, and 3.x
 * only when the tree's think time was short; here too.  The tree's think
 * time is the mean time from a completion of any of its queues to its
 * next request: the idle waits for any queue of the workload, so a
 * thinker served last beside a reader that is back at once still idles,
 * and a workload whose every queue thinks longer than slice_idle does
 * not.  On a deep device this idles only
 * while other busy queues of the group (any class) wait in its other
 * workloads, which is what the idling protects the workload from.
 * A group whose busy queues are all seeky (a striped array's random
 * readers, one group each or all in one) does not idle: the device
 * serves them in parallel (see cfq_should_group_idle()).
 * On a deep SSD no queue or workload idles (as 2.6.33; 4.x only with
 * slice_idle at its SSD default of 0); group_idle may still hold the
 * disk there, as in 4.x (cfq_should_group_idle()).
 */
static bool cfq_should_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!READ_ONCE(cfqd->slice_idle) || cfqq_class_idle(cfqq) ||
	    !cfqq_sync(cfqq) || cfqq_orphan(cfqq))
		return false;
	if (blk_queue_nonrot(cfqd->q) && cfq_deep(cfqd))
		return false;
	if (cfqq_idle_window(cfqq))
		return true;
	if (!cfqq->service_tree || cfqq->service_tree->count != 1 ||
	    cfqd->busy_queues < 2)
		return false;
	/* No queue of the workload would be back before the idle ends. */
	if (cfq_ttime_valid(&cfqq->service_tree->ttime) &&
	    cfqq->service_tree->ttime.mean_ns > READ_ONCE(cfqd->slice_idle))
		return false;
	return !cfq_deep(cfqd) || cfqq->cfqg->nr_cfqq > 1;
}

/*
 * group_idle: @cfqq is the last busy queue of its group and other groups
 * wait.  Hold the disk for the group, unless the queue is seeky on a deep
 * device: there each group's idle slot would leave the array's other
 * members idle (2.6's collapse on striped arrays).  A queue that has made
 * one request has shown nothing yet and keeps the disk for its group:
 * else the other group's stream goes on beside that request, which a
 * disk reordering by position passes over up to its aging limit, and the
 * new group gets no share until it completes.  That costs each new
 * single-queue group its first request's latency plus group_idle once, as
 * group idling cost every group in 4.x.  With slice_idle 0 (4.x's setting
 * for arrays and fast disks, group_idle kept) no queue has an idle
 * window, and the queue's group window decides: a queue that has shown
 * itself sequential, thinking no longer than group_idle, whose process
 * lives and whose next request is not a sync write without more to
 * follow (cfq_update_idle_window()).  A new queue has shown nothing and
 * gets no hold there.
 */
static bool cfq_should_group_idle(struct cfq_data *cfqd,
				  struct cfq_queue *cfqq)
{
	u64 slice_idle = READ_ONCE(cfqd->slice_idle);

	if (!READ_ONCE(cfqd->group_idle) || !cfqq_sync(cfqq) ||
	    cfqq_orphan(cfqq) || cfqq_class_idle(cfqq) ||
	    cfqd->grp_st.count < 2 ||
	    cfqq->cfqg->nr_cfqq != 1)
		return false;
	if (!cfq_deep(cfqd) || cfqq_window(cfqq, slice_idle))
		return true;
	/* With slice_idle 0 a new queue gets no hold (see above). */
	return slice_idle && !cfqq->seek_samples;
}

/*
 * How long the active queue @cfqq, empty, would keep the disk: slice_idle,
 * group_idle (*@group set) or 0.
 */
static u64 cfq_idle_wait(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			 bool *group, u64 now)
{
	u64 idle = READ_ONCE(cfqd->slice_idle);

	*group = false;
	if (cfq_should_idle(cfqd, cfqq)) {
		/* A boosted queue is waited for as long as bfq waits. */
		if (cfqq_boosted(cfqd, cfqq, now))
			idle = max_t(u64, idle, CFQ_BOOST_IDLE_NS);
		return idle;
	}
	if (cfq_should_group_idle(cfqd, cfqq)) {
		*group = true;
		return READ_ONCE(cfqd->group_idle);
	}
	return 0;
}

/*
 * wait_busy: the active queue @cfqq is its group's only busy queue, other
 * groups wait, and at @now its slice is over (or ends before its process's
 * next request is expected) with nothing queued.  Expired now, it would
 * leave the tree with its group; back with its next request, the group
 * would be placed no earlier than the busy groups (cfq_group_queue_add())
 * and lose the lead its weight earned: groups of one sequential reader
 * each would take turns whatever their weights.  Returns how long the
 * queue may keep the disk past the slice for that next request (which
 * then ends the slice with the group still busy), or 0.  Once a slice.
 */
static u64 cfq_should_wait_busy(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				u64 now)
{
	const struct cfq_ttime *tt = &cfqq->ttime;
	bool group;
	u64 wait;

	if (cfqd->grp_st.count < 2 || cfqq->cfqg->nr_cfqq != 1 ||
	    cfqq->next_rq || cfqq_slice_new(cfqq) || cfqq_wait_busy(cfqq))
		return 0;
	wait = cfq_idle_wait(cfqd, cfqq, &group, now);
	if (!wait || (cfq_ttime_valid(tt) && tt->mean_ns > wait))
		return 0;
	if (now >= cfqq->slice_end)
		return wait;
	/* Queue idling stops short of the slice's end (cfq_arm_idle()). */
	if (!group && cfq_ttime_valid(tt) && now + tt->mean_ns > cfqq->slice_end)
		return wait;
	return 0;
}

/* Start idling on the active queue @cfqq (its last request completed). */
static void cfq_arm_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			 u64 now)
{
	bool group;
	u64 idle = cfq_idle_wait(cfqd, cfqq, &group, now);

	if (!idle)
		return;
	/* A slice not started yet starts now (see the caller). */
	if (cfqq_slice_new(cfqq))
		cfq_set_slice(cfqd, cfqq, now);
	/* A process thinking longer than the slice left: do not. */
	if (!group && cfq_ttime_valid(&cfqq->ttime) &&
	    now + cfqq->ttime.mean_ns > cfqq->slice_end)
		return;
	cfqq_mark_wait_request(cfqq);
	if (group) {
		cfqq_mark_group_idle(cfqq);
		cfqd->stat_group_idle_starts++;
	} else {
		cfqd->stat_idle_starts++;
	}
	cfqd->idle_end = now + idle;
	hrtimer_start(&cfqd->idle_timer, ns_to_ktime(cfqd->idle_end),
		      HRTIMER_MODE_ABS);
	blk_add_trace_msg(cfqd->q, "cfq%d idle %s %llu us", cfqq->pid,
			  group ? "group" : "queue", div_u64(idle, NSEC_PER_USEC));
}

/*
 * May @cfqq be served in the place of the active queue @cur?  Only a
 * queue that waits in @cur's own service tree (its group, class and
 * kind), and not a seeky one: it would take the disk far away at its next
 * request.
 */
static bool cfq_coop_ok(struct cfq_data *cfqd, struct cfq_queue *cur,
			struct cfq_queue *cfqq)
{
	return cfqq != cur && cfqq->service_tree == cur->service_tree &&
	       !cfqq_seeky(cfqd, cfqq);
}

/* Queues looked at on each side of the head for a close cooperator. */
#define CFQ_COOP_SCAN			4

/*
 * From @n, the nearest queue within CFQ_CLOSE_THR_SECTORS of @pos that
 * cfq_coop_ok() allows, looking at up to CFQ_COOP_SCAN queues in one
 * direction (@next: rb_next or rb_prev); its distance in @dist.
 */
static struct cfq_queue *cfq_coop_scan(struct cfq_data *cfqd,
				       struct cfq_queue *cur,
				       struct rb_node *n, sector_t pos,
				       struct rb_node *(*next)(const struct rb_node *),
				       sector_t *dist)
{
	int i;

	for (i = 0; n && i < CFQ_COOP_SCAN; i++, n = next(n)) {
		struct cfq_queue *cfqq = rb_entry(n, struct cfq_queue, pos_node);
		sector_t p = cfqq_pos(cfqq);

		*dist = p > pos ? p - pos : pos - p;
		if (*dist > CFQ_CLOSE_THR_SECTORS)
			break;
		if (cfq_coop_ok(cfqd, cur, cfqq))
			return cfqq;
	}
	return NULL;
}

/*
 * A close cooperator of the active queue @cur, which has run dry: the
 * nearest queue of its level, either side of the end of the active
 * queue's last dispatch, that cfq_coop_ok() allows.  None for a seeky
 * queue, or one of the idle class.
 */
static struct cfq_queue *cfq_close_cooperator(struct cfq_data *cfqd,
					      struct cfq_queue *cur)
{
	struct rb_node *n, *below = NULL, *above = NULL;
	struct cfq_queue *b, *a;
	sector_t pos = cfqd->active_pos, db = 0, da = 0;

	if (!READ_ONCE(cfqd->cooperators) || !cfqq_sync(cur) ||
	    cfqq_class_idle(cur) || !cur->service_tree ||
	    cur->cfqg->nr_cfqq < 2 || cfqq_seeky(cfqd, cur))
		return NULL;
	n = cfqd->pos_tree[cur->ioprio].rb_node;
	while (n) {
		if (cfqq_pos(rb_entry(n, struct cfq_queue, pos_node)) <= pos) {
			below = n;
			n = n->rb_right;
		} else {
			above = n;
			n = n->rb_left;
		}
	}
	b = cfq_coop_scan(cfqd, cur, below, pos, rb_prev, &db);
	a = cfq_coop_scan(cfqd, cur, above, pos, rb_next, &da);
	if (b && a)
		return db <= da ? b : a;
	return b ?: a;
}

/*
 * The queue to dispatch from, or NULL to hold the disk (idling, or only
 * idle-class work that must wait).
 */
static struct cfq_queue *cfq_select_queue(struct cfq_data *cfqd, u64 now)
{
	struct cfq_queue *cfqq = cfqd->active_queue, *coop;

	if (!cfqq)
		goto new_queue;
	if (!cfqd->rq_queued)
		return NULL;
	/* The idle class gives way to any other work. */
	if (cfqq_class_idle(cfqq) &&
	    cfqd->busy_queues > cfq_class_busy(cfqq->cfqg, CFQ_IDLE_WL)) {
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_PREEMPTED, now);
		goto new_queue;
	}
	if (cfq_slice_over(cfqd, cfqq, now)) {
		/* Its last completion decides whether to wait busy. */
		if (cfqq->dispatched && cfq_should_wait_busy(cfqd, cfqq, now))
			return NULL;
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_SLICE, now);
		goto new_queue;
	}
	if (cfqq->next_rq)
		return cfqq;
	/*
	 * Empty, and another queue's request follows where it left the disk:
	 * serve that queue now, rather than idle or seek, and merge the two.
	 */
	coop = cfq_close_cooperator(cfqd, cfqq);
	if (coop) {
		if (!cfqq->new_cfqq)
			cfq_setup_merge(cfqq, coop);
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_COOP, now);
		blk_add_trace_msg(cfqd->q, "cfq%d cooperator cfq%d", cfqq->pid,
				  coop->pid);
		cfq_set_active(cfqd, coop);
		return coop;
	}
	/* Empty: idling, or about to idle once its requests complete. */
	if (cfqq_wait_request(cfqq))
		return NULL;
	/*
	 * A seeky queue that idles (because it once kept a deep queue, see
	 * cfq_update_idle_window()) and ran dry in the first half of its
	 * slice: the device serves it faster than it sends.  It loses that
	 * exemption and its idle (or group) window, as 4.x did (2.6.36 did
	 * not yet); seeky over the full window of 32 requests, as 4.x judged
	 * it here.  A boosted queue keeps its window: a starting application
	 * runs dry after each read by nature, and a stream's requests sent
	 * while its read is at the disk would be served before it.
	 */
	if (cfqq_window(cfqq, READ_ONCE(cfqd->slice_idle)) &&
	    !cfqq_boosted(cfqd, cfqq, now) &&
	    cfq_seeky(cfqq->seek_history, 32) &&
	    (cfqq_slice_new(cfqq) ||
	     cfqq->slice_end - now > now - cfqq->slice_start)) {
		cfqq_clear_deep(cfqq);
		cfqq_clear_idle_window(cfqq);
		cfqq_clear_group_window(cfqq);
		blk_add_trace_msg(cfqd->q, "cfq%d window=0 (not deep)",
				  cfqq->pid);
	}
	if (cfqq->dispatched && (cfq_should_idle(cfqd, cfqq) ||
				 cfq_should_group_idle(cfqd, cfqq)))
		return NULL;
	cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_EMPTY, now);
new_queue:
	cfqq = cfq_next_queue(cfqd, now);
	cfq_set_active(cfqd, cfqq);
	return cfqq;
}

/* ---- dispatch ----------------------------------------------------------- */

/* The FIFO's head if it expired; looked at once per slice. */
static struct request *cfq_check_fifo(struct cfq_queue *cfqq, u64 now)
{
	struct request *rq;

	if (cfqq_fifo_checked(cfqq) || list_empty(&cfqq->fifo))
		return NULL;
	cfqq_mark_fifo_checked(cfqq);
	rq = list_first_entry(&cfqq->fifo, struct request, queuelist);
	if (now < rq->fifo_time)
		return NULL;
	return rq;
}

/*
 * May @cfqq send another request now?  Async work waits while sync
 * requests are at the device, and ramps up after a sync request was
 * delayed; a queue has at most quantum requests at the device while
 * others wait; the idle class one.
 */
static bool cfq_may_dispatch(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			     u64 now)
{
	unsigned int max = READ_ONCE(cfqd->quantum);

	if (cfqq_class_idle(cfqq))
		return !cfqd->rq_in_driver;
	if (!cfqq_sync(cfqq)) {
		u64 since = now - cfqd->last_delayed_sync;
		unsigned int depth;

		if (cfqd->rq_in_flight[1])
			return false;
		depth = min_t(u64, div64_u64(since, max_t(u64, cfqd->slice[1], 1)),
			      UINT_MAX);
		if (!depth && !cfqq->dispatched)
			depth = 1;
		max = min(max, depth);
	}
	if (cfqq->dispatched < max)
		return true;
	/* Alone, a queue may fill the device (sync: 2.6's rule too). */
	return cfqd->busy_queues == 1 && cfqq_sync(cfqq);
}

/*
 * @rq goes to the driver: count it there until it completes or is
 * requeued (cfq_rq_left_driver()).
 */
static void cfq_rq_to_driver(struct cfq_data *cfqd, struct request *rq)
{
	unsigned long flags = cfq_rq_flags(rq);

	if (WARN_ON_ONCE(flags & CFQ_RQ_DRIVER))
		return;
	cfq_rq_set_flags(rq, flags | CFQ_RQ_DRIVER);
	rq_cfqq(rq)->dispatched++;
	cfqd->rq_in_driver++;
	cfqd->rq_in_flight[rq_is_sync(rq)]++;
}

/*
 * @rq of @cfqq goes to the device.  A process that has moved more than
 * CFQ_BOOST_MAX_SECTORS while boosted streams: it is not an application
 * starting, and its boost ends.
 */
static void cfq_boost_charge(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			     struct request *rq, u64 now)
{
	struct cfq_io_cq *cic;

	if (!rq->elv.icq || !cfqq_boosted(cfqd, cfqq, now))
		return;
	cic = icq_to_cic(rq->elv.icq);
	cic->boost_sectors += blk_rq_sectors(rq);
	if (cic->boost_sectors <= CFQ_BOOST_MAX_SECTORS)
		return;
	cic->boost_end = 0;
	cfqq->boost_end = 0;
	cfqd->stat_boost_capped++;
	blk_add_trace_msg(cfqd->q, "cfq%d boost ends after %u sectors",
			  cfqq->pid, cic->boost_sectors);
}

/* ---- injection beside a boosted queue ------------------------------------ */

/*
 * A boosted queue that idles leaves the disk unused for its process's think
 * time, which a starting application spends on the CPU.  If that time is
 * longer than slice_idle on average, other queues of its group may send
 * requests meanwhile (are injected), as long as that does not slow the
 * boosted queue's own reads (a quicker thinker is back at the disk before
 * an injected request is done, as bfq judges): its inject_limit bounds the
 * requests at the device, its own included, while it idles.  The limit
 * starts at 0 and opens at 1 once a read of the queue has been timed
 * alone; it then follows the reads timed with injected requests at the
 * device (cfq_inject_sample()): one that took 3/2 of the reads' mean time
 * alone or more lowers it by one, a quicker one raises it by one, up to
 * quantum, if the requests at the device reached the limit meanwhile
 * (@reached).  A limit of 0 is tried again at 1 after CFQ_INJECT_PROBE_NS:
 * what the others send may have changed.  The boosted queue's group pays
 * for the time, as for its idling; the injected queues keep their place.
 */
VISIBLE_IF_KUNIT void cfq_inject_adjust(struct cfq_queue *cfqq,
					enum cfq_inject_seen seen, u64 t,
					unsigned int reached, u64 now,
					unsigned int max)
{
	u64 base = cfqq->inject_base_ns;

	switch (seen) {
	case CFQ_INJECT_ALONE:
		if (!base)
			cfqq->inject_limit = max_t(unsigned int,
						   cfqq->inject_limit, 1);
		/* A mean over about the last 8 reads: they seek unevenly. */
		cfqq->inject_base_ns = base ? base - (base >> 3) + (t >> 3) : t;
		break;
	case CFQ_INJECT_INJECTED:
		if (!base)
			break;
		if (t * CFQ_INJECT_SLOWER_DEN >= base * CFQ_INJECT_SLOWER_NUM) {
			if (cfqq->inject_limit)
				cfqq->inject_limit--;
			cfqq->inject_cut = now;
		} else if (cfqq->inject_limit < max &&
			   reached >= cfqq->inject_limit) {
			/* Only a limit that was reached shows it could be higher. */
			cfqq->inject_limit++;
		}
		break;
	case CFQ_INJECT_OTHERS:
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cfq_inject_adjust);

/*
 * A queue of the active queue's group whose next request may go to the
 * device beside the active queue, boosted and waiting for its next read
 * or for its read at the device (see cfq_inject_adjust()), or NULL.  In
 * class order; within a class async work first, as it may not go while
 * a sync request is at the device (cfq_may_dispatch()).
 */
static struct cfq_queue *cfq_inject_queue(struct cfq_data *cfqd, u64 now)
{
	struct cfq_queue *active = cfqd->active_queue, *cfqq;
	enum cfq_wl_class c;
	enum cfq_wl_type t;

	if (!active || active->next_rq || !cfqq_boosted(cfqd, active, now) ||
	    (!cfqq_wait_request(active) && !active->dispatched))
		return NULL;
	/* Nothing of a lower class goes to the disk beside the RT class. */
	if (cfqq_class_rt(active))
		return NULL;
	/* A quick thinker is back before an injected request is done. */
	if (!cfq_ttime_valid(&active->ttime) ||
	    active->ttime.mean_ns <= READ_ONCE(cfqd->slice_idle))
		return NULL;
	if (!active->inject_limit && active->inject_base_ns &&
	    now - active->inject_cut >= CFQ_INJECT_PROBE_NS)
		active->inject_limit = 1;
	if (cfqd->rq_in_driver >= active->inject_limit)
		return NULL;
	for (c = CFQ_RT_WL; c < CFQ_IDLE_WL; c++) {
		for (t = 0; t < CFQ_NR_WL_TYPES; t++) {
			cfqq = cfq_st_first_other(cfq_st(active->cfqg, c, t),
						  active);
			if (cfqq && cfqq->next_rq &&
			    cfq_may_dispatch(cfqd, cfqq, now))
				return cfqq;
		}
	}
	return NULL;
}

/*
 * @rq of @cfqq went to the device.  Time it if it is a read of the active
 * boosted queue and no read is timed: alone if nothing else is at the
 * device; note an injected request beside the one timed.
 */
static void cfq_inject_time(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    struct request *rq, u64 now)
{
	if (cfq_rq_flags(rq) & CFQ_RQ_INJECTED) {
		if (!cfqd->inject_timing)
			return;
		if (cfqd->inject_seen == CFQ_INJECT_ALONE)
			cfqd->inject_seen = CFQ_INJECT_INJECTED;
		cfqd->inject_max = max(cfqd->inject_max, cfqd->rq_in_driver);
		return;
	}
	if (cfqd->inject_timing || cfqq != cfqd->active_queue ||
	    req_op(rq) != REQ_OP_READ || !cfqq_boosted(cfqd, cfqq, now))
		return;
	cfq_rq_set_flags(rq, cfq_rq_flags(rq) | CFQ_RQ_TIMED);
	cfqd->inject_timing = true;
	cfqd->inject_rq_start = now;
	cfqd->inject_max = cfqd->rq_in_driver;
	if (cfqd->inject_in_driver)
		cfqd->inject_seen = CFQ_INJECT_INJECTED;
	else if (cfqd->rq_in_driver > 1)
		cfqd->inject_seen = CFQ_INJECT_OTHERS;
	else
		cfqd->inject_seen = CFQ_INJECT_ALONE;
}

/* The timed read @rq completed at @now: adjust its queue's limit. */
static void cfq_inject_sample(struct cfq_data *cfqd, struct request *rq,
			      u64 now)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);
	unsigned int limit = cfqq->inject_limit;

	cfq_inject_adjust(cfqq, cfqd->inject_seen,
			  now - cfqd->inject_rq_start, cfqd->inject_max, now,
			  READ_ONCE(cfqd->quantum));
	if (cfqq->inject_limit < limit) {
		cfqd->stat_inject_cuts++;
		blk_add_trace_msg(cfqd->q, "cfq%d inject limit %u", cfqq->pid,
				  cfqq->inject_limit);
	}
}

static void cfq_account_dispatch(struct cfq_data *cfqd, struct request *rq,
				 u64 now)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	cfq_remove_rq(cfqd, rq);
	cfq_rq_to_driver(cfqd, rq);
	cfqq->slice_dispatch++;
	if (!cfqq->dispatch_start)
		cfqq->dispatch_start = now;
	cfqd->last_pos = blk_rq_pos(rq) + blk_rq_sectors(rq);
	/*
	 * Where the active queue left the disk: an injected request does
	 * not move it, or its queue would pass for the active queue's
	 * close cooperator (cfq_close_cooperator()).
	 */
	if (!(cfq_rq_flags(rq) & CFQ_RQ_INJECTED))
		cfqd->active_pos = cfqd->last_pos;
	cfqd->stat_dispatched[cfq_wl_class_of(cfqq->ioprio_class)]++;
	cfqq->cfqg->served_sectors += blk_rq_sectors(rq);
	if (!cfqq_class_idle(cfqq))
		cfqd->last_busy_ns = now;
	cfq_boost_charge(cfqd, cfqq, rq, now);
	cfq_inject_time(cfqd, cfqq, rq, now);
}

/* A request of @cfqq goes to the device beside the boosted active queue. */
static struct request *cfq_inject(struct cfq_data *cfqd,
				  struct cfq_queue *cfqq, u64 now)
{
	struct request *rq = cfqq->next_rq;

	cfq_rq_set_flags(rq, cfq_rq_flags(rq) | CFQ_RQ_INJECTED);
	cfqd->inject_in_driver++;
	cfqd->stat_injected++;
	blk_add_trace_msg(cfqd->q, "cfq%d inject beside cfq%d", cfqq->pid,
			  cfqd->active_queue->pid);
	cfq_account_dispatch(cfqd, rq, now);
	return rq;
}

static struct request *__cfq_dispatch(struct cfq_data *cfqd, u64 now)
{
	struct cfq_queue *cfqq;
	struct request *rq;

	if (!list_empty(&cfqd->dispatch)) {
		rq = list_first_entry(&cfqd->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		/* A requeued request: at the driver again, as its queue's. */
		if (rq_cfqq(rq))
			cfq_rq_to_driver(cfqd, rq);
		return rq;
	}
	if (!cfqd->rq_queued)
		return NULL;

	cfqq = cfq_select_queue(cfqd, now);
	if (!cfqq) {
		cfqq = cfq_inject_queue(cfqd, now);
		return cfqq ? cfq_inject(cfqd, cfqq, now) : NULL;
	}
	if (!cfqq->next_rq || !cfq_may_dispatch(cfqd, cfqq, now))
		return NULL;

	rq = cfq_check_fifo(cfqq, now);
	if (rq)
		cfqd->stat_fifo_expired++;
	else
		rq = cfqq->next_rq;
	cfq_account_dispatch(cfqd, rq, now);

	/* An async queue that sent its share gives way at once. */
	if (!cfqq_sync(cfqq) && cfqd->busy_queues > 1 &&
	    cfqq->slice_dispatch >= cfq_prio_to_maxrq(cfqd->slice_async_rq,
						      cfqq->ioprio))
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_ASYNC_RQ, now);
	/* The idle class is served one request at a time. */
	else if (cfqq_class_idle(cfqq))
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_SLICE, now);
	return rq;
}

VISIBLE_IF_KUNIT struct request *cfq_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct cfq_data *cfqd = hctx->queue->elevator->elevator_data;
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(&cfqd->lock, flags);
	rq = __cfq_dispatch(cfqd, ktime_get_ns());
	if (rq) {
		rq->rq_flags |= RQF_STARTED;
	} else if (cfqd->rq_queued) {
		WRITE_ONCE(cfqd->held, true);
		cfqd->stat_held++;
	}
	spin_unlock_irqrestore(&cfqd->lock, flags);
	return rq;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_dispatch_request);

VISIBLE_IF_KUNIT bool cfq_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct cfq_data *cfqd = hctx->queue->elevator->elevator_data;

	if (!list_empty_careful(&cfqd->dispatch))
		return true;
	/*
	 * While dispatch holds the disk (idling, a quantum, async behind
	 * sync), the timer, a completion or an insertion reruns the queue.
	 */
	return READ_ONCE(cfqd->rq_queued) && !READ_ONCE(cfqd->held);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_has_work);

/* ---- idle timer --------------------------------------------------------- */

/*
 * The idle timer ends the active queue's wait (queue or group idle) only
 * if that wait is the one it was armed for: the queue still waits and the
 * wait's end, set when it was armed, has come.  A timer that went off for
 * an earlier wait changes nothing: its callback may have waited for the
 * lock while that wait ended (hrtimer_try_to_cancel() cannot stop a
 * running callback) and the queue, or another one made active since,
 * began a new wait; the timer armed for that one follows.  Else the queue
 * is run again: also the end of the idle class's wait.
 */
VISIBLE_IF_KUNIT enum hrtimer_restart cfq_idle_timer_fn(struct hrtimer *timer)
{
	struct cfq_data *cfqd = container_of(timer, struct cfq_data, idle_timer);
	struct cfq_queue *cfqq;
	unsigned long flags;
	u64 now;

	spin_lock_irqsave(&cfqd->lock, flags);
	now = ktime_get_ns();
	cfqq = cfqd->active_queue;
	if (cfqq && cfqq_wait_request(cfqq)) {
		if (now < cfqd->idle_end) {
			spin_unlock_irqrestore(&cfqd->lock, flags);
			return HRTIMER_NORESTART;
		}
		cfqq_clear_wait_request(cfqq);
		/*
		 * A wait in vain within the slice: a queue that once kept a
		 * deep queue is judged by its seeks again (2.6.33 to 4.x).
		 */
		if (!cfqq->next_rq && !cfq_slice_used(cfqq, now))
			cfqq_clear_deep(cfqq);
		/* Requests arrived meanwhile but did not end the wait. */
		if (!cfqq->next_rq || cfq_slice_over(cfqd, cfqq, now))
			cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_IDLE_TIMEOUT,
					     now);
	}
	WRITE_ONCE(cfqd->held, false);
	cfqd->stat_kicks++;
	spin_unlock_irqrestore(&cfqd->lock, flags);
	cfq_kick(cfqd);
	return HRTIMER_NORESTART;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_idle_timer_fn);

/* ---- completion --------------------------------------------------------- */

/*
 * hw_tag: does the device keep a deep queue busy?  The first verdict, and
 * a veto at every sample, comes from the device's queue depth
 * (blk_queue_depth(), which SCSI sets per device): with idling on, a
 * workload could never show a depth it is not given (2.6 started from
 * "unknown" and, idling per group, never learnt that a striped array was
 * deep).  Samples taken while there is enough work to show the depth then
 * correct it, as 2.6 did: the verdict of 50 samples holds until the next.
 */
static void cfq_update_hw_tag(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;

	/* The device's depth now (SCSI sets it per device). */
	if (blk_queue_depth(cfqd->q) < CFQ_HW_QUEUE_MIN) {
		cfqd->hw_tag = 0;
		return;
	}
	cfqd->hw_tag_est_depth = max(cfqd->hw_tag_est_depth, cfqd->rq_in_driver);
	/* A depth the scheduler itself held back says nothing of the device. */
	if (cfqd->held)
		return;
	if (cfqd->rq_in_driver <= CFQ_HW_QUEUE_MIN &&
	    cfqd->rq_queued <= CFQ_HW_QUEUE_MIN)
		return;
	/* One idling queue (or group) cannot show the depth. */
	if (cfqq && cfqq_window(cfqq, READ_ONCE(cfqd->slice_idle)) &&
	    cfqq->dispatched + cfqq->queued < CFQ_HW_QUEUE_MIN &&
	    cfqd->rq_in_driver < CFQ_HW_QUEUE_MIN)
		return;
	if (++cfqd->hw_tag_samples < CFQ_HW_TAG_SAMPLES)
		return;
	cfqd->hw_tag = cfqd->hw_tag_est_depth >= CFQ_HW_QUEUE_MIN;
	cfqd->hw_tag_samples = 0;
	cfqd->hw_tag_est_depth = 0;
}

/* Undo the driver accounting of @rq; false if it was not counted. */
static bool cfq_rq_left_driver(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);
	unsigned long flags = cfq_rq_flags(rq);

	if (!cfqq || !(flags & CFQ_RQ_DRIVER))
		return false;
	cfq_rq_set_flags(rq, flags & ~(CFQ_RQ_DRIVER | CFQ_RQ_INJECTED |
				       CFQ_RQ_TIMED));
	if (flags & CFQ_RQ_TIMED)
		cfqd->inject_timing = false;
	if ((flags & CFQ_RQ_INJECTED) &&
	    !WARN_ON_ONCE(!cfqd->inject_in_driver))
		cfqd->inject_in_driver--;
	if (!WARN_ON_ONCE(!cfqq->dispatched))
		cfqq->dispatched--;
	if (!WARN_ON_ONCE(!cfqd->rq_in_driver))
		cfqd->rq_in_driver--;
	if (!WARN_ON_ONCE(!cfqd->rq_in_flight[rq_is_sync(rq)]))
		cfqd->rq_in_flight[rq_is_sync(rq)]--;
	return true;
}

/*
 * A request of @cfqq completes at @now after the queue's turn ended with it
 * at the device: the device worked for it meanwhile.  The group pays for
 * that time too, else a queue that keeps several requests at the device
 * gets their service past each turn for nothing: the more, the shorter its
 * turns (a low weight).  Only time no one else is charged for: up to the
 * start of the active queue's slice (its first completion), and from
 * cfqd->tail_charged, the end of the time charged so far, tails and turns
 * alike (a turn's charge starts no earlier either).  A read the device
 * passed over for longer than the next turn is charged less than it took.
 */
static void cfq_tail_completed(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			       u64 now)
{
	struct cfq_queue *active = cfqd->active_queue;
	u64 from = max(cfqq->charged_until, cfqd->tail_charged);
	u64 end = now;

	if (active && !cfqq_slice_new(active) && active->slice_start < end)
		end = active->slice_start;
	if (end > from) {
		cfq_group_served(cfqd, cfqq->cfqg, end - from);
		cfqd->tail_charged = end;
	}
	cfqq->charged_until = cfqq->dispatched && end == now ? now : 0;
}

/* A request of the active queue @cfqq completed at @now. */
static void cfq_active_completed(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				 u64 now)
{
	bool dry = !cfqq->dispatched && !cfqq->next_rq;
	u64 wait;

	/*
	 * The slice starts at the first completion; a queue that runs dry
	 * then starts it only if it idles (cfq_arm_idle()): else it expires
	 * at once, and its length would go unused.
	 */
	if (cfqq_slice_new(cfqq) && !dry)
		cfq_set_slice(cfqd, cfqq, now);
	wait = cfq_should_wait_busy(cfqd, cfqq, now);
	if (wait) {
		/* Its last request in flight decides (cfq_select_queue()). */
		if (!dry)
			return;
		cfqq_mark_wait_busy(cfqq);
		cfqd->stat_wait_busy++;
		cfqq->slice_end = now + wait;
		blk_add_trace_msg(cfqd->q, "cfq%d wait_busy %llu us", cfqq->pid,
				  div_u64(wait, NSEC_PER_USEC));
	}
	if (cfq_slice_over(cfqd, cfqq, now)) {
		cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_SLICE, now);
	} else if (dry) {
		cfq_arm_idle(cfqd, cfqq, now);
		if (!cfqq_wait_request(cfqq))
			cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_EMPTY, now);
	}
}

/*
 * @now, blk-mq's time stamp of the completion, is not used: in task
 * context (polled or irqmode=0 completions) it is the plug's cached time,
 * which may be older than the decisions it would be compared with.  The
 * clock is read under the lock instead, as bfq does.
 */
VISIBLE_IF_KUNIT void cfq_completed_request(struct request *rq, u64 now)
{
	struct cfq_data *cfqd = rq->q->elevator->elevator_data;
	struct cfq_queue *cfqq = rq_cfqq(rq);
	unsigned long flags;
	bool timed;

	spin_lock_irqsave(&cfqd->lock, flags);
	cfq_update_hw_tag(cfqd);
	cfqd->rerun = true;
	timed = cfq_rq_flags(rq) & CFQ_RQ_TIMED;
	/* Not dispatched by the scheduler: only rerun. */
	if (!cfq_rq_left_driver(cfqd, rq)) {
		cfq_unlock(cfqd, flags);
		return;
	}
	now = ktime_get_ns();
	if (timed)
		cfq_inject_sample(cfqd, rq, now);
	if (rq_is_sync(rq)) {
		cfqq->ttime.last_end_ns = now;
		cfq_kind_st(cfqq)->ttime.last_end_ns = now;
		if (now - rq->start_time_ns > cfqd->fifo_expire[1])
			cfqd->last_delayed_sync = now;
	}
	if (cfqq == cfqd->active_queue)
		cfq_active_completed(cfqd, cfqq, now);
	else if (cfqq->charged_until)
		cfq_tail_completed(cfqd, cfqq, now);
	/*
	 * blk_mq_finish_request() follows at once: give up the request's
	 * queue reference now rather than take the lock again there.
	 */
	cfq_rq_put_queue(rq);
	cfq_unlock(cfqd, flags);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_completed_request);

/*
 * A request requeued without RQF_DONTPREP comes back through insertion,
 * at the head (cfqd->dispatch): it leaves the driver's count now and is
 * counted again when dispatched.  One with RQF_DONTPREP (prepared by the
 * driver: a SCSI retry) goes straight back to the driver, bypassing the
 * scheduler, and completes through it: it stays counted.
 */
VISIBLE_IF_KUNIT void cfq_requeue_request(struct request *rq)
{
	struct cfq_data *cfqd = rq->q->elevator->elevator_data;
	unsigned long flags;

	spin_lock_irqsave(&cfqd->lock, flags);
	cfqd->stat_requeues++;
	/* Its time would count the requeue: not a sample. */
	if (cfq_rq_flags(rq) & CFQ_RQ_TIMED) {
		cfq_rq_set_flags(rq, cfq_rq_flags(rq) & ~CFQ_RQ_TIMED);
		cfqd->inject_timing = false;
	}
	if (!(rq->rq_flags & RQF_DONTPREP) && cfq_rq_left_driver(cfqd, rq) &&
	    !rq_cfqq(rq)->dispatched)
		rq_cfqq(rq)->charged_until = 0;	/* no tail at the device */
	cfqd->rerun = true;
	cfq_unlock(cfqd, flags);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_requeue_request);

/* At allocation, in the submitting task: its io_cq and its priority. */
static void cfq_prepare_request(struct request *rq)
{
	rq->elv.icq = ioc_find_get_icq(rq->q);
	rq->elv.priv[0] = NULL;
	cfq_rq_set_flags(rq, (unsigned long)(u16)get_current_ioprio() <<
			     CFQ_RQ_PRIO_SHIFT);
}

VISIBLE_IF_KUNIT void cfq_finish_request(struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (cfqq) {
		struct cfq_data *cfqd = cfqq->cfqd;
		unsigned long flags;

		spin_lock_irqsave(&cfqd->lock, flags);
		/* Not completed through the scheduler (e.g. a failed dispatch). */
		if (cfq_rq_left_driver(cfqd, rq)) {
			cfqd->rerun = true;
			if (!cfqq->dispatched)
				cfqq->charged_until = 0;
		}
		WARN_ON_ONCE(cfq_rq_flags(rq) & CFQ_RQ_QUEUED);
		cfq_rq_put_queue(rq);
		cfq_unlock(cfqd, flags);
	}
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cfq_finish_request);

/* ---- insertion and merging ---------------------------------------------- */

/*
 * Attach @rq to its queue (once: a requeued request keeps it).  Done at
 * insertion, not in prepare_request, as bfq does: only then is the
 * request's bio (its cgroup) final.  A request without an io_cq (its
 * allocation failed) goes to the fallback queue, where it is scheduled
 * in sector and FIFO order like any other.
 */
static struct cfq_queue *cfq_init_rq(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (cfqq)
		return cfqq;
	if (rq->elv.icq) {
		cfqq = cfq_get_queue(cfqd, icq_to_cic(rq->elv.icq), rq);
	} else {
		cfqd->stat_no_icq++;
		cfqq = &cfqd->oom_cfqq;
		cfqq->ref++;
		cfqq->allocated++;
	}
	rq->elv.priv[0] = cfqq;
	return cfqq;
}

/*
 * Does @new take the disk from @active, which idles at the end of the
 * SYNC_NOIDLE workload that @new joins?  Only if they are that workload's
 * only queues (2.6 asked the same): the preempting queue is served next,
 * before the queues waiting in its tree, so with more of them every new
 * request would go first, and with many seeky readers on a deep device
 * (whose active queue is always empty, its one request sent) the first to
 * wait would wait for as long as others keep coming.
 */
VISIBLE_IF_KUNIT bool cfq_noidle_preempt(const struct cfq_queue *new,
					 const struct cfq_queue *active)
{
	return active->wl_type == CFQ_SYNC_NOIDLE_WL && !active->next_rq &&
	       new->service_tree && new->service_tree == active->service_tree &&
	       new->service_tree->count == 2;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_noidle_preempt);

/*
 * Should @new, which just received a request, take the disk from the
 * active queue @cfqq?  RT from the other classes, anything from the idle
 * class, a boosted queue from one that is not, sync from async whose
 * slice is over; within a group only.
 */
static bool cfq_should_preempt(struct cfq_data *cfqd, struct cfq_queue *new,
			       struct cfq_queue *cfqq, u64 now)
{
	if (new == cfqq || cfqq_class_idle(new))
		return false;
	if (cfqq_class_idle(cfqq))
		return true;
	if (new->cfqg != cfqq->cfqg)
		return false;
	if (cfqq_class_rt(new) && !cfqq_class_rt(cfqq))
		return true;
	/* Nothing of a lower class takes the disk from RT. */
	if (cfqq_class_rt(cfqq) && !cfqq_class_rt(new))
		return false;
	/*
	 * A boosted queue (a process that has just started) takes the disk
	 * from any queue of its level or a lower one that is not boosted,
	 * sync or async: each of its reads is served as it comes, not after
	 * the streams' slices.  Boosted queues do not preempt one another.
	 */
	if (cfqq_boosted(cfqd, new, now) && !cfqq_boosted(cfqd, cfqq, now) &&
	    new->ioprio <= cfqq->ioprio) {
		cfqd->stat_boost_preempts++;
		return true;
	}
	/*
	 * Sync work takes the disk from async work only once the async slice
	 * is over: else readers that always have a read in flight preempt
	 * every async slice as it starts, and writeback gets nothing.
	 */
	if (cfqq_sync(new) && !cfqq_sync(cfqq))
		return cfq_slice_used(cfqq, now);
	if (cfq_noidle_preempt(new, cfqq))
		return true;
	/* The group idles for this queue's group. */
	return cfqq_group_idle(cfqq) && !cfqq->next_rq;
}

/*
 * A request arrived at @now: @tt's think time since its last completion,
 * capped at twice the idle it is judged against (cfq_window_idle()).
 */
static void cfq_ttime_arrival(struct cfq_data *cfqd, struct cfq_ttime *tt,
			      u64 now)
{
	if (tt->last_end_ns)
		cfq_ttime_add(tt, now - tt->last_end_ns,
			      2 * cfq_window_idle(cfqd,
						  READ_ONCE(cfqd->slice_idle)));
}

/* @rq was queued in @cfqq: update what the scheduler knows of it. */
static void cfq_rq_enqueued(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    struct request *rq, struct cfq_io_cq *cic, u64 now)
{
	struct cfq_queue *active = cfqd->active_queue;
	enum cfq_wl_class c;

	if (cfqq_sync(cfqq)) {
		if (!cfqq->dispatched)
			cfq_ttime_arrival(cfqd, &cfqq->ttime, now);
		/*
		 * The workload's think time, for its idle at the end: on the
		 * tree the queue is on, before its kind may change (as 4.x).
		 */
		cfq_ttime_arrival(cfqd, &cfq_kind_st(cfqq)->ttime, now);
		cfq_update_seek(cfqd, cfqq, rq);
		if (cic)
			cfq_update_idle_window(cfqd, cfqq, cic, now);
		/*
		 * A waiting queue whose kind changed (it earned or lost its
		 * idle window) moves to its kind's service tree now, not at
		 * its next turn: else it counts in the other workload's share
		 * and idles where seeky queues may preempt it.
		 */
		if (cfqq_on_rr(cfqq) && cfqq != active &&
		    cfqq->wl_type != cfqq_type(cfqq))
			cfq_service_tree_add(cfqd, cfqq, false, now);
	}
	if (!cfqq_class_idle(cfqq))
		cfqd->last_busy_ns = now;

	if (cfqq == active) {
		if (cfqq_wait_request(cfqq)) {
			hrtimer_try_to_cancel(&cfqd->idle_timer);
			cfqq_clear_wait_request(cfqq);
			cfqq_clear_group_idle(cfqq);
			cfqd->stat_idle_hits++;
		}
		/* The request wait_busy waited for: the group stays busy. */
		if (cfqq_wait_busy(cfqq))
			cfq_slice_expired_at(cfqd, cfqq, CFQ_EXP_SLICE, now);
	} else if (active && cfq_should_preempt(cfqd, cfqq, active, now)) {
		cfq_slice_expired(cfqd, active, CFQ_EXP_PREEMPTED);
		/* The preempting queue is served next in its tree. */
		if (cfqq->service_tree && cfqq_on_rr(cfqq)) {
			struct cfq_queue *first = cfq_st_first(cfqq->service_tree);

			cfq_st_remove(cfqq);
			cfqq->rb_key = first ? min(first->rb_key, cfqq->rb_key) - 1 :
					       cfqq->rb_key;
			cfq_st_insert(cfq_st(cfqq->cfqg,
					     cfq_wl_class_of(cfqq->ioprio_class),
					     cfqq->wl_type), cfqq);
		}
		/*
		 * ... and its workload, chosen now for its share of time if
		 * another was served.  A queue of the workload being served
		 * leaves it the time it has left, as in 2.6: a workload
		 * started afresh at each preemption would never end while
		 * its seeky queues take turns, and the others would starve.
		 */
		c = cfq_wl_class_of(cfqq->ioprio_class);
		if (cfqd->serving_group != cfqq->cfqg ||
		    cfqd->serving_wl_class != c ||
		    cfqd->serving_wl_type != cfqq->wl_type)
			cfq_start_workload(cfqd, cfqq->cfqg, c, cfqq->wl_type,
					   now);
	}
}

/*
 * An insertion merge (elv_attempt_insert_merge()) may join @rq to the last
 * merged request and then to a chain of requests, of any queue, found in
 * the request hash.  Allow it only when every queued request is @rq's
 * queue's, so that no request is served, or charged, as another's (2.6's
 * cfq_allow_rq_merge()).
 */
static bool cfq_insert_merge_ok(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	return cfqq && cfqd->rq_queued == cfqq->queued;
}

static void cfq_insert_request(struct blk_mq_hw_ctx *hctx, struct request *rq,
			       blk_insert_t insert_flags, struct list_head *free)
{
	struct request_queue *q = hctx->queue;
	struct cfq_data *cfqd = q->elevator->elevator_data;
	struct cfq_queue *cfqq;
	u64 now;

	lockdep_assert_held(&cfqd->lock);

	cfqq = cfq_init_rq(cfqd, rq);
	if (!(insert_flags & BLK_MQ_INSERT_AT_HEAD) &&
	    cfq_insert_merge_ok(cfqd, rq) &&
	    blk_mq_sched_try_insert_merge(q, rq, free))
		return;

	trace_block_rq_insert(rq);

	/* Flushes and requeued requests: before anything scheduled. */
	if (insert_flags & BLK_MQ_INSERT_AT_HEAD) {
		list_add(&rq->queuelist, &cfqd->dispatch);
		return;
	}

	elv_rb_add(&cfqq->sort_list, rq);
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	now = ktime_get_ns();
	rq->fifo_time = now + cfqd->fifo_expire[rq_is_sync(rq)];
	list_add_tail(&rq->queuelist, &cfqq->fifo);
	cfq_rq_set_flags(rq, cfq_rq_flags(rq) | CFQ_RQ_QUEUED);
	cfqq->queued++;
	WRITE_ONCE(cfqd->rq_queued, cfqd->rq_queued + 1);
	cfq_set_next_rq(cfqd, cfqq,
			cfq_choose_req(cfqd, cfqq->next_rq, rq, cfqd->last_pos));
	if (!cfqq_on_rr(cfqq))
		cfq_add_rr(cfqd, cfqq, now);
	cfq_rq_enqueued(cfqd, cfqq, rq,
			rq->elv.icq ? icq_to_cic(rq->elv.icq) : NULL, now);
}

VISIBLE_IF_KUNIT void cfq_insert_requests(struct blk_mq_hw_ctx *hctx,
					  struct list_head *list,
					  blk_insert_t flags)
{
	struct cfq_data *cfqd = hctx->queue->elevator->elevator_data;
	unsigned long irqflags;
	LIST_HEAD(free);

	spin_lock_irqsave(&cfqd->lock, irqflags);
	while (!list_empty(list)) {
		struct request *rq;

		rq = list_first_entry(list, struct request, queuelist);
		list_del_init(&rq->queuelist);
		cfq_insert_request(hctx, rq, flags, &free);
	}
	/* Decide again: blk-mq runs the queue after an insertion. */
	WRITE_ONCE(cfqd->held, false);
	cfqd->rerun = false;
	spin_unlock_irqrestore(&cfqd->lock, irqflags);

	blk_mq_free_requests(&free);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_insert_requests);

/* The current task's queue for a bio of kind @sync, if it has one. */
static struct cfq_queue *cfq_bio_cfqq(struct request_queue *q, bool sync)
{
	struct io_cq *icq;

	if (!current->io_context)
		return NULL;
	icq = ioc_lookup_icq(q);

	return icq ? icq_to_cic(icq)->cfqq[sync] : NULL;
}

static int cfq_request_merge(struct request_queue *q, struct request **rq,
			     struct bio *bio)
{
	struct cfq_queue *cfqq = cfq_bio_cfqq(q, op_is_sync(bio->bi_opf));
	struct request *__rq;

	if (!cfqq)
		return ELEVATOR_NO_MERGE;
	__rq = elv_rb_find(&cfqq->sort_list, bio_end_sector(bio));
	if (__rq && elv_bio_merge_ok(__rq, bio)) {
		*rq = __rq;
		if (blk_discard_mergable(__rq))
			return ELEVATOR_DISCARD_MERGE;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static void cfq_request_merged(struct request_queue *q, struct request *req,
			       enum elv_merge type)
{
	struct cfq_data *cfqd = q->elevator->elevator_data;
	struct cfq_queue *cfqq = rq_cfqq(req);

	/* A front merge changes the sector the request is sorted by. */
	if (type == ELEVATOR_FRONT_MERGE && cfqq &&
	    (cfq_rq_flags(req) & CFQ_RQ_QUEUED)) {
		elv_rb_del(&cfqq->sort_list, req);
		elv_rb_add(&cfqq->sort_list, req);
		cfq_set_next_rq(cfqd, cfqq,
				cfq_choose_req(cfqd, cfqq->next_rq, req,
					       cfqd->last_pos));
		/* its sector moved, whichever request is next now */
		cfq_pos_tree_add(cfqd, cfqq);
	}
}

static void cfq_requests_merged(struct request_queue *q, struct request *req,
				struct request *next)
{
	struct cfq_data *cfqd = q->elevator->elevator_data;

	lockdep_assert_held(&cfqd->lock);

	/* @req inherits the earlier expiry of @next, within one queue. */
	if (rq_cfqq(req) == rq_cfqq(next) &&
	    (cfq_rq_flags(req) & CFQ_RQ_QUEUED) &&
	    (cfq_rq_flags(next) & CFQ_RQ_QUEUED) &&
	    next->fifo_time < req->fifo_time) {
		list_move(&req->queuelist, &next->queuelist);
		req->fifo_time = next->fifo_time;
	}
	if (rq_cfqq(next))
		cfq_remove_rq(cfqd, next);
}

/* Bios merge only into requests of their own queue. */
static bool cfq_allow_merge(struct request_queue *q, struct request *rq,
			    struct bio *bio)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (op_is_sync(bio->bi_opf) && !rq_is_sync(rq))
		return false;
	return !cfqq || cfq_bio_cfqq(q, op_is_sync(bio->bi_opf)) == cfqq;
}

static bool cfq_bio_merge(struct request_queue *q, struct bio *bio,
			  unsigned int nr_segs)
{
	struct cfq_data *cfqd = q->elevator->elevator_data;

	/* A bio merges only into a queued request (sort list, hash). */
	if (!READ_ONCE(cfqd->rq_queued))
		return false;
	return elv_locked_bio_merge(q, bio, nr_segs, &cfqd->lock);
}

/* ---- tag depth ---------------------------------------------------------- */

static void cfq_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct cfq_data *cfqd = data->q->elevator->elevator_data;

	/* Keep a quarter of the scheduler tags for sync requests. */
	if (!op_is_sync(opf))
		data->shallow_depth = cfqd->async_depth;
}

static void cfq_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct cfq_data *cfqd = hctx->queue->elevator->elevator_data;

	cfqd->async_depth = elv_sync_reserve_depth(hctx);
}

static int cfq_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	cfq_depth_updated(hctx);
	return 0;
}

/* ---- io_cq -------------------------------------------------------------- */

static void cfq_init_icq(struct io_cq *icq)
{
	struct cfq_io_cq *cic = icq_to_cic(icq);

	cic->cfqq[0] = NULL;
	cic->cfqq[1] = NULL;
	cic->boost_end = 0;
	cic->boost_sectors = 0;
	cic->boost_set = false;
}

/* Called under the queue lock; the io_cq's queue references go. */
VISIBLE_IF_KUNIT void cfq_exit_icq(struct io_cq *icq)
{
	struct cfq_io_cq *cic = icq_to_cic(icq);
	struct cfq_data *cfqd = icq->q->elevator->elevator_data;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&cfqd->lock, flags);
	for (i = 0; i < 2; i++) {
		struct cfq_queue *cfqq = cic->cfqq[i];

		cic->cfqq[i] = NULL;
		if (cfqq)
			cfq_cic_put(cfqd, cfqq, i);
	}
	cfq_unlock(cfqd, flags);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_exit_icq);

/* ---- init and exit ------------------------------------------------------ */

/*
 * Set up @cfqd for @q with the default tunables: everything a group's
 * callbacks may touch (the lock) before the cgroup policy is activated.
 * KUnit drives a cfq_data set up here on a fake queue.
 */
VISIBLE_IF_KUNIT void cfq_init_data(struct cfq_data *cfqd,
				    struct request_queue *q)
{
	int i;

	cfqd->q = q;
	spin_lock_init(&cfqd->lock);
	INIT_LIST_HEAD(&cfqd->dispatch);
	cfqd->grp_st.rb = RB_ROOT_CACHED;
	for (i = 0; i < IOPRIO_NR_LEVELS; i++)
		cfqd->pos_tree[i] = RB_ROOT;
	hrtimer_init(&cfqd->idle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	cfqd->idle_timer.function = cfq_idle_timer_fn;

	cfqd->fifo_expire[0] = CFQ_FIFO_EXPIRE_ASYNC_MS * NSEC_PER_MSEC;
	cfqd->fifo_expire[1] = CFQ_FIFO_EXPIRE_SYNC_MS * NSEC_PER_MSEC;
	cfqd->slice[0] = CFQ_SLICE_ASYNC_MS * NSEC_PER_MSEC;
	cfqd->slice[1] = CFQ_SLICE_SYNC_MS * NSEC_PER_MSEC;
	cfqd->slice_idle = CFQ_SLICE_IDLE_MS * NSEC_PER_MSEC;
	cfqd->group_idle = CFQ_GROUP_IDLE_MS * NSEC_PER_MSEC;
	cfqd->target_latency = CFQ_TARGET_LATENCY_MS * NSEC_PER_MSEC;
	cfqd->back_seek_max = CFQ_BACK_SEEK_MAX_KB;
	cfqd->back_seek_penalty = CFQ_BACK_SEEK_PENALTY;
	cfqd->slice_async_rq = CFQ_SLICE_ASYNC_RQ;
	cfqd->quantum = CFQ_QUANTUM;
	cfqd->low_latency = 1;
	cfqd->cooperators = 1;
	cfqd->new_boost = CFQ_NEW_BOOST_MS * NSEC_PER_MSEC;
	cfqd->hw_tag = blk_queue_depth(q) >= CFQ_HW_QUEUE_MIN;
	/* Nothing sync was delayed yet: async work may use the full depth. */
	cfqd->last_delayed_sync = 0;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_init_data);

/* Serve @root, which gets the fallback queue's group reference. */
VISIBLE_IF_KUNIT void cfq_init_root(struct cfq_data *cfqd,
				    struct cfq_group *root)
{
	cfqd->root_group = root;
	/* The fallback queue: BE, normal level, root group, never freed. */
	cfq_init_cfqq(cfqd, &cfqd->oom_cfqq, root, false, IOPRIO_CLASS_BE,
		      IOPRIO_BE_NORM);
	cfqd->oom_cfqq.ref = 1;
}
EXPORT_SYMBOL_IF_KUNIT(cfq_init_root);

static int cfq_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct cfq_data *cfqd;
	struct cfq_group *root;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;

	cfqd = kzalloc_node(sizeof(*cfqd), GFP_KERNEL, q->node);
	if (!cfqd)
		goto out_eq;
	eq->elevator_data = cfqd;
	/* Before the groups: a cgroup removed meanwhile takes cfqd->lock. */
	cfq_init_data(cfqd, q);

	/* The groups' init finds cfq_data through q->elevator, as bfq's. */
	q->elevator = eq;
#ifdef CONFIG_CFQ_GROUP_IOSCHED
	root = cfq_activate_groups(q);
#else
	root = kzalloc_node(sizeof(*root), GFP_KERNEL, q->node);
	if (root) {
		refcount_set(&root->ref, 1);
		cfq_init_group(root, cfqd, NULL, CFQ_WEIGHT_DEFAULT);
	}
#endif
	if (!root)
		goto out_cfqd;
	cfq_init_root(cfqd, root);

	/* Scheduling state is per queue: dispatch from one hardware queue. */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);

	/*
	 * Writeback throttling would decide on its own how much async work
	 * reaches the queue, under the slices that share the disk among
	 * processes and groups: turn its default off while cfq runs, as bfq
	 * does.  A latency target other than the default, set by hand in
	 * wbt_lat_usec, turns it back on.
	 */
	set_bit(ELEVATOR_FLAG_DISABLE_WBT, &eq->flags);
	wbt_disable_default(q->disk);
	return 0;

out_cfqd:
	kfree(cfqd);
out_eq:
	kobject_put(&eq->kobj);
	return -ENOMEM;
}

/*
 * Undo cfq_init_data(): the idle timer, the active queue, the root group's
 * async queues and the fallback queue's group reference.  Nothing may be
 * left queued, at the driver or busy.
 */
VISIBLE_IF_KUNIT void cfq_exit_data(struct cfq_data *cfqd)
{
	hrtimer_cancel(&cfqd->idle_timer);

	spin_lock_irq(&cfqd->lock);
	if (cfqd->active_queue)
		cfq_slice_expired(cfqd, cfqd->active_queue, CFQ_EXP_GONE);
	cfq_put_async_queues(cfqd->root_group);
	WARN_ON_ONCE(!list_empty(&cfqd->dispatch));
	WARN_ON_ONCE(cfqd->rq_queued || cfqd->rq_in_driver);
	WARN_ON_ONCE(cfqd->busy_queues);
	/* The oom queue's group reference. */
	cfq_put_group(cfqd->root_group);
	spin_unlock_irq(&cfqd->lock);
}
EXPORT_SYMBOL_IF_KUNIT(cfq_exit_data);

static void cfq_exit_sched(struct elevator_queue *e)
{
	struct cfq_data *cfqd = e->elevator_data;
	struct cfq_group *root __maybe_unused = cfqd->root_group;

	cfq_exit_data(cfqd);
#ifdef CONFIG_CFQ_GROUP_IOSCHED
	cfq_deactivate_groups(cfqd->q);
#else
	cfq_put_group(root);
#endif
	/*
	 * The io_cqs went before (ioc_clear_queue()), the groups' async
	 * queues with the groups: a queue left now is a lost reference.
	 */
	WARN_ON_ONCE(cfqd->nr_queues);

	/* Give the queue back its default writeback throttling. */
	clear_bit(ELEVATOR_FLAG_DISABLE_WBT, &e->flags);
	wbt_enable_default(cfqd->q->disk);
	kfree(cfqd);
}

/* ---- sysfs -------------------------------------------------------------- */

#define CFQ_AS_IS(v)		(v)

#define SHOW_FUNCTION(name, __VAR, __CONV)				\
static ssize_t cfq_##name##_show(struct elevator_queue *e, char *page)	\
{									\
	struct cfq_data *cfqd = e->elevator_data;			\
									\
	return sysfs_emit(page, "%llu\n", (u64)__CONV(READ_ONCE(__VAR))); \
}

SHOW_FUNCTION(fifo_expire_sync, cfqd->fifo_expire[1], CFQ_NS_TO_MS);
SHOW_FUNCTION(fifo_expire_async, cfqd->fifo_expire[0], CFQ_NS_TO_MS);
SHOW_FUNCTION(slice_sync, cfqd->slice[1], CFQ_NS_TO_MS);
SHOW_FUNCTION(slice_async, cfqd->slice[0], CFQ_NS_TO_MS);
SHOW_FUNCTION(slice_idle, cfqd->slice_idle, CFQ_NS_TO_MS);
SHOW_FUNCTION(group_idle, cfqd->group_idle, CFQ_NS_TO_MS);
SHOW_FUNCTION(target_latency, cfqd->target_latency, CFQ_NS_TO_MS);
SHOW_FUNCTION(back_seek_max, cfqd->back_seek_max, CFQ_AS_IS);
SHOW_FUNCTION(back_seek_penalty, cfqd->back_seek_penalty, CFQ_AS_IS);
SHOW_FUNCTION(slice_async_rq, cfqd->slice_async_rq, CFQ_AS_IS);
SHOW_FUNCTION(quantum, cfqd->quantum, CFQ_AS_IS);
SHOW_FUNCTION(low_latency, cfqd->low_latency, CFQ_AS_IS);
SHOW_FUNCTION(cooperators, cfqd->cooperators, CFQ_AS_IS);
SHOW_FUNCTION(new_boost, cfqd->new_boost, CFQ_NS_TO_MS);
#undef SHOW_FUNCTION

#define STORE_FUNCTION(name, __VAR, MIN, MAX, __CONV)			\
static ssize_t cfq_##name##_store(struct elevator_queue *e,		\
				  const char *page, size_t count)	\
{									\
	struct cfq_data *cfqd = e->elevator_data;			\
	unsigned int v;							\
	int ret = elv_parse_tunable(page, MIN, MAX, &v);		\
									\
	if (ret)							\
		return ret;						\
	WRITE_ONCE(__VAR, __CONV(v));					\
	return count;							\
}

STORE_FUNCTION(fifo_expire_sync, cfqd->fifo_expire[1], 1, CFQ_MAX_MS,
	       CFQ_MS_TO_NS);
STORE_FUNCTION(fifo_expire_async, cfqd->fifo_expire[0], 1, CFQ_MAX_MS,
	       CFQ_MS_TO_NS);
STORE_FUNCTION(slice_sync, cfqd->slice[1], 1, CFQ_MAX_MS, CFQ_MS_TO_NS);
STORE_FUNCTION(slice_async, cfqd->slice[0], 1, CFQ_MAX_MS, CFQ_MS_TO_NS);
STORE_FUNCTION(slice_idle, cfqd->slice_idle, 0, CFQ_MAX_MS, CFQ_MS_TO_NS);
STORE_FUNCTION(group_idle, cfqd->group_idle, 0, CFQ_MAX_MS, CFQ_MS_TO_NS);
STORE_FUNCTION(target_latency, cfqd->target_latency, 1, CFQ_MAX_MS,
	       CFQ_MS_TO_NS);
STORE_FUNCTION(back_seek_max, cfqd->back_seek_max, 0, UINT_MAX / 2,
	       CFQ_AS_IS);
STORE_FUNCTION(back_seek_penalty, cfqd->back_seek_penalty, 1, 1000,
	       CFQ_AS_IS);
STORE_FUNCTION(slice_async_rq, cfqd->slice_async_rq, 1, 1024, CFQ_AS_IS);
STORE_FUNCTION(quantum, cfqd->quantum, 1, 4096, CFQ_AS_IS);
STORE_FUNCTION(low_latency, cfqd->low_latency, 0, 1, CFQ_AS_IS);
STORE_FUNCTION(cooperators, cfqd->cooperators, 0, 1, CFQ_AS_IS);
STORE_FUNCTION(new_boost, cfqd->new_boost, 0, CFQ_MAX_MS, CFQ_MS_TO_NS);
#undef STORE_FUNCTION

#define CFQ_RW_ATTR(name) __ATTR(name, 0644, cfq_##name##_show, cfq_##name##_store)

static struct elv_fs_entry cfq_attrs[] = {
	CFQ_RW_ATTR(fifo_expire_sync),
	CFQ_RW_ATTR(fifo_expire_async),
	CFQ_RW_ATTR(slice_sync),
	CFQ_RW_ATTR(slice_async),
	CFQ_RW_ATTR(slice_idle),
	CFQ_RW_ATTR(group_idle),
	CFQ_RW_ATTR(target_latency),
	CFQ_RW_ATTR(back_seek_max),
	CFQ_RW_ATTR(back_seek_penalty),
	CFQ_RW_ATTR(slice_async_rq),
	CFQ_RW_ATTR(quantum),
	CFQ_RW_ATTR(low_latency),
	CFQ_RW_ATTR(cooperators),
	CFQ_RW_ATTR(new_boost),
	__ATTR_NULL
};

/* ---- debugfs ------------------------------------------------------------ */

#ifdef CONFIG_BLK_DEBUG_FS
static void cfq_show_queue(struct seq_file *m, struct cfq_queue *cfqq)
{
	seq_printf(m, "  cfq%d %s class %u prio %u type %d queued %u dispatched %u ttime_us %llu seeky %d idle_window %d group_window %d coop %d processes %d merge_into %d boosted %d inject_limit %u\n",
		   cfqq->pid, cfqq_sync(cfqq) ? "sync" : "async",
		   cfqq->ioprio_class, cfqq->ioprio, cfqq->wl_type,
		   cfqq->queued, cfqq->dispatched,
		   div_u64(cfqq->ttime.mean_ns, NSEC_PER_USEC),
		   cfq_seeky(cfqq->seek_history, cfqq->seek_samples),
		   cfqq_idle_window(cfqq), cfqq_group_window(cfqq),
		   cfqq_coop(cfqq), cfqq_process_refs(cfqq),
		   cfqq->new_cfqq ? cfqq->new_cfqq->pid : 0,
		   cfqq_boosted(cfqq->cfqd, cfqq, ktime_get_ns()),
		   cfqq->inject_limit);
}

/* What is served, the busy groups and their queues. */
static int cfq_state_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct cfq_data *cfqd = q->elevator->elevator_data;
	struct rb_node *gn;

	spin_lock_irq(&cfqd->lock);
	seq_printf(m, "hw_tag %d\nbusy_queues %u\nqueued %u\ninflight %u %u\nqueues %u\n",
		   cfqd->hw_tag, cfqd->busy_queues, cfqd->rq_queued,
		   cfqd->rq_in_flight[1], cfqd->rq_in_flight[0],
		   cfqd->nr_queues);
	seq_printf(m, "serving class %d type %d\n", cfqd->serving_wl_class,
		   cfqd->serving_wl_type);
	if (cfqd->active_queue) {
		seq_puts(m, "active\n");
		cfq_show_queue(m, cfqd->active_queue);
	}
	for (gn = rb_first_cached(&cfqd->grp_st.rb); gn; gn = rb_next(gn)) {
		struct cfq_group *g = rb_entry(gn, struct cfq_group, rb_node);
		unsigned int hw = cfq_group_hweight(g);
		int c, t;

		seq_printf(m, "group %p weight %u hweight %u.%02u vdisktime %llu busy %u served_ms %llu served_sectors %llu\n",
			   g, g->weight, hw >> CFQ_HW_SHIFT,
			   ((hw & ((1U << CFQ_HW_SHIFT) - 1)) * 100) >>
			   CFQ_HW_SHIFT, g->vdisktime, g->nr_cfqq,
			   div_u64(g->served_ns, NSEC_PER_MSEC), g->served_sectors);
		for (c = 0; c < CFQ_NR_WL_CLASSES; c++)
			for (t = 0; t < CFQ_NR_WL_TYPES; t++) {
				struct rb_node *n;

				for (n = rb_first_cached(&g->st[c][t].rb); n;
				     n = rb_next(n))
					cfq_show_queue(m, rb_entry(n, struct cfq_queue,
								   rb_node));
			}
	}
	spin_unlock_irq(&cfqd->lock);
	return 0;
}

/* Counters since the scheduler was selected, one "name value" a line. */
static int cfq_stats_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct cfq_data *cfqd = q->elevator->elevator_data;
	int i;

	spin_lock_irq(&cfqd->lock);
	seq_printf(m, "slices %lu\nidle_starts %lu\ngroup_idle_starts %lu\nidle_hits %lu\n",
		   cfqd->stat_slices, cfqd->stat_idle_starts,
		   cfqd->stat_group_idle_starts, cfqd->stat_idle_hits);
	for (i = 0; i < CFQ_NR_EXPIRE; i++)
		seq_printf(m, "expired_%s %lu\n", cfq_expire_name[i],
			   cfqd->stat_expire[i]);
	seq_printf(m, "dispatched_rt %lu\ndispatched_be %lu\ndispatched_idle %lu\n",
		   cfqd->stat_dispatched[CFQ_RT_WL],
		   cfqd->stat_dispatched[CFQ_BE_WL],
		   cfqd->stat_dispatched[CFQ_IDLE_WL]);
	seq_printf(m, "fifo_expired %lu\noom %lu\nheld %lu\nkicks %lu\n",
		   cfqd->stat_fifo_expired, cfqd->stat_oom, cfqd->stat_held,
		   cfqd->stat_kicks);
	seq_printf(m, "no_icq %lu\nrequeues %lu\nwait_busy %lu\n",
		   cfqd->stat_no_icq, cfqd->stat_requeues, cfqd->stat_wait_busy);
	seq_printf(m, "coop_merges %lu\ncoop_splits %lu\n",
		   cfqd->stat_coop_merges, cfqd->stat_coop_splits);
	seq_printf(m, "boosts %lu\nboost_preempts %lu\nboost_extended %lu\nboost_capped %lu\nburst_unboosted %lu\n",
		   cfqd->stat_boosts, cfqd->stat_boost_preempts,
		   cfqd->stat_boost_extended,
		   cfqd->stat_boost_capped, cfqd->stat_burst_unboosted);
	seq_printf(m, "injected %lu\ninject_cuts %lu\n", cfqd->stat_injected,
		   cfqd->stat_inject_cuts);
	spin_unlock_irq(&cfqd->lock);
	return 0;
}

static void *cfq_dispatch_start(struct seq_file *m, loff_t *pos)
	__acquires(&cfqd->lock)
{
	struct request_queue *q = m->private;
	struct cfq_data *cfqd = q->elevator->elevator_data;

	spin_lock_irq(&cfqd->lock);
	return seq_list_start(&cfqd->dispatch, *pos);
}

static void *cfq_dispatch_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct request_queue *q = m->private;
	struct cfq_data *cfqd = q->elevator->elevator_data;

	return seq_list_next(v, &cfqd->dispatch, pos);
}

static void cfq_dispatch_stop(struct seq_file *m, void *v)
	__releases(&cfqd->lock)
{
	struct request_queue *q = m->private;
	struct cfq_data *cfqd = q->elevator->elevator_data;

	spin_unlock_irq(&cfqd->lock);
}

static const struct seq_operations cfq_dispatch_seq_ops = {
	.start	= cfq_dispatch_start,
	.next	= cfq_dispatch_next,
	.stop	= cfq_dispatch_stop,
	.show	= blk_mq_debugfs_rq_show,
};

static const struct blk_mq_debugfs_attr cfq_queue_debugfs_attrs[] = {
	{"dispatch", 0400, .seq_ops = &cfq_dispatch_seq_ops},
	{"state", 0400, cfq_state_show},
	{"stats", 0400, cfq_stats_show},
	{},
};
#endif

static struct elevator_type cfq_sched = {
	.ops = {
		.init_sched		= cfq_init_sched,
		.exit_sched		= cfq_exit_sched,
		.init_hctx		= cfq_init_hctx,
		.depth_updated		= cfq_depth_updated,
		.limit_depth		= cfq_limit_depth,
		.insert_requests	= cfq_insert_requests,
		.dispatch_request	= cfq_dispatch_request,
		.has_work		= cfq_has_work,
		.prepare_request	= cfq_prepare_request,
		.finish_request		= cfq_finish_request,
		.completed_request	= cfq_completed_request,
		.requeue_request	= cfq_requeue_request,
		.allow_merge		= cfq_allow_merge,
		.bio_merge		= cfq_bio_merge,
		.request_merge		= cfq_request_merge,
		.request_merged		= cfq_request_merged,
		.requests_merged	= cfq_requests_merged,
		.next_request		= elv_rb_latter_request,
		.former_request		= elv_rb_former_request,
		.init_icq		= cfq_init_icq,
		.exit_icq		= cfq_exit_icq,
	},
	.icq_size	= sizeof(struct cfq_io_cq),
	.icq_align	= __alignof__(struct cfq_io_cq),
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = cfq_queue_debugfs_attrs,
#endif
	.elevator_attrs = cfq_attrs,
	.elevator_name	= "cfq",
	.elevator_owner	= THIS_MODULE,
};
MODULE_ALIAS("cfq-iosched");

static int __init cfq_init(void)
{
	int ret;

	cfq_pool = KMEM_CACHE(cfq_queue, 0);
	if (!cfq_pool)
		return -ENOMEM;
	ret = cfq_cgroup_init();
	if (ret)
		goto out_pool;
	ret = elv_register(&cfq_sched);
	if (ret)
		goto out_cgroup;
	return 0;

out_cgroup:
	cfq_cgroup_exit();
out_pool:
	kmem_cache_destroy(cfq_pool);
	return ret;
}

static void __exit cfq_exit(void)
{
	elv_unregister(&cfq_sched);
	cfq_cgroup_exit();
	kmem_cache_destroy(cfq_pool);
}

module_init(cfq_init);
module_exit(cfq_exit);

MODULE_AUTHOR("blk26 developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Completely Fair Queueing I/O scheduler");
