// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: statistics and tunables in sysfs (per LUN and per host), fault
 * injection in debugfs.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "simhba.h"

/* ---- sysfs ------------------------------------------------------------------- */

static struct simhba_lun *dev_to_lun(struct device *dev)
{
	return to_scsi_device(dev)->hostdata;
}

static ssize_t simhba_stats_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	struct simhba_stats s = { };
	unsigned long flags;
	unsigned int i, j;
	int n;

	if (!lun)
		return -ENODEV;
	spin_lock_irqsave(&lun->dom->lock, flags);
	simhba_lun_advance(lun, simhba_model_now());
	for (i = 0; i < lun->nmembers; i++) {
		const struct simhba_stats *m = &lun->m[i].disk.st;

		s.cmds += m->cmds;
		s.reads += m->reads;
		s.writes += m->writes;
		s.flushes += m->flushes;
		s.read_bytes += m->read_bytes;
		s.write_bytes += m->write_bytes;
		s.seeks += m->seeks;
		s.seek_cyls += m->seek_cyls;
		s.busy_ns = max(s.busy_ns, m->busy_ns);
		s.ra_hits += m->ra_hits;
		s.wc_hits += m->wc_hits;
		s.destages += m->destages;
		s.destage_bytes += m->destage_bytes;
		for (j = 0; j < SIMHBA_QD_BUCKETS; j++)
			s.qd_hist[j] += m->qd_hist[j];
	}
	spin_unlock_irqrestore(&lun->dom->lock, flags);

	n = sysfs_emit(buf,
		       "commands %llu\nreads %llu\nwrites %llu\nflushes %llu\n"
		       "read_bytes %llu\nwrite_bytes %llu\nseeks %llu\n"
		       "seek_cylinders %llu\nbusy_ns %llu\nra_hits %llu\n"
		       "wc_hits %llu\ndestages %llu\ndestage_bytes %llu\n"
		       "medium_errors %lld\ntimeouts %lld\n"
		       "busy %lld\naborts %lld\nresets %lld\nqd_hist",
		       s.cmds, s.reads, s.writes, s.flushes, s.read_bytes,
		       s.write_bytes, s.seeks, s.seek_cyls, s.busy_ns,
		       s.ra_hits, s.wc_hits, s.destages, s.destage_bytes,
		       atomic64_read(&lun->medium_errors),
		       atomic64_read(&lun->timeouts),
		       atomic64_read(&lun->busies),
		       atomic64_read(&lun->aborts),
		       atomic64_read(&lun->resets));
	for (j = 0; j < SIMHBA_QD_BUCKETS; j++)
		n += sysfs_emit_at(buf, n, " %llu", s.qd_hist[j]);
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
static DEVICE_ATTR_RO(simhba_stats);

static ssize_t simhba_profile_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	if (!lun)
		return -ENODEV;
	if (lun->chunk)
		return sysfs_emit(buf, "raid0 %u x %s chunk %u KiB\n",
				  lun->nmembers, lun->profile,
				  lun->chunk / 2);
	return sysfs_emit(buf, "%s\n", lun->profile);
}
static DEVICE_ATTR_RO(simhba_profile);

/* The model's parameters, for analytic expectations in user space. */
static ssize_t simhba_model_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);
	const struct simhba_disk *d;
	const struct simhba_profile *p;

	if (!lun)
		return -ENODEV;
	d = &lun->m[0].disk;
	p = &d->p;
	return sysfs_emit(buf,
			  "kind %s\nmembers %u\nchunk_sectors %u\n"
			  "capacity_sectors %llu\nmember_sectors %llu\n"
			  "cylinders %u\nheads %u\nrpm %u\nrot_ns %llu\n"
			  "t2t_ns %u\navg_ns %u\nfull_ns %u\nhead_switch_ns %u\n"
			  "outer_Bps %llu\ninner_Bps %llu\n"
			  "outer_sustained_Bps %llu\ninner_sustained_Bps %llu\n"
			  "spec_outer_Bps %llu\nspec_inner_Bps %llu\n"
			  "knee_ns %llu\niface_mbps %u\n"
			  "overhead_ns %u\ncmd_ns %llu\nchannels %u\nread_ns %u\n"
			  "write_ns %u\nchan_mbps %u\nra_kib %u\nra_segs %u\n"
			  "wc_kib %u\nwb_idle_ns %llu\ntime_scale %u\n",
			  p->kind == SIMHBA_SSD ? "ssd" : "hdd", lun->nmembers,
			  lun->chunk, lun->capacity, d->capacity, d->cyls,
			  p->heads, p->rpm, d->rot_ns, p->t2t_ns, p->avg_ns,
			  p->full_ns, p->head_switch_ns,
			  simhba_media_rate(d, 0),
			  simhba_media_rate(d, d->capacity - 1),
			  simhba_sustained_rate(d, 0),
			  simhba_sustained_rate(d, d->capacity - 1),
			  p->spec_outer_kbps * 1000ULL, p->spec_inner_kbps * 1000ULL,
			  d->knee_ns, p->iface_mbps,
			  p->overhead_ns, lun->host->cmd_ns, d->nch, p->read_ns,
			  p->write_ns, p->chan_mbps, p->ra_kib, d->ra_nseg,
			  p->wc_kib, d->wb_idle_ns, simhba_time_scale);
}
static DEVICE_ATTR_RO(simhba_model);

static ssize_t simhba_wce_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	return lun ? sysfs_emit(buf, "%d\n", lun->wce) : -ENODEV;
}

/*
 * A per-LUN knob: parse a value within @min-@max and give it to every
 * member disk by @set, the model first brought up to now.
 */
static ssize_t lun_store(struct device *dev, const char *buf, size_t count,
			 unsigned int min, unsigned int max,
			 void (*set)(struct simhba_lun *lun, unsigned int v))
{
	struct simhba_lun *lun = dev_to_lun(dev);
	unsigned long flags;
	unsigned int v;

	if (!lun)
		return -ENODEV;
	if (kstrtouint(buf, 0, &v) || v < min || v > max)
		return -EINVAL;
	spin_lock_irqsave(&lun->dom->lock, flags);
	simhba_lun_advance(lun, simhba_model_now());
	set(lun, v);
	spin_unlock_irqrestore(&lun->dom->lock, flags);
	return count;
}

static void set_wce(struct simhba_lun *lun, unsigned int v)
{
	unsigned int i;

	lun->wce = v;
	for (i = 0; i < lun->nmembers; i++)
		lun->m[i].disk.wce = v;
}

static ssize_t simhba_wce_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	return lun_store(dev, buf, count, 0, 1, set_wce);
}
static DEVICE_ATTR_RW(simhba_wce);

static ssize_t simhba_ncq_depth_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct simhba_lun *lun = dev_to_lun(dev);

	return lun ? sysfs_emit(buf, "%u\n", lun->m[0].disk.depth) : -ENODEV;
}

static void set_ncq_depth(struct simhba_lun *lun, unsigned int v)
{
	unsigned int i;

	for (i = 0; i < lun->nmembers; i++)
		lun->m[i].disk.depth = v;
}

static ssize_t simhba_ncq_depth_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	return lun_store(dev, buf, count, 1, 256, set_ncq_depth);
}
static DEVICE_ATTR_RW(simhba_ncq_depth);

static struct attribute *simhba_sdev_attrs[] = {
	&dev_attr_simhba_stats.attr,
	&dev_attr_simhba_profile.attr,
	&dev_attr_simhba_model.attr,
	&dev_attr_simhba_wce.attr,
	&dev_attr_simhba_ncq_depth.attr,
	NULL,
};

static const struct attribute_group simhba_sdev_group = {
	.attrs = simhba_sdev_attrs,
};

const struct attribute_group *simhba_sdev_groups[] = {
	&simhba_sdev_group,
	NULL,
};

struct simhba_counter_attr {
	struct device_attribute attr;
	size_t offset;		/* of an atomic64_t in struct simhba_host */
};

static ssize_t simhba_counter_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));
	struct simhba_counter_attr *ca =
		container_of(attr, struct simhba_counter_attr, attr);
	atomic64_t *v = (void *)h + ca->offset;

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

#define SIMHBA_COUNTER(_name, _field)					\
	struct simhba_counter_attr dev_attr_##_name = {			\
		.attr = __ATTR(_name, 0444, simhba_counter_show, NULL),	\
		.offset = offsetof(struct simhba_host, _field),		\
	}

static SIMHBA_COUNTER(simhba_map_segs, map_segs);
static SIMHBA_COUNTER(simhba_map_bytes, map_bytes);
static SIMHBA_COUNTER(simhba_bounce_segs, bounce_segs);
static SIMHBA_COUNTER(simhba_bounce_bytes, bounce_bytes);
static SIMHBA_COUNTER(simhba_map_failures, map_failures);

static ssize_t simhba_personality_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%s\n", h->pers->name);
}
static DEVICE_ATTR_RO(simhba_personality);

static ssize_t simhba_dma_bits_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%u\n", h->dma_bits);
}
static DEVICE_ATTR_RO(simhba_dma_bits);

static ssize_t simhba_max_segs_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));

	return sysfs_emit(buf, "%d\n", atomic_read(&h->max_segs));
}
static DEVICE_ATTR_RO(simhba_max_segs);

/* The host's link, each way: rate, modelled busy time and bytes carried. */
static ssize_t simhba_link_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct simhba_host *h = to_simhba(class_to_shost(dev));
	struct simhba_link l[2];
	unsigned long flags;
	unsigned int i;
	int n = 0;

	if (!h->pers->link_mbps)
		return sysfs_emit(buf, "none\n");
	spin_lock_irqsave(&h->shared.lock, flags);
	l[0] = h->link[0];
	l[1] = h->link[1];
	spin_unlock_irqrestore(&h->shared.lock, flags);
	for (i = 0; i < 2; i++) {
		if (i && !h->pers->full_duplex)
			break;
		n += sysfs_emit_at(buf, n, "%s mbps %u busy_ns %llu bytes %llu\n",
				   h->pers->full_duplex ?
				   (i ? "to_disk" : "to_host") : "both",
				   l[i].mbps, l[i].busy_ns, l[i].bytes);
	}
	return n;
}
static DEVICE_ATTR_RO(simhba_link);

static struct attribute *simhba_shost_attrs[] = {
	&dev_attr_simhba_personality.attr,
	&dev_attr_simhba_dma_bits.attr,
	&dev_attr_simhba_max_segs.attr,
	&dev_attr_simhba_link.attr,
	&dev_attr_simhba_map_segs.attr.attr,
	&dev_attr_simhba_map_bytes.attr.attr,
	&dev_attr_simhba_bounce_segs.attr.attr,
	&dev_attr_simhba_bounce_bytes.attr.attr,
	&dev_attr_simhba_map_failures.attr.attr,
	NULL,
};

static const struct attribute_group simhba_shost_group = {
	.attrs = simhba_shost_attrs,
};

const struct attribute_group *simhba_shost_groups[] = {
	&simhba_shost_group,
	NULL,
};

/* ---- debugfs: fault injection and test knobs, one directory per LUN ----- */

static int timer_lag_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct simhba_lun *)data)->timer_lag_ns);
	return 0;
}

/* At most a second: a test knob, not a way to stall the LUN. */
static int timer_lag_set(void *data, u64 val)
{
	if (val > NSEC_PER_SEC)
		return -EINVAL;
	WRITE_ONCE(((struct simhba_lun *)data)->timer_lag_ns, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(timer_lag_fops, timer_lag_get, timer_lag_set, "%llu\n");

void simhba_lun_debugfs_init(struct simhba_lun *lun, const char *name)
{
	lun->dbg = debugfs_create_dir(name, simhba_dbg_root);
	debugfs_create_u64("medium_error_lba", 0600, lun->dbg, &lun->medium_lba);
	debugfs_create_u64("medium_error_sectors", 0600, lun->dbg,
			   &lun->medium_sectors);
	debugfs_create_atomic_t("timeout_next", 0600, lun->dbg,
				&lun->timeout_next);
	debugfs_create_atomic_t("busy_next", 0600, lun->dbg, &lun->busy_next);
	debugfs_create_atomic_t("nomem_next", 0600, lun->dbg, &lun->nomem_next);
	debugfs_create_file_unsafe("timer_lag_ns", 0600, lun->dbg, lun,
				   &timer_lag_fops);
}
