// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of CFQ's arithmetic: slices per priority level, the
 * low_latency scaling, workload slices, group virtual time and what a
 * turn is charged, preemption in the SYNC_NOIDLE workload, think time,
 * the seeky history and the cost of a request (back seeks).
 */
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/ioprio.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/time64.h>

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
static void cfq_test_scale_charge(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), 100), MS(100));
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), 200), MS(50));
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(100), 800), MS(100) / 8);
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(1), 1), MS(100));
	/* A weight of 0 (never accepted) cannot divide by zero. */
	KUNIT_EXPECT_EQ(test, cfq_scale_charge(MS(1), 0), MS(100));
}

/*
 * Groups of weights 100, 200, 400 and 800 served in vdisktime order, each
 * turn a fixed slice: the time each gets is in proportion to its weight.
 */
static void cfq_test_vtime_shares(struct kunit *test)
{
	static const unsigned int w[] = { 100, 200, 400, 800 };
	u64 vt[4] = {}, got[4] = {}, total = 0;
	int turn, i;

	for (turn = 0; turn < 1500; turn++) {
		int best = 0;

		for (i = 1; i < 4; i++)
			if (vt[i] < vt[best])
				best = i;
		got[best] += MS(10);
		total += MS(10);
		vt[best] += cfq_scale_charge(MS(10), w[best]);
	}
	for (i = 0; i < 4; i++) {
		u64 want = div_u64(total * w[i], 1500);

		KUNIT_EXPECT_LE(test, got[i], want + want / 50);
		KUNIT_EXPECT_GE(test, got[i], want - want / 50);
	}
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
 * The weights of issue 13's benchmark on a disk: 4 groups of 100, 200, 400
 * and 800, one sequential reader each, every reader's region apart from
 * the others'.  A turn starts with a seek (6 ms) and a first read (1 ms);
 * the slice then runs from that first completion for the length
 * low_latency gives the group (its weight's share of target_latency:
 * 20, 40, 80 ms; the 800 group is held to slice_sync, 100 ms).  The seek
 * is the same for every group, the slices are not: the time each group
 * reads (its bytes) must still follow its weight.
 */
static void cfq_test_vtime_seek_shares(struct kunit *test)
{
	static const unsigned int w[] = { 100, 200, 400, 800 };
	const u64 seek = MS(6), first = MS(1);
	u64 vt[4] = {}, read[4] = {}, total = 0, now = 0;
	int turn, i;

	for (turn = 0; turn < 2000; turn++) {
		u64 slice, start;
		int g = 0;

		for (i = 1; i < 4; i++)
			if (vt[i] < vt[g])
				g = i;
		slice = cfq_low_latency_slice(cfq_prio_slice(MS(100), 4),
					      MS(100), MS(8), 1,
					      cfq_group_slice(MS(300), w[g],
							      1500));
		start = now + seek + first;
		read[g] += first + slice;
		total += first + slice;
		vt[g] += cfq_scale_charge(cfq_slice_charge(now, start,
							   start + slice),
					  w[g]);
		now = start + slice;
	}
	for (i = 0; i < 4; i++) {
		u64 want = div_u64(total * w[i], 1500);

		/* issue 13 asks for 10%; the first reads make up to 5% */
		KUNIT_EXPECT_LE(test, read[i], want + want / 20);
		KUNIT_EXPECT_GE(test, read[i], want - want / 20);
	}
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

	for (i = 0; i < 4; i++)
		h = cfq_seek_push(h, true);
	KUNIT_EXPECT_FALSE(test, cfq_seeky(h));	/* 4 of 32: not yet */
	h = cfq_seek_push(h, true);
	KUNIT_EXPECT_TRUE(test, cfq_seeky(h));
	/* 28 close requests push the seeks out of the window. */
	for (i = 0; i < 28; i++)
		h = cfq_seek_push(h, false);
	KUNIT_EXPECT_FALSE(test, cfq_seeky(h));
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

static void cfq_test_wl_class(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_RT), CFQ_RT_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_BE), CFQ_BE_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_NONE), CFQ_BE_WL);
	KUNIT_EXPECT_EQ(test, cfq_wl_class_of(IOPRIO_CLASS_IDLE), CFQ_IDLE_WL);
}

static struct kunit_case cfq_test_cases[] = {
	KUNIT_CASE(cfq_test_prio_slice),
	KUNIT_CASE(cfq_test_prio_monotonic),
	KUNIT_CASE(cfq_test_low_latency),
	KUNIT_CASE(cfq_test_low_latency_round),
	KUNIT_CASE(cfq_test_group_slice),
	KUNIT_CASE(cfq_test_workload_slice),
	KUNIT_CASE(cfq_test_scale_charge),
	KUNIT_CASE(cfq_test_vtime_shares),
	KUNIT_CASE(cfq_test_slice_charge),
	KUNIT_CASE(cfq_test_vtime_seek_shares),
	KUNIT_CASE(cfq_test_noidle_preempt),
	KUNIT_CASE(cfq_test_ttime),
	KUNIT_CASE(cfq_test_seeky),
	KUNIT_CASE(cfq_test_req_cost),
	KUNIT_CASE(cfq_test_maxrq),
	KUNIT_CASE(cfq_test_wl_class),
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
