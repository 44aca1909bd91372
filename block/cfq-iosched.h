/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CFQ I/O scheduler for blk-mq: structures shared by the core
 * (cfq-iosched.c), the cgroup policy (cfq-cgroup.c) and the KUnit tests.
 */
#ifndef _CFQ_IOSCHED_H
#define _CFQ_IOSCHED_H

#include <linux/blk-cgroup.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/ioprio.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "blk-cgroup.h"

/* Scheduling classes, in the order they are served. */
enum cfq_wl_class {
	CFQ_RT_WL,
	CFQ_BE_WL,
	CFQ_IDLE_WL,
	CFQ_NR_WL_CLASSES,
};

/*
 * Workload types of the RT and BE classes.  A sync queue that idles
 * (sequential, short think time) is SYNC; a sync queue that does not idle
 * (seeky, or long think time) is SYNC_NOIDLE; ASYNC holds writeback.
 */
enum cfq_wl_type {
	CFQ_ASYNC_WL,
	CFQ_SYNC_NOIDLE_WL,
	CFQ_SYNC_WL,
	CFQ_NR_WL_TYPES,
};

#define CFQ_WEIGHT_MIN		1
#define CFQ_WEIGHT_MAX		1000
#define CFQ_WEIGHT_DEFAULT	100
/*
 * A boost ends once the process has moved 110K sectors (about 55 MB),
 * bfq's max_service_from_wr: more than the largest application start bfq's
 * authors measured, less than a stream moves in a few seconds.
 */
#define CFQ_BOOST_MAX_SECTORS	(110 * 1024)
/*
 * A limit on injection beside a boosted queue that fell to 0 is tried
 * again at 1 after a second, as bfq does: the others' requests may have
 * changed.
 */
#define CFQ_INJECT_PROBE_NS	NSEC_PER_SEC
/* Fraction bits of a hierarchical weight (cfq_group_hweight()). */
#define CFQ_HW_SHIFT		10

/* Decaying think time mean, in ns, kept in fixed point (see cfq_ttime_add). */
struct cfq_ttime {
	u64	last_end_ns;	/* completion of the last request */
	u64	total;
	u32	samples;
	u64	mean_ns;
};

/* A red-black tree of queues (or groups) ordered by key, and its size. */
struct cfq_rb_root {
	struct rb_root_cached	rb;
	unsigned int		count;
	u64			min_vdisktime;	/* group tree only */
	unsigned int		total_weight;	/* group tree: top children_weight */
	struct cfq_ttime	ttime;		/* workload trees: any queue's */
};

struct cfq_data;
struct cfq_group;

struct cfq_queue {
	int			ref;		/* cfq_data->lock */
	struct cfq_data		*cfqd;
	struct cfq_group	*cfqg;
	unsigned long		flags;		/* CFQQ_* bits */

	/* position in a service tree */
	struct rb_node		rb_node;
	u64			rb_key;
	struct cfq_rb_root	*service_tree;	/* NULL when not busy */

	/* requests */
	struct rb_root		sort_list;
	struct request		*next_rq;
	struct list_head	fifo;
	unsigned int		queued;
	unsigned int		dispatched;	/* at the driver */

	/* the current slice */
	u64			slice_start;
	u64			slice_end;
	u64			dispatch_start;
	u64			charged_until;	/* turn over, requests at the device */
	unsigned int		slice_dispatch;
	s64			slice_resid;	/* left over by a preemption */

	/* class and level */
	unsigned short		ioprio_class;	/* IOPRIO_CLASS_RT/BE/IDLE */
	unsigned short		ioprio;		/* 0 (high) .. 7 */

	/* behaviour */
	struct cfq_ttime	ttime;
	u32			seek_history;	/* one bit per request: seeky */
	u8			seek_samples;	/* bits of it that count, <= 32 */
	sector_t		last_pos;	/* end of its last request queued */
	enum cfq_wl_type	wl_type;	/* tree it was put on */

	/* close cooperators (sync queues) */
	struct rb_node		pos_node;	/* keyed by next_rq's sector */
	struct rb_root		*pos_root;	/* NULL when not on a tree */
	struct cfq_queue	*new_cfqq;	/* to be merged into */
	int			allocated;	/* references held by requests */

	u64			boost_end;	/* ns: boosted until (new queue) */
	unsigned int		boost_extends;	/* extensions this turn */
	/* others' requests sent while it idles boosted (cfq_inject_queue()) */
	unsigned int		inject_limit;	/* at the device, its own too */
	u64			inject_base_ns;	/* its reads' time alone, mean */
	u64			inject_cut;	/* ns: the limit last lowered */

	pid_t			pid;
};

struct cfq_group {
#ifdef CONFIG_CFQ_GROUP_IOSCHED
	struct blkg_policy_data	pd;		/* must be first */
#endif
	refcount_t		ref;
	struct cfq_data		*cfqd;

	/* position in the group service tree */
	struct rb_node		rb_node;
	u64			vdisktime;
	bool			on_st;
	unsigned int		weight;		/* used while active */
	unsigned int		new_weight;	/* set from cgroup files */
	unsigned int		dev_weight;	/* per-device override, 0 = none */

	/*
	 * The hierarchy: the group's own queues (while it is on the tree)
	 * and its active children share its part of the disk by weight.
	 */
	struct cfq_group	*parent;	/* holds a reference; NULL: top */
	unsigned int		children_weight; /* of its active entities */
	unsigned int		nr_active;	/* active entities */
	unsigned int		hweight;	/* last cfq_group_hweight() */

	unsigned int		nr_cfqq;	/* busy queues */
	unsigned int		busy_queues_avg[CFQ_NR_WL_CLASSES];
	struct cfq_rb_root	st[CFQ_NR_WL_CLASSES][CFQ_NR_WL_TYPES];

	/* shared async queues, created on first use */
	struct cfq_queue	*async_cfqq[2][IOPRIO_NR_LEVELS];
	struct cfq_queue	*async_idle_cfqq;

	/* statistics (debugfs; served_ns also in io.stat) */
	u64			served_ns;	/* disk time charged */
	u64			served_sectors;
	bool			offline;
};

struct cfq_io_cq {
	struct io_cq		icq;		/* must be first */
	struct cfq_queue	*cfqq[2];	/* [0] async, [1] sync */
	u64			boost_end;	/* ns: the process's boost ends */
	unsigned int		boost_sectors;	/* moved while boosted */
	bool			boost_set;	/* its first sync request came */
};

/* cfq_queue->flags */
enum cfqq_flag {
	CFQQ_ON_RR,		/* on a service tree */
	CFQQ_WAIT_REQUEST,	/* active and idling for its next request */
	CFQQ_IDLE_WINDOW,	/* short think time, not seeky: may idle */
	CFQQ_SLICE_NEW,		/* the slice starts at the first completion */
	CFQQ_SYNC,		/* a sync queue (per process) */
	CFQQ_FIFO_CHECKED,	/* the FIFO was looked at in this slice */
	CFQQ_GROUP_IDLE,	/* the idle timer is a group idle */
	CFQQ_DEEP,		/* has kept >= 4 requests queued */
	CFQQ_ORPHAN,		/* sync queue left by its process (exit, move) */
	CFQQ_WAIT_BUSY,		/* slice extended to keep its group busy */
	CFQQ_GROUP_WINDOW,	/* slice_idle 0: worth group_idle */
	CFQQ_COOP,		/* shared by cooperating processes */
	CFQQ_SPLIT_COOP,	/* shared, turned seeky: split it */
};

#define CFQQ_FNS(name, bit)						\
enum { cfqq_bit_##name = (bit) };					\
static inline bool cfqq_##name(const struct cfq_queue *cfqq)		\
{									\
	return test_bit(cfqq_bit_##name, &cfqq->flags);			\
}									\
static inline void cfqq_mark_##name(struct cfq_queue *cfqq)		\
{									\
	__set_bit(cfqq_bit_##name, &cfqq->flags);			\
}									\
static inline void cfqq_clear_##name(struct cfq_queue *cfqq)		\
{									\
	__clear_bit(cfqq_bit_##name, &cfqq->flags);			\
}

CFQQ_FNS(on_rr, CFQQ_ON_RR)
CFQQ_FNS(wait_request, CFQQ_WAIT_REQUEST)
CFQQ_FNS(idle_window, CFQQ_IDLE_WINDOW)
CFQQ_FNS(slice_new, CFQQ_SLICE_NEW)
CFQQ_FNS(sync, CFQQ_SYNC)
CFQQ_FNS(fifo_checked, CFQQ_FIFO_CHECKED)
CFQQ_FNS(group_idle, CFQQ_GROUP_IDLE)
CFQQ_FNS(deep, CFQQ_DEEP)
CFQQ_FNS(orphan, CFQQ_ORPHAN)
CFQQ_FNS(group_window, CFQQ_GROUP_WINDOW)
CFQQ_FNS(wait_busy, CFQQ_WAIT_BUSY)
CFQQ_FNS(coop, CFQQ_COOP)
CFQQ_FNS(split_coop, CFQQ_SPLIT_COOP)
#undef CFQQ_FNS

/*
 * rq->elv.priv[1]: flags, and the I/O priority of the submitting task
 * (cfq_prepare_request()); priv[0] is the cfq_queue.
 */
#define CFQ_RQ_QUEUED		BIT(0)	/* in its queue's lists */
#define CFQ_RQ_DRIVER		BIT(1)	/* dispatched, counted at the driver */
#define CFQ_RQ_INJECTED		BIT(2)	/* sent beside a boosted queue */
#define CFQ_RQ_TIMED		BIT(3)	/* a boosted read being timed */
#define CFQ_RQ_PRIO_SHIFT	16

enum cfq_expire_why {
	CFQ_EXP_SLICE,		/* slice used up */
	CFQ_EXP_EMPTY,		/* ran dry, no reason to idle */
	CFQ_EXP_IDLE_TIMEOUT,	/* idled, nothing came */
	CFQ_EXP_PREEMPTED,	/* a more important queue arrived */
	CFQ_EXP_ASYNC_RQ,	/* async queue dispatched its share */
	CFQ_EXP_GONE,		/* queue freed or switched group */
	CFQ_EXP_COOP,		/* ran dry, a close cooperator goes on */
	CFQ_NR_EXPIRE,
};

/*
 * What else was at the device while a boosted queue's read was timed:
 * nothing, requests sent beside it while it idled, or others (sent before
 * its turn), whose time says nothing of injection.
 */
enum cfq_inject_seen {
	CFQ_INJECT_ALONE,
	CFQ_INJECT_INJECTED,
	CFQ_INJECT_OTHERS,
};

struct cfq_data {
	struct request_queue	*q;
	spinlock_t		lock;	/* everything below, queues, groups */

	struct list_head	dispatch;	/* at-head inserts */
	struct cfq_rb_root	grp_st;		/* busy groups by vdisktime */
	struct cfq_group	*root_group;
	struct cfq_queue	oom_cfqq;	/* when a queue cannot be allocated */
	/* busy sync queues by their next request's sector, per level */
	struct rb_root		pos_tree[IOPRIO_NR_LEVELS];

	/* what is being served */
	struct cfq_queue	*active_queue;
	struct cfq_group	*serving_group;
	enum cfq_wl_class	serving_wl_class;
	enum cfq_wl_type	serving_wl_type;
	u64			workload_expires;
	u64			last_busy_ns;	/* last non-idle-class activity */

	/* counts */
	unsigned int		busy_queues;
	unsigned int		nr_queues;	/* allocated, the oom queue not */
	unsigned int		rq_queued;
	unsigned int		rq_in_driver;
	unsigned int		rq_in_flight[2];	/* async, sync */
	bool			held;	/* work queued that dispatch refused */
	bool			rerun;	/* a hold may have ended: see cfq_unlock */
	u64			last_delayed_sync;
	u64			tail_charged;	/* end of the last tail charged */
	sector_t		last_pos;	/* where the last dispatch ended */

	/* hardware queue depth detection */
	int			hw_tag;		/* 0 shallow, 1 deep */
	unsigned int		hw_tag_samples;
	unsigned int		hw_tag_est_depth;

	struct hrtimer		idle_timer;
	u64			idle_end;	/* the active queue's wait ends */

	/* the boosted read being timed, CFQ_RQ_TIMED (cfq_inject_sample()) */
	bool			inject_timing;
	u64			inject_rq_start;
	enum cfq_inject_seen	inject_seen;
	unsigned int		inject_max;	/* most at the device meanwhile */
	unsigned int		inject_in_driver;	/* CFQ_RQ_INJECTED ones */
	sector_t		active_pos;	/* the active queue's last end */

	/* tunables (sysfs) */
	u64			fifo_expire[2];		/* ns, async, sync */
	u64			slice[2];		/* ns, async, sync */
	u64			slice_idle;		/* ns */
	u64			group_idle;		/* ns */
	u64			target_latency;		/* ns */
	unsigned int		back_seek_max;		/* KiB */
	unsigned int		back_seek_penalty;
	unsigned int		slice_async_rq;
	unsigned int		quantum;
	unsigned int		low_latency;
	unsigned int		async_depth;	/* scheduler tags async may use */
	unsigned int		cooperators;	/* serve and merge close queues */
	u64			new_boost;	/* ns, a new process's boost */
	u64			burst_last;	/* ns: last process started */
	unsigned int		burst_size;	/* processes started in a burst */

	/* statistics (debugfs) */
	unsigned long		stat_slices;
	unsigned long		stat_expire[CFQ_NR_EXPIRE];
	unsigned long		stat_idle_starts;
	unsigned long		stat_group_idle_starts;
	unsigned long		stat_idle_hits;
	unsigned long		stat_dispatched[CFQ_NR_WL_CLASSES];
	unsigned long		stat_fifo_expired;
	unsigned long		stat_oom;
	unsigned long		stat_held;	/* dispatch refused queued work */
	unsigned long		stat_kicks;	/* queue reruns after a hold */
	unsigned long		stat_no_icq;	/* requests without an io_cq */
	unsigned long		stat_requeues;
	unsigned long		stat_wait_busy;	/* slices extended for a group */
	unsigned long		stat_coop_merges;	/* processes moved */
	unsigned long		stat_coop_splits;	/* processes split off */
	unsigned long		stat_boosts;		/* new queues boosted */
	unsigned long		stat_boost_preempts;	/* preemptions by them */
	unsigned long		stat_boost_extended;	/* their slices extended */
	unsigned long		stat_burst_unboosted;	/* new, in a burst */
	unsigned long		stat_boost_capped;	/* boosts ended by service */
	unsigned long		stat_injected;	/* sent beside a boosted queue */
	unsigned long		stat_inject_cuts;	/* its limit lowered */
};

struct request;

/* Core entry points used by the cgroup policy. */
void cfq_init_group(struct cfq_group *cfqg, struct cfq_data *cfqd,
		    struct cfq_group *parent, unsigned int weight);
void cfq_group_offline(struct cfq_group *cfqg);
void cfq_put_group(struct cfq_group *cfqg);
unsigned int cfq_group_weight(const struct cfq_group *cfqg);

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Pure helpers, exported to the KUnit tests (static in a kernel without
 * KUnit: VISIBLE_IF_KUNIT).
 */
u64 cfq_prio_slice(u64 base_ns, unsigned short ioprio);
u64 cfq_low_latency_slice(u64 slice, u64 slice_sync, u64 slice_idle,
			  unsigned int busy, u64 group_slice);
u64 cfq_scale_charge(u64 charge_ns, unsigned int hweight);
u64 cfq_slice_charge(u64 dispatch_start, u64 slice_start, u64 now);
u64 cfq_group_slice(u64 target_latency, u64 weight, u64 total_weight);
u64 cfq_workload_slice(u64 group_slice, unsigned int count,
		       unsigned int busy_avg, bool async, u64 slice_sync,
		       u64 slice_async, u64 slice_idle);
void cfq_ttime_add(struct cfq_ttime *tt, u64 sample_ns, u64 cap_ns);
bool cfq_ttime_valid(const struct cfq_ttime *tt);
u32 cfq_seek_push(u32 history, bool seeky);
bool cfq_seeky(u32 history, unsigned int samples);
s64 cfq_req_cost(sector_t head, sector_t pos, sector_t back_max,
		 unsigned int back_penalty);
unsigned int cfq_prio_to_maxrq(unsigned int slice_async_rq,
			       unsigned short ioprio);
enum cfq_wl_class cfq_wl_class_of(unsigned short ioprio_class);
bool cfq_rq_noidle(const struct request *rq);
bool cfq_noidle_preempt(const struct cfq_queue *new,
			const struct cfq_queue *active);
bool cfqq_boosted(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
		  u64 now);
void cfq_inject_adjust(struct cfq_queue *cfqq, enum cfq_inject_seen seen,
		       u64 t, unsigned int reached, u64 now, unsigned int max);

/* The scheduler's entry points, for KUnit's fake queue. */
struct blk_mq_hw_ctx;
void cfq_init_data(struct cfq_data *cfqd, struct request_queue *q);
void cfq_init_root(struct cfq_data *cfqd, struct cfq_group *root);
void cfq_exit_data(struct cfq_data *cfqd);
void cfq_insert_requests(struct blk_mq_hw_ctx *hctx, struct list_head *list,
			 blk_insert_t flags);
struct request *cfq_dispatch_request(struct blk_mq_hw_ctx *hctx);
bool cfq_has_work(struct blk_mq_hw_ctx *hctx);
enum hrtimer_restart cfq_idle_timer_fn(struct hrtimer *timer);
void cfq_completed_request(struct request *rq, u64 now);
void cfq_finish_request(struct request *rq);
void cfq_requeue_request(struct request *rq);
void cfq_exit_icq(struct io_cq *icq);
unsigned int cfq_group_hweight(const struct cfq_group *cfqg);
#endif

#ifdef CONFIG_CFQ_GROUP_IOSCHED
extern struct blkcg_policy blkcg_policy_cfq;

int cfq_cgroup_init(void);
void cfq_cgroup_exit(void);
struct cfq_group *cfq_activate_groups(struct request_queue *q);
void cfq_deactivate_groups(struct request_queue *q);
struct cfq_group *cfq_lookup_group(struct cfq_data *cfqd, struct bio *bio);
#else
static inline int cfq_cgroup_init(void) { return 0; }
static inline void cfq_cgroup_exit(void) { }
#endif

#endif /* _CFQ_IOSCHED_H */
