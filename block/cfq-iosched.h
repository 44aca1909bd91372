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

/* A red-black tree of queues (or groups) ordered by key, and its size. */
struct cfq_rb_root {
	struct rb_root_cached	rb;
	unsigned int		count;
	u64			min_vdisktime;	/* group tree only */
	unsigned int		total_weight;	/* group tree only */
};

/* Decaying think time mean, in ns, kept in fixed point (see cfq_ttime_add). */
struct cfq_ttime {
	u64	last_end_ns;	/* completion of the last request */
	u64	total;
	u32	samples;
	u64	mean_ns;
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
	unsigned int		slice_dispatch;
	s64			slice_resid;	/* left over by a preemption */

	/* class and level */
	unsigned short		ioprio_class;	/* IOPRIO_CLASS_RT/BE/IDLE */
	unsigned short		ioprio;		/* 0 (high) .. 7 */

	/* behaviour */
	struct cfq_ttime	ttime;
	u32			seek_history;	/* one bit per request: seeky */
	sector_t		last_pos;
	enum cfq_wl_type	wl_type;	/* tree it was put on */

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
	unsigned int		weight;		/* used while on the tree */
	unsigned int		new_weight;	/* set from cgroup files */
	unsigned int		dev_weight;	/* per-device override, 0 = none */

	unsigned int		nr_cfqq;	/* busy queues */
	unsigned int		busy_queues_avg[CFQ_NR_WL_CLASSES];
	struct cfq_rb_root	st[CFQ_NR_WL_CLASSES][CFQ_NR_WL_TYPES];

	/* shared async queues, created on first use */
	struct cfq_queue	*async_cfqq[2][IOPRIO_NR_LEVELS];
	struct cfq_queue	*async_idle_cfqq;

	/* statistics (debugfs) */
	u64			served_ns;	/* disk time charged */
	u64			served_sectors;
	bool			offline;
};

struct cfq_io_cq {
	struct io_cq		icq;		/* must be first */
	struct cfq_queue	*cfqq[2];	/* [0] async, [1] sync */
};

/* Pure helpers, exported to the KUnit tests. */
u64 cfq_prio_slice(u64 base_ns, unsigned short ioprio);
u64 cfq_low_latency_slice(u64 slice, u64 slice_sync, u64 slice_idle,
			  unsigned int busy, u64 group_slice);
u64 cfq_scale_charge(u64 charge_ns, unsigned int weight);
u64 cfq_slice_charge(u64 dispatch_start, u64 slice_start, u64 now);
u64 cfq_group_slice(u64 target_latency, unsigned int weight,
		    unsigned int total_weight);
u64 cfq_workload_slice(u64 group_slice, unsigned int count,
		       unsigned int busy_avg, bool async, u64 slice_sync,
		       u64 slice_async, u64 slice_idle);
void cfq_ttime_add(struct cfq_ttime *tt, u64 sample_ns, u64 cap_ns);
bool cfq_ttime_valid(const struct cfq_ttime *tt);
u32 cfq_seek_push(u32 history, bool seeky);
bool cfq_seeky(u32 history);
s64 cfq_req_cost(sector_t head, sector_t pos, sector_t back_max,
		 unsigned int back_penalty);
unsigned int cfq_prio_to_maxrq(unsigned int slice_async_rq,
			       unsigned short ioprio);
enum cfq_wl_class cfq_wl_class_of(unsigned short ioprio_class);
bool cfq_noidle_preempt(const struct cfq_queue *new,
			const struct cfq_queue *active);

/* Core entry points used by the cgroup policy. */
void cfq_init_group(struct cfq_group *cfqg, struct cfq_data *cfqd,
		    unsigned int weight);
void cfq_group_offline(struct cfq_group *cfqg);
void cfq_put_group(struct cfq_group *cfqg);
unsigned int cfq_group_weight(const struct cfq_group *cfqg);

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
