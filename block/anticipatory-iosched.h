/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Anticipatory I/O scheduler: its data structures, the statistics and the
 * decision function, shared with the KUnit tests.
 */
#ifndef _ANTICIPATORY_IOSCHED_H
#define _ANTICIPATORY_IOSCHED_H

#include <linux/bits.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/types.h>

#include "blk-mq.h"

/* Decaying means: each new sample has weight 1/AS_EWMA_WEIGHT. */
#define AS_EWMA_WEIGHT		8
#define AS_SAMPLES_MAX		255
/* Probabilities are kept in 1/AS_PROB_ONE. */
#define AS_PROB_ONE		256
/* Samples needed before a mean is trusted. */
#define AS_MIN_SAMPLES		3
/* Seek samples are clipped to this many sectors (8 GiB). */
#define AS_SEEK_CAP		BIT_ULL(24)
/*
 * "Close" window ahead of the head at the start of a wait, in sectors
 * (4 MiB); it doubles every millisecond up to AS_CLOSE_MAX_MS.
 */
#define AS_CLOSE_BASE		8192ULL
#define AS_CLOSE_MAX_MS		20
/*
 * The elevator may go back up to AS_MAXBACK sectors (512 MiB); a sector
 * behind the head costs as much as AS_BACK_PENALTY ahead of it.
 */
#define AS_MAXBACK		(1024ULL * 1024)
#define AS_BACK_PENALTY		2
/*
 * A boost ends once the process has moved 110K sectors (about 55 MB),
 * bfq's max_service_from_wr, as cfq's does.
 */
#define AS_BOOST_MAX_SECTORS	(110 * 1024)
/* A boosted process is waited for at least this long (ns), as bfq does. */
#define AS_BOOST_ANTIC_NS	(20 * NSEC_PER_MSEC)
/* A process whose mean seek exceeds this (16 MiB) is seeky. */
#define AS_SEEKY		32768ULL

/* Per-process statistics, kept in the io_cq. */
struct as_proc_stats {
	u64	ttime_mean;	/* think time, ns */
	u64	seek_mean;	/* seek distance, sectors */
	u32	ttime_samples;
	u32	seek_samples;
	u64	idle_since_ns;	/* last read completed, none in flight; 0: busy */
	sector_t last_end;	/* end of its last read */
	bool	have_pos;
};

/* Why a wait ends (or AS_KEEP_WAITING). */
enum as_verdict {
	AS_KEEP_WAITING,
	AS_STOP_HIT,		/* awaited process issued a close read */
	AS_STOP_TIMEOUT,	/* antic_expire passed */
	AS_STOP_THINKTIME,	/* mean think time > antic_expire */
	AS_STOP_EXITED,		/* awaited process exited */
	AS_STOP_CLOSE_OTHER,	/* another process's read is close enough */
	AS_STOP_FIFO_EXPIRED,	/* a FIFO deadline expired */
	AS_STOP_FAR,		/* awaited read arrived, but not close */
	AS_STOP_BATCH,		/* read batch over, writes waiting */
	AS_STOP_SEEKY,		/* seeky process while others wait */
	AS_STOP_DISABLED,	/* antic_expire 0 or deep queue meanwhile */
	AS_STOP_REQUEUED,	/* awaited read was requeued */
	AS_STOP_EXIT_PROB,	/* new process; new processes tend to exit */
	AS_STOP_ASYNC,		/* awaited process issued an async request */
	AS_STOP_BOOST,		/* a boosted process's request is queued */
	AS_NR_VERDICTS,
};

/* Completions per look at the device, and looks that must agree. */
#define AS_HW_WINDOW		64
#define AS_HW_CONFIRM		2

/* What the device showed of its queue (deep-queue detection). */
struct as_hw_est {
	unsigned int	window_done;	/* completions in this window */
	unsigned int	window_busy;	/* most requests at the device */
	unsigned int	window_overtaken; /* completions a later one beat */
	unsigned int	max_busy;	/* window_busy of the last window */
	unsigned int	streak;		/* windows in a row against @deep */
	bool		deep;
};

struct as_antic_input {
	u64	antic_expire_ns;
	u64	elapsed_ns;		/* since the awaited read completed */
	bool	waiting_next;		/* that read has completed */
	bool	disabled;		/* device keeps a deep queue */
	bool	fifo_expired;
	bool	batch_expired;
	bool	exited;
	bool	exit_likely;		/* new process; new ones tend to exit */
	bool	boosted;		/* the awaited process is boosted */
	const struct as_proc_stats *st;	/* of the awaited process */
	sector_t last_pos;		/* end of its last read */
	/* candidate request (a read), if any */
	bool	have_rq;
	bool	rq_same_process;
	bool	rq_async;
	bool	rq_boosted;		/* its process is boosted */
	sector_t rq_pos;
};

/*
 * Requests are classed as in the later 2.6 scheduler: reads and synchronous
 * writes (O_SYNC, O_DIRECT, fsync) form the sync class, served in "read"
 * batches with anticipation; writeback forms the async class.  The
 * tunables keep their 2.6 names: read_* apply to the sync class, write_*
 * to the async one.
 */
enum as_dir {
	AS_SYNC		= 0,
	AS_ASYNC	= 1,
};

enum { AS_DIR_COUNT = 2 };

enum as_antic_state {
	AS_ANTIC_OFF,		/* dispatching normally */
	AS_ANTIC_WAIT_REQ,	/* holding; the awaited process's read is in flight */
	AS_ANTIC_WAIT_NEXT,	/* holding; timer armed, waiting for its next read */
};

/* rq->elv.priv[0] flags */
#define AS_RQ_SEEN	BIT(0)	/* classed (and counted) on the first insert */
#define AS_RQ_QUEUED	BIT(1)	/* counted in aic->nr_queued */
#define AS_RQ_INFLIGHT	BIT(2)	/* dispatched, not completed yet */
#define AS_RQ_AIC_INFLIGHT BIT(3)	/* counted in aic->nr_inflight */
#define AS_RQ_SYNC	BIT(4)	/* in the sync class (from the first insert) */
#define AS_RQ_FLUSH	BIT(5)	/* set up with REQ_FUA or REQ_PREFLUSH */
#define AS_RQ_BOOST	BIT(6)	/* counted in as_data->nr_boost_queued */

struct as_io_cq {
	struct io_cq		icq;	/* must be first */
	/* all below protected by as_data->lock */
	struct as_proc_stats	st;
	unsigned int		nr_queued;	/* reads queued in the scheduler */
	unsigned int		nr_inflight;	/* reads dispatched, not completed */
	u64			boost_end;	/* ns: boosted until (as_init_icq()) */
	unsigned int		boost_sectors;	/* moved while boosted */
	bool			exited;
};

struct as_data {
	struct request_queue	*q;
	spinlock_t		lock;		/* protects all of as_data and as_io_cq */

	struct list_head	dispatch;	/* at-head inserts */
	struct rb_root		sort_list[AS_DIR_COUNT];
	struct list_head	fifo_list[AS_DIR_COUNT];
	sector_t		next_pos[AS_DIR_COUNT];
	unsigned int		nr_queued[AS_DIR_COUNT];

	/* batches */
	enum as_dir		batch_dir;
	unsigned long		batch_start;	/* jiffies */
	bool			changed_batch;	/* draining the other direction */
	bool			write_held;	/* write batch waits for completions */
	unsigned long		last_read_done;	/* jiffies */
	unsigned long		read_forced;	/* jiffies: expired read dispatched */
	unsigned int		write_count;	/* writes in this batch */
	unsigned int		write_batch_count;	/* self-tuned */
	bool			write_batch_exhausted;
	bool			write_batch_idled;	/* ran dry, device idle */

	/* anticipation */
	enum as_antic_state	antic_state;
	struct as_io_cq		*last_aic;	/* process of the last read dispatched */
	sector_t		last_read_end;
	struct as_io_cq		*antic_aic;	/* process we are waiting for */
	sector_t		antic_pos;
	u64			antic_start_ns;	/* WAIT_NEXT start */
	u64			antic_deadline_ns;	/* absolute expiry of the timer */
	bool			antic_cooldown;	/* no new wait before a dispatch */
	struct hrtimer		antic_timer;
	struct as_proc_stats	new_proc_st;	/* first samples of new processes */
	u64			exit_prob;	/* a new process exits, not reads */

	/* new processes */
	unsigned int		nr_boost_queued; /* sync, queued while boosted */
	struct request		*boost_rq;	/* as_pick() took it for a boost */

	/* hardware awareness */
	unsigned int		nr_inflight_dir[AS_DIR_COUNT];	/* at the device */
	unsigned long		hw_seq;		/* dispatches so far */
	unsigned long		hw_done_seq;	/* latest dispatch completed */
	struct as_hw_est	hw;
	bool			deep_queue;	/* hw.deep, read locklessly */

	/* statistics, protected by lock */
	unsigned long		stat_starts;
	unsigned long		stat_declined;
	unsigned long		stat_stop[AS_NR_VERDICTS];
	unsigned long		stat_boost_dispatches;
	unsigned long		stat_boost_capped;	/* boosts ended by service */

	/* tunables */
	unsigned int		fifo_expire_ms[AS_DIR_COUNT];
	unsigned int		batch_expire_ms[AS_DIR_COUNT];
	u64			antic_expire_ns;
	u64			new_boost_ns;
	unsigned int		deep_queue_depth;
	unsigned int		front_merges;
	unsigned int		async_depth;
};

#if IS_ENABLED(CONFIG_KUNIT)
void as_stats_add_ttime(struct as_proc_stats *st, u64 ttime_ns, u64 cap_ns);
void as_stats_add_seek(struct as_proc_stats *st, sector_t pos,
		       unsigned int nr_sectors, struct as_proc_stats *fresh);
void as_stats_view(struct as_proc_stats *view, const struct as_proc_stats *own,
		   const struct as_proc_stats *fresh);
bool as_close(sector_t last, sector_t pos, u64 elapsed_ns,
	      u64 antic_expire_ns);
u64 as_seek_cost(sector_t head, sector_t pos);
enum as_verdict as_antic_decide(const struct as_antic_input *c);
unsigned int as_tune_write_batch(unsigned int count, unsigned long elapsed,
				 unsigned long target, bool exhausted,
				 bool idled);
unsigned long as_fifo_due(unsigned long fifo_time, unsigned long last_forced,
			  unsigned long expire, unsigned long now);
bool as_hw_complete(struct as_hw_est *hw, unsigned int busy, unsigned int tags,
		    bool overtaken, unsigned int depth);
bool as_opf_sync(blk_opf_t opf);
void as_init_data(struct as_data *ad, struct request_queue *q);
void as_insert_request(struct blk_mq_hw_ctx *hctx, struct request *rq,
		       blk_insert_t insert_flags, struct list_head *free);
struct request *as_dispatch_request(struct blk_mq_hw_ctx *hctx);
bool as_has_work(struct blk_mq_hw_ctx *hctx);
bool as_complete(struct as_data *ad, struct request *rq, u64 now);
bool as_requeue(struct as_data *ad, struct request *rq);
bool as_antic_timeout(struct as_data *ad, u64 now_ns);
bool as_aic_exit(struct as_data *ad, struct as_io_cq *aic);
void as_init_icq(struct io_cq *icq);
void as_requests_merged(struct request_queue *q, struct request *req,
			struct request *next);
#endif

#endif /* _ANTICIPATORY_IOSCHED_H */
