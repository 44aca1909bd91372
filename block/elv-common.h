/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the anticipatory and cfq schedulers share on blk-mq: a reserve of
 * scheduler tags for synchronous requests, bio merging under the
 * scheduler's own lock, and the parsing of a tunable written in sysfs.
 */
#ifndef BLK_ELV_COMMON_H
#define BLK_ELV_COMMON_H

#include <linux/blk-mq.h>
#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/sbitmap.h>
#include <linux/spinlock.h>

#include "blk-mq.h"
#include "blk-mq-sched.h"

/*
 * The depth async requests may use in each word of @hctx's scheduler tags
 * (a shallow depth applies per sbitmap word): three quarters, so that
 * writeback holding every tag cannot make a reader wait for one.  Call it
 * from init_hctx() and depth_updated(), and apply the result in
 * limit_depth() to the requests the scheduler treats as async.
 */
static inline unsigned int elv_sync_reserve_depth(struct blk_mq_hw_ctx *hctx)
{
	struct sbitmap_queue *bt = &hctx->sched_tags->bitmap_tags;
	unsigned int depth = max(1U, (3U << bt->sb.shift) / 4);

	sbitmap_queue_min_shallow_depth(bt, depth);
	return depth;
}

/*
 * Merge @bio into a queued request, under @lock, the lock that protects
 * the scheduler's sort lists and the request hash.  A request freed by a
 * resulting request merge is freed after the lock is dropped.
 */
static inline bool elv_locked_bio_merge(struct request_queue *q,
					struct bio *bio, unsigned int nr_segs,
					spinlock_t *lock)
{
	struct request *free = NULL;
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(lock, flags);
	ret = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock_irqrestore(lock, flags);

	if (free)
		blk_mq_free_request(free);
	return ret;
}

/*
 * A tunable written in sysfs: a decimal in [@min, @max] is stored in @v;
 * anything else fails with -EINVAL, and the caller keeps the old value.
 */
static inline int elv_parse_tunable(const char *page, unsigned int min,
				    unsigned int max, unsigned int *v)
{
	if (kstrtouint(page, 10, v) || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

#endif /* BLK_ELV_COMMON_H */
