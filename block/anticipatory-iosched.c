// SPDX-License-Identifier: GPL-2.0
/*
 * Anticipatory I/O scheduler for blk-mq.
 *
 * The idea ("deceptive idleness", Iyer and Druschel, SOSP 2001): a process
 * that reads a file synchronously has one read outstanding.  When it
 * completes, the process needs a little time to issue the next, usually
 * right after the last on disk.  A work-conserving scheduler sees no read
 * of that process in the meantime, sends the disk to another process's
 * request far away, and pays two seeks for every read.  Waiting a few
 * milliseconds for the next read often costs less than those seeks.
 *
 * The core is a deadline scheduler: a FIFO with expiry times and a sector
 * sorted tree for each class (sync: reads and synchronous writes; async:
 * writeback), dispatch in batches of one class, each request the nearest
 * to the head ahead or, at twice the cost, behind (as_seek_cost()).  On top
 * of it:
 *
 * - Anticipation.  In a sync batch, when the next request is not of the
 *   process whose read went out last, dispatch may be held: while that
 *   read is in flight (WAIT_REQ), then for up to antic_expire (WAIT_NEXT,
 *   an hrtimer).  as_antic_decide() says whether to go on waiting, from
 *   the process's mean think time and seek distance (kept in its io_cq;
 *   a new process is judged by the means of recent new processes, and
 *   not waited for while new processes tend to exit), the request at
 *   hand, FIFO expiry and the batch's time.  Holding means
 *   has_work() says no; the timer, a completion or an insertion reruns
 *   the queue.
 * - Batch drains and a write cap.  A new batch starts once the requests of
 *   the other class have left the device, and while a reader is about, at
 *   most write_batch_count writes are at the device, so that a read does
 *   not queue behind a device queue full of writes.  write_batch_count
 *   adapts so that a write batch lasts about write_batch_expire.
 * - Hardware awareness.  On a device that keeps many requests busy and
 *   completes them out of order (an array, an SSD) waiting cannot pay:
 *   as_hw_complete() detects it and the scheduler acts as deadline there.
 * - New processes.  Starting an application is a burst of small reads
 *   scattered over its files, with think time between them.  Beside
 *   processes that stream, each of those reads would wait for their
 *   anticipation and, in sector order, for its FIFO to expire.  So, as
 *   bfq raises the weight of a new queue, a process may be boosted (off
 *   by default) for new_boost after its first request (as_init_icq()), or
 *   until it has moved as much as a stream would (as_boost_charge()): its
 *   sync request ends a wait for a process that is not boosted
 *   (AS_STOP_BOOST), and goes next instead of the elevator's choice
 *   (as_boost_pick()).  FIFO expiry still goes first, and batches keep
 *   their limits.  A boosted process is waited for whatever its think
 *   time and seeks, for at least AS_BOOST_ANTIC_NS (as_antic_window()),
 *   and another process's request ends that wait only once expired.
 *
 * See Documentation/block/anticipatory-iosched.rst
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/bio.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
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
#include "anticipatory-iosched.h"
#include "elv-common.h"

/* Defaults of the tunables, in milliseconds (those of the 2.6 scheduler). */
#define AS_READ_EXPIRE_MS		125
#define AS_WRITE_EXPIRE_MS		250
#define AS_READ_BATCH_EXPIRE_MS		500
#define AS_WRITE_BATCH_EXPIRE_MS	125
#define AS_ANTIC_EXPIRE_MS		6
#define AS_NEW_BOOST_MS			0
/* Upper bounds accepted by the sysfs attributes. */
#define AS_MAX_EXPIRE_MS		60000
#define AS_MAX_ANTIC_EXPIRE_MS		1000
#define AS_MAX_DEEP_QUEUE_DEPTH		4096	/* requests */

/* Default write batch length (requests) and its bounds. */
#define AS_WRITE_BATCH_DEFAULT		16
#define AS_WRITE_BATCH_MAX		1024

/*
 * A device that keeps more than this many requests in flight, and
 * completes them out of order, is treated as a deep tagged queue (striped
 * array, SSD): anticipation cannot pay there.  See as_hw_complete().
 */
#define AS_DEEP_QUEUE_DEPTH		32

static const char *const as_verdict_name[AS_NR_VERDICTS] = {
	[AS_STOP_HIT]		= "hit",
	[AS_STOP_TIMEOUT]	= "timeout",
	[AS_STOP_THINKTIME]	= "thinktime",
	[AS_STOP_EXITED]	= "exit",
	[AS_STOP_CLOSE_OTHER]	= "close",
	[AS_STOP_FIFO_EXPIRED]	= "fifo",
	[AS_STOP_FAR]		= "far",
	[AS_STOP_BATCH]		= "batch",
	[AS_STOP_SEEKY]		= "seeky",
	[AS_STOP_DISABLED]	= "disabled",
	[AS_STOP_REQUEUED]	= "requeued",
	[AS_STOP_EXIT_PROB]	= "exit_prob",
	[AS_STOP_ASYNC]		= "async",
	[AS_STOP_BOOST]		= "boost",
};

/* ---- statistics and decision (pure, unit tested) ---------------------- */

static u64 as_ewma(u64 mean, u32 samples, u64 sample)
{
	if (!samples)
		return sample;
	return div_u64(mean * (AS_EWMA_WEIGHT - 1) + sample, AS_EWMA_WEIGHT);
}

static u64 as_distance(sector_t a, sector_t b)
{
	return a >= b ? a - b : b - a;
}

/* A think-time sample, clipped to @cap_ns: a long pause decays quickly. */
VISIBLE_IF_KUNIT void as_stats_add_ttime(struct as_proc_stats *st, u64 ttime_ns,
					 u64 cap_ns)
{
	st->ttime_mean = as_ewma(st->ttime_mean, st->ttime_samples,
				 min(ttime_ns, cap_ns));
	if (st->ttime_samples < AS_SAMPLES_MAX)
		st->ttime_samples++;
}
EXPORT_SYMBOL_IF_KUNIT(as_stats_add_ttime);

static void as_stats_add_dist(struct as_proc_stats *st, u64 dist)
{
	st->seek_mean = as_ewma(st->seek_mean, st->seek_samples,
				min_t(u64, dist, AS_SEEK_CAP));
	if (st->seek_samples < AS_SAMPLES_MAX)
		st->seek_samples++;
}

/*
 * A request at @pos: its distance from the end of the process's previous
 * one, counted also in the means of new processes (@fresh, may be NULL)
 * while @st has fewer than AS_MIN_SAMPLES of its own.
 */
VISIBLE_IF_KUNIT void as_stats_add_seek(struct as_proc_stats *st, sector_t pos,
					unsigned int nr_sectors,
					struct as_proc_stats *fresh)
{
	if (st->have_pos) {
		u64 dist = as_distance(pos, st->last_end);

		if (fresh && st->seek_samples < AS_MIN_SAMPLES)
			as_stats_add_dist(fresh, dist);
		as_stats_add_dist(st, dist);
	}
	st->last_end = pos + nr_sectors;
	st->have_pos = true;
}
EXPORT_SYMBOL_IF_KUNIT(as_stats_add_seek);

/*
 * The statistics a process is judged by.  As in 2.6, one without enough
 * samples of its own is expected to behave as recent new processes did:
 * a short-lived process that thinks long or seeks far is not waited for.
 */
VISIBLE_IF_KUNIT void as_stats_view(struct as_proc_stats *view,
				    const struct as_proc_stats *own,
				    const struct as_proc_stats *fresh)
{
	*view = *own;
	if (own->ttime_samples < AS_MIN_SAMPLES &&
	    fresh->ttime_samples >= AS_MIN_SAMPLES) {
		view->ttime_mean = fresh->ttime_mean;
		view->ttime_samples = AS_MIN_SAMPLES;
	}
	if (own->seek_samples < AS_MIN_SAMPLES &&
	    fresh->seek_samples >= AS_MIN_SAMPLES) {
		view->seek_mean = fresh->seek_mean;
		view->seek_samples = AS_MIN_SAMPLES;
	}
}
EXPORT_SYMBOL_IF_KUNIT(as_stats_view);

/*
 * Is a request at @pos close to @last, the end of the awaited read?  The
 * rule of 2.6: AS_CLOSE_BASE sectors ahead, half as far behind, doubling
 * every millisecond of the wait; past AS_CLOSE_MAX_MS or antic_expire,
 * every request is close.
 */
VISIBLE_IF_KUNIT bool as_close(sector_t last, sector_t pos, u64 elapsed_ns,
			       u64 antic_expire_ns)
{
	u64 ms = div_u64(elapsed_ns, NSEC_PER_MSEC);
	u64 ahead;

	if (elapsed_ns >= antic_expire_ns || ms > AS_CLOSE_MAX_MS)
		return true;
	ahead = AS_CLOSE_BASE << ms;
	if (pos >= last)
		return pos - last <= ahead;
	return last - pos <= ahead / 2;
}
EXPORT_SYMBOL_IF_KUNIT(as_close);

/*
 * The cost of moving the head from @head to @pos, as in 2.6: the distance
 * ahead, or AS_BACK_PENALTY times the distance behind; U64_MAX beyond
 * AS_MAXBACK behind.
 */
VISIBLE_IF_KUNIT u64 as_seek_cost(sector_t head, sector_t pos)
{
	if (pos >= head)
		return pos - head;
	if (head - pos > AS_MAXBACK)
		return U64_MAX;
	return (u64)(head - pos) * AS_BACK_PENALTY;
}
EXPORT_SYMBOL_IF_KUNIT(as_seek_cost);

/* AS_KEEP_WAITING to go on holding dispatch, or why the wait must end. */
VISIBLE_IF_KUNIT enum as_verdict as_antic_decide(const struct as_antic_input *c)
{
	const struct as_proc_stats *st = c->st;
	u64 dist = as_distance(c->rq_pos, c->last_pos);
	bool close = as_close(c->last_pos, c->rq_pos, c->elapsed_ns,
			      c->antic_expire_ns);

	if (!c->antic_expire_ns || c->disabled)
		return AS_STOP_DISABLED;
	if (c->exited)
		return AS_STOP_EXITED;
	if (c->fifo_expired)
		return AS_STOP_FIFO_EXPIRED;
	if (c->waiting_next && c->elapsed_ns >= c->antic_expire_ns)
		return AS_STOP_TIMEOUT;
	if (c->have_rq && c->rq_same_process) {
		/* It is busy writing, not about to read (2.6 broke too). */
		if (c->rq_async)
			return AS_STOP_ASYNC;
		if (close ||
		    (st->seek_samples >= AS_MIN_SAMPLES && dist <= st->seek_mean))
			return AS_STOP_HIT;
		return AS_STOP_FAR;
	}
	/* A boosted process's request does not wait for one that is not. */
	if (c->have_rq && c->rq_boosted && !c->boosted)
		return AS_STOP_BOOST;
	/*
	 * A boosted process is waited for (as_antic_window()) whatever its
	 * think time and seeks, and another's request, however close, does
	 * not end the wait; an expired FIFO (above) and the batch's end do.
	 * A starting program computes between its reads, and a stream's
	 * requests sent beside its read in flight would be served first by
	 * a disk that orders its queue by position, and its next read would
	 * find them ahead of it too.
	 */
	if (c->boosted)
		return c->batch_expired ? AS_STOP_BATCH : AS_KEEP_WAITING;
	if (st->ttime_samples >= AS_MIN_SAMPLES &&
	    st->ttime_mean > c->antic_expire_ns)
		return AS_STOP_THINKTIME;
	if (c->exit_likely)
		return AS_STOP_EXIT_PROB;
	if (c->have_rq) {
		/* Close in absolute terms, or better than what it would give. */
		if (close ||
		    (st->seek_samples >= AS_MIN_SAMPLES && dist < st->seek_mean))
			return AS_STOP_CLOSE_OTHER;
		/* Its next read is not expected to be close either. */
		if (st->seek_samples >= AS_MIN_SAMPLES && st->seek_mean > AS_SEEKY)
			return AS_STOP_SEEKY;
	}
	if (c->batch_expired)
		return AS_STOP_BATCH;
	return AS_KEEP_WAITING;
}
EXPORT_SYMBOL_IF_KUNIT(as_antic_decide);

/*
 * The next write batch length, from the last batch's time @elapsed against
 * @target (write_batch_expire), whether it dispatched all @count writes
 * (@exhausted), and whether it idled: ran out of writes with the device
 * idle, so that its time says nothing of the device (it may grow only).
 */
VISIBLE_IF_KUNIT unsigned int as_tune_write_batch(unsigned int count,
						  unsigned long elapsed,
						  unsigned long target,
						  bool exhausted, bool idled)
{
	if (elapsed > target && !idled) {
		/* Too long: shrink in proportion, at most by half. */
		unsigned long scaled = target ? (unsigned long)count * target / elapsed : 0;

		count = max_t(unsigned long, scaled, count / 2);
	} else if (exhausted && elapsed < target) {
		/* Ran out of count early: grow, at most double. */
		unsigned long scaled = elapsed ?
			(unsigned long)count * target / elapsed : 2UL * count;

		count = min_t(unsigned long, scaled, 2UL * count);
	}
	return clamp_t(unsigned int, count, 1, AS_WRITE_BATCH_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(as_tune_write_batch);

/*
 * When the oldest read, due at @fifo_time, counts as expired (jiffies).
 * Reads of other processes expire together, and serving each at once
 * costs a seek per request; so, as in 2.6, one expired read per @expire
 * after the last one forced (@last_forced) moves the disk.
 */
VISIBLE_IF_KUNIT unsigned long as_fifo_due(unsigned long fifo_time,
					   unsigned long last_forced,
					   unsigned long expire,
					   unsigned long now)
{
	unsigned long gate = last_forced + expire;

	if (!time_before(now, gate) || !time_after(gate, fifo_time))
		return fifo_time;
	return gate;
}
EXPORT_SYMBOL_IF_KUNIT(as_fifo_due);

/*
 * Learn from a completion whether the device keeps a deep queue: @busy
 * requests were at it (at most @tags: a dispatched request may wait for
 * one), and a later-dispatched one completed first if @overtaken.  A disk
 * serves one request at a time, about in order; an array or an SSD keeps
 * many busy and completes them out of order.  A window of completions
 * looks deep with more than @depth busy and a quarter overtaken, shallow
 * with at most @depth / 2 busy or under an eighth overtaken; the verdict
 * flips after AS_HW_CONFIRM windows in a row disagree.  @depth 0: off.
 */
VISIBLE_IF_KUNIT bool as_hw_complete(struct as_hw_est *hw, unsigned int busy,
				     unsigned int tags, bool overtaken,
				     unsigned int depth)
{
	bool looks_deep, looks_shallow;

	if (!depth) {
		memset(hw, 0, sizeof(*hw));
		return false;
	}
	hw->window_busy = max(hw->window_busy, min(busy, tags));
	hw->window_overtaken += overtaken;
	if (++hw->window_done < AS_HW_WINDOW)
		return hw->deep;

	hw->max_busy = hw->window_busy;
	looks_deep = hw->window_busy > depth &&
		     4 * hw->window_overtaken >= AS_HW_WINDOW;
	looks_shallow = hw->window_busy <= depth / 2 ||
			8 * hw->window_overtaken < AS_HW_WINDOW;
	if (hw->deep ? looks_shallow : looks_deep)
		hw->streak++;
	else
		hw->streak = 0;
	if (hw->streak >= AS_HW_CONFIRM) {
		hw->deep = !hw->deep;
		hw->streak = 0;
	}
	hw->window_done = 0;
	hw->window_busy = 0;
	hw->window_overtaken = 0;
	return hw->deep;
}
EXPORT_SYMBOL_IF_KUNIT(as_hw_complete);

/* ---- request queues ----------------------------------------------------- */

/* The tunables in jiffies (sysfs keeps milliseconds, as written). */
static unsigned long as_fifo_expire(struct as_data *ad, enum as_dir dir)
{
	return msecs_to_jiffies(READ_ONCE(ad->fifo_expire_ms[dir]));
}

static unsigned long as_batch_expire(struct as_data *ad, enum as_dir dir)
{
	return msecs_to_jiffies(READ_ONCE(ad->batch_expire_ms[dir]));
}

static inline struct as_io_cq *icq_to_aic(struct io_cq *icq)
{
	return container_of(icq, struct as_io_cq, icq);
}

static inline unsigned long as_rq_flags(struct request *rq)
{
	return (unsigned long)rq->elv.priv[0];
}

static inline void as_rq_set_flags(struct request *rq, unsigned long flags)
{
	rq->elv.priv[0] = (void *)flags;
}

/*
 * Is an I/O of @opf in the sync class?  Reads are, and so are the writes a
 * process waits for one at a time: direct I/O (REQ_SYNC | REQ_IDLE) and
 * writes with FUA or a preflush.  A REQ_SYNC write without REQ_IDLE is
 * data-integrity writeback (fsync, sync, a block device's BLKFLSBUF): its
 * process queues a whole flush at once and waits for all of it.  In the
 * sync FIFO a read would queue behind every request of that flush, so it
 * is writeback here.  Writeback throttling draws the same line: it
 * throttles such writes and lets direct writes pass.  A zone append is a
 * write here; other operations keep op_is_sync()'s answer.
 */
VISIBLE_IF_KUNIT bool as_opf_sync(blk_opf_t opf)
{
	enum req_op op = opf & REQ_OP_MASK;

	if (!op_is_sync(opf))
		return false;
	if (op != REQ_OP_WRITE && op != REQ_OP_ZONE_APPEND)
		return true;
	return (opf & (REQ_SYNC | REQ_IDLE | REQ_FUA | REQ_PREFLUSH)) != REQ_SYNC;
}
EXPORT_SYMBOL_IF_KUNIT(as_opf_sync);

/*
 * Is @rq in the sync class?  Decided on its first insertion (AS_RQ_SEEN),
 * from its flags then and whether it was set up with FUA or a preflush,
 * which blk_insert_flush() may have cleared by then.
 */
static bool as_rq_sync(struct request *rq)
{
	unsigned long flags = as_rq_flags(rq);

	if (flags & AS_RQ_SEEN)
		return flags & AS_RQ_SYNC;
	return (flags & AS_RQ_FLUSH) || as_opf_sync(rq->cmd_flags);
}

static inline enum as_dir as_rq_dir(struct request *rq)
{
	return as_rq_sync(rq) ? AS_SYNC : AS_ASYNC;
}

static inline struct as_io_cq *rq_aic(struct request *rq)
{
	return rq->elv.icq ? icq_to_aic(rq->elv.icq) : NULL;
}

/* Did the process of @aic issue @rq? */
static bool as_rq_of(struct request *rq, struct as_io_cq *aic)
{
	return rq_aic(rq) == aic;
}

/*
 * Is the process of @aic boosted at @now_ns: did its first request here
 * come less than new_boost ago (as_init_icq())?  new_boost 0 ends every
 * boost at once.
 */
static bool as_boosted(struct as_data *ad, struct as_io_cq *aic, u64 now_ns)
{
	return aic && !aic->exited && now_ns < aic->boost_end &&
	       READ_ONCE(ad->new_boost_ns);
}

/* First request at or after @pos in direction @dir. */
static struct request *as_from_pos(struct as_data *ad, enum as_dir dir,
				   sector_t pos)
{
	struct rb_node *node = ad->sort_list[dir].rb_node;
	struct request *rq, *res = NULL;

	while (node) {
		rq = rb_entry_rq(node);
		if (blk_rq_pos(rq) >= pos) {
			res = rq;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return res;
}

/* The last request before @next in direction @dir (NULL @next: the end). */
static struct request *as_prev_rq(struct as_data *ad, enum as_dir dir,
				  struct request *next)
{
	struct rb_node *node = next ? rb_prev(&next->rb_node) :
				      rb_last(&ad->sort_list[dir]);

	return node ? rb_entry_rq(node) : NULL;
}

static struct request *as_fifo_head(struct as_data *ad, enum as_dir dir)
{
	return list_first_entry_or_null(&ad->fifo_list[dir], struct request,
					queuelist);
}

/* The device keeps a deep queue (and the detection is on). */
static bool as_deep(struct as_data *ad)
{
	return READ_ONCE(ad->deep_queue) && READ_ONCE(ad->deep_queue_depth);
}

/* Anticipation, batch drains and the write cap are on (not deadline mode). */
static bool as_antic_enabled(struct as_data *ad)
{
	return READ_ONCE(ad->antic_expire_ns) && !as_deep(ad);
}

/* When @rq, the oldest request of @dir, counts as expired (jiffies). */
static unsigned long as_fifo_deadline(struct as_data *ad, enum as_dir dir,
				      struct request *rq)
{
	unsigned long t = (unsigned long)rq->fifo_time;

	if (dir == AS_SYNC && as_antic_enabled(ad))
		t = as_fifo_due(t, ad->read_forced, as_fifo_expire(ad, AS_SYNC),
				jiffies);
	return t;
}

/* Has @rq, the oldest request of @dir, expired? */
static bool as_rq_expired(struct as_data *ad, enum as_dir dir,
			  struct request *rq)
{
	/* as_fifo_deadline() is never sooner */
	return time_is_before_eq_jiffies((unsigned long)rq->fifo_time) &&
	       time_is_before_eq_jiffies(as_fifo_deadline(ad, dir, rq));
}

static bool as_fifo_expired(struct as_data *ad, enum as_dir dir)
{
	struct request *rq = as_fifo_head(ad, dir);

	return rq && as_rq_expired(ad, dir, rq);
}

static void as_del_rq(struct as_data *ad, struct request *rq)
{
	struct request_queue *q = ad->q;
	enum as_dir dir = as_rq_dir(rq);
	unsigned long flags = as_rq_flags(rq);

	list_del_init(&rq->queuelist);
	if (!RB_EMPTY_NODE(&rq->rb_node)) {
		elv_rb_del(&ad->sort_list[dir], rq);
		ad->nr_queued[dir]--;
	}
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	if (ad->boost_rq == rq)
		ad->boost_rq = NULL;
	if (flags & AS_RQ_QUEUED) {
		struct as_io_cq *aic = rq_aic(rq);

		if (aic && !WARN_ON_ONCE(!aic->nr_queued))
			aic->nr_queued--;
		if ((flags & AS_RQ_BOOST) && !WARN_ON_ONCE(!ad->nr_boost_queued))
			ad->nr_boost_queued--;
		as_rq_set_flags(rq, flags & ~(AS_RQ_QUEUED | AS_RQ_BOOST));
	}
}

/* ---- anticipation ------------------------------------------------------- */

static void as_kick(struct as_data *ad)
{
	blk_mq_run_hw_queues(ad->q, true);
}

/* Absolute time (ns) at which jiffies time @when has passed. */
static u64 as_jiffies_deadline_ns(unsigned long when, u64 now_ns)
{
	long delta = (long)(when - jiffies) + 1;

	return now_ns + jiffies_to_nsecs(max(delta, 1L));
}

/*
 * When a wait must end whatever the awaited process does (ns): the oldest
 * read's deadline, or the end of the read batch if writes wait (a write's
 * deadline does not end a read batch: read_batch_expire bounds it).
 */
static u64 as_wait_deadline_ns(struct as_data *ad, u64 now_ns)
{
	struct request *rq = as_fifo_head(ad, AS_SYNC);
	u64 best = U64_MAX;

	if (rq)
		best = as_jiffies_deadline_ns(as_fifo_deadline(ad, AS_SYNC, rq),
					      now_ns);
	if (ad->nr_queued[AS_ASYNC])
		best = min(best, as_jiffies_deadline_ns(ad->batch_start +
							as_batch_expire(ad, AS_SYNC),
							now_ns));
	return best;
}

/*
 * How long to wait for @aic's next read: antic_expire, or for a boosted
 * process at least AS_BOOST_ANTIC_NS (bfq idles as long for a queue whose
 * weight it raised).  0 (antic_expire 0) still means no waiting.
 */
static u64 as_antic_window(struct as_data *ad, struct as_io_cq *aic,
			   u64 now_ns)
{
	u64 antic = READ_ONCE(ad->antic_expire_ns);

	if (antic && as_boosted(ad, aic, now_ns))
		return max_t(u64, antic, AS_BOOST_ANTIC_NS);
	return antic;
}

static void as_arm_timer(struct as_data *ad, u64 now_ns)
{
	u64 deadline = as_wait_deadline_ns(ad, now_ns);

	if (ad->antic_state == AS_ANTIC_WAIT_NEXT)
		deadline = min(deadline, ad->antic_start_ns +
			       as_antic_window(ad, ad->antic_aic, now_ns));
	/* Bound the wait even with empty FIFOs (safety net). */
	deadline = min(deadline, now_ns +
		       jiffies_to_nsecs(as_fifo_expire(ad, AS_SYNC) + 1));
	ad->antic_deadline_ns = deadline;
	hrtimer_start(&ad->antic_timer, ns_to_ktime(deadline), HRTIMER_MODE_ABS);
}

static bool as_batch_expired(struct as_data *ad)
{
	return ad->batch_dir == AS_SYNC && !ad->changed_batch &&
		ad->nr_queued[AS_ASYNC] &&
		time_after_eq(jiffies, ad->batch_start + as_batch_expire(ad, AS_SYNC));
}

/* Evaluate the current wait against @rq (may be NULL). */
static enum as_verdict as_check(struct as_data *ad, struct request *rq,
				u64 now_ns)
{
	struct as_io_cq *aic = ad->antic_aic;
	struct as_proc_stats st;
	struct as_antic_input in = {
		.antic_expire_ns = as_antic_window(ad, aic, now_ns),
		.disabled	= as_deep(ad),
		.fifo_expired	= as_fifo_expired(ad, AS_SYNC),
		.batch_expired	= as_batch_expired(ad),
		.last_pos	= ad->antic_pos,
	};

	if (!aic)
		return AS_STOP_EXITED;
	as_stats_view(&st, &aic->st, &ad->new_proc_st);
	in.st = &st;
	in.exited = aic->exited;
	in.exit_likely = !aic->st.ttime_samples &&
			 ad->exit_prob > AS_PROB_ONE / 2;
	in.boosted = as_boosted(ad, aic, now_ns);
	if (ad->antic_state == AS_ANTIC_WAIT_NEXT) {
		in.waiting_next = true;
		/* @now_ns may be a plug's cached time stamp, a little old */
		in.elapsed_ns = now_ns > ad->antic_start_ns ?
				now_ns - ad->antic_start_ns : 0;
	}
	/* An async request matters only if the awaited process issued it. */
	if (rq && (as_rq_dir(rq) == AS_SYNC || as_rq_of(rq, aic))) {
		in.have_rq = true;
		in.rq_same_process = as_rq_of(rq, aic);
		in.rq_async = as_rq_dir(rq) == AS_ASYNC;
		in.rq_boosted = as_boosted(ad, rq_aic(rq), now_ns);
		in.rq_pos = blk_rq_pos(rq);
	}
	return as_antic_decide(&in);
}

static void as_antic_stop(struct as_data *ad, enum as_verdict v)
{
	lockdep_assert_held(&ad->lock);

	if (ad->antic_state == AS_ANTIC_OFF)
		return;
	ad->antic_state = AS_ANTIC_OFF;
	ad->antic_aic = NULL;
	ad->antic_cooldown = true;
	hrtimer_try_to_cancel(&ad->antic_timer);
	ad->stat_stop[v]++;
	blk_add_trace_msg(ad->q, "as antic stop %s", as_verdict_name[v]);
}

/* The awaited read completed: start the timed wait, or give up. */
static void as_antic_waitnext(struct as_data *ad, u64 now_ns)
{
	enum as_verdict v;

	ad->antic_state = AS_ANTIC_WAIT_NEXT;
	ad->antic_start_ns = now_ns;
	v = as_check(ad, NULL, now_ns);
	if (v != AS_KEEP_WAITING) {
		as_antic_stop(ad, v);
		return;
	}
	blk_add_trace_msg(ad->q, "as antic wait_next %lluus",
			  div_u64(READ_ONCE(ad->antic_expire_ns), NSEC_PER_USEC));
	as_arm_timer(ad, now_ns);
}

/* Does the wait go on, given @rq (may be NULL)?  Ends it if not. */
static bool as_antic_holds(struct as_data *ad, struct request *rq)
{
	enum as_verdict v = as_check(ad, rq, blk_time_get_ns());

	if (v == AS_KEEP_WAITING)
		return true;
	as_antic_stop(ad, v);
	return false;
}

/*
 * Should dispatch be held instead of dispatching @rq (NULL: nothing in
 * the current read batch)?  Starts the wait if so.
 */
static bool as_try_anticipate(struct as_data *ad, struct request *rq)
{
	struct as_io_cq *aic = ad->last_aic;
	u64 now_ns;
	enum as_verdict v;

	if (!as_antic_enabled(ad) || ad->antic_cooldown || !aic)
		return false;
	/* The process already has a read here: no need to wait for it. */
	if (aic->nr_queued || (rq && rq_aic(rq) == aic))
		return false;

	now_ns = blk_time_get_ns();
	ad->antic_aic = aic;
	ad->antic_pos = ad->last_read_end;
	ad->antic_state = aic->nr_inflight ? AS_ANTIC_WAIT_REQ : AS_ANTIC_WAIT_NEXT;
	/* Already idle: the wait started when its last read completed. */
	ad->antic_start_ns = now_ns;
	if (!aic->nr_inflight && aic->st.idle_since_ns &&
	    aic->st.idle_since_ns <= now_ns)
		ad->antic_start_ns = aic->st.idle_since_ns;
	v = as_check(ad, rq, now_ns);
	if (v != AS_KEEP_WAITING) {
		ad->antic_state = AS_ANTIC_OFF;
		ad->antic_aic = NULL;
		ad->antic_cooldown = true;
		ad->stat_declined++;
		blk_add_trace_msg(ad->q, "as antic declined %s", as_verdict_name[v]);
		return false;
	}
	ad->stat_starts++;
	blk_add_trace_msg(ad->q, "as antic start %s",
			  ad->antic_state == AS_ANTIC_WAIT_REQ ? "wait_req" : "wait_next");
	as_arm_timer(ad, now_ns);
	return true;
}

/* The timer fired at @now_ns: does the wait end?  Returns whether it did. */
VISIBLE_IF_KUNIT bool as_antic_timeout(struct as_data *ad, u64 now_ns)
{
	unsigned long flags;
	bool end;

	spin_lock_irqsave(&ad->lock, flags);
	end = ad->antic_state != AS_ANTIC_OFF && now_ns >= ad->antic_deadline_ns;
	if (end) {
		enum as_verdict v = as_check(ad, NULL, now_ns);

		/* The safety net of a wait for a read still in flight. */
		as_antic_stop(ad, v == AS_KEEP_WAITING ? AS_STOP_TIMEOUT : v);
	}
	spin_unlock_irqrestore(&ad->lock, flags);
	return end;
}
EXPORT_SYMBOL_IF_KUNIT(as_antic_timeout);

static enum hrtimer_restart as_antic_timer_fn(struct hrtimer *timer)
{
	struct as_data *ad = container_of(timer, struct as_data, antic_timer);

	if (as_antic_timeout(ad, ktime_get_ns()))
		as_kick(ad);
	return HRTIMER_NORESTART;
}

/* ---- hardware awareness ------------------------------------------------- */

static unsigned int as_nr_inflight(struct as_data *ad)
{
	return ad->nr_inflight_dir[AS_SYNC] + ad->nr_inflight_dir[AS_ASYNC];
}

/* The driver tags of all hardware queues, as as_nr_inflight() counts. */
static unsigned int as_nr_tags(struct request_queue *q)
{
	struct blk_mq_tag_set *set = q->tag_set;

	if (!set->queue_depth)
		return UINT_MAX;
	if (blk_mq_is_shared_tags(set->flags))
		return set->queue_depth;
	return set->nr_hw_queues * set->queue_depth;
}

/* @rq completed: learn from it whether the device keeps a deep queue. */
static void as_hw_sample(struct as_data *ad, struct request *rq)
{
	unsigned long seq = (unsigned long)rq->elv.priv[1];
	bool overtaken = (long)(seq - ad->hw_done_seq) < 0;
	unsigned int tags = as_nr_tags(ad->q);
	bool deep;

	if (!overtaken)
		ad->hw_done_seq = seq;
	/* Only meaningful when the scheduler could have given more. */
	if (!ad->nr_queued[AS_SYNC] && !ad->nr_queued[AS_ASYNC])
		return;
	deep = as_hw_complete(&ad->hw, as_nr_inflight(ad), tags, overtaken,
			      READ_ONCE(ad->deep_queue_depth));
	if (deep != ad->deep_queue) {
		WRITE_ONCE(ad->deep_queue, deep);
		blk_add_trace_msg(ad->q, "as deep_queue %d (max inflight %u)",
				  deep, ad->hw.max_busy);
	}
}

/* ---- dispatch ----------------------------------------------------------- */

/*
 * The cheapest request of @dir by as_seek_cost() ahead or behind (2.6's
 * two-way elevator), else the oldest.
 */
static struct request *as_pick_sorted(struct as_data *ad, enum as_dir dir)
{
	sector_t head = ad->next_pos[dir];
	struct request *fwd, *back;

	fwd = as_from_pos(ad, dir, head);
	back = as_prev_rq(ad, dir, fwd);
	if (back && as_seek_cost(head, blk_rq_pos(back)) <
		    (fwd ? as_seek_cost(head, blk_rq_pos(fwd)) : U64_MAX))
		return back;
	return fwd ?: as_fifo_head(ad, dir);
}

/*
 * A boosted process's sync request instead of @rq, the elevator's choice,
 * if @rq's process is not boosted: the oldest, the read a starting process
 * is most likely blocked on (it reads its files one after another, each
 * read waited for), and the fair choice among several starting processes.
 * The one nearest the head would save little: a starting process has one
 * or a few reads queued, all far from the streams.  Noted in boost_rq for
 * as_account_dispatch().  Only requests queued while their process was
 * boosted (AS_RQ_BOOST) are looked at; those whose boost has ended since
 * lose the flag, so that the walk stops once none is left.
 */
static struct request *as_boost_pick(struct as_data *ad, struct request *rq)
{
	struct request *b;
	u64 now_ns;

	if (!rq || !ad->nr_boost_queued)
		return rq;
	now_ns = ktime_get_ns();
	if (as_boosted(ad, rq_aic(rq), now_ns))
		return rq;
	list_for_each_entry(b, &ad->fifo_list[AS_SYNC], queuelist) {
		unsigned long flags = as_rq_flags(b);

		if (!(flags & AS_RQ_BOOST))
			continue;
		if (as_boosted(ad, rq_aic(b), now_ns)) {
			ad->boost_rq = b;
			return b;
		}
		/* Its process's boost is over: never looked at again. */
		as_rq_set_flags(b, flags & ~AS_RQ_BOOST);
		if (!--ad->nr_boost_queued)
			break;
	}
	return rq;
}

/*
 * The next request of @dir: the oldest if it expired, else, for the sync
 * class, a boosted process's, else the elevator's choice.
 */
static struct request *as_pick(struct as_data *ad, enum as_dir dir)
{
	if (dir == AS_SYNC)
		ad->boost_rq = NULL;
	if (as_fifo_expired(ad, dir))
		return as_fifo_head(ad, dir);
	if (dir == AS_SYNC)
		return as_boost_pick(ad, as_pick_sorted(ad, dir));
	return as_pick_sorted(ad, dir);
}

static void as_start_batch(struct as_data *ad, enum as_dir dir)
{
	if (dir != ad->batch_dir) {
		ad->changed_batch = true;
		blk_add_trace_msg(ad->q, "as batch %s",
				  dir == AS_SYNC ? "sync" : "async");
	} else {
		ad->batch_start = jiffies;
	}
	ad->batch_dir = dir;
	ad->write_count = 0;
	ad->write_held = false;
	if (dir == AS_ASYNC) {
		ad->write_batch_exhausted = false;
		ad->write_batch_idled = false;
	}
}

/*
 * After a change of direction, hold dispatch until the other direction's
 * requests have left the device: a read behind a device queue full of
 * writes waits for all of them, and a batch's time is known only once its
 * requests are done.  The batch starts, and a write batch is tuned, then.
 */
static bool as_drain_pending(struct as_data *ad)
{
	return READ_ONCE(ad->changed_batch) && as_antic_enabled(ad) &&
	       READ_ONCE(ad->nr_inflight_dir[!READ_ONCE(ad->batch_dir)]);
}

static bool as_draining(struct as_data *ad)
{
	unsigned long now = jiffies;

	if (!ad->changed_batch)
		return false;
	if (as_drain_pending(ad))
		return true;
	ad->changed_batch = false;
	if (ad->batch_dir == AS_SYNC) {
		unsigned int old = ad->write_batch_count;

		ad->write_batch_count =
			as_tune_write_batch(old, now - ad->batch_start,
					    as_batch_expire(ad, AS_ASYNC),
					    ad->write_batch_exhausted,
					    ad->write_batch_idled);
		if (old != ad->write_batch_count)
			blk_add_trace_msg(ad->q, "as write_batch %u",
					  ad->write_batch_count);
	}
	ad->batch_start = now;
	return false;
}

/* Start a batch of @dir: its first request, or NULL while draining. */
static struct request *as_switch_batch(struct as_data *ad, enum as_dir dir)
{
	as_start_batch(ad, dir);
	return as_draining(ad) ? NULL : as_pick(ad, dir);
}

/* A read completed recently: one may come while a write batch runs. */
static bool as_reads_recent(struct as_data *ad)
{
	return time_before(jiffies, ad->last_read_done + as_fifo_expire(ad, AS_SYNC));
}

static struct request *__as_dispatch_write(struct as_data *ad, bool reads)
{
	bool over = time_after_eq(jiffies, ad->batch_start +
				  as_batch_expire(ad, AS_ASYNC));

	if (ad->write_count >= ad->write_batch_count) {
		ad->write_batch_exhausted = true;
		over = true;
	}
	if (over && reads)
		return as_switch_batch(ad, AS_SYNC);
	/*
	 * No read waits.  While a reader is about, keep at most a batch of
	 * writes at the device for its next read to queue behind; a write
	 * completion or the read's arrival resumes dispatch.
	 */
	if (as_antic_enabled(ad) && as_reads_recent(ad) &&
	    ad->nr_inflight_dir[AS_ASYNC] >= ad->write_batch_count) {
		ad->write_held = true;
		return NULL;
	}
	if (over)
		as_start_batch(ad, AS_ASYNC);
	return as_pick(ad, AS_ASYNC);
}

static struct request *__as_dispatch(struct as_data *ad)
{
	bool reads, writes;
	struct request *rq;

	if (!list_empty(&ad->dispatch)) {
		rq = list_first_entry(&ad->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		return rq;
	}

	reads = !list_empty(&ad->fifo_list[AS_SYNC]);
	writes = !list_empty(&ad->fifo_list[AS_ASYNC]);
	if (!reads && !writes)
		return NULL;

	if (ad->antic_state != AS_ANTIC_OFF &&
	    as_antic_holds(ad, reads ? as_pick(ad, AS_SYNC) : NULL))
		return NULL;
	if (as_draining(ad))
		return NULL;

	if (ad->batch_dir == AS_ASYNC) {
		if (writes)
			return __as_dispatch_write(ad, reads);
		return as_switch_batch(ad, AS_SYNC);
	}

	/* read batch; it lasts read_batch_expire from the first waiting write */
	if (!writes)
		ad->batch_start = jiffies;
	if (!as_batch_expired(ad)) {
		if (reads) {
			rq = as_pick(ad, AS_SYNC);
			if (!as_fifo_expired(ad, AS_SYNC) &&
			    as_try_anticipate(ad, rq))
				return NULL;
			return rq;
		}
		if (as_try_anticipate(ad, NULL))
			return NULL;
	}
	if (writes)
		return as_switch_batch(ad, AS_ASYNC);
	return as_pick(ad, AS_SYNC);
}

/*
 * @rq of @aic's process goes to the device.  A process that has moved
 * more than AS_BOOST_MAX_SECTORS while boosted streams: it is not an
 * application starting, and its boost ends.
 */
static void as_boost_charge(struct as_data *ad, struct as_io_cq *aic,
			    struct request *rq)
{
	if (!aic->boost_end || !as_boosted(ad, aic, ktime_get_ns()))
		return;
	aic->boost_sectors += blk_rq_sectors(rq);
	if (aic->boost_sectors <= AS_BOOST_MAX_SECTORS)
		return;
	aic->boost_end = 0;
	ad->stat_boost_capped++;
	blk_add_trace_msg(ad->q, "as boost ends after %u sectors",
			  aic->boost_sectors);
}

static void as_account_dispatch(struct as_data *ad, struct request *rq)
{
	unsigned long flags = as_rq_flags(rq);
	enum as_dir dir = as_rq_dir(rq);

	if (dir == AS_SYNC && rq == as_fifo_head(ad, AS_SYNC) &&
	    as_rq_expired(ad, AS_SYNC, rq))
		ad->read_forced = jiffies;
	if (rq == ad->boost_rq) {
		ad->stat_boost_dispatches++;
		blk_add_trace_msg(ad->q, "as boost dispatch %llu",
				  (unsigned long long)blk_rq_pos(rq));
	}
	if (!RB_EMPTY_NODE(&rq->rb_node) || !list_empty(&rq->queuelist))
		as_del_rq(ad, rq);
	flags = as_rq_flags(rq);

	ad->next_pos[dir] = blk_rq_pos(rq) + blk_rq_sectors(rq);
	if (dir == AS_ASYNC) {
		ad->write_count++;
	} else {
		struct as_io_cq *aic = rq_aic(rq);

		if (aic && !aic->exited) {
			aic->nr_inflight++;
			flags |= AS_RQ_AIC_INFLIGHT;
			ad->last_aic = aic;
			as_boost_charge(ad, aic, rq);
		} else {
			ad->last_aic = NULL;
		}
		ad->last_read_end = blk_rq_pos(rq) + blk_rq_sectors(rq);
	}
	ad->antic_cooldown = false;
	ad->nr_inflight_dir[dir]++;
	as_rq_set_flags(rq, flags | AS_RQ_INFLIGHT);
	ad->hw_seq++;
	rq->elv.priv[1] = (void *)ad->hw_seq;
}

VISIBLE_IF_KUNIT struct request *as_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ad->lock, flags);
	rq = __as_dispatch(ad);
	if (rq) {
		as_account_dispatch(ad, rq);
		rq->rq_flags |= RQF_STARTED;
	}
	spin_unlock_irqrestore(&ad->lock, flags);
	return rq;
}
EXPORT_SYMBOL_IF_KUNIT(as_dispatch_request);

VISIBLE_IF_KUNIT bool as_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;

	if (!list_empty_careful(&ad->dispatch))
		return true;
	if (list_empty_careful(&ad->fifo_list[AS_SYNC]) &&
	    list_empty_careful(&ad->fifo_list[AS_ASYNC]))
		return false;
	/* Holding: the timer, an insertion or a completion reruns the queue. */
	if (READ_ONCE(ad->write_held) || as_drain_pending(ad))
		return false;
	return READ_ONCE(ad->antic_state) == AS_ANTIC_OFF;
}
EXPORT_SYMBOL_IF_KUNIT(as_has_work);

/* ---- completion --------------------------------------------------------- */

/* A request of @dir left the device: does a drain or a write hold end? */
static bool as_hold_ends(struct as_data *ad, enum as_dir dir)
{
	if (ad->changed_batch && dir != ad->batch_dir && !as_drain_pending(ad))
		return true;
	if (ad->write_held && dir == AS_ASYNC &&
	    ad->nr_inflight_dir[AS_ASYNC] < ad->write_batch_count) {
		ad->write_held = false;
		return true;
	}
	return false;
}

/*
 * Undo the in-flight accounting of @rq: its aic if its dispatch counted it
 * there; *@kick tells whether the queue must be run again.
 */
static struct as_io_cq *as_rq_done(struct as_data *ad, struct request *rq,
				   bool *kick)
{
	unsigned long flags = as_rq_flags(rq);
	enum as_dir dir = as_rq_dir(rq);
	struct as_io_cq *aic = NULL;

	*kick = false;
	if (!(flags & AS_RQ_INFLIGHT))
		return NULL;
	as_rq_set_flags(rq, flags & ~(AS_RQ_INFLIGHT | AS_RQ_AIC_INFLIGHT));
	rq->elv.priv[1] = NULL;		/* no dispatch sequence */
	if (!WARN_ON_ONCE(!ad->nr_inflight_dir[dir]))
		ad->nr_inflight_dir[dir]--;
	*kick = as_hold_ends(ad, dir);
	if (dir == AS_SYNC)
		ad->last_read_done = jiffies;
	/* A write batch that ran dry, the device idle: its time is not writes. */
	if (ad->batch_dir == AS_ASYNC && !ad->changed_batch &&
	    !as_nr_inflight(ad) && list_empty(&ad->dispatch) &&
	    list_empty(&ad->fifo_list[AS_SYNC]) &&
	    list_empty(&ad->fifo_list[AS_ASYNC]))
		ad->write_batch_idled = true;
	/* not one dispatched after its process exited */
	if (flags & AS_RQ_AIC_INFLIGHT) {
		aic = rq_aic(rq);
		if (!WARN_ON_ONCE(!aic->nr_inflight))
			aic->nr_inflight--;
	}
	return aic;
}

/* @rq completed at @now (ns).  Returns whether to run the queue again. */
VISIBLE_IF_KUNIT bool as_complete(struct as_data *ad, struct request *rq,
				  u64 now)
{
	struct as_io_cq *aic;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&ad->lock, flags);
	if (as_rq_flags(rq) & AS_RQ_INFLIGHT)
		as_hw_sample(ad, rq);
	aic = as_rq_done(ad, rq, &kick);
	if (aic && !aic->nr_inflight) {
		aic->st.idle_since_ns = now;
		if (ad->antic_state == AS_ANTIC_WAIT_REQ && ad->antic_aic == aic) {
			as_antic_waitnext(ad, now);
			kick |= ad->antic_state == AS_ANTIC_OFF;
		}
	}
	spin_unlock_irqrestore(&ad->lock, flags);
	return kick;
}
EXPORT_SYMBOL_IF_KUNIT(as_complete);

/* @rq goes back to blk-mq.  Returns whether to run the queue again. */
VISIBLE_IF_KUNIT bool as_requeue(struct as_data *ad, struct request *rq)
{
	struct as_io_cq *aic;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&ad->lock, flags);
	aic = as_rq_done(ad, rq, &kick);
	if (aic && aic == ad->antic_aic && ad->antic_state == AS_ANTIC_WAIT_REQ &&
	    !aic->nr_inflight) {
		as_antic_stop(ad, AS_STOP_REQUEUED);
		kick = true;
	}
	spin_unlock_irqrestore(&ad->lock, flags);
	return kick;
}
EXPORT_SYMBOL_IF_KUNIT(as_requeue);

static void as_completed_request(struct request *rq, u64 now)
{
	struct as_data *ad = rq->q->elevator->elevator_data;

	if (as_complete(ad, rq, now))
		as_kick(ad);
}

static void as_requeue_request(struct request *rq)
{
	struct as_data *ad = rq->q->elevator->elevator_data;

	if (as_requeue(ad, rq))
		as_kick(ad);
}

static void as_prepare_request(struct request *rq)
{
	/*
	 * Every request gets an io_cq: it tells whose request it is.  The
	 * class waits for the first insertion, as a request cached in a plug
	 * may carry another bio than the one it was set up for; a cached
	 * request is only reused for a bio with FUA or a preflush if it was
	 * set up with them, so AS_RQ_FLUSH stays true.
	 */
	rq->elv.icq = ioc_find_get_icq(rq->q);
	rq->elv.priv[0] = (void *)(op_is_flush(rq->cmd_flags) ? AS_RQ_FLUSH : 0UL);
	rq->elv.priv[1] = NULL;
}

static void as_finish_request(struct request *rq)
{
	/* Dispatched ones passed completed_request or requeue_request. */
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

/* ---- insertion and merging ---------------------------------------------- */

/* The queued request of direction @dir that ends at @pos, if any. */
static struct request *as_ends_at(struct as_data *ad, enum as_dir dir,
				  sector_t pos)
{
	struct request *prev = as_prev_rq(ad, dir, as_from_pos(ad, dir, pos));

	if (prev && blk_rq_pos(prev) + blk_rq_sectors(prev) == pos)
		return prev;
	return NULL;
}

/*
 * Would the insertion merge of @rq append a sync request to an async one?
 * allow_merge vets bios only, and blk-mq's insertion merge goes on along a
 * chain of requests each ending where the next starts (walked backwards).
 */
static bool as_merge_chain_mixes(struct as_data *ad, struct request *rq)
{
	/* no async request queued, no chain can reach one */
	if (!ad->nr_queued[AS_ASYNC])
		return false;
	while (rq) {
		sector_t pos = blk_rq_pos(rq);
		struct request *prev = as_ends_at(ad, AS_ASYNC, pos);

		if (prev && as_rq_sync(rq))
			return true;
		rq = as_ends_at(ad, AS_SYNC, pos) ?: prev;
	}
	return false;
}

static void as_update_proc_stats(struct as_data *ad, struct request *rq,
				 struct as_io_cq *aic)
{
	/* The think time ends when the process allocated the request. */
	u64 now_ns = rq->start_time_ns ?: blk_time_get_ns();
	u64 cap = max_t(u64, 2 * READ_ONCE(ad->antic_expire_ns), NSEC_PER_MSEC);

	if (aic->st.idle_since_ns) {
		u64 t = now_ns > aic->st.idle_since_ns ?
			now_ns - aic->st.idle_since_ns : 0;

		/* A new process came back for more: it did not exit. */
		if (!aic->st.ttime_samples)
			ad->exit_prob = as_ewma(ad->exit_prob, 1, 0);
		if (aic->st.ttime_samples < AS_MIN_SAMPLES)
			as_stats_add_ttime(&ad->new_proc_st, t, cap);
		as_stats_add_ttime(&aic->st, t, cap);
		aic->st.idle_since_ns = 0;
	}
	as_stats_add_seek(&aic->st, blk_rq_pos(rq), blk_rq_sectors(rq),
			  &ad->new_proc_st);
}

VISIBLE_IF_KUNIT void as_insert_request(struct blk_mq_hw_ctx *hctx,
					struct request *rq,
					blk_insert_t insert_flags,
					struct list_head *free)
{
	struct request_queue *q = hctx->queue;
	struct as_data *ad = q->elevator->elevator_data;
	unsigned long flags = as_rq_flags(rq);
	struct as_io_cq *aic = rq_aic(rq);
	enum as_dir dir;

	lockdep_assert_held(&ad->lock);

	/* The first insertion decides the class, and counts as a request. */
	if (!(flags & AS_RQ_SEEN)) {
		if (as_rq_sync(rq))
			flags |= AS_RQ_SYNC;
		flags |= AS_RQ_SEEN;
		as_rq_set_flags(rq, flags);
		if ((flags & AS_RQ_SYNC) && aic)
			as_update_proc_stats(ad, rq, aic);
	}
	dir = as_rq_dir(rq);

	if (!as_merge_chain_mixes(ad, rq) &&
	    blk_mq_sched_try_insert_merge(q, rq, free))
		return;

	trace_block_rq_insert(rq);

	if (insert_flags & BLK_MQ_INSERT_AT_HEAD) {
		list_add(&rq->queuelist, &ad->dispatch);
		rq->fifo_time = jiffies;
		return;
	}

	elv_rb_add(&ad->sort_list[dir], rq);
	ad->nr_queued[dir]++;
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	rq->fifo_time = jiffies + as_fifo_expire(ad, dir);
	list_add_tail(&rq->queuelist, &ad->fifo_list[dir]);

	if (dir == AS_SYNC && aic) {
		aic->nr_queued++;
		flags |= AS_RQ_QUEUED;
		/* as_boost_pick() looks for it only while one is queued */
		if (aic->boost_end && as_boosted(ad, aic, ktime_get_ns())) {
			ad->nr_boost_queued++;
			flags |= AS_RQ_BOOST;
		}
		as_rq_set_flags(rq, flags);
	}
	if (dir == AS_SYNC)
		ad->write_held = false;
	/* an async request matters only if the awaited process issued it */
	if (ad->antic_state != AS_ANTIC_OFF &&
	    (dir == AS_SYNC ||
	     (ad->antic_aic && as_rq_of(rq, ad->antic_aic))))
		as_antic_holds(ad, rq);
}
EXPORT_SYMBOL_IF_KUNIT(as_insert_request);

static void as_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, blk_insert_t flags)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;
	unsigned long irqflags;
	LIST_HEAD(free);

	spin_lock_irqsave(&ad->lock, irqflags);
	while (!list_empty(list)) {
		struct request *rq;

		rq = list_first_entry(list, struct request, queuelist);
		list_del_init(&rq->queuelist);
		as_insert_request(hctx, rq, flags, &free);
	}
	spin_unlock_irqrestore(&ad->lock, irqflags);

	blk_mq_free_requests(&free);
}

static int as_request_merge(struct request_queue *q, struct request **rq,
			    struct bio *bio)
{
	struct as_data *ad = q->elevator->elevator_data;
	sector_t sector = bio_end_sector(bio);
	enum as_dir dir = as_opf_sync(bio->bi_opf) ? AS_SYNC : AS_ASYNC;
	struct request *__rq;

	if (!READ_ONCE(ad->front_merges))
		return ELEVATOR_NO_MERGE;

	__rq = elv_rb_find(&ad->sort_list[dir], sector);
	if (__rq && elv_bio_merge_ok(__rq, bio)) {
		*rq = __rq;
		if (blk_discard_mergable(__rq))
			return ELEVATOR_DISCARD_MERGE;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static void as_request_merged(struct request_queue *q, struct request *req,
			      enum elv_merge type)
{
	struct as_data *ad = q->elevator->elevator_data;

	/* A front merge changes the sector the request is sorted by. */
	if (type == ELEVATOR_FRONT_MERGE && !RB_EMPTY_NODE(&req->rb_node)) {
		elv_rb_del(&ad->sort_list[as_rq_dir(req)], req);
		elv_rb_add(&ad->sort_list[as_rq_dir(req)], req);
	}
}

VISIBLE_IF_KUNIT void as_requests_merged(struct request_queue *q,
					 struct request *req,
					 struct request *next)
{
	struct as_data *ad = q->elevator->elevator_data;

	lockdep_assert_held(&ad->lock);

	/* @req inherits @next's earlier deadline, both in the same FIFO. */
	if (as_rq_dir(req) == as_rq_dir(next) &&
	    !list_empty(&req->queuelist) && !list_empty(&next->queuelist) &&
	    time_before((unsigned long)next->fifo_time,
			(unsigned long)req->fifo_time)) {
		list_move(&req->queuelist, &next->queuelist);
		req->fifo_time = next->fifo_time;
	}
	as_del_rq(ad, next);
}
EXPORT_SYMBOL_IF_KUNIT(as_requests_merged);

/*
 * A sync bio must not join an async request: it would wait in write
 * batches, without anticipation.  The reverse is harmless, as in bfq.
 */
static bool as_allow_merge(struct request_queue *q, struct request *rq,
			   struct bio *bio)
{
	return !as_opf_sync(bio->bi_opf) || as_rq_sync(rq);
}

static bool as_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct as_data *ad = q->elevator->elevator_data;

	return elv_locked_bio_merge(q, bio, nr_segs, &ad->lock);
}

/* ---- tag depth ---------------------------------------------------------- */

static void as_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct as_data *ad = data->q->elevator->elevator_data;

	/* Keep some scheduler tags for the sync class. */
	if (as_opf_sync(opf))
		return;
	data->shallow_depth = ad->async_depth;
}

static void as_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct as_data *ad = hctx->queue->elevator->elevator_data;

	ad->async_depth = elv_sync_reserve_depth(hctx);
}

static int as_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	as_depth_updated(hctx);
	return 0;
}

/* ---- io_cq -------------------------------------------------------------- */

/*
 * A process's first request here is being set up: boost it for new_boost
 * from now (as_boosted()).  A process set up while new_boost was 0 is not.
 */
VISIBLE_IF_KUNIT void as_init_icq(struct io_cq *icq)
{
	struct as_data *ad = icq->q->elevator->elevator_data;
	struct as_io_cq *aic = icq_to_aic(icq);
	u64 boost = READ_ONCE(ad->new_boost_ns);

	memset(&aic->st, 0, sizeof(aic->st));
	aic->nr_queued = 0;
	aic->nr_inflight = 0;
	aic->boost_end = boost ? ktime_get_ns() + boost : 0;
	aic->boost_sectors = 0;
	aic->exited = false;
}
EXPORT_SYMBOL_IF_KUNIT(as_init_icq);

/* The process of @aic exited.  Returns whether the queue must be run. */
VISIBLE_IF_KUNIT bool as_aic_exit(struct as_data *ad, struct as_io_cq *aic)
{
	unsigned long flags;
	bool kick = false;

	spin_lock_irqsave(&ad->lock, flags);
	aic->exited = true;
	if (ad->last_aic == aic)
		ad->last_aic = NULL;
	if (ad->antic_aic == aic) {
		/* A new process exited where one was waited for. */
		if (!aic->st.ttime_samples)
			ad->exit_prob = as_ewma(ad->exit_prob, 1, AS_PROB_ONE);
		as_antic_stop(ad, AS_STOP_EXITED);
		kick = !list_empty(&ad->fifo_list[AS_SYNC]) ||
		       !list_empty(&ad->fifo_list[AS_ASYNC]);
	}
	spin_unlock_irqrestore(&ad->lock, flags);
	return kick;
}
EXPORT_SYMBOL_IF_KUNIT(as_aic_exit);

static void as_exit_icq(struct io_cq *icq)
{
	struct as_data *ad = icq->q->elevator->elevator_data;

	if (as_aic_exit(ad, icq_to_aic(icq)))
		as_kick(ad);
}

/* ---- init and exit ------------------------------------------------------ */

/* Set up @ad, zeroed, for @q, with the default tunables. */
VISIBLE_IF_KUNIT void as_init_data(struct as_data *ad, struct request_queue *q)
{
	ad->q = q;
	spin_lock_init(&ad->lock);
	INIT_LIST_HEAD(&ad->dispatch);
	INIT_LIST_HEAD(&ad->fifo_list[AS_SYNC]);
	INIT_LIST_HEAD(&ad->fifo_list[AS_ASYNC]);
	ad->sort_list[AS_SYNC] = RB_ROOT;
	ad->sort_list[AS_ASYNC] = RB_ROOT;
	hrtimer_init(&ad->antic_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	ad->antic_timer.function = as_antic_timer_fn;

	ad->fifo_expire_ms[AS_SYNC] = AS_READ_EXPIRE_MS;
	ad->fifo_expire_ms[AS_ASYNC] = AS_WRITE_EXPIRE_MS;
	ad->batch_expire_ms[AS_SYNC] = AS_READ_BATCH_EXPIRE_MS;
	ad->batch_expire_ms[AS_ASYNC] = AS_WRITE_BATCH_EXPIRE_MS;
	ad->antic_expire_ns = AS_ANTIC_EXPIRE_MS * NSEC_PER_MSEC;
	ad->new_boost_ns = (u64)AS_NEW_BOOST_MS * NSEC_PER_MSEC;
	ad->deep_queue_depth = AS_DEEP_QUEUE_DEPTH;
	ad->front_merges = 1;
	ad->write_batch_count = AS_WRITE_BATCH_DEFAULT;
	ad->batch_dir = AS_SYNC;
	ad->batch_start = jiffies;
	ad->read_forced = jiffies - msecs_to_jiffies(AS_MAX_EXPIRE_MS);
}
EXPORT_SYMBOL_IF_KUNIT(as_init_data);

static int as_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct as_data *ad;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;

	ad = kzalloc_node(sizeof(*ad), GFP_KERNEL, q->node);
	if (!ad) {
		kobject_put(&eq->kobj);
		return -ENOMEM;
	}
	eq->elevator_data = ad;
	as_init_data(ad, q);

	/* Scheduling state is per queue: dispatch from one hardware queue. */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);

	/*
	 * Writeback throttling would cap the writes waiting here by its own
	 * latency target, under the write batches that already bound how
	 * long reads wait for writes: turn its default off while anticipatory
	 * runs, as bfq does.  A latency target other than the default, set
	 * by hand in wbt_lat_usec, turns it back on.
	 */
	set_bit(ELEVATOR_FLAG_DISABLE_WBT, &eq->flags);
	wbt_disable_default(q->disk);

	q->elevator = eq;
	return 0;
}

static void as_exit_sched(struct elevator_queue *e)
{
	struct as_data *ad = e->elevator_data;

	hrtimer_cancel(&ad->antic_timer);

	WARN_ON_ONCE(!list_empty(&ad->dispatch));
	WARN_ON_ONCE(!list_empty(&ad->fifo_list[AS_SYNC]));
	WARN_ON_ONCE(!list_empty(&ad->fifo_list[AS_ASYNC]));
	WARN_ON_ONCE(as_nr_inflight(ad));
	WARN_ON_ONCE(ad->nr_boost_queued);

	/* Give the queue back its default writeback throttling. */
	clear_bit(ELEVATOR_FLAG_DISABLE_WBT, &e->flags);
	wbt_enable_default(ad->q->disk);
	kfree(ad);
}

/* ---- sysfs -------------------------------------------------------------- */

#define AS_MS_TO_NS(ms)		((u64)(ms) * NSEC_PER_MSEC)
#define AS_NS_TO_MS(ns)		div_u64(ns, NSEC_PER_MSEC)
#define AS_AS_IS(v)		(v)

#define SHOW_FUNCTION(name, __VAR, __CONV)				\
static ssize_t as_##name##_show(struct elevator_queue *e, char *page)	\
{									\
	struct as_data *ad = e->elevator_data;				\
									\
	return sysfs_emit(page, "%llu\n", (u64)__CONV(READ_ONCE(__VAR))); \
}

SHOW_FUNCTION(read_expire, ad->fifo_expire_ms[AS_SYNC], AS_AS_IS);
SHOW_FUNCTION(write_expire, ad->fifo_expire_ms[AS_ASYNC], AS_AS_IS);
SHOW_FUNCTION(read_batch_expire, ad->batch_expire_ms[AS_SYNC], AS_AS_IS);
SHOW_FUNCTION(write_batch_expire, ad->batch_expire_ms[AS_ASYNC], AS_AS_IS);
SHOW_FUNCTION(antic_expire, ad->antic_expire_ns, AS_NS_TO_MS);
SHOW_FUNCTION(new_boost, ad->new_boost_ns, AS_NS_TO_MS);
SHOW_FUNCTION(deep_queue_depth, ad->deep_queue_depth, AS_AS_IS);
SHOW_FUNCTION(front_merges, ad->front_merges, AS_AS_IS);
#undef SHOW_FUNCTION

#define STORE_FUNCTION(name, __VAR, MIN, MAX, __CONV)			\
static ssize_t as_##name##_store(struct elevator_queue *e,		\
				 const char *page, size_t count)	\
{									\
	struct as_data *ad = e->elevator_data;				\
	unsigned int v;							\
	int ret = elv_parse_tunable(page, MIN, MAX, &v);		\
									\
	if (ret)							\
		return ret;						\
	WRITE_ONCE(__VAR, __CONV(v));					\
	return count;							\
}

STORE_FUNCTION(read_expire, ad->fifo_expire_ms[AS_SYNC], 1, AS_MAX_EXPIRE_MS,
	       AS_AS_IS);
STORE_FUNCTION(write_expire, ad->fifo_expire_ms[AS_ASYNC], 1, AS_MAX_EXPIRE_MS,
	       AS_AS_IS);
STORE_FUNCTION(read_batch_expire, ad->batch_expire_ms[AS_SYNC], 1,
	       AS_MAX_EXPIRE_MS, AS_AS_IS);
STORE_FUNCTION(write_batch_expire, ad->batch_expire_ms[AS_ASYNC], 1,
	       AS_MAX_EXPIRE_MS, AS_AS_IS);
STORE_FUNCTION(antic_expire, ad->antic_expire_ns, 0, AS_MAX_ANTIC_EXPIRE_MS,
	       AS_MS_TO_NS);
STORE_FUNCTION(new_boost, ad->new_boost_ns, 0, AS_MAX_EXPIRE_MS, AS_MS_TO_NS);
STORE_FUNCTION(front_merges, ad->front_merges, 0, 1, AS_AS_IS);
#undef STORE_FUNCTION

/* A new depth starts the detection afresh, as on a new queue. */
static ssize_t as_deep_queue_depth_store(struct elevator_queue *e,
					 const char *page, size_t count)
{
	struct as_data *ad = e->elevator_data;
	unsigned long flags;
	unsigned int v;
	int ret = elv_parse_tunable(page, 0, AS_MAX_DEEP_QUEUE_DEPTH, &v);

	if (ret)
		return ret;
	spin_lock_irqsave(&ad->lock, flags);
	WRITE_ONCE(ad->deep_queue_depth, v);
	memset(&ad->hw, 0, sizeof(ad->hw));
	WRITE_ONCE(ad->deep_queue, false);
	spin_unlock_irqrestore(&ad->lock, flags);
	return count;
}

#define AS_RW_ATTR(name) __ATTR(name, 0644, as_##name##_show, as_##name##_store)

static struct elv_fs_entry as_attrs[] = {
	AS_RW_ATTR(read_expire),
	AS_RW_ATTR(write_expire),
	AS_RW_ATTR(read_batch_expire),
	AS_RW_ATTR(write_batch_expire),
	AS_RW_ATTR(antic_expire),
	AS_RW_ATTR(new_boost),
	AS_RW_ATTR(deep_queue_depth),
	AS_RW_ATTR(front_merges),
	__ATTR_NULL
};

/* ---- debugfs ------------------------------------------------------------ */

#ifdef CONFIG_BLK_DEBUG_FS
/* The request list a debugfs file shows: a FIFO, or at-head inserts. */
static struct list_head *as_debugfs_list(struct seq_file *m, int which)
{
	struct request_queue *q = m->private;
	struct as_data *ad = q->elevator->elevator_data;

	return which < AS_DIR_COUNT ? &ad->fifo_list[which] : &ad->dispatch;
}

static void *as_debugfs_start(struct seq_file *m, loff_t *pos, int which)
	__acquires(&ad->lock)
{
	struct request_queue *q = m->private;
	struct as_data *ad = q->elevator->elevator_data;

	spin_lock_irq(&ad->lock);
	return seq_list_start(as_debugfs_list(m, which), *pos);
}

static void as_debugfs_stop(struct seq_file *m, void *v)
	__releases(&ad->lock)
{
	struct request_queue *q = m->private;
	struct as_data *ad = q->elevator->elevator_data;

	spin_unlock_irq(&ad->lock);
}

#define AS_DEBUGFS_LIST(name, which)					\
enum { as_##name##_which = (which) };					\
									\
static void *as_##name##_start(struct seq_file *m, loff_t *pos)	\
{									\
	return as_debugfs_start(m, pos, as_##name##_which);		\
}									\
									\
static void *as_##name##_next(struct seq_file *m, void *v, loff_t *pos) \
{									\
	return seq_list_next(v, as_debugfs_list(m, as_##name##_which), pos); \
}									\
									\
static const struct seq_operations as_##name##_seq_ops = {		\
	.start	= as_##name##_start,					\
	.next	= as_##name##_next,					\
	.stop	= as_debugfs_stop,					\
	.show	= blk_mq_debugfs_rq_show,				\
}

AS_DEBUGFS_LIST(read_fifo, AS_SYNC);
AS_DEBUGFS_LIST(write_fifo, AS_ASYNC);
AS_DEBUGFS_LIST(dispatch, AS_DIR_COUNT);
#undef AS_DEBUGFS_LIST

static int as_state_show(void *data, struct seq_file *m)
{
	static const char *const state[] = {
		[AS_ANTIC_OFF]		= "off",
		[AS_ANTIC_WAIT_REQ]	= "wait_req",
		[AS_ANTIC_WAIT_NEXT]	= "wait_next",
	};
	struct request_queue *q = data;
	struct as_data *ad = q->elevator->elevator_data;

	spin_lock_irq(&ad->lock);
	seq_printf(m, "antic %s\nbatch %s\nwrite_count %u\nwrite_batch_count %u\n",
		   state[ad->antic_state],
		   ad->batch_dir == AS_SYNC ? "sync" : "async",
		   ad->write_count, ad->write_batch_count);
	seq_printf(m, "queued %u %u\ninflight %u\ndeep_queue %d\nmax_inflight %u\n",
		   ad->nr_queued[AS_SYNC], ad->nr_queued[AS_ASYNC],
		   as_nr_inflight(ad), as_deep(ad), ad->hw.max_busy);
	seq_printf(m, "mean_ttime_us %llu\nmean_seek %llu\nexit_prob_pct %llu\n",
		   div_u64(ad->new_proc_st.ttime_mean, NSEC_PER_USEC),
		   ad->new_proc_st.seek_mean,
		   div_u64(100 * ad->exit_prob, AS_PROB_ONE));
	spin_unlock_irq(&ad->lock);
	return 0;
}

/* Counters since the scheduler was selected, one "name value" a line. */
static int as_stats_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct as_data *ad = q->elevator->elevator_data;
	enum as_verdict v;

	spin_lock_irq(&ad->lock);
	seq_printf(m, "antic_starts %lu\nantic_declined %lu\n",
		   ad->stat_starts, ad->stat_declined);
	seq_printf(m, "antic_hits %lu\nantic_timeouts %lu\n",
		   ad->stat_stop[AS_STOP_HIT], ad->stat_stop[AS_STOP_TIMEOUT]);
	for (v = AS_STOP_TIMEOUT + 1; v < AS_NR_VERDICTS; v++)
		seq_printf(m, "antic_break_%s %lu\n", as_verdict_name[v],
			   ad->stat_stop[v]);
	seq_printf(m, "boost_dispatches %lu\nboost_capped %lu\n",
		   ad->stat_boost_dispatches, ad->stat_boost_capped);
	spin_unlock_irq(&ad->lock);
	return 0;
}

static const struct blk_mq_debugfs_attr as_queue_debugfs_attrs[] = {
	{"read_fifo_list", 0400, .seq_ops = &as_read_fifo_seq_ops},
	{"write_fifo_list", 0400, .seq_ops = &as_write_fifo_seq_ops},
	{"dispatch", 0400, .seq_ops = &as_dispatch_seq_ops},
	{"state", 0400, as_state_show},
	{"stats", 0400, as_stats_show},
	{},
};
#endif

static struct elevator_type anticipatory_sched = {
	.ops = {
		.init_sched		= as_init_sched,
		.exit_sched		= as_exit_sched,
		.init_hctx		= as_init_hctx,
		.depth_updated		= as_depth_updated,
		.limit_depth		= as_limit_depth,
		.insert_requests	= as_insert_requests,
		.dispatch_request	= as_dispatch_request,
		.has_work		= as_has_work,
		.prepare_request	= as_prepare_request,
		.finish_request		= as_finish_request,
		.completed_request	= as_completed_request,
		.requeue_request	= as_requeue_request,
		.allow_merge		= as_allow_merge,
		.bio_merge		= as_bio_merge,
		.request_merge		= as_request_merge,
		.request_merged		= as_request_merged,
		.requests_merged	= as_requests_merged,
		.next_request		= elv_rb_latter_request,
		.former_request		= elv_rb_former_request,
		.init_icq		= as_init_icq,
		.exit_icq		= as_exit_icq,
	},
	.icq_size	= sizeof(struct as_io_cq),
	.icq_align	= __alignof__(struct as_io_cq),
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = as_queue_debugfs_attrs,
#endif
	.elevator_attrs = as_attrs,
	.elevator_name	= "anticipatory",
	.elevator_owner	= THIS_MODULE,
};

static int __init as_init(void)
{
	return elv_register(&anticipatory_sched);
}

static void __exit as_exit(void)
{
	elv_unregister(&anticipatory_sched);
}

module_init(as_init);
module_exit(as_exit);

MODULE_AUTHOR("blk26 developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Anticipatory I/O scheduler");
