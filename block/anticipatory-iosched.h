/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Anticipatory I/O scheduler: the statistics and the decision function,
 * shared with the KUnit tests.
 */
#ifndef _ANTICIPATORY_IOSCHED_H
#define _ANTICIPATORY_IOSCHED_H

#include <linux/bits.h>
#include <linux/types.h>

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
	const struct as_proc_stats *st;	/* of the awaited process */
	sector_t last_pos;		/* end of its last read */
	/* candidate request (a read), if any */
	bool	have_rq;
	bool	rq_same_process;
	bool	rq_async;
	sector_t rq_pos;
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
#endif

#endif /* _ANTICIPATORY_IOSCHED_H */
