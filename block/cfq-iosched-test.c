// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of CFQ's arithmetic: slices per priority level, the
 * low_latency scaling, workload slices, group virtual time and what a
 * turn is charged, preemption in the SYNC_NOIDLE workload, think time,
 * the seeky history and the cost of a request (back seeks).  Then its
 * state machine: the real insert, dispatch, completion, timer and io_cq
 * exit functions driven on a fake queue with fake requests and io_cqs.
 */
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/delay.h>
#include <linux/ioprio.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/time64.h>

#include "elevator.h"
#include "cfq-iosched.h"

#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

/* 2.6's table: sync 100 ms at level 4, +/- 20 ms per level. */
static void cfq_test_prio_slice(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(100), 0), MS(180));
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(100), 4), MS(100));
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(100), 7), MS(40));
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(40), 0), MS(72));
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(40), 7), MS(16));
	/* Levels beyond 7 are clamped, never a negative slice. */
	KUNIT_EXPECT_EQ(test, cfq_prio_slice(MS(100), 200), MS(40));
}

/* Higher levels always get longer slices. */
static void cfq_test_prio_monotonic(struct kunit *test)
{
	unsigned short p;

	for (p = 1; p < IOPRIO_NR_LEVELS; p++)
		KUNIT_EXPECT_GT(test, cfq_prio_slice(MS(100), p - 1),
				cfq_prio_slice(MS(100), p));
}

static void cfq_test_low_latency(struct kunit *test)
{
	/* 3 queues x 100 ms fit in 300 ms: unchanged. */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(100), MS(100), MS(8),
						    3, MS(300)), MS(100));
	/* 6 queues: halved, so that each gets a turn within 300 ms. */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(100), MS(100), MS(8),
						    6, MS(300)), MS(50));
	/* 100 queues: not below two idle periods (16 ms at level 4). */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(100), MS(100), MS(8),
						    100, MS(300)), MS(16));
	/* Level 7 (40 ms) floors at its share of that: 6.4 ms. */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(40), MS(100), MS(8),
						    100, MS(300)), MS(16) * 40 / 100);
	/* slice_idle 0: the floor is CFQ's minimum slice, 2 ms. */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(100), MS(100), 0,
						    1000, MS(300)), MS(2));
	/* No busy queue: unchanged. */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(MS(100), MS(100), MS(8),
						    0, MS(300)), MS(100));
}

/* Whatever the number of queues, one round stays within the target. */
static void cfq_test_low_latency_round(struct kunit *test)
{
	unsigned int n;

	for (n = 1; n <= 18; n++) {
		u64 s = cfq_low_latency_slice(MS(100), MS(100), MS(8), n,
					      MS(300));

		KUNIT_EXPECT_LE(test, s * n, MS(300) + n);
	}
}

static void cfq_test_group_slice(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_group_slice(MS(300), 100, 100), MS(300));
	KUNIT_EXPECT_EQ(test, cfq_group_slice(MS(300), 100, 300), MS(100));
	KUNIT_EXPECT_EQ(test, cfq_group_slice(MS(300), 800, 1500), MS(160));
	KUNIT_EXPECT_EQ(test, cfq_group_slice(MS(300), 100, 0), MS(300));
}

static void cfq_test_workload_slice(struct kunit *test)
{
	/* 2 of 4 sync queues: half the group slice. */
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(300), 2, 4, false, MS(100),
						 MS(40), MS(8)), MS(150));
	/* Async: scaled by slice_async / slice_sync. */
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(300), 2, 4, true, MS(100),
						 MS(40), MS(8)), MS(60));
	/* Sync: at least two idle periods. */
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(10), 1, 10, false, MS(100),
						 MS(40), MS(8)), MS(16));
	/* A count above the average is not more than the group slice. */
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(300), 5, 2, false, MS(100),
						 MS(40), MS(8)), MS(300));
}

/* Equal service per weight unit: vdisktime is time / weight. */
#define HW(w)	((w) << CFQ_HW_SHIFT)

static void cfq_test_scale_charge(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), HW(100)), MS(100));
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), HW(200)), MS(50));
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), HW(800)), MS(100) / 8);
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(1), HW(1)), MS(100));
	/* an eighth of a weight unit */
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(1), HW(1) / 8), MS(800));
	/* A weight of 0 (never computed) cannot divide by zero. */
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(1), 0),
			cfq_scale_charge(MS(1), 1));
}

/* A turn is charged from its first completion, else its first dispatch. */
static void cfq_test_slice_charge(struct kunit *test)
{
	/* Dispatched at 10 ms, first completion at 16 ms, over at 36 ms. */
	KUNIT_EXPECT_EQ(test, cfq_slice_charge(MS(10), MS(16), MS(36)), MS(20));
	/* Over at its first completion: from the dispatch. */
	KUNIT_EXPECT_EQ(test, cfq_slice_charge(MS(10), MS(16), MS(16)), MS(6));
	/* Preempted before any completion. */
	KUNIT_EXPECT_EQ(test, cfq_slice_charge(MS(10), 0, MS(13)), MS(3));
	/* Never less than 100 us. */
	KUNIT_EXPECT_EQ(test, cfq_slice_charge(MS(10), 0, MS(10)),
			NSEC_PER_MSEC / 10);
	KUNIT_EXPECT_EQ(test, cfq_slice_charge(0, 0, MS(10)),
			NSEC_PER_MSEC / 10);
}

/*
 * A seeky reader's new request takes the disk from the active queue of
 * its SYNC_NOIDLE tree, empty (its one request at the device), only when
 * the two are all the tree has: not ahead of 38 others waiting.
 */
static void cfq_test_noidle_preempt(struct kunit *test)
{
	struct cfq_rb_root *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct cfq_queue *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct cfq_queue *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct request *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	a->wl_type = CFQ_SYNC_NOIDLE_WL;
	b->wl_type = CFQ_SYNC_NOIDLE_WL;
	a->service_tree = st;
	b->service_tree = st;
	st->count = 2;
	KUNIT_EXPECT_TRUE(test, cfq_noidle_preempt(b, a));
	st->count = 40;
	KUNIT_EXPECT_FALSE(test, cfq_noidle_preempt(b, a));
	/* not while the active queue has requests of its own */
	st->count = 2;
	a->next_rq = rq;
	KUNIT_EXPECT_FALSE(test, cfq_noidle_preempt(b, a));
	/* nor for a queue of another tree */
	a->next_rq = NULL;
	b->service_tree = NULL;
	KUNIT_EXPECT_FALSE(test, cfq_noidle_preempt(b, a));
}

static void cfq_test_ttime(struct kunit *test)
{
	struct cfq_ttime tt = {};
	int i;

	KUNIT_EXPECT_FALSE(test, cfq_ttime_valid(&tt));
	cfq_ttime_add(&tt, MS(2), MS(16));
	/* Fixed point: within a few ns of the sample. */
	KUNIT_EXPECT_LE(test, tt.mean_ns, MS(2) + 8);
	KUNIT_EXPECT_GE(test, tt.mean_ns, MS(2));
	/* Not yet enough samples to judge a process on. */
	KUNIT_EXPECT_FALSE(test, cfq_ttime_valid(&tt));
	for (i = 0; i < 20; i++)
		cfq_ttime_add(&tt, MS(2), MS(16));
	KUNIT_EXPECT_TRUE(test, cfq_ttime_valid(&tt));
	/* The sample count saturates at 255, not 256: up to 1/255 high. */
	KUNIT_EXPECT_LE(test, tt.mean_ns, MS(2) + MS(2) / 50);
	KUNIT_EXPECT_GE(test, tt.mean_ns, MS(2));
	/* Long pauses count as the cap, and move the mean up. */
	for (i = 0; i < 40; i++)
		cfq_ttime_add(&tt, MS(5000), MS(16));
	KUNIT_EXPECT_LE(test, tt.mean_ns, MS(16) + MS(16) / 40);
	KUNIT_EXPECT_GT(test, tt.mean_ns, MS(15));
}

static void cfq_test_seeky(struct kunit *test)
{
	u32 h = 0;
	int i;

	/* A full history: more than 4 seeks of 32 (2.6's rule). */
	for (i = 0; i < 28; i++)
		h = cfq_seek_push(h, false);
	for (i = 0; i < 4; i++)
		h = cfq_seek_push(h, true);
	KUNIT_EXPECT_FALSE(test, cfq_seeky(h, 32));	/* 4 of 32: not yet */
	h = cfq_seek_push(h, true);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(h, 32));
	KUNIT_EXPECT_TRUE(test, cfq_seeky(h, 1000));	/* counts cap at 32 */
	/* 28 close requests push the seeks out of the window. */
	for (i = 0; i < 28; i++)
		h = cfq_seek_push(h, false);
	KUNIT_EXPECT_FALSE(test, cfq_seeky(h, 32));

	/* A short history: more than one seek in eight. */
	KUNIT_EXPECT_FALSE(test, cfq_seeky(0, 0));
	KUNIT_EXPECT_TRUE(test, cfq_seeky(cfq_seek_push(0, true), 1));
	KUNIT_EXPECT_FALSE(test, cfq_seeky(cfq_seek_push(0, false), 1));
	h = cfq_seek_push(0, true);
	for (i = 0; i < 6; i++)
		h = cfq_seek_push(h, false);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(h, 7));	/* 1 of 7 */
	h = cfq_seek_push(h, false);
	KUNIT_EXPECT_FALSE(test, cfq_seeky(h, 8));	/* 1 of 8 */
}

static void cfq_test_req_cost(struct kunit *test)
{
	/* Ahead: the distance. */
	KUNIT_EXPECT_EQ(test, cfq_req_cost(1000, 1500, 32768, 2), 500);
	/* Behind, within back_seek_max: twice the distance. */
	KUNIT_EXPECT_EQ(test, cfq_req_cost(1000, 800, 32768, 2), 400);
	/* Behind, beyond it: never chosen for its distance. */
	KUNIT_EXPECT_EQ(test, cfq_req_cost(100000, 10, 32768, 2), -1);
	/* back_seek_max 0: strictly one way. */
	KUNIT_EXPECT_EQ(test, cfq_req_cost(1000, 999, 0, 2), -1);
	KUNIT_EXPECT_EQ(test, cfq_req_cost(1000, 1000, 0, 2), 0);
}

static void cfq_test_maxrq(struct kunit *test)
{
	/* 2.6: 2 * slice_async_rq * (8 - level). */
	KUNIT_EXPECT_EQ(test, cfq_prio_to_maxrq(2, 0), 32U);
	KUNIT_EXPECT_EQ(test, cfq_prio_to_maxrq(2, 4), 16U);
	KUNIT_EXPECT_EQ(test, cfq_prio_to_maxrq(2, 7), 4U);
}

/* 4.10's req_noidle(): a sync write without REQ_IDLE. */
static void cfq_test_rq_noidle(struct kunit *test)
{
	struct request *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rq);
	rq->cmd_flags = REQ_OP_READ;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
	rq->cmd_flags = REQ_OP_READ | REQ_SYNC;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
	/* fsync, O_SYNC writeback, a journal */
	rq->cmd_flags = REQ_OP_WRITE | REQ_SYNC;
	KUNIT_EXPECT_TRUE(test, cfq_rq_noidle(rq));
	rq->cmd_flags = REQ_OP_WRITE | REQ_SYNC | REQ_FUA;
	KUNIT_EXPECT_TRUE(test, cfq_rq_noidle(rq));
	/* O_DIRECT */
	rq->cmd_flags = REQ_OP_WRITE | REQ_SYNC | REQ_IDLE;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
	/* writeback, and writes sync only by their FUA */
	rq->cmd_flags = REQ_OP_WRITE;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
	rq->cmd_flags = REQ_OP_WRITE | REQ_FUA;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
	/* not a write */
	rq->cmd_flags = REQ_OP_DISCARD | REQ_SYNC;
	KUNIT_EXPECT_FALSE(test, cfq_rq_noidle(rq));
}

static void cfq_test_wl_class(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_RT), CFQ_RT_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_BE), CFQ_BE_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_NONE), CFQ_BE_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_IDLE), CFQ_IDLE_WL);
}

/* ---- the state machine, driven with fake requests and io_cqs ---------- */

#define CFQ_NPROC	4
#define FAR		BIT_ULL(24)

/* A scheduler on a fake queue: what its functions look at, no more. */
struct cfq_fix {
	struct kunit		*test;
	struct request_queue	*q;
	struct blk_mq_hw_ctx	*hctx;
	struct cfq_data		*cfqd;
	struct io_context	ioc[CFQ_NPROC];
	struct cfq_io_cq	cic[CFQ_NPROC];
	bool			exited[CFQ_NPROC];
};

/* The real timer function would run the queues of the fake queue. */
static enum hrtimer_restart cfq_fix_timer_fn(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

/* Undo the fixture: every request must have completed by now. */
static void cfq_fix_exit(void *data)
{
	struct cfq_fix *f = data;
	struct cfq_group *root = f->cfqd->root_group;
	int i;

	hrtimer_cancel(&f->cfqd->idle_timer);
	for (i = 0; i < CFQ_NPROC; i++)
		if (!f->exited[i])
			cfq_exit_icq(&f->cic[i].icq);
	cfq_exit_data(f->cfqd);
	/* No queue outlives its io_cq and requests. */
	KUNIT_EXPECT_EQ(f->test, f->cfqd->nr_queues, 0U);
	/* The reference the cgroup policy would hold. */
	cfq_put_group(root);
}

static struct cfq_fix *cfq_fix_new(struct kunit *test)
{
	struct cfq_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct elevator_queue *eq;
	struct cfq_group *root;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->test = test;
	f->q = kunit_kzalloc(test, sizeof(*f->q), GFP_KERNEL);
	f->hctx = kunit_kzalloc(test, sizeof(*f->hctx), GFP_KERNEL);
	f->cfqd = kunit_kzalloc(test, sizeof(*f->cfqd), GFP_KERNEL);
	eq = kunit_kzalloc(test, sizeof(*eq), GFP_KERNEL);
	/* freed by its last reference, as a cgroup's group is */
	root = kzalloc(sizeof(*root), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, f->q && f->hctx && f->cfqd && eq && root);

	/* a single disk: rotational, a shallow queue (no hw_tag) */
	f->q->queue_depth = 1;
	f->q->limits.features |= BLK_FEAT_ROTATIONAL;
	f->q->elevator = eq;
	/* no merges: the fake requests have no bios */
	blk_queue_flag_set(QUEUE_FLAG_NOMERGES, f->q);
	eq->elevator_data = f->cfqd;
	f->hctx->queue = f->q;

	refcount_set(&root->ref, 1);
	cfq_init_group(root, f->cfqd, NULL, CFQ_WEIGHT_DEFAULT);
	cfq_init_data(f->cfqd, f->q);
	cfq_init_root(f->cfqd, root);
	f->cfqd->idle_timer.function = cfq_fix_timer_fn;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cfq_fix_exit, f),
			0);
	/*
	 * Long slices and idle periods: a slow (debug, TCG) guest must not
	 * see a slice end or a timer fire by itself.  The tests that want
	 * those move the slice's end or call the timer function.
	 */
	f->cfqd->slice[0] = MS(10000);
	f->cfqd->slice[1] = MS(10000);
	f->cfqd->slice_idle = MS(1000);
	f->cfqd->target_latency = MS(100000);
	f->cfqd->fifo_expire[0] = MS(100000);
	f->cfqd->fifo_expire[1] = MS(100000);
	/* no boost: the tests that want it turn it on */
	f->cfqd->new_boost = 0;

	for (i = 0; i < CFQ_NPROC; i++) {
		/* alive, and never freed by a request's put */
		atomic_set(&f->ioc[i].active_ref, 1);
		atomic_long_set(&f->ioc[i].refcount, 1L << 20);
		f->cic[i].icq.q = f->q;
		f->cic[i].icq.ioc = &f->ioc[i];
	}
	return f;
}

/*
 * A 4 KiB read at @pos of process @proc, of I/O priority @prio: the
 * process's (as cfq_prepare_request() records it) and the bio's.
 */
static struct request *cfq_fix_rq(struct cfq_fix *f, int proc, sector_t pos,
				  unsigned short prio)
{
	struct request *rq = kunit_kzalloc(f->test, sizeof(*rq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(f->test, rq);
	rq->q = f->q;
	rq->cmd_flags = REQ_OP_READ | REQ_NOMERGE;
	rq->__sector = pos;
	rq->__data_len = 8 << SECTOR_SHIFT;
	if (prio) {
		/* the class and level are the bio's (req_get_ioprio()) */
		rq->bio = kunit_kzalloc(f->test, sizeof(*rq->bio), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(f->test, rq->bio);
		rq->bio->bi_ioprio = prio;
	}
	rq->start_time_ns = ktime_get_ns();
	INIT_LIST_HEAD(&rq->queuelist);
	RB_CLEAR_NODE(&rq->rb_node);
	/* as cfq_prepare_request() sets it up */
	rq->elv.icq = &f->cic[proc].icq;
	rq->elv.priv[1] = (void *)((unsigned long)prio << CFQ_RQ_PRIO_SHIFT);
	return rq;
}

static void cfq_fix_insert(struct cfq_fix *f, struct request *rq,
			   blk_insert_t flags)
{
	LIST_HEAD(list);

	list_add(&rq->queuelist, &list);
	cfq_insert_requests(f->hctx, &list, flags);
	KUNIT_EXPECT_TRUE(f->test, list_empty(&list));
}

static struct request *cfq_fix_add(struct cfq_fix *f, int proc, sector_t pos)
{
	struct request *rq = cfq_fix_rq(f, proc, pos, 0);

	cfq_fix_insert(f, rq, 0);
	return rq;
}

/* @rq completes now, as blk-mq would end it. */
static void cfq_fix_done(struct cfq_fix *f, struct request *rq)
{
	cfq_completed_request(rq, ktime_get_ns());
	cfq_finish_request(rq);
}

/* The idle timer fires: the wait it was armed for is over. */
static void cfq_fix_fire(struct cfq_fix *f)
{
	f->cfqd->idle_end = min(f->cfqd->idle_end, ktime_get_ns());
	KUNIT_EXPECT_EQ(f->test, cfq_idle_timer_fn(&f->cfqd->idle_timer),
			HRTIMER_NORESTART);
}

/* Process @proc exits: its io_cq goes. */
static void cfq_fix_exit_proc(struct cfq_fix *f, int proc)
{
	cfq_exit_icq(&f->cic[proc].icq);
	f->exited[proc] = true;
}

static struct cfq_queue *cfq_fix_sync_queue(struct cfq_fix *f, int proc)
{
	return f->cic[proc].cfqq[1];
}

static unsigned long cfq_fix_expired(struct cfq_fix *f,
				     enum cfq_expire_why why)
{
	return f->cfqd->stat_expire[why];
}

/*
 * Dispatch and complete everything left, the timer breaking any idling,
 * so that the fixture ends with nothing queued or at the driver.
 */
static void cfq_fix_drain(struct cfq_fix *f)
{
	struct request *rq;
	int i;

	for (i = 0; i < 100 && f->cfqd->rq_queued; i++) {
		rq = cfq_dispatch_request(f->hctx);
		if (rq)
			cfq_fix_done(f, rq);
		else
			cfq_fix_fire(f);
	}
	KUNIT_EXPECT_EQ(f->test, f->cfqd->rq_queued, 0U);
}

/*
 * A queue becomes busy with its first request, is served, idles when its
 * last request completes (a sequential reader's next read may follow),
 * and goes idle when the timer fires with nothing new.
 */
static void cfq_sm_busy_idle(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *cfqq;
	struct request *a;

	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	a = cfq_fix_add(f, 0, 1000);
	cfqq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, cfqq);
	KUNIT_EXPECT_TRUE(test, cfqq_on_rr(cfqq));
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 1U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 1U);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));

	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, cfqq);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 1U);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));

	/* The last request completes: the slice starts, the queue idles. */
	cfq_fix_done(f, a);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 0U);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(cfqq));
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&cfqd->idle_timer));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, cfqq);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));

	/* Nothing came: the slice ends, the queue and its group go idle. */
	cfq_fix_fire(f);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 1UL);
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);
	KUNIT_EXPECT_FALSE(test, cfqq_on_rr(cfqq));
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(cfqq));
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 0U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 0U);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
}

/* The next request of the idling queue ends the idling: a hit. */
static void cfq_sm_idle_hit(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *cfqq;
	struct request *a, *b, *a2;

	a = cfq_fix_add(f, 0, 1000);
	cfqq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(cfqq));
	/* Another process's read waits while the queue idles ... */
	b = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	/* ... and the reader's next read comes: served first. */
	a2 = cfq_fix_add(f, 0, 1008);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_hits, 1UL);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(cfqq));
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&cfqd->idle_timer));
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, cfqq);
	KUNIT_EXPECT_EQ(test, cfqd->stat_slices, 1UL);
	cfq_fix_done(f, a2);
	cfq_fix_drain(f);
	(void)b;
}

/*
 * While the active queue idles, another queue's request is held back;
 * the timer ends the idling, and the queue is run again for it.
 */
static void cfq_sm_idle_timeout(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *b;

	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	b = cfq_fix_add(f, 1, FAR);
	/* Inserting makes blk-mq run the queue: dispatch decides again. */
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 2U);

	cfq_fix_fire(f);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 1UL);
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 1U);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, cfq_fix_sync_queue(f, 1));
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * A queue whose slice is used up gives the disk to the next queue even
 * with requests left, and goes back on its tree behind it.
 */
static void cfq_sm_slice_expiry(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0;
	struct request *a1, *a2, *b;

	a1 = cfq_fix_add(f, 0, 1000);
	a2 = cfq_fix_add(f, 0, 1008);
	b = cfq_fix_add(f, 1, FAR);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	/* The first completion starts the slice ... */
	cfq_fix_done(f, a1);
	KUNIT_EXPECT_GT(test, q0->slice_end, q0->slice_start);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(q0));
	/* ... which lasts: the queue goes on. */
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	cfq_fix_done(f, a2);
	/* Its next request comes when the slice is over. */
	a2 = cfq_fix_add(f, 0, 1016);
	q0->slice_end = q0->slice_start;
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, cfq_fix_sync_queue(f, 1));
	KUNIT_EXPECT_TRUE(test, cfqq_on_rr(q0));
	KUNIT_EXPECT_EQ(test, cfqd->stat_slices, 2UL);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
	KUNIT_EXPECT_EQ(test, cfqd->stat_slices, 3UL);
}

/*
 * The process of the queue cfq idles for exits while another process's
 * request is held back: the idling ends at once and the queue is run
 * again (cfq's first version lost that rerun, and the disk stayed held).
 */
static void cfq_sm_orphan_idling(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *b;

	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	b = cfq_fix_add(f, 1, FAR);
	/* The active queue waits for its request to complete, then idles. */
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	cfq_fix_done(f, a);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(cfqd->active_queue));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));

	cfq_fix_exit_proc(f, 0);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_GONE), 1UL);
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 1U);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&cfqd->idle_timer));
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * A process exits with requests queued: its queue is still served, and
 * it does not idle after its last request (no request can follow).
 */
static void cfq_sm_orphan_queued(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a1, *a2, *b;

	a1 = cfq_fix_add(f, 0, 1000);
	a2 = cfq_fix_add(f, 0, 1008);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	cfq_fix_exit_proc(f, 0);
	b = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_GONE), 0UL);
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	cfq_fix_done(f, a1);
	cfq_fix_done(f, a2);
	/* The orphan's last request is done: no idling, the slice ends. */
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 0UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 1UL);
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 1U);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/* A real-time read takes the disk from a best-effort queue at once. */
static void cfq_sm_preempt_rt(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a1, *a2, *r;

	a1 = cfq_fix_add(f, 0, 1000);
	a2 = cfq_fix_add(f, 0, 1008);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	r = cfq_fix_rq(f, 1, FAR, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 0));
	cfq_fix_insert(f, r, 0);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_PREEMPTED), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	KUNIT_EXPECT_EQ(test, cfqd->stat_dispatched[CFQ_RT_WL], 1UL);
	cfq_fix_done(f, a1);
	cfq_fix_done(f, r);
	cfq_fix_drain(f);
	(void)a2;
}

/*
 * has_work() in every state: nothing queued; queued; held back by an
 * idling queue (no: the timer or a request reruns the queue); an at-head
 * request while held (yes: it bypasses the scheduling); after the timer.
 */
static void cfq_sm_has_work(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct request *a, *b, *h;

	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	a = cfq_fix_add(f, 0, 1000);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	b = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	/* The completion may end the hold: dispatch decides again. */
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	/* A request at the head goes past the idling queue. */
	h = cfq_fix_rq(f, 2, 5000, 0);
	cfq_fix_insert(f, h, BLK_MQ_INSERT_AT_HEAD);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), h);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	cfq_fix_done(f, h);
	cfq_fix_fire(f);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, b);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	cfq_fix_drain(f);
}

/*
 * On a deep device a new queue does not idle on trust: its first read is
 * served and the disk moves on.  A second read close to the first earns
 * the idle window; a second read far away (a random reader) shows the
 * queue seeky at once, and it never idles.
 */
static void cfq_sm_deep_new_queue(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *seq, *rnd;
	struct request *a;

	/* an NCQ disk: a tagged queue of 32, already judged deep */
	f->q->queue_depth = 32;
	cfqd->hw_tag = 1;

	a = cfq_fix_add(f, 0, 1000);
	seq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, seq);
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(seq));
	KUNIT_EXPECT_EQ(test, seq->wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 0UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 1UL);
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);

	/* Close by: the queue idles from now on, from the sync tree. */
	a = cfq_fix_add(f, 0, 1008);
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(seq));
	KUNIT_EXPECT_EQ(test, seq->wl_type, CFQ_SYNC_WL);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(seq));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 1UL);
	cfq_fix_fire(f);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 1UL);

	/* Far away: seeky at its second read. */
	a = cfq_fix_add(f, 1, 1000);
	rnd = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_NOT_NULL(test, rnd);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	a = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(rnd->seek_history, rnd->seek_samples));
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(rnd));
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(rnd));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 1UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 3UL);
	cfq_fix_drain(f);
}

/*
 * On a shallow disk a new queue is judged over 2.6's full window: a
 * sequential reader whose second request seeks (a second file) keeps its
 * idle window.
 */
static void cfq_sm_shallow_early_seek(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *seq;
	struct request *a;

	a = cfq_fix_add(f, 0, 1000);
	seq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, seq);
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(seq));
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(seq));

	a = cfq_fix_add(f, 0, FAR);
	KUNIT_EXPECT_EQ(test, seq->seek_samples, 1);
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(seq));
	KUNIT_EXPECT_EQ(test, seq->wl_type, CFQ_SYNC_WL);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	cfq_fix_drain(f);
}

/*
 * A seeky queue that preempts another of the SYNC_NOIDLE workload being
 * served leaves the workload the time it had left (2.6): started afresh
 * at each such preemption, the workload would never end while its queues
 * take turns, and the other workloads would starve.
 */
static void cfq_sm_preempt_keeps_workload(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *rnd;
	struct request *a, *b;
	u64 expires;

	f->q->queue_depth = 32;
	cfqd->hw_tag = 1;

	a = cfq_fix_add(f, 1, 1 << 20);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	a = cfq_fix_add(f, 1, FAR);
	rnd = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_NOT_NULL(test, rnd);
	KUNIT_EXPECT_EQ(test, rnd->wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_EQ(test, cfqd->serving_wl_type, CFQ_SYNC_NOIDLE_WL);
	expires = cfqd->workload_expires;

	/* a second seeky queue: it preempts, the workload goes on */
	b = cfq_fix_add(f, 2, 1 << 21);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_PREEMPTED), 1UL);
	KUNIT_EXPECT_EQ(test, cfqd->serving_wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_EXPECT_EQ(test, cfqd->workload_expires, expires);
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, a);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * On a deep rotational device (an NCQ disk), a sequential reader (proc 0)
 * that earned its idle window and a random reader (proc 1) that has made
 * one far read: then the random reader's next read (returned) and the
 * sequential reader's (*@b) are queued, each in its own workload.
 */
static struct request *cfq_fix_seq_and_seeky(struct kunit *test,
					     struct cfq_fix *f,
					     struct cfq_queue **seq,
					     struct cfq_queue **rnd,
					     struct request **b)
{
	struct request *a;

	f->q->queue_depth = 32;
	f->cfqd->hw_tag = 1;

	/* a sequential reader earns its idle window, then times out */
	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	a = cfq_fix_add(f, 0, 1008);
	*seq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, *seq);
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(*seq));
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	cfq_fix_fire(f);

	/* a random reader, alone: no idling */
	a = cfq_fix_add(f, 1, 1 << 20);
	*rnd = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_NOT_NULL(test, *rnd);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(*rnd));

	/* now seeky, with the sequential reader waiting in its own tree */
	a = cfq_fix_add(f, 1, FAR);
	*b = cfq_fix_add(f, 0, 1016);
	KUNIT_EXPECT_EQ(test, (*rnd)->wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_EXPECT_EQ(test, (*seq)->wl_type, CFQ_SYNC_WL);
	return a;
}

/*
 * The seeky queue @rnd's read @a is sent, and the disk is held for @rnd
 * while the read is out and, once it completed, by one idle: the
 * sequential reader's request waits.
 */
static void cfq_fix_expect_end_idle(struct kunit *test, struct cfq_fix *f,
				    struct cfq_queue *rnd, struct request *a)
{
	unsigned long idles = f->cfqd->stat_idle_starts;

	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	/* its read at the disk: the sequential reader still waits */
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, f->cfqd->active_queue, rnd);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(rnd));
	KUNIT_EXPECT_EQ(test, f->cfqd->stat_idle_starts, idles + 1);
	cfq_fix_drain(f);
}

/*
 * The last queue of the SYNC_NOIDLE workload keeps the deep disk while a
 * sequential queue of its group waits in the SYNC workload, as 2.6 did,
 * so that the seeky queue is not sent away after each of its requests.
 */
static void cfq_sm_deep_noidle_end(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *seq, *rnd;
	struct request *a, *b;

	a = cfq_fix_seq_and_seeky(test, f, &seq, &rnd, &b);
	cfq_fix_expect_end_idle(test, f, rnd, a);
}

/*
 * The same, but the workload's queues think longer than slice_idle between
 * requests: none would be back before the idle ended, so the disk goes to
 * the waiting sequential reader at once (3.x's think-time check, on the
 * tree's think time).
 */
static void cfq_sm_noidle_end_long_think(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *seq, *rnd;
	struct request *a, *b;
	unsigned long idles;
	int i;

	a = cfq_fix_seq_and_seeky(test, f, &seq, &rnd, &b);
	/* its tree's next request comes twice slice_idle after a completion */
	for (i = 0; i < 20; i++)
		cfq_ttime_add(&rnd->service_tree->ttime, 2 * cfqd->slice_idle,
			      2 * cfqd->slice_idle);
	KUNIT_ASSERT_TRUE(test, cfq_ttime_valid(&rnd->service_tree->ttime));
	idles = cfqd->stat_idle_starts;
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	/* no hold while its read is at the disk, and no idle after it */
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(rnd));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, idles);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * A seeky queue that thinks longer than slice_idle, served last in a
 * SYNC_NOIDLE workload whose other queues are back at once (the tree's
 * think time is short): the workload idles at its end, as 3.x did, and
 * keeps its share of the time instead of ending after one read per queue.
 */
static void cfq_sm_noidle_end_thinker(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *seq, *rnd;
	struct request *a, *b;
	int i;

	a = cfq_fix_seq_and_seeky(test, f, &seq, &rnd, &b);
	for (i = 0; i < 20; i++) {
		cfq_ttime_add(&rnd->ttime, 2 * cfqd->slice_idle,
			      2 * cfqd->slice_idle);
		cfq_ttime_add(&rnd->service_tree->ttime, 0,
			      2 * cfqd->slice_idle);
	}
	KUNIT_ASSERT_TRUE(test, cfq_ttime_valid(&rnd->ttime));
	KUNIT_ASSERT_TRUE(test, cfq_ttime_valid(&rnd->service_tree->ttime));
	cfq_fix_expect_end_idle(test, f, rnd, a);
}

/*
 * A sync write without REQ_IDLE (fsync) decides the idle window while it
 * is the queue's next request, as in 4.x: not when a read comes behind it
 * (the window stays shut, and the queue does not idle once it ran dry),
 * nor when it comes behind a read that goes first (the window stays open).
 */
static void cfq_sm_sync_write_noidle(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0;
	struct request *a, *w, *r;
	int i;

	a = cfq_fix_add(f, 0, 1000);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	/* a process that comes back at once after each request */
	for (i = 0; i < 20; i++)
		cfq_ttime_add(&q0->ttime, MS(1), 2 * cfqd->slice_idle);
	KUNIT_ASSERT_TRUE(test, cfq_ttime_valid(&q0->ttime));
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(q0));

	/* an fsync write behind the read: the read is still next */
	w = cfq_fix_rq(f, 0, 2000, 0);
	w->cmd_flags = REQ_OP_WRITE | REQ_SYNC | REQ_NOMERGE;
	cfq_fix_insert(f, w, 0);
	KUNIT_EXPECT_PTR_EQ(test, q0->next_rq, a);
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(q0));

	/* the read gone, the write is next: a read behind it does not reopen */
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	r = cfq_fix_add(f, 0, 3000);
	KUNIT_EXPECT_PTR_EQ(test, q0->next_rq, w);
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(q0));

	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), w);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	cfq_fix_done(f, a);
	cfq_fix_done(f, w);
	cfq_fix_done(f, r);
	/* dry: no idling, the slice ends */
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(q0));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 0UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 1UL);
	cfq_fix_drain(f);
}

#ifdef CONFIG_CFQ_GROUP_IOSCHED
static void cfq_fix_put_group(void *g)
{
	cfq_put_group(g);
}

/*
 * A group of weight @weight under @parent, as a cgroup's would be:
 * requests whose bio points at the returned blkg go to it.
 */
static struct blkcg_gq *cfq_fix_blkg_under(struct cfq_fix *f,
					   struct cfq_group **gp,
					   struct cfq_group *parent,
					   unsigned int weight)
{
	struct blkcg_gq *blkg = kunit_kzalloc(f->test, sizeof(*blkg),
					      GFP_KERNEL);
	struct cfq_group *g;

	KUNIT_ASSERT_NOT_NULL(f->test, blkg);
	/* freed by its last reference, as a cgroup's group is */
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(f->test, g);
	refcount_set(&g->ref, 1);
	cfq_init_group(g, f->cfqd, parent, weight);
	/* the policy's reference, dropped before the fixture's exit */
	KUNIT_ASSERT_EQ(f->test, kunit_add_action_or_reset(f->test,
							   cfq_fix_put_group,
							   g), 0);
	blkg->pd[blkcg_policy_cfq.plid] = &g->pd;
	*gp = g;
	return blkg;
}

/* A group of the default weight directly under the root. */
static struct blkcg_gq *cfq_fix_blkg(struct cfq_fix *f, struct cfq_group **gp)
{
	return cfq_fix_blkg_under(f, gp, f->cfqd->root_group,
				  CFQ_WEIGHT_DEFAULT);
}

/* A read of process @proc at @pos, in the group of @blkg. */
static struct request *cfq_fix_add_in(struct cfq_fix *f, int proc,
				      sector_t pos, struct blkcg_gq *blkg)
{
	struct request *rq = cfq_fix_rq(f, proc, pos, 0);

	rq->bio = kunit_kzalloc(f->test, sizeof(*rq->bio), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(f->test, rq->bio);
	rq->bio->bi_blkg = blkg;
	cfq_fix_insert(f, rq, 0);
	return rq;
}

/*
 * On a deep device the end of the SYNC_NOIDLE workload idles only while
 * its group has other busy queues, not whenever other queues are busy:
 * two random readers of an array, each alone in its group, do not make
 * the disk wait for either (2.6's collapse on arrays).  The other group's
 * read goes to the disk while the first one's is still there; a rule
 * that counted every busy queue would hold it back.  With @seeky false
 * the two queues have made no request before (nothing shows them
 * random): the first keeps the disk for its group until its read
 * completes, and then idles group_idle for its next.
 */
static void cfq_sm_deep_groups(struct kunit *test, bool seeky)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0, *q1;
	struct request *a, *b, *rq;
	struct blkcg_gq *blkg;
	struct cfq_group *g;

	f->q->queue_depth = 32;
	cfqd->hw_tag = 1;
	blkg = cfq_fix_blkg(f, &g);

	a = cfq_fix_add(f, 0, 1 << 20);
	b = cfq_fix_add_in(f, 1, FAR, blkg);
	q0 = cfq_fix_sync_queue(f, 0);
	q1 = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	KUNIT_ASSERT_NOT_NULL(test, q1);
	KUNIT_EXPECT_PTR_EQ(test, q0->cfqg, cfqd->root_group);
	KUNIT_EXPECT_PTR_EQ(test, q1->cfqg, g);
	KUNIT_EXPECT_EQ(test, q0->wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_EXPECT_EQ(test, q1->wl_type, CFQ_SYNC_NOIDLE_WL);
	KUNIT_EXPECT_EQ(test, cfqd->busy_queues, 2U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 2U);
	if (seeky) {
		/* each has shown 32 far requests */
		q0->seek_history = ~0U;
		q1->seek_history = ~0U;
		q0->seek_samples = 32;
		q1->seek_samples = 32;
	}

	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q0);
	/* a's read at the disk, its group has nothing else waiting */
	rq = cfq_dispatch_request(f->hctx);
	if (seeky) {
		KUNIT_EXPECT_PTR_EQ(test, rq, b);
		KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q1);
		KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 1UL);
	} else {
		KUNIT_EXPECT_NULL(test, rq);
		KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q0);
		KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_EMPTY), 0UL);
	}
	cfq_fix_done(f, a);
	if (rq)
		cfq_fix_done(f, rq);
	KUNIT_EXPECT_EQ(test, cfqq_wait_request(q0), !seeky);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_request(q1));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 0UL);
	KUNIT_EXPECT_EQ(test, cfqd->stat_group_idle_starts, seeky ? 0UL : 1UL);
	cfq_fix_drain(f);
}

static void cfq_sm_deep_noidle_end_groups(struct kunit *test)
{
	cfq_sm_deep_groups(test, true);
}

static void cfq_sm_deep_new_group(struct kunit *test)
{
	cfq_sm_deep_groups(test, false);
}

/* What the first queue of cfq_fix_group_window() has shown. */
enum cfq_fix_window {
	CFQ_FIX_SEQ,		/* sequential: its group idles */
	CFQ_FIX_SEEKY,		/* seeky */
	CFQ_FIX_NOIDLE,		/* next, a sync write with nothing to follow */
	CFQ_FIX_THINKER,	/* thinks longer than group_idle */
	CFQ_FIX_NEW,		/* one request: nothing */
	CFQ_FIX_STALE,		/* sequential, then slice_idle is set to 8 ms */
};

/*
 * slice_idle 0 gives no queue an idle window, and group_idle still holds
 * a deep device for a group whose only queue has shown itself worth it
 * (the group window): its requests complete and the group idles, the
 * other group's read waits.  Not for a seeky queue, one whose next
 * request is a sync write without REQ_IDLE, one that thinks longer than
 * group_idle, or a new one.  Its history is set after its first request
 * and judged at its second, next to the first.  A group window left from
 * slice_idle 0 decides nothing once slice_idle is set again: the queue,
 * deep device and all, has no idle window, so its group does not idle.
 */
static void cfq_fix_group_window(struct kunit *test, enum cfq_fix_window w)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *a2 = NULL, *b, *rq;
	bool idles = w == CFQ_FIX_SEQ;
	bool window = idles || w == CFQ_FIX_STALE;
	struct cfq_queue *q0;
	struct blkcg_gq *blkg;
	struct cfq_group *g;

	f->q->queue_depth = 32;
	cfqd->hw_tag = 1;
	cfqd->slice_idle = 0;
	cfqd->group_idle = MS(1000);
	blkg = cfq_fix_blkg(f, &g);

	a = cfq_fix_rq(f, 0, 1 << 20, 0);
	if (w == CFQ_FIX_NOIDLE)
		a->cmd_flags = REQ_OP_WRITE | REQ_SYNC;
	cfq_fix_insert(f, a, 0);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	if (w != CFQ_FIX_NEW) {
		q0->seek_history = w == CFQ_FIX_SEEKY ? ~0U : 0;
		q0->seek_samples = 32;
		if (w == CFQ_FIX_THINKER) {
			/* a valid mean of 1.5 s, as cfq_ttime_add() keeps it */
			q0->ttime.samples = 256;
			q0->ttime.total = 256 * MS(1500);
			q0->ttime.mean_ns = MS(1500);
		}
		a2 = cfq_fix_add(f, 0, (1 << 20) + 8);
	}
	b = cfq_fix_add_in(f, 1, FAR, blkg);
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(q0));
	KUNIT_EXPECT_EQ(test, cfqq_group_window(q0), window);
	if (w == CFQ_FIX_STALE)
		cfqd->slice_idle = MS(8);

	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	if (a2)
		KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	/* q0 has nothing queued, its requests are at the disk */
	rq = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, rq, idles ? NULL : b);
	cfq_fix_done(f, a);
	if (a2)
		cfq_fix_done(f, a2);
	if (rq)
		cfq_fix_done(f, rq);
	KUNIT_EXPECT_EQ(test, cfqq_wait_request(q0), idles);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 0UL);
	KUNIT_EXPECT_EQ(test, cfqd->stat_group_idle_starts, idles ? 1UL : 0UL);
	cfq_fix_drain(f);
}

static void cfq_sm_group_window_seq(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_SEQ);
}

static void cfq_sm_group_window_seeky(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_SEEKY);
}

static void cfq_sm_group_window_noidle(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_NOIDLE);
}

static void cfq_sm_group_window_thinker(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_THINKER);
}

static void cfq_sm_group_window_new(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_NEW);
}

static void cfq_sm_group_window_stale(struct kunit *test)
{
	cfq_fix_group_window(test, CFQ_FIX_STALE);
}
#else
static void cfq_sm_deep_noidle_end_groups(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_deep_new_group(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_seq(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_seeky(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_noidle(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_thinker(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_new(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_group_window_stale(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}
#endif

/*
 * The idle timer ends only the wait it was armed for.  A timer that goes
 * off before the active queue's wait is over (it was armed for an earlier
 * wait, and its callback waited for the lock while that wait ended and a
 * new one began) leaves the queue waiting; the timer of the new wait ends
 * it.  Before, such a timer cut short the wait of whatever queue was
 * active, queue idle or group idle alike.
 */
static void cfq_sm_stale_idle_timer(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0;
	struct request *a, *b;

	a = cfq_fix_add(f, 0, 1000);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(q0));
	b = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));

	/* a timer of an earlier wait: the queue goes on waiting */
	KUNIT_EXPECT_EQ(test, cfq_idle_timer_fn(&cfqd->idle_timer),
			HRTIMER_NORESTART);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q0);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q0));
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 0UL);
	KUNIT_EXPECT_FALSE(test, cfq_has_work(f->hctx));
	if (!cfqq_wait_request(q0)) {
		/* what follows needs the wait */
		cfq_fix_drain(f);
		return;
	}

	/* the wait ends with a hit, a new one begins: still not its timer */
	a = cfq_fix_add(f, 0, 1008);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_hits, 1UL);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(q0));
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 2UL);
	KUNIT_EXPECT_EQ(test, cfq_idle_timer_fn(&cfqd->idle_timer),
			HRTIMER_NORESTART);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q0));
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 0UL);

	/* its own timer: the wait ends, the other queue gets the disk */
	cfq_fix_fire(f);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT), 1UL);
	KUNIT_EXPECT_TRUE(test, cfq_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * A seek, as 2.6.33 measured it: on a disk more than 800 sectors (400
 * KiB) from the end of the previous request; on an SSD a request under
 * 64 sectors (32 KiB), wherever it is.
 */
static void cfq_sm_seek_distance(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *near, *far;
	struct request *rq;

	cfq_fix_add(f, 0, 1000);
	cfq_fix_add(f, 0, 1008 + 800);		/* 800 sectors on: close */
	cfq_fix_add(f, 1, 1 << 20);
	cfq_fix_add(f, 1, (1 << 20) + 8 + 801);	/* 801 on: a seek */
	near = cfq_fix_sync_queue(f, 0);
	far = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_TRUE(test, near && far);
	KUNIT_EXPECT_EQ(test, near->seek_samples, 1U);
	KUNIT_EXPECT_EQ(test, near->seek_history, 0U);
	KUNIT_EXPECT_EQ(test, far->seek_samples, 1U);
	KUNIT_EXPECT_EQ(test, far->seek_history, 1U);
	cfq_fix_drain(f);

	/* an SSD: 16 KiB is small I/O, 32 KiB is not */
	f->q->limits.features &= ~BLK_FEAT_ROTATIONAL;
	rq = cfq_fix_rq(f, 2, 5000, 0);
	rq->__data_len = 32 << SECTOR_SHIFT;
	cfq_fix_insert(f, rq, 0);
	rq = cfq_fix_rq(f, 2, 5000, 0);
	rq->__data_len = 64 << SECTOR_SHIFT;
	cfq_fix_insert(f, rq, 0);
	KUNIT_EXPECT_EQ(test, cfq_fix_sync_queue(f, 2)->seek_samples, 2U);
	KUNIT_EXPECT_EQ(test, cfq_fix_sync_queue(f, 2)->seek_history, 2U);
	cfq_fix_drain(f);
}

/*
 * A seeky queue that once kept 4 requests queued idles anyway (2.6.33's
 * "deep" queues) on an NCQ disk, where it would not otherwise.  With 6
 * requests it has seeked 5 times: seeky over 2.6's full window too.
 */
static struct cfq_queue *cfq_fix_deep_seeky(struct cfq_fix *f,
					    struct request **rq, int n)
{
	struct cfq_queue *cfqq;
	int i;

	f->q->queue_depth = 32;
	f->cfqd->hw_tag = 1;
	for (i = 0; i < n; i++)
		rq[i] = cfq_fix_add(f, 0, FAR + i * (1 << 21));
	cfqq = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(f->test, cfqq);
	KUNIT_EXPECT_TRUE(f->test, cfq_seeky(cfqq->seek_history,
					     cfqq->seek_samples));
	KUNIT_ASSERT_TRUE(f->test, cfqq_deep(cfqq));
	KUNIT_ASSERT_TRUE(f->test, cfqq_idle_window(cfqq));
	return cfqq;
}

/*
 * Run dry in the first half of its slice, the deep queue is served
 * faster than it sends: it loses the exemption and its idle window.
 */
static void cfq_sm_deep_queue_runs_dry(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct request *rq[6], *b, *r;
	struct cfq_queue *q0;
	int i;

	q0 = cfq_fix_deep_seeky(f, rq, 6);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), rq[0]);
	/* another process waits, in another workload: no preemption */
	b = cfq_fix_add(f, 1, 1000);
	for (i = 1; i < 6; i++)
		KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), rq[i]);
	/* all six at the disk, none completed: dispatch decides again */
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_FALSE(test, cfqq_deep(q0));
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(q0));
	/* still the only queue of its workload: the disk waits for it */
	KUNIT_EXPECT_NULL(test, r);
	for (i = 0; i < 6; i++)
		cfq_fix_done(f, rq[i]);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_drain(f);
	KUNIT_EXPECT_NULL(test, b->elv.priv[0]);
}

/*
 * The same queue run dry after its slice started: before half of it the
 * exemption goes, after half it stays (the queue kept the device busy).
 * A deep queue that is not seeky keeps its idle window either way.
 */
static void cfq_sm_deep_queue_half_slice(struct kunit *test)
{
	static const struct {
		bool seeky, late, keeps;
	} cases[] = {
		{ true, false, false },
		{ true, true, true },
		{ false, false, true },
	};
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		struct cfq_fix *f = cfq_fix_new(test);
		struct request *rq[6], *b;
		struct cfq_queue *q0;
		u64 now, len;
		int i;

		if (cases[c].seeky) {
			q0 = cfq_fix_deep_seeky(f, rq, 6);
		} else {
			f->q->queue_depth = 32;
			f->cfqd->hw_tag = 1;
			for (i = 0; i < 6; i++)
				rq[i] = cfq_fix_add(f, 0, 1000 + 8 * i);
			q0 = cfq_fix_sync_queue(f, 0);
			KUNIT_ASSERT_NOT_NULL(test, q0);
			KUNIT_ASSERT_TRUE(test, cfqq_deep(q0));
			KUNIT_ASSERT_TRUE(test, cfqq_idle_window(q0));
		}
		KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), rq[0]);
		/* its first completion starts the slice */
		cfq_fix_done(f, rq[0]);
		KUNIT_ASSERT_FALSE(test, cfqq_slice_new(q0));
		b = cfq_fix_add(f, 1, FAR / 2);
		for (i = 1; i < 6; i++)
			KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx),
					    rq[i]);
		/* the slice's first or second half */
		now = ktime_get_ns();
		len = q0->slice_end - q0->slice_start;
		q0->slice_start = now;
		if (cases[c].late)
			q0->slice_start -= len * 3 / 4;
		q0->slice_end = q0->slice_start + len;
		KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
		KUNIT_EXPECT_EQ_MSG(test, cfqq_deep(q0), cases[c].keeps,
				    "case %u", c);
		KUNIT_EXPECT_EQ_MSG(test, cfqq_idle_window(q0),
				    cases[c].keeps, "case %u", c);
		for (i = 1; i < 6; i++)
			cfq_fix_done(f, rq[i]);
		cfq_fix_drain(f);
		KUNIT_EXPECT_NULL(test, b->elv.priv[0]);
	}
}

/*
 * An idle period of the deep queue that ends without a request within its
 * slice ends it; one that ends with the slice keeps it (as 2.6.33 to 4.x).
 */
static void cfq_sm_deep_queue_idle_in_vain(struct kunit *test)
{
	int used;

	for (used = 0; used < 2; used++) {
		struct cfq_fix *f = cfq_fix_new(test);
		struct request *rq[4];
		struct cfq_queue *q0;
		int i;

		q0 = cfq_fix_deep_seeky(f, rq, 4);
		for (i = 0; i < 4; i++)
			KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx),
					    rq[i]);
		for (i = 0; i < 4; i++)
			cfq_fix_done(f, rq[i]);
		KUNIT_ASSERT_TRUE(test, cfqq_wait_request(q0));
		KUNIT_EXPECT_TRUE(test, cfqq_deep(q0));
		if (used)
			q0->slice_end = ktime_get_ns();
		cfq_fix_fire(f);
		KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_IDLE_TIMEOUT),
				1UL);
		KUNIT_EXPECT_EQ_MSG(test, cfqq_deep(q0), !!used,
				    "slice used: %d", used);
		cfq_fix_drain(f);
	}
}

/*
 * The tree's think time is sampled from the queues' own requests: a seeky
 * queue whose next request comes long after the tree's last completion
 * makes it long (cfq_sm_noidle_end_long_think: then no idle at the end).
 */
static void cfq_sm_noidle_end_tree_sampled(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *seq, *rnd;
	struct cfq_rb_root *st;
	struct request *a, *b, *rq;
	int i, j;

	a = cfq_fix_seq_and_seeky(test, f, &seq, &rnd, &b);
	st = rnd->service_tree;
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_FALSE(test, cfq_ttime_valid(&st->ttime) &&
			   st->ttime.mean_ns > cfqd->slice_idle);
	cfq_fix_drain(f);
	for (i = 0; i < 8; i++) {
		/* its completion was recorded on its tree: back-date it */
		KUNIT_ASSERT_NE(test, st->ttime.last_end_ns, 0ULL);
		st->ttime.last_end_ns -= 3 * cfqd->slice_idle;
		a = cfq_fix_add(f, 1, FAR + (i + 1) * (1 << 21));
		KUNIT_ASSERT_PTR_EQ(test, rnd->service_tree, st);
		for (j = 0, rq = NULL; j < 4 && !rq; j++) {
			rq = cfq_dispatch_request(f->hctx);
			if (!rq)
				cfq_fix_fire(f);
		}
		KUNIT_ASSERT_PTR_EQ(test, rq, a);
		cfq_fix_done(f, a);
	}
	KUNIT_EXPECT_TRUE(test, cfq_ttime_valid(&st->ttime));
	KUNIT_EXPECT_GT(test, st->ttime.mean_ns, cfqd->slice_idle);
	cfq_fix_drain(f);
}

/*
 * The tunables at their maxima (60000 ms): the slices low_latency and the
 * async workload get are computed without overflowing u64.
 */
static void cfq_test_slices_at_maxima(struct kunit *test)
{
	u64 top = cfq_prio_slice(MS(60000), 0);

	KUNIT_EXPECT_EQ(test, top, MS(108000));
	/* 8 busy queues of slice_sync share a group slice of 60 s */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(top, MS(60000), 0, 8,
						    MS(60000)), MS(13500));
	/* never below two idle periods, nor above the slice itself */
	KUNIT_EXPECT_EQ(test, cfq_low_latency_slice(top, MS(60000), MS(60000),
						    8, MS(60000)), top);
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(60000), 1, 1, true,
						 MS(60000), MS(30000), 0),
			MS(30000));
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(60000), 1, 1, true,
						 MS(60000), MS(60000), 0),
			MS(60000));
	KUNIT_EXPECT_EQ(test, cfq_workload_slice(MS(60000), 3, 3, false,
						 MS(60000), MS(60000),
						 MS(60000)), MS(120000));
}

/*
 * A sync queue is its process's and has its process's priority: a read
 * whose bio asks for RT (io_uring's or aio's per-I/O priority) from a
 * best-effort process stays in its best-effort queue, and the queue moves
 * to RT when the process's priority does.
 */
static void cfq_sm_per_rq_prio(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0;
	struct request *a, *b;

	a = cfq_fix_rq(f, 0, 1000, 0);
	a->bio = kunit_kzalloc(test, sizeof(*a->bio), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a->bio);
	a->bio->bi_ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 0);
	cfq_fix_insert(f, a, 0);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	KUNIT_EXPECT_EQ(test, q0->ioprio_class, IOPRIO_CLASS_BE);
	KUNIT_EXPECT_EQ(test, q0->ioprio, IOPRIO_BE_NORM);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_EQ(test, cfqd->stat_dispatched[CFQ_RT_WL], 0UL);
	KUNIT_EXPECT_EQ(test, cfqd->stat_dispatched[CFQ_BE_WL], 1UL);
	cfq_fix_done(f, a);

	/* ionice -c1 -n2 on the process */
	b = cfq_fix_rq(f, 0, 1008, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 2));
	cfq_fix_insert(f, b, 0);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q0);
	KUNIT_EXPECT_EQ(test, q0->ioprio_class, IOPRIO_CLASS_RT);
	KUNIT_EXPECT_EQ(test, q0->ioprio, 2);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, cfqd->stat_dispatched[CFQ_RT_WL], 1UL);
	cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

/*
 * Requests without an io_cq (its allocation failed) are scheduled in the
 * fallback queue, in sector order like any queue's: not pushed to the head
 * of the dispatch list, where the last one would go first.
 */
static void cfq_sm_no_icq(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *n1, *n2, *rq;

	n1 = cfq_fix_rq(f, 0, 2000, 0);
	n1->elv.icq = NULL;
	n2 = cfq_fix_rq(f, 0, 3000, 0);
	n2->elv.icq = NULL;
	cfq_fix_insert(f, n1, 0);
	cfq_fix_insert(f, n2, 0);
	KUNIT_EXPECT_EQ(test, cfqd->stat_no_icq, 2UL);
	KUNIT_EXPECT_PTR_EQ(test, n1->elv.priv[0], &cfqd->oom_cfqq);
	KUNIT_EXPECT_EQ(test, cfqd->oom_cfqq.queued, 2U);
	KUNIT_EXPECT_TRUE(test, cfqq_on_rr(&cfqd->oom_cfqq));
	KUNIT_EXPECT_TRUE(test, list_empty(&cfqd->dispatch));
	rq = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, rq, n1);
	if (rq)
		cfq_fix_done(f, rq);
	rq = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, rq, n2);
	if (rq)
		cfq_fix_done(f, rq);
	cfq_fix_drain(f);
	/* the requests' references are back */
	KUNIT_EXPECT_EQ(test, cfqd->oom_cfqq.ref, 1);
}

/*
 * A request requeued with RQF_DONTPREP goes back to the driver without
 * the scheduler and completes through it: it stays counted at the driver,
 * and its completion is its queue's (the queue idles after it).
 */
static void cfq_sm_requeue_prepared(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a;

	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	a->rq_flags |= RQF_DONTPREP;
	cfq_requeue_request(a);
	KUNIT_EXPECT_EQ(test, cfqd->stat_requeues, 1UL);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 1U);
	KUNIT_EXPECT_EQ(test, cfq_fix_sync_queue(f, 0)->dispatched, 1U);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 0U);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(cfq_fix_sync_queue(f, 0)));
	cfq_fix_drain(f);
}

/*
 * A request requeued without RQF_DONTPREP leaves the driver's count and
 * comes back at the head; dispatched again, it is counted again, as its
 * queue's.
 */
static void cfq_sm_requeue_reinserted(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0;
	struct request *a;

	a = cfq_fix_add(f, 0, 1000);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_requeue_request(a);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 0U);
	KUNIT_EXPECT_EQ(test, q0->dispatched, 0U);
	cfq_fix_insert(f, a, BLK_MQ_INSERT_AT_HEAD);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 1U);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_flight[1], 1U);
	KUNIT_EXPECT_EQ(test, q0->dispatched, 1U);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_EQ(test, cfqd->rq_in_driver, 0U);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q0));
	cfq_fix_drain(f);
}

#ifdef CONFIG_CFQ_GROUP_IOSCHED
/*
 * wait_busy: a group's only queue, a sequential reader, has its slice end
 * with two reads in flight and nothing queued while another group waits.
 * The first completion does not end the slice and dispatch holds the disk;
 * the last one extends the slice by an idle period; the reader's next read
 * ends it, with the group still on the tree.  Expired at the end of the
 * slice, the queue would have left the tree with its group, which would
 * then come back behind the other group whatever its weight.
 */
static void cfq_sm_wait_busy_keeps_group(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_group *root = cfqd->root_group, *g;
	struct request *a, *a1, *a2, *b;
	struct blkcg_gq *blkg;
	struct cfq_queue *q0;

	blkg = cfq_fix_blkg(f, &g);
	a = cfq_fix_add(f, 0, 1000);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	b = cfq_fix_add_in(f, 1, FAR, blkg);
	cfq_fix_done(f, a);
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(q0));
	a1 = cfq_fix_add(f, 0, 1008);
	a2 = cfq_fix_add(f, 0, 1016);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	/* the slice is over, two reads in flight */
	q0->slice_end = q0->slice_start;

	cfq_fix_done(f, a1);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q0);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 0UL);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_TRUE(test, root->on_st);

	cfq_fix_done(f, a2);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_busy(q0));
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q0));
	KUNIT_EXPECT_EQ(test, cfqd->stat_wait_busy, 1UL);
	KUNIT_EXPECT_GT(test, q0->slice_end, q0->slice_start);
	KUNIT_EXPECT_TRUE(test, cfqq_on_rr(q0));
	KUNIT_EXPECT_TRUE(test, root->on_st);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 2U);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));

	/* the next read: the slice ends, the queue and its group stay */
	a = cfq_fix_add(f, 0, 1024);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 1UL);
	KUNIT_EXPECT_FALSE(test, cfqq_wait_busy(q0));
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);
	KUNIT_EXPECT_TRUE(test, cfqq_on_rr(q0));
	KUNIT_EXPECT_TRUE(test, root->on_st);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 2U);
	KUNIT_EXPECT_GT(test, root->served_ns, 0ULL);
	cfq_fix_drain(f);
	(void)b;
}
#else
static void cfq_sm_wait_busy_keeps_group(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}
#endif

/*
 * The slice of the active queue @q0 is over: a read of process 1 (in the
 * root group) arrives, ends it and goes to the device, its queue (*@q1)
 * now active.
 */
static struct request *cfq_fix_next_turn(struct cfq_fix *f,
					 struct cfq_queue *q0,
					 struct cfq_queue **q1)
{
	struct request *b = cfq_fix_add(f, 1, FAR);

	*q1 = cfq_fix_sync_queue(f, 1);
	q0->slice_end = q0->slice_start;
	KUNIT_ASSERT_PTR_EQ(f->test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_PTR_EQ(f->test, f->cfqd->active_queue, *q1);
	return b;
}

/*
 * A queue whose turn ends with reads still at the device pays for the time
 * until they complete, in its group's virtual time, but not for time past
 * the start of the next queue's slice (that is the next queue's).
 */
static void cfq_sm_tail_charged(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_group *root = cfqd->root_group;
	struct request *a, *a1, *a2, *b;
	struct cfq_queue *q0, *q1;
	u64 vdisktime, served, t1;

	a = cfq_fix_add(f, 0, 1000);
	a1 = cfq_fix_add(f, 0, 1008);
	a2 = cfq_fix_add(f, 0, 1016);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	cfq_fix_done(f, a);
	/* the slice is over, a1 and a2 at the device */
	b = cfq_fix_next_turn(f, q0, &q1);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 1UL);
	KUNIT_EXPECT_NE(test, q0->charged_until, 0ULL);
	vdisktime = root->vdisktime;

	/* a1 completes before q1's first: the time is q0's */
	cfq_fix_done(f, a1);
	KUNIT_EXPECT_GT(test, root->vdisktime, vdisktime);
	KUNIT_EXPECT_NE(test, q0->charged_until, 0ULL);
	t1 = cfqd->tail_charged;

	/* b completes: q1's slice starts; a2's time is charged up to it */
	cfq_fix_done(f, b);
	KUNIT_ASSERT_FALSE(test, cfqq_slice_new(q1));
	served = root->served_ns;
	cfq_fix_done(f, a2);
	KUNIT_EXPECT_EQ(test, root->served_ns - served, q1->slice_start - t1);
	KUNIT_EXPECT_EQ(test, cfqd->tail_charged, q1->slice_start);
	KUNIT_EXPECT_EQ(test, q0->charged_until, 0ULL);
	cfq_fix_drain(f);
}

#ifdef CONFIG_CFQ_GROUP_IOSCHED
/*
 * The tail of a group's only queue, without idling (slice_idle and
 * group_idle 0): the group left the tree when the turn ended, and the
 * tail's time still reaches its virtual time.  The read completes only
 * after the next turn ended: the time of that turn is not charged again.
 */
static void cfq_sm_tail_off_tree(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *a1, *b, *c, *d;
	struct cfq_queue *q0, *q1;
	struct blkcg_gq *blkg;
	struct cfq_group *g;
	u64 vdisktime, served, from;

	cfqd->slice_idle = 0;
	cfqd->group_idle = 0;
	blkg = cfq_fix_blkg(f, &g);
	a = cfq_fix_add_in(f, 0, 1000, blkg);
	a1 = cfq_fix_add_in(f, 0, 1008, blkg);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_NOT_NULL(test, q0);
	KUNIT_ASSERT_PTR_EQ(test, q0->cfqg, g);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a1);
	cfq_fix_done(f, a);
	b = cfq_fix_next_turn(f, q0, &q1);
	KUNIT_EXPECT_FALSE(test, g->on_st);
	vdisktime = g->vdisktime;
	served = g->served_ns;

	/* q1's turn, 2 ms at least, ends when a third queue has work */
	c = cfq_fix_add(f, 1, FAR + 8);
	cfq_fix_done(f, b);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), c);
	usleep_range(2000, 3000);
	cfq_fix_done(f, c);
	q1->slice_end = q1->slice_start;
	d = cfq_fix_add(f, 2, 2 * FAR);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), d);
	KUNIT_EXPECT_PTR_NE(test, cfqd->active_queue, q1);
	from = cfqd->tail_charged;

	cfq_fix_done(f, a1);
	KUNIT_EXPECT_GT(test, g->vdisktime, vdisktime);
	KUNIT_EXPECT_GT(test, g->served_ns, served);
	/* from the end of q1's turn on, not from q0's */
	KUNIT_EXPECT_LE(test, g->served_ns - served, ktime_get_ns() - from);
	KUNIT_EXPECT_EQ(test, q0->charged_until, 0ULL);
	cfq_fix_done(f, d);
	cfq_fix_drain(f);
}

/*
 * Weights divide a parent's part among its children.  A (100) holds A1
 * (100) and A2 (300); B (200) sits beside A under the root.  With a read
 * queued in A1, A2 and B, the top level's weight is A's and B's, 300, and
 * A's 100 of it is split 1:3: hierarchical weights 25, 75 and 200.  A
 * read of the root's own makes the top 400 and changes no other group's
 * weight.  A weight written on A counts from the next charge on its path,
 * and when everything has been served no group counts an active entity.
 * Parts smaller than a weight unit keep their size: with A2 at 1000 and
 * A1 at 1, A1's part of A's 100 is 100/1001.
 */
static void cfq_sm_hier_weights(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_group *root = cfqd->root_group, *a, *a1, *a2, *b;
	struct blkcg_gq *ba1, *ba2, *bb;

	cfq_fix_blkg_under(f, &a, root, 100);
	ba1 = cfq_fix_blkg_under(f, &a1, a, 100);
	ba2 = cfq_fix_blkg_under(f, &a2, a, 300);
	bb = cfq_fix_blkg_under(f, &b, root, 200);

	cfq_fix_add_in(f, 1, 1 << 20, ba1);
	cfq_fix_add_in(f, 2, 2 << 20, ba2);
	cfq_fix_add_in(f, 3, 3 << 20, bb);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 3U);
	KUNIT_EXPECT_FALSE(test, a->on_st);
	KUNIT_EXPECT_EQ(test, a->nr_active, 2U);
	KUNIT_EXPECT_EQ(test, a->children_weight, 400U);
	KUNIT_EXPECT_EQ(test, root->nr_active, 2U);
	KUNIT_EXPECT_EQ(test, root->children_weight, 300U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.total_weight, 300U);
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a1), HW(25U));
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a2), HW(75U));
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(b), HW(200U));

	cfq_fix_add(f, 0, 0);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.total_weight, 400U);
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(root), HW(100U));
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a1), HW(25U));
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a2), HW(75U));
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(b), HW(200U));

	WRITE_ONCE(a->new_weight, 300);
	cfq_fix_drain(f);
	/* the last queue served idles for its next read: none comes */
	cfq_fix_fire(f);
	KUNIT_EXPECT_EQ(test, a->weight, 300U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.count, 0U);
	KUNIT_EXPECT_EQ(test, cfqd->grp_st.total_weight, 0U);
	KUNIT_EXPECT_EQ(test, root->nr_active, 0U);
	KUNIT_EXPECT_EQ(test, root->children_weight, 0U);
	KUNIT_EXPECT_EQ(test, a->nr_active, 0U);
	KUNIT_EXPECT_EQ(test, a->children_weight, 0U);

	a->new_weight = 100;
	a1->new_weight = 1;
	a2->new_weight = 1000;
	cfq_fix_add_in(f, 1, 1 << 20, ba1);
	cfq_fix_add_in(f, 2, 2 << 20, ba2);
	KUNIT_EXPECT_EQ(test, a->children_weight, 1001U);
	/* 100 * 1/1001 of a unit, 102.3 in 1/1024 */
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a1), 102U);
	KUNIT_EXPECT_EQ(test, cfq_group_hweight(a2), HW(100U) - 102U);
	cfq_fix_drain(f);
	cfq_fix_fire(f);
}

/*
 * Groups of weights 100, 200, 400 and 800, one reader each that always
 * has reads queued, take turns through the scheduler itself: each turn
 * the active queue sends a read, the read completes (the slice starts),
 * and the slice is made to end; the expiry charges the group
 * (cfq_group_served()), and the group with the least virtual time goes
 * next.  Whatever each charge is (real time, at least 100 us), the time
 * charged to each group over its weight differs from any other group's
 * by at most the largest single charge over the smallest weight: the
 * groups share the disk time by their weights.
 */
static void cfq_sm_vtime_shares(struct kunit *test)
{
	static const unsigned int w[CFQ_NPROC] = { 100, 200, 400, 800 };
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct blkcg_gq *blkg[CFQ_NPROC];
	struct cfq_group *g[CFQ_NPROC];
	sector_t pos[CFQ_NPROC];
	u64 max_charge = 0, lo = U64_MAX, hi = 0;
	int turn, i, p, turns[CFQ_NPROC] = {};

	for (i = 0; i < CFQ_NPROC; i++) {
		blkg[i] = cfq_fix_blkg_under(f, &g[i], cfqd->root_group, w[i]);
		pos[i] = (sector_t)(i + 1) << 24;
		cfq_fix_add_in(f, i, pos[i], blkg[i]);
		cfq_fix_add_in(f, i, pos[i] + 8, blkg[i]);
		pos[i] += 16;
	}
	for (turn = 0; turn < 1500; turn++) {
		struct cfq_queue *cfqq;
		struct request *rq;
		u64 before = 0, after = 0;

		for (i = 0; i < CFQ_NPROC; i++)
			before += g[i]->served_ns;
		rq = cfq_dispatch_request(f->hctx);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		for (i = 0; i < CFQ_NPROC; i++)
			after += g[i]->served_ns;
		max_charge = max(max_charge, after - before);
		cfqq = rq->elv.priv[0];
		for (p = 0; p < CFQ_NPROC && g[p] != cfqq->cfqg; p++)
			;
		KUNIT_ASSERT_LT(test, p, CFQ_NPROC);
		turns[p]++;
		cfq_fix_done(f, rq);
		cfq_fix_add_in(f, p, pos[p], blkg[p]);
		pos[p] += 8;
		KUNIT_ASSERT_PTR_EQ(test, cfqd->active_queue, cfqq);
		cfqq->slice_end = cfqq->slice_start;
	}
	for (i = 0; i < CFQ_NPROC; i++) {
		u64 norm = div_u64(g[i]->served_ns, w[i]);

		lo = min(lo, norm);
		hi = max(hi, norm);
		kunit_info(test, "weight %u: %d turns, %llu us charged\n", w[i],
			   turns[i], div_u64(g[i]->served_ns, NSEC_PER_USEC));
	}
	KUNIT_EXPECT_LE(test, hi - lo, div_u64(max_charge, w[0]) + 1);
	/* and the heaviest group had most of the turns */
	KUNIT_EXPECT_GT(test, turns[3], turns[0] * 4);
	cfq_fix_drain(f);
	cfq_fix_fire(f);
}

/*
 * Close reads of processes in two groups do not cooperate: the disk is the
 * groups' to share by weight.  Process 0's queue, run dry with process 2
 * waiting far away in its group, idles for its process; process 1's read
 * in the other group, which follows on the disk, waits.
 */
static void cfq_sm_coop_groups(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_group *ga, *gb;
	struct blkcg_gq *ba = cfq_fix_blkg(f, &ga), *bb = cfq_fix_blkg(f, &gb);
	struct request *a;

	a = cfq_fix_add_in(f, 0, 1000, ba);
	cfq_fix_add_in(f, 2, FAR, ba);
	cfq_fix_add_in(f, 1, 1008, bb);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_COOP), 0UL);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(cfq_fix_sync_queue(f, 0)));
	cfq_fix_drain(f);
	cfq_fix_fire(f);
}
#else
static void cfq_sm_tail_off_tree(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_hier_weights(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_vtime_shares(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}

static void cfq_sm_coop_groups(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}
#endif

/*
 * Processes 0 and 1 read one stream between them.  Process 0's queue has
 * sent its read; process 1's read, queued, follows it on the disk.  With
 * cooperators on, that read is served at once (no idling for process 0)
 * and the two queues are set up to merge; with them off, process 0's
 * queue keeps the disk and idles.  Returns process 1's queue.
 */
static struct cfq_queue *cfq_fix_coop(struct cfq_fix *f, bool on)
{
	struct kunit *test = f->test;
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q0, *q1;
	struct request *a, *b;

	cfqd->cooperators = on;
	a = cfq_fix_add(f, 0, 1000);
	b = cfq_fix_add(f, 1, 1008);
	q0 = cfq_fix_sync_queue(f, 0);
	q1 = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	if (!on) {
		KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
		cfq_fix_done(f, a);
		KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q0));
		KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 1UL);
		KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_COOP), 0UL);
		KUNIT_EXPECT_NULL(test, q0->new_cfqq);
		cfq_fix_drain(f);
		return q1;
	}
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q1);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_COOP), 1UL);
	/* one process each: the expiring queue's process moves */
	KUNIT_EXPECT_PTR_EQ(test, q0->new_cfqq, q1);
	KUNIT_EXPECT_NULL(test, q1->new_cfqq);
	cfq_fix_done(f, a);
	cfq_fix_done(f, b);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q1);
	return q1;
}

/*
 * The cooperating processes end up in one queue: process 0 moves with its
 * next read, which queues behind process 1's idling queue and ends its
 * idle; the queue is shared, and the one process 0 left is freed.
 */
static void cfq_sm_coop_merge(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true);
	unsigned int queues = cfqd->nr_queues;
	struct request *a2;

	a2 = cfq_fix_add(f, 0, 1016);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q1);
	KUNIT_EXPECT_TRUE(test, cfqq_coop(q1));
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 1UL);
	KUNIT_EXPECT_EQ(test, cfqd->nr_queues, queues - 1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_hits, 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	cfq_fix_done(f, a2);
	/* Process 1 exits: the queue is still process 0's, not orphaned. */
	cfq_fix_exit_proc(f, 1);
	KUNIT_EXPECT_FALSE(test, cfqq_orphan(q1));
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q1));
	cfq_fix_drain(f);
}

static void cfq_sm_coop_off(struct kunit *test)
{
	cfq_fix_coop(cfq_fix_new(test), false);
}

/*
 * Process 0 exits before it moves: the reference it held on the queue it
 * was to move to goes with it (the fixture's end finds no queue left).
 * Process 1 exited before, with a read at the device: its queue, held
 * then only for process 0, has no process left and is orphaned, so that
 * it does not idle when that read completes.
 */
static void cfq_sm_coop_exit(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true);
	unsigned long idles = cfqd->stat_idle_starts;
	struct request *b2;
	int refs;

	b2 = cfq_fix_add(f, 1, 1016);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b2);
	refs = q1->ref;
	cfq_fix_exit_proc(f, 1);
	KUNIT_EXPECT_EQ(test, q1->ref, refs - 1);
	KUNIT_EXPECT_FALSE(test, cfqq_orphan(q1));
	cfq_fix_exit_proc(f, 0);
	KUNIT_EXPECT_EQ(test, q1->ref, refs - 2);
	KUNIT_EXPECT_TRUE(test, cfqq_orphan(q1));
	cfq_fix_done(f, b2);
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);
	KUNIT_EXPECT_EQ(test, cfqd->stat_idle_starts, idles);
}

/*
 * A third process cooperates with the shared queue of two: the merge goes
 * the other way (the one process moves), and the three share one queue.
 */
static void cfq_sm_coop_chain(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true), *q2;
	struct request *a2, *c, *c2;

	a2 = cfq_fix_add(f, 0, 1016);
	KUNIT_ASSERT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q1);
	c = cfq_fix_add(f, 2, 1024);
	q2 = cfq_fix_sync_queue(f, 2);
	KUNIT_ASSERT_PTR_NE(test, q2, q1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a2);
	KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), c);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_COOP), 2UL);
	KUNIT_EXPECT_PTR_EQ(test, q2->new_cfqq, q1);
	KUNIT_EXPECT_NULL(test, q1->new_cfqq);
	cfq_fix_done(f, a2);
	cfq_fix_done(f, c);
	c2 = cfq_fix_add(f, 2, 1032);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 2), q1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 2UL);
	KUNIT_EXPECT_EQ(test, q1->ref - q1->allocated, 3);
	cfq_fix_drain(f);
	(void)c2;
}

/*
 * cooperators 0 keeps every process on a queue of its own: a merge set up
 * before does not move its process (it does once they are on again), and
 * a shared queue gives each process but its last a queue of its own.
 */
static void cfq_sm_coop_off_later(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true), *q0;

	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, q0->new_cfqq, q1);
	cfqd->cooperators = 0;
	cfq_fix_add(f, 0, 1016);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q0);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 0UL);
	cfq_fix_drain(f);
	cfqd->cooperators = 1;
	cfq_fix_add(f, 0, 1 << 20);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 1UL);
	cfq_fix_drain(f);

	cfqd->cooperators = 0;
	cfq_fix_add(f, 0, 1 << 21);
	KUNIT_EXPECT_PTR_NE(test, cfq_fix_sync_queue(f, 0), q1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_splits, 1UL);
	cfq_fix_add(f, 1, 1 << 22);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 1), q1);
	KUNIT_EXPECT_FALSE(test, cfqq_coop(q1));
	cfq_fix_drain(f);
}

/*
 * A process whose I/O priority is no longer its queue's does not move
 * into a merged queue of the old priority: there its requests would take
 * the other process's queued reads to the new one.  Back at the old
 * priority it moves; and when its priority changes again it leaves the
 * shared queue for one of its own, the shared queue keeping its priority.
 */
static void cfq_sm_coop_prio(struct kunit *test)
{
	const unsigned short be7 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7);
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true), *q0, *own;

	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_ASSERT_PTR_EQ(test, q0->new_cfqq, q1);
	cfq_fix_insert(f, cfq_fix_rq(f, 0, 1016, be7), 0);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q0);
	KUNIT_EXPECT_EQ(test, q0->ioprio, 7);
	cfq_fix_insert(f, cfq_fix_rq(f, 0, 1024, be7), 0);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q0);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 0UL);
	KUNIT_EXPECT_EQ(test, q1->ioprio, IOPRIO_BE_NORM);
	cfq_fix_drain(f);

	/* its queue back at the old priority first, then the move */
	cfq_fix_add(f, 0, 1032);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q0);
	cfq_fix_add(f, 0, 1040);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_merges, 1UL);

	cfq_fix_insert(f, cfq_fix_rq(f, 0, 1 << 20, be7), 0);
	own = cfq_fix_sync_queue(f, 0);
	KUNIT_EXPECT_PTR_NE(test, own, q1);
	KUNIT_EXPECT_EQ(test, own->ioprio, 7);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_splits, 1UL);
	KUNIT_EXPECT_EQ(test, q1->ioprio, IOPRIO_BE_NORM);
	KUNIT_EXPECT_EQ(test, q1->ref - q1->allocated, 1);
	cfq_fix_drain(f);
}

/*
 * The shared queue turns seeky (its processes read far apart now): at the
 * end of its slice it is marked for splitting, and each process but the
 * last gets a queue of its own with its next request.
 */
static void cfq_sm_coop_split(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1 = cfq_fix_coop(f, true);
	struct request *rq;
	int i;

	rq = cfq_fix_add(f, 0, 1016);
	KUNIT_ASSERT_PTR_EQ(test, cfq_fix_sync_queue(f, 0), q1);
	for (i = 1; i <= 6; i++)
		cfq_fix_add(f, i & 1, FAR + i * (1 << 21));
	KUNIT_EXPECT_TRUE(test, cfq_seeky(q1->seek_history, 32));
	cfq_fix_drain(f);
	cfq_fix_fire(f);
	KUNIT_EXPECT_NULL(test, cfqd->active_queue);
	KUNIT_EXPECT_TRUE(test, cfqq_split_coop(q1));

	rq = cfq_fix_add(f, 0, 1 << 20);
	KUNIT_EXPECT_PTR_NE(test, cfq_fix_sync_queue(f, 0), q1);
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_splits, 1UL);
	rq = cfq_fix_add(f, 1, 1 << 22);
	KUNIT_EXPECT_PTR_EQ(test, cfq_fix_sync_queue(f, 1), q1);
	KUNIT_EXPECT_FALSE(test, cfqq_coop(q1));
	KUNIT_EXPECT_FALSE(test, cfqq_split_coop(q1));
	KUNIT_EXPECT_EQ(test, cfqd->stat_coop_splits, 1UL);
	cfq_fix_drain(f);
	(void)rq;
}

/*
 * Only a queue of the active queue's own tree cooperates: process 1's
 * queue, whose process has exited (no idle window: the SYNC_NOIDLE tree),
 * has a read that follows on the disk, but process 0's queue idles all
 * the same.
 */
static void cfq_sm_coop_same_tree(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct request *a, *b;

	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	atomic_set(&f->ioc[1].active_ref, 0);
	b = cfq_fix_add(f, 1, 1008);
	atomic_set(&f->ioc[1].active_ref, 1);
	KUNIT_ASSERT_EQ(test, cfq_fix_sync_queue(f, 1)->wl_type,
			CFQ_SYNC_NOIDLE_WL);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_COOP), 0UL);
	cfq_fix_done(f, a);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(cfq_fix_sync_queue(f, 0)));
	cfq_fix_drain(f);
	(void)b;
}

enum cfq_boost_case {
	CFQ_BOOST_ON,		/* process 1 boosted, process 0 not */
	CFQ_BOOST_BOTH,		/* both boosted */
	CFQ_BOOST_NO_LOW_LAT,	/* low_latency 0 since process 1 started */
	CFQ_BOOST_OVER,		/* process 1's boost has ended */
	CFQ_BOOST_LOWER,	/* process 1 boosted, at a lower level */
	CFQ_BOOST_BURST,	/* process 1 starts late in a burst */
};

/*
 * Process 0 streams, started before any boost; process 1 starts (a
 * boosted queue) with a read far away.  Its read takes the disk at once,
 * unless both are boosted, low_latency is 0, its boost has ended, its
 * level is lower, or it started in a burst of processes.
 */
static void cfq_sm_boost_case(struct kunit *test, enum cfq_boost_case c)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	bool preempt = c == CFQ_BOOST_ON;
	bool boosted = c == CFQ_BOOST_ON || c == CFQ_BOOST_BOTH ||
		       c == CFQ_BOOST_LOWER;
	unsigned short prio = 0;
	struct request *a1, *a2, *b, *r;

	if (c == CFQ_BOOST_OVER || c == CFQ_BOOST_NO_LOW_LAT) {
		/* process 1's first read, before process 0 streams */
		cfqd->new_boost = MS(100000);
		b = cfq_fix_add(f, 1, FAR);
		KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
		cfq_fix_done(f, b);
		/* it idles for process 1's next read: none comes */
		cfq_fix_fire(f);
		KUNIT_ASSERT_NULL(test, cfqd->active_queue);
		KUNIT_ASSERT_TRUE(test, cfqq_boosted(cfqd,
						     cfq_fix_sync_queue(f, 1),
						     ktime_get_ns()));
		if (c == CFQ_BOOST_OVER)
			cfq_fix_sync_queue(f, 1)->boost_end = ktime_get_ns();
		cfqd->new_boost = 0;
	}
	if (c == CFQ_BOOST_BOTH)
		cfqd->new_boost = MS(100000);
	a1 = cfq_fix_add(f, 0, 1000);
	a2 = cfq_fix_add(f, 0, 1008);
	/* after process 1's read far away, either may be nearer the head */
	r = cfq_dispatch_request(f->hctx);
	KUNIT_ASSERT_TRUE(test, r == a1 || r == a2);
	if (r == a2)
		swap(a1, a2);
	cfqd->new_boost = MS(100000);
	if (c == CFQ_BOOST_NO_LOW_LAT)
		cfqd->low_latency = 0;
	if (c == CFQ_BOOST_LOWER)
		prio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7);
	if (c == CFQ_BOOST_BURST) {
		/* eight processes started just now */
		cfqd->burst_last = ktime_get_ns();
		cfqd->burst_size = 8;
	}
	b = cfq_fix_rq(f, 1, FAR + 1000, prio);
	cfq_fix_insert(f, b, 0);
	KUNIT_EXPECT_EQ(test, cfqq_boosted(cfqd, cfq_fix_sync_queue(f, 1),
					   ktime_get_ns()), boosted);
	KUNIT_EXPECT_EQ(test, cfqd->stat_burst_unboosted,
			(unsigned long)(c == CFQ_BOOST_BURST));
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_PREEMPTED),
			(unsigned long)preempt);
	KUNIT_EXPECT_EQ(test, cfqd->stat_boost_preempts, (unsigned long)preempt);
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, r, preempt ? b : a2);
	cfq_fix_done(f, a1);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_drain(f);
}

static void cfq_sm_boost_preempt(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_ON);
}

static void cfq_sm_boost_both(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_BOTH);
}

static void cfq_sm_boost_no_low_latency(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_NO_LOW_LAT);
}

static void cfq_sm_boost_over(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_OVER);
}

static void cfq_sm_boost_lower(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_LOWER);
}

static void cfq_sm_boost_burst(struct kunit *test)
{
	cfq_sm_boost_case(test, CFQ_BOOST_BURST);
}

/*
 * A boosted queue takes the disk from the async queue in the middle of
 * its slice, where an unboosted sync queue waits for the slice's end.
 */
static void cfq_sm_boost_async(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct request *w1, *w2, *b, *r;

	w1 = cfq_fix_rq(f, 0, 1000, 0);
	w1->cmd_flags = REQ_OP_WRITE | REQ_NOMERGE;
	w2 = cfq_fix_rq(f, 0, 1008, 0);
	w2->cmd_flags = REQ_OP_WRITE | REQ_NOMERGE;
	cfq_fix_insert(f, w1, 0);
	cfq_fix_insert(f, w2, 0);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), w1);
	f->cfqd->new_boost = MS(100000);
	b = cfq_fix_add(f, 1, FAR);
	KUNIT_EXPECT_EQ(test, f->cfqd->stat_boost_preempts, 1UL);
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, r, b);
	cfq_fix_done(f, w1);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_drain(f);
}

/*
 * A boosted process that has moved CFQ_BOOST_MAX_SECTORS streams: its boost
 * ends at the dispatch that passes the bound.
 */
static void cfq_sm_boost_capped(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *cfqq;
	struct request *r;

	f->cfqd->new_boost = MS(100000);
	r = cfq_fix_add(f, 1, FAR);
	cfqq = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_TRUE(test, cfqq_boosted(f->cfqd, cfqq, ktime_get_ns()));
	f->cic[1].boost_sectors = CFQ_BOOST_MAX_SECTORS - 8;
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	cfq_fix_done(f, r);
	KUNIT_EXPECT_EQ(test, f->cfqd->stat_boost_capped, 0UL);
	r = cfq_fix_add(f, 1, FAR + 8);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	KUNIT_EXPECT_EQ(test, f->cfqd->stat_boost_capped, 1UL);
	KUNIT_EXPECT_FALSE(test, cfqq_boosted(f->cfqd, cfqq, ktime_get_ns()));
	KUNIT_EXPECT_EQ(test, f->cic[1].boost_end, 0ULL);
	cfq_fix_done(f, r);
	cfq_fix_drain(f);
}

/*
 * A queue whose process thinks 15 ms, longer than slice_idle (8 ms),
 * loses its idle window; a boosted one keeps it and idles for
 * CFQ_BOOST_IDLE_NS (20 ms).
 */
static void cfq_sm_boost_thinker_case(struct kunit *test, bool boost)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *cfqq;
	struct request *r;
	u64 t;
	int i;

	f->cfqd->slice_idle = MS(8);
	f->cfqd->new_boost = boost ? MS(100000) : 0;
	r = cfq_fix_add(f, 1, 1000);
	cfqq = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	cfq_fix_done(f, r);
	cfq_fix_fire(f);
	for (i = 0; i < 8; i++)
		cfq_ttime_add(&cfqq->ttime, MS(15), MS(32));
	KUNIT_ASSERT_TRUE(test, cfq_ttime_valid(&cfqq->ttime));
	r = cfq_fix_add(f, 1, 1008);
	KUNIT_EXPECT_EQ(test, cfqq_idle_window(cfqq), boost);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	t = ktime_get_ns();
	cfq_fix_done(f, r);
	KUNIT_EXPECT_EQ(test, cfqq_wait_request(cfqq), boost);
	if (boost) {
		KUNIT_EXPECT_GE(test, f->cfqd->idle_end, t + MS(20));
		cfq_fix_fire(f);
	}
	cfq_fix_drain(f);
}

static void cfq_sm_boost_thinker(struct kunit *test)
{
	cfq_sm_boost_thinker_case(test, true);
}

static void cfq_sm_thinker(struct kunit *test)
{
	cfq_sm_boost_thinker_case(test, false);
}

/* @n reads of @proc, every other one far away, each served in turn. */
static void cfq_fix_seeky_reads(struct cfq_fix *f, int proc, int n)
{
	struct request *rq;
	int i;

	for (i = 0; i < n; i++) {
		rq = cfq_fix_add(f, proc, (i & 1) ? FAR + i * 8 : 1000 + i * 8);
		KUNIT_ASSERT_PTR_EQ(f->test, cfq_dispatch_request(f->hctx), rq);
		cfq_fix_done(f, rq);
	}
}

/*
 * A seeky queue loses its idle window; a boosted one keeps it, and idles
 * for its next read when it runs dry.
 */
static void cfq_sm_boost_seeky_idles(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *q0, *q1;

	cfq_fix_seeky_reads(f, 0, 10);
	q0 = cfq_fix_sync_queue(f, 0);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(q0->seek_history, 32));
	KUNIT_EXPECT_FALSE(test, cfqq_idle_window(q0));
	cfq_fix_drain(f);

	f->cfqd->new_boost = MS(100000);
	cfq_fix_seeky_reads(f, 1, 10);
	q1 = cfq_fix_sync_queue(f, 1);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(q1->seek_history, 32));
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(q1));
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q1));
	cfq_fix_drain(f);
}

/*
 * A boosted seeky queue that runs dry early in its slice, with its read
 * at the disk, keeps its idle window, and the disk: a stream that waits
 * sends nothing that the disk could serve before that read.
 */
static void cfq_sm_boost_dry_holds(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *q1;
	struct request *a, *b;

	/* process 0 starts before boosts are on: it is not boosted */
	a = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	cfq_fix_done(f, a);
	cfq_fix_fire(f);
	f->cfqd->new_boost = MS(100000);
	cfq_fix_seeky_reads(f, 1, 10);
	q1 = cfq_fix_sync_queue(f, 1);
	KUNIT_ASSERT_TRUE(test, cfq_seeky(q1->seek_history, 32));
	a = cfq_fix_add(f, 0, 1008);
	b = cfq_fix_add(f, 1, FAR + 4096);
	KUNIT_ASSERT_PTR_EQ(test, f->cfqd->active_queue, q1);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_TRUE(test, cfqq_idle_window(q1));
	KUNIT_EXPECT_PTR_EQ(test, f->cfqd->active_queue, q1);
	cfq_fix_done(f, b);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q1));
	cfq_fix_drain(f);
}

/*
 * Process 0 is served once (boosted if @both), then process 1 starts at
 * @prio (0: the default), boosted, is served once and idles for its next
 * read: its queue.
 */
static struct cfq_queue *cfq_fix_boost_second_prio(struct cfq_fix *f,
						   bool both,
						   unsigned short prio)
{
	struct cfq_queue *q1;
	struct request *rq;

	if (both)
		f->cfqd->new_boost = MS(100000);
	rq = cfq_fix_add(f, 0, 1000);
	KUNIT_ASSERT_PTR_EQ(f->test, cfq_dispatch_request(f->hctx), rq);
	cfq_fix_done(f, rq);
	cfq_fix_fire(f);
	f->cfqd->new_boost = MS(100000);
	rq = cfq_fix_rq(f, 1, FAR, prio);
	cfq_fix_insert(f, rq, 0);
	KUNIT_ASSERT_PTR_EQ(f->test, cfq_dispatch_request(f->hctx), rq);
	q1 = cfq_fix_sync_queue(f, 1);
	cfq_fix_done(f, rq);
	KUNIT_ASSERT_TRUE(f->test, cfqq_wait_request(q1));
	return q1;
}

static struct cfq_queue *cfq_fix_boost_second(struct cfq_fix *f, bool both)
{
	return cfq_fix_boost_second_prio(f, both, 0);
}

/* @cfqq's process thinks 5 ms between its requests. */
static void cfq_fix_thinks_5ms(struct cfq_fix *f, struct cfq_queue *cfqq)
{
	int i;

	for (i = 0; i < 8; i++)
		cfq_ttime_add(&cfqq->ttime, MS(5), MS(32));
	KUNIT_ASSERT_TRUE(f->test, cfq_ttime_valid(&cfqq->ttime));
}

/*
 * The slice of a boosted queue (process 1) ends while its read is at the
 * disk: the slice is extended and the queue idles for its next read,
 * rather than leave the disk to the stream (process 0) that waits.  Not
 * when the stream is boosted too: the disk goes to it.
 */
static void cfq_sm_boost_renew_case(struct kunit *test, bool both)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct cfq_queue *q1;
	struct request *a, *b;
	u64 start;

	q1 = cfq_fix_boost_second(f, both);
	a = cfq_fix_add(f, 0, 1008);
	b = cfq_fix_add(f, 1, FAR + 8);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	/* the slice ends while the read is at the disk */
	start = q1->slice_start;
	q1->slice_end = ktime_get_ns();
	cfq_fix_done(f, b);
	KUNIT_EXPECT_EQ(test, cfqd->stat_boost_extended, (unsigned long)!both);
	if (!both) {
		/* extended, not restarted: the group is charged it all */
		KUNIT_EXPECT_EQ(test, q1->slice_start, start);
		KUNIT_EXPECT_GT(test, q1->slice_end, ktime_get_ns());
	}
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE),
			(unsigned long)both);
	KUNIT_EXPECT_EQ(test, cfqq_wait_request(q1), !both);
	b = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, b, both ? a : NULL);
	if (b)
		cfq_fix_done(f, b);
	cfq_fix_drain(f);
}

static void cfq_sm_boost_renew(struct kunit *test)
{
	cfq_sm_boost_renew_case(test, false);
}

static void cfq_sm_boost_renew_both(struct kunit *test)
{
	cfq_sm_boost_renew_case(test, true);
}

/*
 * While writeback of its group waits, a boosted queue's used slice is
 * extended once a turn, not more: its second used slice ends, and the
 * async queue gets its turn.  With no writeback waiting it is extended
 * again.
 */
static void cfq_sm_boost_renew_async_case(struct kunit *test, bool async)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *w = NULL, *b;
	struct cfq_queue *q1;
	int i;

	q1 = cfq_fix_boost_second(f, false);
	if (async) {
		w = cfq_fix_rq(f, 0, 1000, 0);
		w->cmd_flags = REQ_OP_WRITE | REQ_NOMERGE;
		cfq_fix_insert(f, w, 0);
	}
	for (i = 0; i < 2; i++) {
		b = cfq_fix_add(f, 1, FAR + 8 + i * 8);
		KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
		q1->slice_end = ktime_get_ns();
		cfq_fix_done(f, b);
		KUNIT_EXPECT_EQ(test, cfqd->stat_boost_extended,
				async ? 1UL : i + 1UL);
		KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE),
				async ? (unsigned long)i : 0UL);
		KUNIT_EXPECT_EQ(test, cfqq_wait_request(q1), !async || !i);
	}
	if (async) {
		KUNIT_EXPECT_PTR_EQ(test, cfq_dispatch_request(f->hctx), w);
		cfq_fix_done(f, w);
	}
	cfq_fix_drain(f);
}

static void cfq_sm_boost_renew_async(struct kunit *test)
{
	cfq_sm_boost_renew_async_case(test, true);
}

static void cfq_sm_boost_renew_again(struct kunit *test)
{
	cfq_sm_boost_renew_async_case(test, false);
}

/*
 * The limit on requests injected beside a boosted queue: it opens at 1
 * with the first read timed alone, rises by one for a read that took less
 * than 3/2 of the reads' mean time alone with injected requests at the
 * device, if the requests at the device reached it meanwhile, and falls by
 * one for a slower one, down to 0.
 */
static void cfq_test_inject_adjust(struct kunit *test)
{
	struct cfq_queue q = {};

	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(1), 1, MS(1), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 0U);
	cfq_inject_adjust(&q, CFQ_INJECT_OTHERS, MS(1), 2, MS(1), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 0U);
	KUNIT_EXPECT_EQ(test, q.inject_base_ns, 0ULL);
	cfq_inject_adjust(&q, CFQ_INJECT_ALONE, MS(8), 1, MS(2), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 1U);
	KUNIT_EXPECT_EQ(test, q.inject_base_ns, MS(8));
	/* a mean of the reads alone, each new one weighing 1/8 */
	cfq_inject_adjust(&q, CFQ_INJECT_ALONE, MS(16), 1, MS(3), 8);
	KUNIT_EXPECT_EQ(test, q.inject_base_ns, MS(9));
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(13), 1, MS(4), 2);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 2U);
	/* quick, but 2 at the device were never reached: no evidence */
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(13), 1, MS(5), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 2U);
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(13), 2, MS(5), 2);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 2U);
	/* 13.5 ms is 3/2 of 9 */
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(13) + MS(1) / 2, 2,
			  MS(6), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 1U);
	KUNIT_EXPECT_EQ(test, q.inject_cut, MS(6));
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(40), 1, MS(7), 8);
	cfq_inject_adjust(&q, CFQ_INJECT_INJECTED, MS(40), 1, MS(8), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 0U);
	KUNIT_EXPECT_EQ(test, q.inject_cut, MS(8));
	/* alone again: the limit stays shut until it is tried again */
	cfq_inject_adjust(&q, CFQ_INJECT_ALONE, MS(9), 1, MS(9), 8);
	KUNIT_EXPECT_EQ(test, q.inject_limit, 0U);
}

/*
 * A boosted queue (process 1) idles for its next read while a stream
 * (process 0) waits.  Its process thinks longer than slice_idle: one of
 * the stream's requests goes to the disk beside it and the boosted queue
 * keeps the disk (a quick thinker's, or one not yet known, gets nothing
 * beside it: cfq_sm_boost_renew).  The boosted read that follows,
 * timed with that request at the disk, raises the limit when it was quick
 * and lowers it when slow; a limit of 0 injects nothing until
 * CFQ_INJECT_PROBE_NS after it was lowered.
 */
static void cfq_sm_boost_inject_case(struct kunit *test, bool slow)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *b, *c, *d;
	struct cfq_queue *q1;

	q1 = cfq_fix_boost_second(f, false);
	KUNIT_ASSERT_EQ(test, q1->inject_limit, 1U);
	a = cfq_fix_add(f, 0, 1008);
	/* it thinks 5 ms, less than slice_idle: nothing beside it */
	cfq_fix_thinks_5ms(f, q1);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	/* more than slice_idle */
	cfqd->slice_idle = MS(2);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), a);
	c = cfq_fix_add(f, 0, 1016);
	KUNIT_EXPECT_EQ(test, cfqd->stat_injected, 1UL);
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q1);
	KUNIT_EXPECT_TRUE(test, cfqq_wait_request(q1));
	/* one request at the disk: the limit */
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	b = cfq_fix_add(f, 1, FAR + 8);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, cfqd->inject_seen, CFQ_INJECT_INJECTED);
	cfq_fix_done(f, a);
	/* its time alone: far longer, or far shorter, than it takes now */
	q1->inject_base_ns = slow ? 1 : MS(100000);
	cfqd->inject_rq_start -= MS(1);
	cfq_fix_done(f, b);
	KUNIT_EXPECT_EQ(test, q1->inject_limit, slow ? 0U : 2U);
	KUNIT_EXPECT_EQ(test, cfqd->stat_inject_cuts, (unsigned long)slow);
	KUNIT_ASSERT_TRUE(test, cfqq_wait_request(q1));
	d = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, d, slow ? NULL : c);
	if (slow) {
		/* tried again at 1 once CFQ_INJECT_PROBE_NS has passed */
		q1->inject_cut = ktime_get_ns() - CFQ_INJECT_PROBE_NS;
		d = cfq_dispatch_request(f->hctx);
		KUNIT_EXPECT_PTR_EQ(test, d, c);
		KUNIT_EXPECT_EQ(test, q1->inject_limit, 1U);
	}
	KUNIT_EXPECT_PTR_EQ(test, cfqd->active_queue, q1);
	if (d)
		cfq_fix_done(f, d);
	KUNIT_EXPECT_EQ(test, cfqd->inject_in_driver, 0U);
	cfq_fix_drain(f);
}

/*
 * A boosted RT queue (process 1) idles for its next read, its process
 * thinking longer than slice_idle: a BE stream's request (process 0) is
 * not sent beside it.
 */
static void cfq_sm_boost_inject_rt(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_queue *q1;

	q1 = cfq_fix_boost_second_prio(f, false,
				       IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 4));
	KUNIT_ASSERT_EQ(test, q1->ioprio_class, (unsigned short)IOPRIO_CLASS_RT);
	KUNIT_ASSERT_TRUE(test, cfqq_boosted(f->cfqd, q1, ktime_get_ns()));
	KUNIT_ASSERT_EQ(test, q1->inject_limit, 1U);
	cfq_fix_thinks_5ms(f, q1);
	f->cfqd->slice_idle = MS(2);
	cfq_fix_add(f, 0, 1008);
	KUNIT_EXPECT_NULL(test, cfq_dispatch_request(f->hctx));
	KUNIT_EXPECT_EQ(test, f->cfqd->stat_injected, 0UL);
	KUNIT_EXPECT_PTR_EQ(test, f->cfqd->active_queue, q1);
	cfq_fix_drain(f);
}

static void cfq_sm_boost_inject(struct kunit *test)
{
	cfq_sm_boost_inject_case(test, false);
}

static void cfq_sm_boost_inject_slow(struct kunit *test)
{
	cfq_sm_boost_inject_case(test, true);
}

#ifdef CONFIG_CFQ_GROUP_IOSCHED
/*
 * The boosted queue's slice is not extended while another group is busy:
 * groups share the disk by their weights, and a boost works within a
 * group only.
 */
static void cfq_sm_boost_no_renew_groups(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct blkcg_gq *blkg;
	struct cfq_queue *q1;
	struct request *a, *b, *r;
	struct cfq_group *g;

	blkg = cfq_fix_blkg(f, &g);
	q1 = cfq_fix_boost_second(f, false);
	a = cfq_fix_add_in(f, 2, 1 << 20, blkg);
	KUNIT_ASSERT_EQ(test, cfqd->grp_st.count, 2U);
	b = cfq_fix_add(f, 1, FAR + 8);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), b);
	q1->slice_end = ktime_get_ns();
	cfq_fix_done(f, b);
	/* its group may wait busy for it; then that wait ends too */
	q1->slice_end = ktime_get_ns();
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_EQ(test, cfqd->stat_boost_extended, 0UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 1UL);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_drain(f);
	KUNIT_EXPECT_NULL(test, a->elv.priv[0]);
}
#else
static void cfq_sm_boost_no_renew_groups(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CFQ_GROUP_IOSCHED");
}
#endif

/*
 * Processes 1 and 2 start beside a stream (process 0).  Process 2 waits
 * ahead of the stream, which was busy first.  The slice of 1 ends with a
 * read queued while 2 waits: not extended, and 1 goes behind 2, the
 * other boosted queue, but ahead of the stream.
 */
static void cfq_sm_boost_requeue(struct kunit *test)
{
	struct cfq_fix *f = cfq_fix_new(test);
	struct cfq_data *cfqd = f->cfqd;
	struct request *a, *b, *c, *r;
	struct cfq_queue *q1;

	q1 = cfq_fix_boost_second(f, false);
	/* the stream waits first; process 2 goes ahead of it */
	a = cfq_fix_add(f, 0, 1008);
	c = cfq_fix_add(f, 2, 2 * FAR);
	r = cfq_fix_add(f, 1, FAR + 8);
	KUNIT_ASSERT_PTR_EQ(test, cfq_dispatch_request(f->hctx), r);
	b = cfq_fix_add(f, 1, FAR + 16);
	q1->slice_end = ktime_get_ns();
	cfq_fix_done(f, r);
	KUNIT_EXPECT_EQ(test, cfqd->stat_boost_extended, 0UL);
	KUNIT_EXPECT_EQ(test, cfq_fix_expired(f, CFQ_EXP_SLICE), 1UL);
	/* process 2's turn, then process 1's, then the stream's */
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, r, c);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_fire(f);
	r = cfq_dispatch_request(f->hctx);
	KUNIT_EXPECT_PTR_EQ(test, r, b);
	if (r)
		cfq_fix_done(f, r);
	cfq_fix_drain(f);
}

static struct kunit_case cfq_test_cases[] = {
	KUNIT_CASE(cfq_test_prio_slice),
	KUNIT_CASE(cfq_test_prio_monotonic),
	KUNIT_CASE(cfq_test_low_latency),
	KUNIT_CASE(cfq_test_low_latency_round),
	KUNIT_CASE(cfq_test_group_slice),
	KUNIT_CASE(cfq_test_workload_slice),
	KUNIT_CASE(cfq_test_scale_charge),
	KUNIT_CASE(cfq_test_slice_charge),
	KUNIT_CASE(cfq_test_noidle_preempt),
	KUNIT_CASE(cfq_test_ttime),
	KUNIT_CASE(cfq_test_seeky),
	KUNIT_CASE(cfq_test_req_cost),
	KUNIT_CASE(cfq_test_maxrq),
	KUNIT_CASE(cfq_test_rq_noidle),
	KUNIT_CASE(cfq_test_wl_class),
	KUNIT_CASE(cfq_test_inject_adjust),
	KUNIT_CASE(cfq_sm_busy_idle),
	KUNIT_CASE(cfq_sm_idle_hit),
	KUNIT_CASE(cfq_sm_idle_timeout),
	KUNIT_CASE(cfq_sm_slice_expiry),
	KUNIT_CASE(cfq_sm_orphan_idling),
	KUNIT_CASE(cfq_sm_orphan_queued),
	KUNIT_CASE(cfq_sm_preempt_rt),
	KUNIT_CASE(cfq_sm_has_work),
	KUNIT_CASE(cfq_sm_deep_new_queue),
	KUNIT_CASE(cfq_sm_seek_distance),
	KUNIT_CASE(cfq_sm_deep_queue_runs_dry),
	KUNIT_CASE(cfq_sm_deep_queue_half_slice),
	KUNIT_CASE(cfq_sm_deep_queue_idle_in_vain),
	KUNIT_CASE(cfq_sm_shallow_early_seek),
	KUNIT_CASE(cfq_sm_preempt_keeps_workload),
	KUNIT_CASE(cfq_sm_deep_noidle_end),
	KUNIT_CASE(cfq_sm_noidle_end_long_think),
	KUNIT_CASE(cfq_sm_noidle_end_thinker),
	KUNIT_CASE(cfq_sm_noidle_end_tree_sampled),
	KUNIT_CASE(cfq_sm_sync_write_noidle),
	KUNIT_CASE(cfq_sm_deep_noidle_end_groups),
	KUNIT_CASE(cfq_sm_deep_new_group),
	KUNIT_CASE(cfq_sm_group_window_seq),
	KUNIT_CASE(cfq_sm_group_window_seeky),
	KUNIT_CASE(cfq_sm_group_window_noidle),
	KUNIT_CASE(cfq_sm_group_window_thinker),
	KUNIT_CASE(cfq_sm_group_window_new),
	KUNIT_CASE(cfq_sm_group_window_stale),
	KUNIT_CASE(cfq_sm_stale_idle_timer),
	KUNIT_CASE(cfq_test_slices_at_maxima),
	KUNIT_CASE(cfq_sm_per_rq_prio),
	KUNIT_CASE(cfq_sm_no_icq),
	KUNIT_CASE(cfq_sm_requeue_prepared),
	KUNIT_CASE(cfq_sm_requeue_reinserted),
	KUNIT_CASE(cfq_sm_wait_busy_keeps_group),
	KUNIT_CASE(cfq_sm_tail_charged),
	KUNIT_CASE(cfq_sm_tail_off_tree),
	KUNIT_CASE(cfq_sm_hier_weights),
	KUNIT_CASE(cfq_sm_vtime_shares),
	KUNIT_CASE(cfq_sm_coop_merge),
	KUNIT_CASE(cfq_sm_coop_off),
	KUNIT_CASE(cfq_sm_coop_exit),
	KUNIT_CASE(cfq_sm_coop_chain),
	KUNIT_CASE(cfq_sm_coop_off_later),
	KUNIT_CASE(cfq_sm_coop_prio),
	KUNIT_CASE(cfq_sm_coop_split),
	KUNIT_CASE(cfq_sm_coop_same_tree),
	KUNIT_CASE(cfq_sm_coop_groups),
	KUNIT_CASE(cfq_sm_boost_preempt),
	KUNIT_CASE(cfq_sm_boost_both),
	KUNIT_CASE(cfq_sm_boost_no_low_latency),
	KUNIT_CASE(cfq_sm_boost_over),
	KUNIT_CASE(cfq_sm_boost_lower),
	KUNIT_CASE(cfq_sm_boost_burst),
	KUNIT_CASE(cfq_sm_boost_async),
	KUNIT_CASE(cfq_sm_boost_capped),
	KUNIT_CASE(cfq_sm_boost_thinker),
	KUNIT_CASE(cfq_sm_thinker),
	KUNIT_CASE(cfq_sm_boost_seeky_idles),
	KUNIT_CASE(cfq_sm_boost_dry_holds),
	KUNIT_CASE(cfq_sm_boost_renew),
	KUNIT_CASE(cfq_sm_boost_renew_both),
	KUNIT_CASE(cfq_sm_boost_renew_async),
	KUNIT_CASE(cfq_sm_boost_renew_again),
	KUNIT_CASE(cfq_sm_boost_inject),
	KUNIT_CASE(cfq_sm_boost_inject_slow),
	KUNIT_CASE(cfq_sm_boost_inject_rt),
	KUNIT_CASE(cfq_sm_boost_no_renew_groups),
	KUNIT_CASE(cfq_sm_boost_requeue),
	{}
};

static struct kunit_suite cfq_test_suite = {
	.name = "cfq-iosched",
	.test_cases = cfq_test_cases,
};

kunit_test_suite(cfq_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the CFQ I/O scheduler");
MODULE_LICENSE("GPL");
