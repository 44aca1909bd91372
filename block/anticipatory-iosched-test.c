// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the anticipatory I/O scheduler: per-process statistics,
 * the "close" window, the anticipation decision and each reason to stop
 * waiting, and the write batch self-tuning; then the state machine itself,
 * its real functions driven on a fake queue with fake requests and io_cqs.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/time64.h>

#include "elevator.h"
#include "anticipatory-iosched.h"

#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

static void as_test_ttime_mean(struct kunit *test)
{
	struct as_proc_stats st = {};
	int i;

	as_stats_add_ttime(&st, MS(2), MS(12));
	KUNIT_EXPECT_EQ(test, st.ttime_samples, 1U);
	KUNIT_EXPECT_EQ(test, st.ttime_mean, MS(2));

	/* Converges to a constant input and stays there. */
	for (i = 0; i < 100; i++)
		as_stats_add_ttime(&st, MS(2), MS(12));
	KUNIT_EXPECT_EQ(test, st.ttime_mean, MS(2));
	KUNIT_EXPECT_EQ(test, st.ttime_samples, 101U);

	/* One sample moves the mean by 1/8 of the difference. */
	as_stats_add_ttime(&st, MS(10), MS(12));
	KUNIT_EXPECT_EQ(test, st.ttime_mean, MS(3));

	/* Samples are clipped to the cap. */
	as_stats_add_ttime(&st, MS(1000), MS(11));
	KUNIT_EXPECT_EQ(test, st.ttime_mean, MS(4));

	/* The sample counter saturates. */
	for (i = 0; i < 300; i++)
		as_stats_add_ttime(&st, 0, MS(12));
	KUNIT_EXPECT_EQ(test, st.ttime_samples, (u32)AS_SAMPLES_MAX);
	KUNIT_EXPECT_EQ(test, st.ttime_mean, 0ULL);
}

static void as_test_ttime_decay(struct kunit *test)
{
	struct as_proc_stats st = {};
	int n = 0;

	/* A long pause, capped at 2 * antic_expire, decays below it quickly. */
	as_stats_add_ttime(&st, MS(5000), MS(12));
	KUNIT_EXPECT_EQ(test, st.ttime_mean, MS(12));
	while (st.ttime_mean > MS(6) && n < 100) {
		as_stats_add_ttime(&st, 0, MS(12));
		n++;
	}
	KUNIT_EXPECT_LE(test, n, 6);
}

static void as_test_seek_mean(struct kunit *test)
{
	struct as_proc_stats st = {};

	/* The first request only records the position. */
	as_stats_add_seek(&st, 1000, 8, NULL);
	KUNIT_EXPECT_EQ(test, st.seek_samples, 0U);
	KUNIT_EXPECT_TRUE(test, st.have_pos);
	KUNIT_EXPECT_EQ(test, (u64)st.last_end, 1008ULL);

	/* Sequential: distance 0. */
	as_stats_add_seek(&st, 1008, 8, NULL);
	KUNIT_EXPECT_EQ(test, st.seek_samples, 1U);
	KUNIT_EXPECT_EQ(test, st.seek_mean, 0ULL);

	/* Backward seek counts its absolute distance. */
	as_stats_add_seek(&st, 16, 8, NULL);
	KUNIT_EXPECT_EQ(test, st.seek_mean, 1000ULL / 8);

	/* Huge seeks are clipped. */
	as_stats_add_seek(&st, (sector_t)1 << 40, 8, NULL);
	KUNIT_EXPECT_EQ(test, st.seek_mean,
			(7 * (1000ULL / 8) + AS_SEEK_CAP) / 8);
}

static void as_test_new_proc_means(struct kunit *test)
{
	struct as_proc_stats fresh = {}, st = {}, view;
	int i;

	/* The first AS_MIN_SAMPLES seeks of a process go to the new means. */
	as_stats_add_seek(&st, 0, 8, &fresh);
	for (i = 1; i <= 5; i++)
		as_stats_add_seek(&st, i * 10000, 8, &fresh);
	KUNIT_EXPECT_EQ(test, st.seek_samples, 5U);
	KUNIT_EXPECT_EQ(test, fresh.seek_samples, (u32)AS_MIN_SAMPLES);
	KUNIT_EXPECT_EQ(test, fresh.seek_mean, 10000ULL - 8);

	/* A process with no samples is judged by the new means ... */
	memset(&st, 0, sizeof(st));
	as_stats_view(&view, &st, &fresh);
	KUNIT_EXPECT_EQ(test, view.seek_mean, 10000ULL - 8);
	KUNIT_EXPECT_EQ(test, view.seek_samples, (u32)AS_MIN_SAMPLES);
	KUNIT_EXPECT_EQ(test, view.ttime_samples, 0U);

	/* ... and by its own once it has enough. */
	for (i = 0; i < AS_MIN_SAMPLES; i++) {
		as_stats_add_ttime(&fresh, MS(9), MS(12));
		as_stats_add_ttime(&st, MS(1), MS(12));
	}
	as_stats_view(&view, &st, &fresh);
	KUNIT_EXPECT_EQ(test, view.ttime_mean, MS(1));
	st.ttime_samples = AS_MIN_SAMPLES - 1;
	as_stats_view(&view, &st, &fresh);
	KUNIT_EXPECT_EQ(test, view.ttime_mean, MS(9));

	/* New means from too few processes are not trusted. */
	fresh.ttime_samples = AS_MIN_SAMPLES - 1;
	as_stats_view(&view, &st, &fresh);
	KUNIT_EXPECT_EQ(test, view.ttime_mean, MS(1));
}

static void as_test_close(struct kunit *test)
{
	const sector_t last = 1000000;

	/* At the start: AS_CLOSE_BASE ahead, half of that behind. */
	KUNIT_EXPECT_TRUE(test, as_close(last, last + AS_CLOSE_BASE, 0, MS(6)));
	KUNIT_EXPECT_FALSE(test, as_close(last, last + AS_CLOSE_BASE + 1, 0,
					  MS(6)));
	KUNIT_EXPECT_TRUE(test, as_close(last, last - AS_CLOSE_BASE / 2, 0,
					 MS(6)));
	KUNIT_EXPECT_FALSE(test, as_close(last, last - AS_CLOSE_BASE / 2 - 1, 0,
					  MS(6)));
	/* Doubles every millisecond waited. */
	KUNIT_EXPECT_TRUE(test, as_close(last, last + 8 * AS_CLOSE_BASE,
					 MS(3), MS(6)));
	KUNIT_EXPECT_FALSE(test, as_close(last, last + 8 * AS_CLOSE_BASE + 1,
					  MS(3) - 1, MS(6)));
	KUNIT_EXPECT_TRUE(test, as_close(last, last - 4 * AS_CLOSE_BASE,
					 MS(3) + 1, MS(6)));
	/* Everything, once antic_expire or AS_CLOSE_MAX_MS passed. */
	KUNIT_EXPECT_TRUE(test, as_close(last, 0, MS(6), MS(6)));
	KUNIT_EXPECT_TRUE(test, as_close(0, (sector_t)1 << 40, MS(21), MS(50)));
	KUNIT_EXPECT_FALSE(test, as_close(0, (sector_t)1 << 40, MS(20), MS(50)));
}

static void as_test_seek_cost(struct kunit *test)
{
	/* Ahead: the distance; behind: twice the distance. */
	KUNIT_EXPECT_EQ(test, as_seek_cost(1000, 1000), 0ULL);
	KUNIT_EXPECT_EQ(test, as_seek_cost(1000, 1300), 300ULL);
	KUNIT_EXPECT_EQ(test, as_seek_cost(1000, 900), 200ULL);
	/* A step back beats a seek more than twice as far ahead ... */
	KUNIT_EXPECT_LT(test, as_seek_cost(1000, 900), as_seek_cost(1000, 1201));
	/* ... not one less than twice as far. */
	KUNIT_EXPECT_GT(test, as_seek_cost(1000, 900), as_seek_cost(1000, 1199));
	/* Up to AS_MAXBACK behind, not beyond. */
	KUNIT_EXPECT_EQ(test, as_seek_cost(AS_MAXBACK + 10, 10),
			AS_BACK_PENALTY * AS_MAXBACK);
	KUNIT_EXPECT_EQ(test, as_seek_cost(AS_MAXBACK + 10, 9), U64_MAX);
}

/* A process with good statistics: short think time, sequential. */
static struct as_proc_stats good_st = {
	.ttime_mean = 500 * NSEC_PER_USEC,
	.ttime_samples = 10,
	.seek_mean = 0,
	.seek_samples = 10,
};

/* The awaited process's own read, at @pos. */
static void own_read(struct as_antic_input *in, sector_t pos)
{
	in->have_rq = true;
	in->rq_same_process = true;
	in->rq_pos = pos;
}

static struct as_antic_input base_input(void)
{
	struct as_antic_input in = {
		.antic_expire_ns = MS(6),
		.st = &good_st,
		.last_pos = 1000000,
	};
	return in;
}

static void as_test_decide_wait(struct kunit *test)
{
	struct as_antic_input in = base_input();

	/* Nothing else to do: keep waiting, before and after completion. */
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.waiting_next = true;
	in.elapsed_ns = MS(3);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);

	/* A far read of another process does not end the wait. */
	in.have_rq = true;
	in.rq_pos = 50000000;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);

	/* A new process (no samples) is given the benefit of the doubt. */
	{
		struct as_proc_stats fresh = {};

		in.st = &fresh;
		KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	}
}

static void as_test_decide_hit(struct kunit *test)
{
	struct as_antic_input in = base_input();

	in.waiting_next = true;
	in.elapsed_ns = MS(1);
	own_read(&in, in.last_pos);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
	in.rq_pos = in.last_pos + AS_CLOSE_BASE;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
	/* A short backward seek is close too. */
	in.rq_pos = in.last_pos - 8;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
}

static void as_test_decide_new_proc(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats fresh = {}, st = {}, view;

	/* New processes recently thought longer than antic_expire. */
	fresh.ttime_mean = MS(8);
	fresh.ttime_samples = AS_MIN_SAMPLES;
	as_stats_view(&view, &st, &fresh);
	in.st = &view;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_THINKTIME);
	/* Their seeks were long: a read closer than that ends the wait. */
	fresh.ttime_mean = MS(1);
	fresh.seek_mean = 1ULL << 20;
	fresh.seek_samples = AS_MIN_SAMPLES;
	as_stats_view(&view, &st, &fresh);
	in.have_rq = true;
	in.rq_pos = in.last_pos + (1 << 19);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_CLOSE_OTHER);
}

static void as_test_break_async(struct kunit *test)
{
	struct as_antic_input in = base_input();

	/* A write of the awaited process, wherever it is. */
	in.have_rq = true;
	in.rq_same_process = true;
	in.rq_async = true;
	in.rq_pos = in.last_pos + 100 * AS_SEEKY;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_ASYNC);
	in.rq_pos = in.last_pos;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_ASYNC);
}

static void as_test_break_far(struct kunit *test)
{
	struct as_antic_input in = base_input();

	own_read(&in, in.last_pos + 100 * AS_CLOSE_BASE);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_FAR);
}

static void as_test_break_timeout(struct kunit *test)
{
	struct as_antic_input in = base_input();

	in.waiting_next = true;
	in.elapsed_ns = MS(6);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_TIMEOUT);
	/* Before the read completed, time does not count. */
	in.waiting_next = false;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
}

static void as_test_break_thinktime(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats slow = good_st;

	slow.ttime_mean = MS(7);
	in.st = &slow;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_THINKTIME);

	/* Exactly antic_expire still waits. */
	slow.ttime_mean = MS(6);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);

	/* Too few samples: not trusted yet. */
	slow.ttime_mean = MS(100);
	slow.ttime_samples = AS_MIN_SAMPLES - 1;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);

	/* Its own request still ends the wait as a hit. */
	slow.ttime_samples = AS_MIN_SAMPLES;
	own_read(&in, in.last_pos);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
}

static void as_test_break_exit(struct kunit *test)
{
	struct as_antic_input in = base_input();

	in.exited = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_EXITED);
	/* Exit wins over a pending hit ... */
	own_read(&in, in.last_pos);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_EXITED);
	/* ... a likely exit does not: its read is there already. */
	in.exited = false;
	in.exit_likely = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
	in.have_rq = false;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_EXIT_PROB);
}

static void as_test_break_close_other(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats seeky = good_st;

	in.have_rq = true;
	in.rq_pos = in.last_pos + 16;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_CLOSE_OTHER);

	/* Outside the window: keep waiting for a sequential process ... */
	in.rq_pos = in.last_pos + 3 * AS_CLOSE_BASE;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	/* ... but the window grows while we wait. */
	in.waiting_next = true;
	in.elapsed_ns = MS(5);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_CLOSE_OTHER);

	/* Closer than what a seeky process is expected to issue. */
	in.waiting_next = false;
	in.elapsed_ns = 0;
	seeky.seek_mean = 1ULL << 20;
	in.st = &seeky;
	in.rq_pos = in.last_pos + (1 << 19);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_CLOSE_OTHER);
}

static void as_test_break_seeky(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats seeky = good_st;

	seeky.seek_mean = 1ULL << 20;
	in.st = &seeky;
	/* Nothing else waits: waiting costs nothing, keep waiting. */
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	/* Another process's read, farther than its mean seek. */
	in.have_rq = true;
	in.rq_pos = in.last_pos + (1ULL << 21);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_SEEKY);
	/* Not seeky below the threshold. */
	seeky.seek_mean = AS_SEEKY;
	in.rq_pos = in.last_pos + 10 * AS_SEEKY;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
}

static void as_test_break_fifo(struct kunit *test)
{
	struct as_antic_input in = base_input();

	in.fifo_expired = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_FIFO_EXPIRED);
}

static void as_test_break_boost(struct kunit *test)
{
	struct as_antic_input in = base_input();

	/* A far read of a boosted process, while waiting for one that is not. */
	in.have_rq = true;
	in.rq_pos = 50000000;
	in.rq_boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_BOOST);
	/* Not if the awaited process is boosted too ... */
	in.boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	/* ... and a read that is not boosted does not end a boosted wait. */
	in.rq_boosted = false;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	/* Its own read is a hit, as for any process. */
	own_read(&in, in.last_pos);
	in.rq_boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_HIT);
}

/*
 * A boosted process is waited for whatever its think time, and though
 * new processes tend to exit; its window (as_antic_window()) still ends.
 */
static void as_test_boost_thinker(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats slow = good_st;

	slow.ttime_mean = MS(15);
	in.st = &slow;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_THINKTIME);
	in.boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.exit_likely = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.boosted = false;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_THINKTIME);
	slow.ttime_mean = MS(1);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_EXIT_PROB);
	/* the boosted window, AS_BOOST_ANTIC_NS, ends the wait */
	in.boosted = true;
	in.waiting_next = true;
	in.antic_expire_ns = AS_BOOST_ANTIC_NS;
	in.elapsed_ns = MS(19);
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.elapsed_ns = AS_BOOST_ANTIC_NS;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_TIMEOUT);
}

/*
 * While a boosted process is awaited, another process's request ends the
 * wait neither when close nor because the awaited process is seeky; an
 * expired FIFO, the batch's end and the window still do.
 */
static void as_test_boost_holds(struct kunit *test)
{
	struct as_antic_input in = base_input();
	struct as_proc_stats seeky = good_st;

	in.have_rq = true;
	in.rq_pos = in.last_pos + 8;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_CLOSE_OTHER);
	in.boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.fifo_expired = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_FIFO_EXPIRED);
	in.fifo_expired = false;
	in.boosted = false;
	seeky.seek_mean = AS_SEEKY * 4;
	in.st = &seeky;
	in.rq_pos = 50000000;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_SEEKY);
	in.boosted = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_KEEP_WAITING);
	in.batch_expired = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_BATCH);
	in.batch_expired = false;
	in.waiting_next = true;
	in.antic_expire_ns = AS_BOOST_ANTIC_NS;
	in.elapsed_ns = AS_BOOST_ANTIC_NS;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_TIMEOUT);
}

static void as_test_break_batch_disabled(struct kunit *test)
{
	struct as_antic_input in = base_input();

	in.batch_expired = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_BATCH);

	in = base_input();
	in.antic_expire_ns = 0;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_DISABLED);
	in = base_input();
	in.disabled = true;
	KUNIT_EXPECT_EQ(test, as_antic_decide(&in), AS_STOP_DISABLED);
}

static void as_test_write_batch(struct kunit *test)
{
	/* Took twice as long as allowed: halve. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 250, 125, true, false), 8U);
	/* Way too long: never more than halved. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 5000, 125, true, false), 8U);
	/* A bit too long: shrink in proportion. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 160, 125, true, false), 12U);
	/* Used up its count in half the time: double. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 62, 125, true, false), 32U);
	/* Ran out of writes early: no change. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 10, 125, false, false), 16U);
	/* Bounds. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(1, 1000, 125, true, false), 1U);
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(1024, 0, 125, true, false), 1024U);
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 125, 125, true, false), 16U);
	/* Ran dry and waited for a read: the time says nothing, keep it. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 5000, 125, false, true), 16U);
	/* Idled but exhausted early: it still grows. */
	KUNIT_EXPECT_EQ(test, as_tune_write_batch(16, 62, 125, true, true), 32U);
}

/* Which requests are served in read batches (the sync class). */
static void as_test_opf_class(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_READ));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_READ | REQ_RAHEAD));
	/* direct I/O, and writes with FUA or a preflush */
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_WRITE | REQ_SYNC | REQ_IDLE));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_WRITE | REQ_SYNC | REQ_IDLE |
					    REQ_FUA));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_WRITE | REQ_SYNC | REQ_FUA));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_WRITE | REQ_SYNC |
					    REQ_PREFLUSH));
	/* background and data-integrity writeback */
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_WRITE));
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_WRITE | REQ_BACKGROUND));
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_WRITE | REQ_SYNC));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_WRITE | REQ_FUA));
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_WRITE | REQ_IDLE));
	/* other operations as op_is_sync() says */
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_DISCARD));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_ZONE_RESET | REQ_SYNC));
	/* a zone append is a write */
	KUNIT_EXPECT_FALSE(test, as_opf_sync(REQ_OP_ZONE_APPEND | REQ_SYNC));
	KUNIT_EXPECT_TRUE(test, as_opf_sync(REQ_OP_ZONE_APPEND | REQ_SYNC |
					    REQ_IDLE));
}

static void as_test_fifo_due(struct kunit *test)
{
	/* No expired read dispatched lately: the request's own deadline. */
	KUNIT_EXPECT_EQ(test, as_fifo_due(1000, 500, 125, 600), 1000UL);
	/* One was, 25 jiffies ago: the next counts 100 jiffies from now. */
	KUNIT_EXPECT_EQ(test, as_fifo_due(900, 975, 125, 1000), 1100UL);
	/* The gap ends exactly at the deadline. */
	KUNIT_EXPECT_EQ(test, as_fifo_due(1000, 875, 125, 900), 1000UL);
	/* Across the jiffies wrap. */
	KUNIT_EXPECT_EQ(test, as_fifo_due(5, ULONG_MAX - 9, 125, 0), 115UL);
	KUNIT_EXPECT_EQ(test, as_fifo_due(200, ULONG_MAX - 9, 125, 0), 200UL);
	/*
	 * An expired read forced half the jiffies range ago: its gap is
	 * long over, though the gate compares as after the deadline.
	 */
	KUNIT_EXPECT_EQ(test, as_fifo_due(125, LONG_MAX, 125, 0), 125UL);
}

/*
 * Feed @n windows of completions to the deep-queue detection: @busy
 * requests at the device, every @every-th completion overtaken (0: none).
 */
static bool feed_windows(struct as_hw_est *hw, int n, unsigned int busy,
			 unsigned int tags, int every)
{
	bool deep = hw->deep;
	int i;

	for (i = 0; i < n * AS_HW_WINDOW; i++)
		deep = as_hw_complete(hw, busy, tags, every && !(i % every), 32);
	return deep;
}

static void as_test_hw_in_order(struct kunit *test)
{
	struct as_hw_est hw = {};

	/* A disk with 64 tags, completing in order: not deep. */
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 10, 64, 64, 0));
	KUNIT_EXPECT_EQ(test, hw.max_busy, 64U);
	/* Few overtaken (1 in 16): still a single disk. */
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 10, 64, 64, 16));
}

static void as_test_hw_deep(struct kunit *test)
{
	struct as_hw_est hw = {};

	/* Many at the device, half overtaken: deep, after two windows. */
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 1, 64, 64, 2));
	KUNIT_EXPECT_TRUE(test, feed_windows(&hw, 1, 64, 64, 2));
	/* One shallow window does not undo it, two do. */
	KUNIT_EXPECT_TRUE(test, feed_windows(&hw, 1, 4, 64, 2));
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 1, 4, 64, 2));
	/* Out of order but never more than deep_queue_depth at once. */
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 10, 32, 64, 2));
}

static void as_test_hw_hysteresis(struct kunit *test)
{
	struct as_hw_est hw = {};
	int i;

	/* Windows that alternate never flip the verdict ... */
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 1, 64, 64, 2));
		KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 1, 4, 64, 2));
	}
	/* ... nor do those between the thresholds, once deep. */
	feed_windows(&hw, 2, 64, 64, 2);
	KUNIT_EXPECT_TRUE(test, hw.deep);
	KUNIT_EXPECT_TRUE(test, feed_windows(&hw, 10, 24, 64, 2));
}

static void as_test_hw_tags(struct kunit *test)
{
	struct as_hw_est hw = {};

	/*
	 * A 32-tag device with one more request taken from the scheduler,
	 * waiting for a tag, holds 32, not 33.
	 */
	KUNIT_EXPECT_FALSE(test, feed_windows(&hw, 10, 33, 32, 2));
	KUNIT_EXPECT_EQ(test, hw.max_busy, 32U);
	/* Detection off. */
	KUNIT_EXPECT_FALSE(test, as_hw_complete(&hw, 1000, 1000, true, 0));
}

/* ---- the state machine, driven with fake requests and io_cqs ---------- */

#define AS_NPROC	3
#define FAR		BIT_ULL(24)

/* A scheduler on a fake queue: what its functions look at, no more. */
struct as_fix {
	struct kunit		*test;
	struct request_queue	*q;
	struct blk_mq_hw_ctx	*hctx;
	struct as_data		*ad;
	struct io_context	ioc[AS_NPROC];
	struct as_io_cq		aic[AS_NPROC];
};

/* The real timer function would run the queues of the fake queue. */
static enum hrtimer_restart as_fix_timer_fn(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

static void as_fix_cancel(void *data)
{
	struct as_data *ad = data;

	hrtimer_cancel(&ad->antic_timer);
}

static struct as_fix *as_fix_new(struct kunit *test)
{
	struct as_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct elevator_queue *eq;
	struct blk_mq_tag_set *set;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->test = test;
	f->q = kunit_kzalloc(test, sizeof(*f->q), GFP_KERNEL);
	f->hctx = kunit_kzalloc(test, sizeof(*f->hctx), GFP_KERNEL);
	f->ad = kunit_kzalloc(test, sizeof(*f->ad), GFP_KERNEL);
	eq = kunit_kzalloc(test, sizeof(*eq), GFP_KERNEL);
	set = kunit_kzalloc(test, sizeof(*set), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, f->q && f->hctx && f->ad && eq && set);

	set->queue_depth = 32;
	set->nr_hw_queues = 1;
	f->q->tag_set = set;
	f->q->elevator = eq;
	/* no merges: the fake requests have no bios */
	blk_queue_flag_set(QUEUE_FLAG_NOMERGES, f->q);
	eq->elevator_data = f->ad;
	f->hctx->queue = f->q;

	as_init_data(f->ad, f->q);
	f->ad->antic_timer.function = as_fix_timer_fn;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, as_fix_cancel,
							f->ad), 0);
	/*
	 * Deadlines far away, and a long antic_expire: a slow (debug, TCG)
	 * guest must not see a FIFO expire or a wait time out by itself.
	 * The tests that want those move the clock of the request or call
	 * the timer path with its deadline.
	 */
	f->ad->fifo_expire_ms[AS_SYNC] = 10000;
	f->ad->fifo_expire_ms[AS_ASYNC] = 10000;
	f->ad->batch_expire_ms[AS_SYNC] = 10000;
	f->ad->batch_expire_ms[AS_ASYNC] = 10000;
	f->ad->antic_expire_ns = MS(1000);
	/* no boost: the tests that want it turn it on (as_fix_boost()) */
	f->ad->new_boost_ns = 0;

	for (i = 0; i < AS_NPROC; i++) {
		f->aic[i].icq.q = f->q;
		f->aic[i].icq.ioc = &f->ioc[i];
	}
	return f;
}

/*
 * An 8-sector request at @pos of process @proc (-1: a task without an
 * io_cq here), a read or an async write.
 */
static struct request *as_fix_rq(struct as_fix *f, int proc, bool write,
				 sector_t pos)
{
	struct request *rq = kunit_kzalloc(f->test, sizeof(*rq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(f->test, rq);
	rq->q = f->q;
	rq->cmd_flags = (write ? REQ_OP_WRITE : REQ_OP_READ) | REQ_NOMERGE;
	rq->__sector = pos;
	rq->__data_len = 8 << SECTOR_SHIFT;
	INIT_LIST_HEAD(&rq->queuelist);
	RB_CLEAR_NODE(&rq->rb_node);
	/* as as_prepare_request() sets them up */
	if (proc >= 0)
		rq->elv.icq = &f->aic[proc].icq;
	return rq;
}

static void as_fix_insert(struct as_fix *f, struct request *rq,
			  blk_insert_t flags)
{
	LIST_HEAD(free);

	spin_lock_irq(&f->ad->lock);
	as_insert_request(f->hctx, rq, flags, &free);
	spin_unlock_irq(&f->ad->lock);
	KUNIT_EXPECT_TRUE(f->test, list_empty(&free));
}

static struct request *as_fix_add(struct as_fix *f, int proc, bool write,
				  sector_t pos)
{
	struct request *rq = as_fix_rq(f, proc, write, pos);

	as_fix_insert(f, rq, 0);
	return rq;
}

/* Complete @rq now; returns whether the queue would be run. */
static bool as_fix_done(struct as_fix *f, struct request *rq)
{
	return as_complete(f->ad, rq, ktime_get_ns());
}

static struct request *as_fifo_head_rq(struct as_fix *f, enum as_dir dir)
{
	return list_first_entry_or_null(&f->ad->fifo_list[dir], struct request,
					queuelist);
}

static unsigned long as_fix_stops(struct as_fix *f, enum as_verdict v)
{
	return f->ad->stat_stop[v];
}

/*
 * Process 0 reads at 1000 and the read goes to the device; process 1's
 * read far away must then wait for process 0's next one (wait_req).
 * Returns process 1's request; *@a1 is process 0's.
 */
static struct request *as_fix_wait(struct as_fix *f, struct request **a1)
{
	struct kunit *test = f->test;
	struct request *b;

	*a1 = as_fix_add(f, 0, false, 1000);
	KUNIT_ASSERT_PTR_EQ(test, as_dispatch_request(f->hctx), *a1);
	b = as_fix_add(f, 1, false, FAR);
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_ASSERT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_ASSERT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_REQ);
	KUNIT_EXPECT_PTR_EQ(test, f->ad->antic_aic, &f->aic[0]);
	KUNIT_EXPECT_EQ(test, f->ad->stat_starts, 1UL);
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	return b;
}

static void as_sm_hit(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *a2;

	as_fix_wait(f, &a1);
	/* The read completes: now wait for the next one, timer armed. */
	KUNIT_EXPECT_FALSE(test, as_fix_done(f, a1));
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_NEXT);
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&f->ad->antic_timer));
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	/* It comes, right after the last: a hit, and it goes first. */
	a2 = as_fix_add(f, 0, false, 1008);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_OFF);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_HIT), 1UL);
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), a2);
	/* Its think time was measured. */
	KUNIT_EXPECT_EQ(test, f->aic[0].st.ttime_samples, 1U);
}

static void as_sm_break_far(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *b;

	b = as_fix_wait(f, &a1);
	as_fix_add(f, 0, false, 2 * FAR);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_OFF);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_FAR), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
}

static void as_sm_break_close_other(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *c;

	as_fix_wait(f, &a1);
	c = as_fix_add(f, 2, false, 1016);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_CLOSE_OTHER), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), c);
}

static void as_sm_break_async(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1;

	as_fix_wait(f, &a1);
	/* Writeback, or another process's write, does not end the wait ... */
	as_fix_add(f, -1, true, 5000);
	as_fix_add(f, 1, true, 6000);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_REQ);
	/* ... a write of the awaited process does. */
	as_fix_add(f, 0, true, 7000);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_OFF);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_ASYNC), 1UL);
}

static void as_sm_timer(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *b;
	u64 deadline;

	b = as_fix_wait(f, &a1);
	as_fix_done(f, a1);
	KUNIT_ASSERT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_NEXT);
	deadline = f->ad->antic_deadline_ns;
	KUNIT_EXPECT_EQ(test, deadline,
			f->ad->antic_start_ns + f->ad->antic_expire_ns);
	/* Early: nothing happens. */
	KUNIT_EXPECT_FALSE(test, as_antic_timeout(f->ad, deadline - 1));
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_NEXT);
	KUNIT_EXPECT_TRUE(test, as_antic_timeout(f->ad, deadline));
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_OFF);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_TIMEOUT), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);

	/* The safety net of a wait whose read never completes. */
	f = as_fix_new(test);
	as_fix_wait(f, &a1);
	KUNIT_EXPECT_TRUE(test, as_antic_timeout(f->ad,
						 f->ad->antic_deadline_ns));
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_TIMEOUT), 1UL);
}

static void as_sm_exit(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *b;

	b = as_fix_wait(f, &a1);
	KUNIT_EXPECT_TRUE(test, as_aic_exit(f->ad, &f->aic[0]));
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_EXITED), 1UL);
	/* A new process exited while waited for. */
	KUNIT_EXPECT_EQ(test, f->ad->exit_prob, (u64)AS_PROB_ONE / 8);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	/* Its read, counted at dispatch, is uncounted at completion. */
	as_fix_done(f, a1);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 0U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 1U);
	as_fix_done(f, b);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 0U);

	/* A new process that comes back lowers the estimate. */
	b = as_fix_add(f, 1, false, FAR + 8);
	KUNIT_EXPECT_EQ(test, f->ad->exit_prob, (u64)AS_PROB_ONE / 8 * 7 / 8);
}

static void as_sm_exit_queued(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1;

	/* Readahead left queued by a process that exits. */
	a1 = as_fix_add(f, 0, false, 1000);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_queued, 1U);
	KUNIT_EXPECT_FALSE(test, as_aic_exit(f->ad, &f->aic[0]));
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), a1);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_queued, 0U);
	/* Not counted for the process that is gone, nor uncounted. */
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 0U);
	KUNIT_EXPECT_PTR_EQ(test, f->ad->last_aic, NULL);
	as_fix_done(f, a1);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 0U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 0U);
}

static void as_sm_requeue(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1;

	as_fix_wait(f, &a1);
	KUNIT_EXPECT_TRUE(test, as_requeue(f->ad, a1));
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_REQUEUED), 1UL);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 0U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 0U);
	/* Back in the scheduler, it goes again, behind the head. */
	as_fix_insert(f, a1, 0);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), a1);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 1U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 1U);
	as_fix_done(f, a1);
	KUNIT_EXPECT_EQ(test, f->aic[0].nr_inflight, 0U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 0U);
}

static void as_sm_fifo(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *b;

	b = as_fix_wait(f, &a1);
	b->fifo_time = jiffies - 1;
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_FIFO_EXPIRED), 1UL);
}

static void as_sm_disabled(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *b;

	b = as_fix_wait(f, &a1);
	WRITE_ONCE(f->ad->antic_expire_ns, 0);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_DISABLED), 1UL);
}

/*
 * Process 0's read goes out, then process 1's far read does too: the
 * scheduler declined to wait for process 0.
 */
static void as_fix_declined(struct as_fix *f)
{
	struct kunit *test = f->test;
	struct request *b;

	KUNIT_ASSERT_NOT_NULL(test, as_dispatch_request(f->hctx));
	b = as_fix_add(f, 1, false, FAR);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_EQ(test, f->ad->stat_starts, 0UL);
	KUNIT_EXPECT_EQ(test, f->ad->stat_declined, 1UL);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_OFF);
}

static void as_sm_declined(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);

	/* A process that thinks longer than antic_expire. */
	as_fix_add(f, 0, false, 1000);
	f->aic[0].st.ttime_samples = AS_MIN_SAMPLES;
	f->aic[0].st.ttime_mean = MS(2000);
	as_fix_declined(f);

	/* A new process, when new processes thought that long. */
	f = as_fix_new(test);
	as_fix_add(f, 0, false, 1000);
	f->ad->new_proc_st.ttime_samples = AS_MIN_SAMPLES;
	f->ad->new_proc_st.ttime_mean = MS(2000);
	as_fix_declined(f);

	/* A new process, when new processes tend to exit. */
	f = as_fix_new(test);
	as_fix_add(f, 0, false, 1000);
	f->ad->exit_prob = AS_PROB_ONE;
	as_fix_declined(f);

	/* A seeky process. */
	f = as_fix_new(test);
	as_fix_add(f, 0, false, 1000);
	f->aic[0].st.seek_samples = AS_MIN_SAMPLES;
	f->aic[0].st.seek_mean = FAR / 4;
	as_fix_declined(f);
}

static void as_sm_batch_drain(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *w;

	as_fix_wait(f, &a1);
	w = as_fix_add(f, -1, true, 5000);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_REQ);
	/* The read batch is over: the wait ends, writes are next ... */
	f->ad->batch_start = jiffies - msecs_to_jiffies(10000) - 1;
	KUNIT_EXPECT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_BATCH), 1UL);
	KUNIT_EXPECT_EQ(test, f->ad->batch_dir, AS_ASYNC);
	/* ... once the read has left the device. */
	KUNIT_EXPECT_TRUE(test, f->ad->changed_batch);
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_EXPECT_TRUE(test, as_fix_done(f, a1));
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), w);
	KUNIT_EXPECT_FALSE(test, f->ad->changed_batch);
}

static void as_sm_write_held(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *w1, *w2, *w3;

	w1 = as_fix_add(f, -1, true, 1000);
	w2 = as_fix_add(f, -1, true, 2000);
	w3 = as_fix_add(f, -1, true, 3000);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), w1);
	KUNIT_EXPECT_EQ(test, f->ad->batch_dir, AS_ASYNC);
	/* A reader is about: one write at a time at the device. */
	f->ad->write_batch_count = 1;
	f->ad->last_read_done = jiffies;
	KUNIT_EXPECT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_EXPECT_TRUE(test, f->ad->write_held);
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	/* Its completion resumes dispatch. */
	KUNIT_EXPECT_TRUE(test, as_fix_done(f, w1));
	KUNIT_EXPECT_FALSE(test, f->ad->write_held);
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), w2);
	KUNIT_EXPECT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_EXPECT_TRUE(test, f->ad->write_held);
	/* So does a read. */
	as_fix_add(f, 0, false, 9000);
	KUNIT_EXPECT_FALSE(test, f->ad->write_held);
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_ASYNC], 1U);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_ASYNC), w3);
}

/*
 * A flush (fsync, sync, BLKFLSBUF) queues many REQ_SYNC writes at once.
 * They are writeback: a read that comes after them goes first, in a read
 * batch, instead of queueing in the read FIFO behind the whole flush.
 */
static void as_sm_flush_writes(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *w[8], *r;
	int i;

	/* No anticipation: the classes alone decide. */
	f->ad->antic_expire_ns = 0;
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		w[i] = as_fix_rq(f, 1, true, 1000 + 8 * i);
		w[i]->cmd_flags |= REQ_SYNC;
		as_fix_insert(f, w[i], 0);
	}
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_SYNC], 0U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_ASYNC], 8U);
	r = as_fix_add(f, 0, false, FAR);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), r);
	/* The flush follows, in a write batch. */
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), w[0]);
	KUNIT_EXPECT_EQ(test, f->ad->batch_dir, AS_ASYNC);
}

/*
 * A direct write is sync; so is a write set up with FUA even when the
 * flush machinery cleared the flag before insertion (a disk without FUA).
 * A request keeps the class of its first insertion when it comes back.
 */
static void as_sm_write_class(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *d, *fua, *wb;

	d = as_fix_rq(f, 1, true, 1000);
	d->cmd_flags |= REQ_SYNC | REQ_IDLE;
	as_fix_insert(f, d, 0);
	fua = as_fix_rq(f, 1, true, 2000);
	fua->elv.priv[0] = (void *)AS_RQ_FLUSH;
	fua->cmd_flags |= REQ_SYNC;
	as_fix_insert(f, fua, 0);
	wb = as_fix_add(f, -1, true, 3000);
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_SYNC], 2U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_ASYNC], 1U);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_SYNC), d);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_ASYNC), wb);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), d);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), fua);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 2U);
	/* Its flags no longer say sync; requeued, it is sync still. */
	d->cmd_flags &= ~REQ_IDLE;
	as_requeue(f->ad, d);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 1U);
	as_fix_insert(f, d, BLK_MQ_INSERT_AT_HEAD);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), d);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_SYNC], 2U);
	KUNIT_EXPECT_EQ(test, f->ad->nr_inflight_dir[AS_ASYNC], 0U);
}

static void as_sm_has_work(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a1, *h;

	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	as_fix_wait(f, &a1);
	/* wait_req: held */
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
	/* an at-head insert (a requeue) goes at once, even while waiting */
	h = as_fix_rq(f, 2, false, 50000);
	as_fix_insert(f, h, BLK_MQ_INSERT_AT_HEAD);
	KUNIT_EXPECT_TRUE(test, as_has_work(f->hctx));
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), h);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_REQ);
	/* wait_next: held */
	as_fix_done(f, a1);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_NEXT);
	KUNIT_EXPECT_FALSE(test, as_has_work(f->hctx));
}

static void as_sm_two_way(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *a, *b, *c, *d, *e;

	/* No anticipation: the elevator alone. */
	f->ad->antic_expire_ns = 0;
	a = as_fix_add(f, 0, false, 992);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), a);
	/* Head at 1000: 100 behind (cost 200) beats 300 ahead. */
	b = as_fix_add(f, 1, false, 900);
	c = as_fix_add(f, 2, false, 1300);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), c);
	/* Head at 1308: 92 ahead beats 58 behind (cost 116). */
	d = as_fix_add(f, 1, false, 1250);
	e = as_fix_add(f, 2, false, 1400);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), e);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), d);
	/* Beyond AS_MAXBACK behind, and nothing ahead: the oldest. */
	b = as_fix_add(f, 1, false, AS_MAXBACK * 4);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b);
	c = as_fix_add(f, 1, false, 8);
	d = as_fix_add(f, 1, false, AS_MAXBACK * 2);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), c);
}

/*
 * Process @proc starts now, with new_boost on: its io_cq is set up and it
 * is boosted.  Processes set up before (all, in as_fix_new()) are not.
 */
static void as_fix_boost(struct as_fix *f, int proc)
{
	f->ad->new_boost_ns = MS(100000);
	as_init_icq(&f->aic[proc].icq);
}

enum as_boost_case {
	AS_BOOST_ON,		/* process 2 boosted, process 0 not */
	AS_BOOST_BOTH,		/* both boosted */
	AS_BOOST_OVER,		/* process 2's boost has ended */
	AS_BOOST_OFF,		/* new_boost set to 0 */
};

/*
 * Process 0 streams: its read is at the device and the scheduler waits
 * for its next (wait_req), process 1's read nearer the head than process
 * 2's.  Process 2 starts, boosted, with a read far away: the wait ends at
 * once and its read goes before process 1's, then the scheduler waits for
 * process 2.  Not so when process 0 is boosted too, process 2's boost has
 * ended, or new_boost is 0.
 */
static void as_sm_boost_case(struct kunit *test, enum as_boost_case c)
{
	struct as_fix *f = as_fix_new(test);
	bool on = c == AS_BOOST_ON;
	struct request *a1, *b, *r;

	if (c == AS_BOOST_BOTH)
		as_fix_boost(f, 0);
	b = as_fix_wait(f, &a1);
	as_fix_boost(f, 2);
	if (c == AS_BOOST_OVER)
		f->aic[2].boost_end = ktime_get_ns();
	if (c == AS_BOOST_OFF)
		f->ad->new_boost_ns = 0;
	r = as_fix_add(f, 2, false, 2 * FAR);
	KUNIT_EXPECT_EQ(test, f->ad->antic_state,
			on ? AS_ANTIC_OFF : AS_ANTIC_WAIT_REQ);
	KUNIT_EXPECT_EQ(test, as_fix_stops(f, AS_STOP_BOOST), (unsigned long)on);
	KUNIT_EXPECT_EQ(test, as_has_work(f->hctx), on);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), on ? r : NULL);
	KUNIT_EXPECT_EQ(test, f->ad->stat_boost_dispatches, (unsigned long)on);
	if (!on)
		return;
	/* A read that is not boosted does not end the wait for process 2. */
	KUNIT_EXPECT_NULL(test, as_dispatch_request(f->hctx));
	KUNIT_EXPECT_EQ(test, f->ad->antic_state, AS_ANTIC_WAIT_REQ);
	KUNIT_EXPECT_PTR_EQ(test, f->ad->antic_aic, &f->aic[2]);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_SYNC), b);
}

static void as_sm_boost_break(struct kunit *test)
{
	as_sm_boost_case(test, AS_BOOST_ON);
}

static void as_sm_boost_both(struct kunit *test)
{
	as_sm_boost_case(test, AS_BOOST_BOTH);
}

static void as_sm_boost_over(struct kunit *test)
{
	as_sm_boost_case(test, AS_BOOST_OVER);
}

static void as_sm_boost_off(struct kunit *test)
{
	as_sm_boost_case(test, AS_BOOST_OFF);
}

/*
 * A boosted process that has moved AS_BOOST_MAX_SECTORS streams: its boost
 * ends at the dispatch that passes the bound.
 */
static void as_sm_boost_capped(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *r;

	as_fix_boost(f, 2);
	f->aic[2].boost_sectors = AS_BOOST_MAX_SECTORS - 8;
	r = as_fix_add(f, 2, false, FAR);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), r);
	KUNIT_EXPECT_EQ(test, f->ad->stat_boost_capped, 0UL);
	as_fix_done(f, r);
	r = as_fix_add(f, 2, false, FAR + 8);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), r);
	KUNIT_EXPECT_EQ(test, f->ad->stat_boost_capped, 1UL);
	KUNIT_EXPECT_EQ(test, f->aic[2].boost_end, 0ULL);
	as_fix_done(f, r);
}

/*
 * A boosted read goes before a streamer's nearer one, but not before one
 * whose FIFO deadline expired.
 */
static void as_sm_boost_fifo(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *b1, *b2, *r;

	b1 = as_fix_add(f, 1, false, 1000);
	b2 = as_fix_add(f, 1, false, 2000);
	as_fix_boost(f, 2);
	r = as_fix_add(f, 2, false, FAR);
	b1->fifo_time = jiffies - 1;
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), b1);
	KUNIT_EXPECT_EQ(test, f->ad->stat_boost_dispatches, 0UL);
	KUNIT_EXPECT_PTR_EQ(test, as_dispatch_request(f->hctx), r);
	KUNIT_EXPECT_EQ(test, f->ad->stat_boost_dispatches, 1UL);
	KUNIT_EXPECT_EQ(test, f->ad->nr_boost_queued, 0U);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_SYNC), b2);
}

/* @next was merged into @req. */
static void as_fix_merged(struct as_fix *f, struct request *req,
			  struct request *next)
{
	spin_lock_irq(&f->ad->lock);
	as_requests_merged(f->q, req, next);
	spin_unlock_irq(&f->ad->lock);
}

static void as_sm_merge_fifo(struct kunit *test)
{
	struct as_fix *f = as_fix_new(test);
	struct request *x, *r1, *r2, *w;
	unsigned long t;

	x = as_fix_add(f, 2, false, 50000);
	r1 = as_fix_add(f, 0, false, 2000);
	r2 = as_fix_add(f, 1, false, 2008);
	/* @r2 is older than @r1: @r1 takes its deadline and FIFO place. */
	t = jiffies;
	x->fifo_time = t - 20;
	r1->fifo_time = t;
	r2->fifo_time = t - 10;
	as_fix_merged(f, r1, r2);
	KUNIT_EXPECT_EQ(test, (unsigned long)r1->fifo_time, t - 10);
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_SYNC], 2U);
	KUNIT_EXPECT_PTR_EQ(test, as_fifo_head_rq(f, AS_SYNC), x);
	KUNIT_EXPECT_PTR_EQ(test, list_next_entry(x, queuelist), r1);

	/*
	 * An async request merged into a sync one: the sync request keeps
	 * its own deadline and stays in the sync FIFO.
	 */
	w = as_fix_add(f, -1, true, 2016);
	w->fifo_time = t - 30;
	as_fix_merged(f, r1, w);
	KUNIT_EXPECT_EQ(test, (unsigned long)r1->fifo_time, t - 10);
	KUNIT_EXPECT_EQ(test, f->ad->nr_queued[AS_ASYNC], 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&f->ad->fifo_list[AS_ASYNC]));
	KUNIT_EXPECT_PTR_EQ(test, list_next_entry(x, queuelist), r1);
	KUNIT_EXPECT_PTR_EQ(test, f->ad->fifo_list[AS_SYNC].prev, &r1->queuelist);
}

static struct kunit_case anticipatory_test_cases[] = {
	KUNIT_CASE(as_test_ttime_mean),
	KUNIT_CASE(as_test_ttime_decay),
	KUNIT_CASE(as_test_seek_mean),
	KUNIT_CASE(as_test_new_proc_means),
	KUNIT_CASE(as_test_close),
	KUNIT_CASE(as_test_seek_cost),
	KUNIT_CASE(as_test_decide_wait),
	KUNIT_CASE(as_test_decide_hit),
	KUNIT_CASE(as_test_decide_new_proc),
	KUNIT_CASE(as_test_break_far),
	KUNIT_CASE(as_test_break_async),
	KUNIT_CASE(as_test_break_timeout),
	KUNIT_CASE(as_test_break_thinktime),
	KUNIT_CASE(as_test_break_exit),
	KUNIT_CASE(as_test_break_close_other),
	KUNIT_CASE(as_test_break_seeky),
	KUNIT_CASE(as_test_break_fifo),
	KUNIT_CASE(as_test_break_boost),
	KUNIT_CASE(as_test_boost_thinker),
	KUNIT_CASE(as_test_boost_holds),
	KUNIT_CASE(as_test_break_batch_disabled),
	KUNIT_CASE(as_test_write_batch),
	KUNIT_CASE(as_test_opf_class),
	KUNIT_CASE(as_test_fifo_due),
	KUNIT_CASE(as_test_hw_in_order),
	KUNIT_CASE(as_test_hw_deep),
	KUNIT_CASE(as_test_hw_hysteresis),
	KUNIT_CASE(as_test_hw_tags),
	KUNIT_CASE(as_sm_hit),
	KUNIT_CASE(as_sm_break_far),
	KUNIT_CASE(as_sm_break_close_other),
	KUNIT_CASE(as_sm_break_async),
	KUNIT_CASE(as_sm_timer),
	KUNIT_CASE(as_sm_exit),
	KUNIT_CASE(as_sm_exit_queued),
	KUNIT_CASE(as_sm_requeue),
	KUNIT_CASE(as_sm_fifo),
	KUNIT_CASE(as_sm_disabled),
	KUNIT_CASE(as_sm_declined),
	KUNIT_CASE(as_sm_batch_drain),
	KUNIT_CASE(as_sm_write_held),
	KUNIT_CASE(as_sm_flush_writes),
	KUNIT_CASE(as_sm_write_class),
	KUNIT_CASE(as_sm_has_work),
	KUNIT_CASE(as_sm_two_way),
	KUNIT_CASE(as_sm_boost_break),
	KUNIT_CASE(as_sm_boost_both),
	KUNIT_CASE(as_sm_boost_over),
	KUNIT_CASE(as_sm_boost_off),
	KUNIT_CASE(as_sm_boost_fifo),
	KUNIT_CASE(as_sm_boost_capped),
	KUNIT_CASE(as_sm_merge_fifo),
	{}
};

static struct kunit_suite anticipatory_test_suite = {
	.name = "anticipatory-iosched",
	.test_cases = anticipatory_test_cases,
};

kunit_test_suite(anticipatory_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the anticipatory I/O scheduler");
MODULE_LICENSE("GPL");
