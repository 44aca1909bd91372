// SPDX-License-Identifier: GPL-2.0
/*
 * CFQ's block cgroup policy: one cfq_group per cgroup and device, weighted
 * by io.cfq.weight ("default W" or "MAJ:MIN W", 1..1000, default 100).
 *
 * Groups are scheduled hierarchically: a cgroup's weight divides its
 * parent's part of the disk among the parent's own processes and its
 * active children (cfq_group_hweight()).  A group whose cgroup is removed
 * keeps its busy queues until they drain; new requests of that cgroup go
 * to the root group.
 */
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "blk-cgroup.h"
#include "elevator.h"
#include "cfq-iosched.h"

/* The per-cgroup default weight (all devices). */
struct cfq_group_data {
	struct blkcg_policy_data	pd;
	unsigned int			weight;
};

static struct cfq_group *pd_to_cfqg(struct blkg_policy_data *pd)
{
	return pd ? container_of(pd, struct cfq_group, pd) : NULL;
}

static struct cfq_group *blkg_to_cfqg(struct blkcg_gq *blkg)
{
	return pd_to_cfqg(blkg_to_pd(blkg, &blkcg_policy_cfq));
}

static struct cfq_group_data *blkcg_to_cfqgd(struct blkcg *blkcg)
{
	struct blkcg_policy_data *cpd = blkcg_to_cpd(blkcg, &blkcg_policy_cfq);

	return cpd ? container_of(cpd, struct cfq_group_data, pd) : NULL;
}

struct cfq_group *cfq_lookup_group(struct cfq_data *cfqd, struct bio *bio)
{
	return bio->bi_blkg ? blkg_to_cfqg(bio->bi_blkg) : NULL;
}

static struct blkcg_policy_data *cfq_cpd_alloc(gfp_t gfp)
{
	struct cfq_group_data *cgd = kzalloc(sizeof(*cgd), gfp);

	if (!cgd)
		return NULL;
	cgd->weight = CFQ_WEIGHT_DEFAULT;
	return &cgd->pd;
}

static void cfq_cpd_free(struct blkcg_policy_data *cpd)
{
	kfree(container_of(cpd, struct cfq_group_data, pd));
}

static struct blkg_policy_data *cfq_pd_alloc(struct gendisk *disk,
					     struct blkcg *blkcg, gfp_t gfp)
{
	struct cfq_group *cfqg = kzalloc_node(sizeof(*cfqg), gfp, disk->node_id);

	if (!cfqg)
		return NULL;
	/* The policy's reference: blk-cgroup may free a pd never inited. */
	refcount_set(&cfqg->ref, 1);
	return &cfqg->pd;
}

/* The group of @blkg's nearest ancestor that has one, or NULL. */
static struct cfq_group *cfq_parent_group(struct blkcg_gq *blkg)
{
	struct cfq_group *parent = NULL;

	for (blkg = blkg->parent; blkg && !parent; blkg = blkg->parent)
		parent = blkg_to_cfqg(blkg);
	return parent;
}

static void cfq_pd_init(struct blkg_policy_data *pd)
{
	struct blkcg_gq *blkg = pd_to_blkg(pd);
	struct cfq_group_data *cgd = blkcg_to_cfqgd(blkg->blkcg);

	cfq_init_group(pd_to_cfqg(pd), blkg->q->elevator->elevator_data,
		       cfq_parent_group(blkg),
		       cgd ? cgd->weight : CFQ_WEIGHT_DEFAULT);
}

static void cfq_pd_offline(struct blkg_policy_data *pd)
{
	cfq_group_offline(pd_to_cfqg(pd));
}

/* The policy's reference; queues may still hold theirs. */
static void cfq_pd_free(struct blkg_policy_data *pd)
{
	cfq_put_group(pd_to_cfqg(pd));
}

static u64 cfqg_prfill_weight_device(struct seq_file *sf,
				     struct blkg_policy_data *pd, int off)
{
	struct cfq_group *cfqg = pd_to_cfqg(pd);

	if (!cfqg->dev_weight)
		return 0;
	return __blkg_prfill_u64(sf, pd, cfqg->dev_weight);
}

static int cfq_weight_show(struct seq_file *sf, void *v)
{
	struct blkcg *blkcg = css_to_blkcg(seq_css(sf));
	struct cfq_group_data *cgd = blkcg_to_cfqgd(blkcg);

	seq_printf(sf, "default %u\n", cgd ? cgd->weight : CFQ_WEIGHT_DEFAULT);
	blkcg_print_blkgs(sf, blkcg, cfqg_prfill_weight_device,
			  &blkcg_policy_cfq, 0, false);
	return 0;
}

static bool cfq_weight_ok(u64 v)
{
	return v >= CFQ_WEIGHT_MIN && v <= CFQ_WEIGHT_MAX;
}

/* "W" or "default W": the weight of every device of the cgroup. */
static int cfq_set_default_weight(struct blkcg *blkcg, u64 v)
{
	struct cfq_group_data *cgd = blkcg_to_cfqgd(blkcg);
	struct blkcg_gq *blkg;

	if (!cfq_weight_ok(v))
		return -ERANGE;
	if (!cgd)
		return -ENODEV;
	spin_lock_irq(&blkcg->lock);
	cgd->weight = v;
	hlist_for_each_entry(blkg, &blkcg->blkg_list, blkcg_node) {
		struct cfq_group *cfqg = blkg_to_cfqg(blkg);

		if (cfqg)
			WRITE_ONCE(cfqg->new_weight, v);
	}
	spin_unlock_irq(&blkcg->lock);
	return 0;
}

/* "MAJ:MIN W" or "MAJ:MIN default": one device's weight. */
static int cfq_set_device_weight(struct blkcg *blkcg, char *buf)
{
	struct blkg_conf_ctx ctx;
	u64 v = 0;
	int ret;

	blkg_conf_init(&ctx, buf);
	ret = blkg_conf_prep(blkcg, &blkcg_policy_cfq, &ctx);
	if (ret)
		goto out;
	if (!strcmp(strim(ctx.body), "default")) {
		v = 0;
	} else if (kstrtou64(strim(ctx.body), 10, &v)) {
		ret = -EINVAL;
		goto out;
	} else if (!cfq_weight_ok(v)) {
		ret = -ERANGE;
		goto out;
	}
	WRITE_ONCE(blkg_to_cfqg(ctx.blkg)->dev_weight, v);
out:
	blkg_conf_exit(&ctx);
	return ret;
}

static ssize_t cfq_weight_write(struct kernfs_open_file *of, char *buf,
				size_t nbytes, loff_t off)
{
	struct blkcg *blkcg = css_to_blkcg(of_css(of));
	char *s = strim(buf);
	u64 v;
	int ret;

	if (!kstrtou64(s, 10, &v) || sscanf(s, "default %llu", &v) == 1)
		ret = cfq_set_default_weight(blkcg, v);
	else if (!strncmp(s, "default", 7))
		ret = -EINVAL;
	else
		ret = cfq_set_device_weight(blkcg, s);
	return ret ?: nbytes;
}

/*
 * io.stat: the disk time cfq charged the group's own queues on this disk,
 * in microseconds, the measure its weight divides (cfq.served_us).
 * Called under blkcg->lock, which is taken before cfqd->lock elsewhere
 * too (cfq_pd_offline()); the lock keeps the u64 whole on 32-bit.
 */
static void cfq_pd_stat(struct blkg_policy_data *pd, struct seq_file *s)
{
	struct cfq_group *cfqg = pd_to_cfqg(pd);
	unsigned long flags;
	u64 served;

	spin_lock_irqsave(&cfqg->cfqd->lock, flags);
	served = cfqg->served_ns;
	spin_unlock_irqrestore(&cfqg->cfqd->lock, flags);
	seq_printf(s, " cfq.served_us=%llu", div_u64(served, NSEC_PER_USEC));
}

static struct cftype cfq_blkg_files[] = {
	{
		.name = "cfq.weight",
		.flags = CFTYPE_NOT_ON_ROOT,
		.seq_show = cfq_weight_show,
		.write = cfq_weight_write,
	},
	{} /* terminate */
};

/* Exported to KUnit, which puts groups behind fake blkgs at its index. */
struct blkcg_policy blkcg_policy_cfq = {
	.dfl_cftypes		= cfq_blkg_files,
	.cpd_alloc_fn		= cfq_cpd_alloc,
	.cpd_free_fn		= cfq_cpd_free,
	.pd_alloc_fn		= cfq_pd_alloc,
	.pd_init_fn		= cfq_pd_init,
	.pd_offline_fn		= cfq_pd_offline,
	.pd_free_fn		= cfq_pd_free,
	.pd_stat_fn		= cfq_pd_stat,
};
EXPORT_SYMBOL_IF_KUNIT(blkcg_policy_cfq);

/*
 * Activate the policy on @q (q->elevator must point at cfq's data: the
 * groups' init reads it) and return the root group, or NULL.
 */
struct cfq_group *cfq_activate_groups(struct request_queue *q)
{
	if (blkcg_activate_policy(q->disk, &blkcg_policy_cfq))
		return NULL;
	return blkg_to_cfqg(q->root_blkg);
}

void cfq_deactivate_groups(struct request_queue *q)
{
	blkcg_deactivate_policy(q->disk, &blkcg_policy_cfq);
}

int cfq_cgroup_init(void)
{
	return blkcg_policy_register(&blkcg_policy_cfq);
}

void cfq_cgroup_exit(void)
{
	blkcg_policy_unregister(&blkcg_policy_cfq);
}
