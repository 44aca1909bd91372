// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: timing model of the simulated disks.
 *
 * A disk is a set of zones of cylinders; within a zone every track holds the
 * same number of sectors, outer zones more than inner ones.  The cost of an
 * operation is the controller overhead, a seek that follows distance (square
 * root for short seeks, linear for long ones), the rotational latency until
 * the first sector passes under the head, and the media transfer; the bus
 * transfer overlaps with the media transfer.  After a read the head keeps
 * streaming into a read-ahead segment while nothing else waits; each
 * sequential stream keeps its own segment (LRU).  A write-back cache absorbs writes into dirty
 * extents while it has room, and serves reads that lie wholly in them;
 * dirty data reaches the media only through write-backs, which the
 * firmware starts once the head has been idle for a while and which a
 * write waits for when the cache is full, and a flush waits for all of
 * them.  The head is one timeline: a write-back occupies it like a host
 * command's media access, so no mix of streams moves more bytes than the
 * media rate.  With a queue depth above 1 the firmware serves the queued
 * operation with the shortest positioning time first, unless the oldest
 * one has waited longer than the aging limit.
 *
 * Everything here runs on a virtual clock in nanoseconds and is called with
 * the owner's lock held; nothing sleeps.  The schedule depends only on when
 * operations were handed over, never on when the owner gets round to
 * reaping them: a channel that finished at t starts its next operation at t
 * (choosing among those handed over by t), however late the owner's timer
 * fires, and the write-backs of an idle head are replayed when the next
 * decision comes.  Host timer lag delays completions, not the mechanism.
 */

#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/time64.h>
#include <kunit/visibility.h>

#include "simhba_model.h"

#define NSEC_PER_MIN	(60ULL * NSEC_PER_SEC)

/*
 * Profiles.  Zone tables go from the outer (fastest) zone inwards; the media
 * rate of a zone is spt * 512 * rpm / 60 bytes per second.
 */
const struct simhba_profile simhba_profiles[] = {
	{
		/*
		 * Seagate Cheetah 10K.6 ST336607LC: 36.7 GB, 10,000 rpm,
		 * Ultra320; 68.5 MB/s sustained at the outer zone, 4.7 ms
		 * average read seek, 0.3 ms track to track, 8 MB buffer.
		 * Estimated (not published): one disc with 2 heads, 10 ms
		 * full stroke, 0.5 ms head switch, 40 MB/s at the inner zone.
		 */
		.name = "u320-10k",
		.product = "SIM U320-10K",
		.kind = SIMHBA_HDD,
		.capacity = 71687372,
		.rpm = 10000,
		.heads = 2,
		.nzones = 8,
		.zones = {
			{ 125, 858 }, { 125, 807 }, { 125, 756 }, { 125, 705 },
			{ 125, 654 }, { 125, 602 }, { 125, 551 }, { 125, 500 },
		},
		.t2t_ns = 300000,
		.avg_ns = 4700000,
		.full_ns = 10000000,
		.head_switch_ns = 500000,
		.iface_mbps = 320,
		.overhead_ns = 40000,
		.qdepth = 64,
		.ra_kib = 512,
		.ra_segs = 4,
		.wc_kib = 4096,
		.wce = false,
		.spec_outer_kbps = 68500,
		.spec_inner_kbps = 40000,
	},
	{
		/*
		 * Hitachi Deskstar T7K250 HDT722525DLA380: 250 GB, 7,200 rpm,
		 * SATA with NCQ (run on a 1.5 Gb/s host), 2 discs, 4 heads;
		 * 67.8 MB/s sustained at the outer zone, 32.9 at the inner,
		 * 8.5 ms average seek, 8 MB buffer.  Estimated: 1.0 ms track
		 * to track and head switch, 15 ms full stroke (the 60GXP's
		 * 14.7 ms).
		 */
		.name = "sata-7200",
		.product = "SIM SATA-7200",
		.kind = SIMHBA_HDD,
		.capacity = 488397168,
		.rpm = 7200,
		.heads = 4,
		.nzones = 8,
		.zones = {
			{ 125, 1238 }, { 125, 1147 }, { 125, 1056 }, { 125, 965 },
			{ 125, 874 }, { 125, 783 }, { 125, 692 }, { 125, 601 },
		},
		.t2t_ns = 1000000,
		.avg_ns = 8500000,
		.full_ns = 15000000,
		.head_switch_ns = 1000000,
		.iface_mbps = 150,
		.overhead_ns = 100000,
		.qdepth = 31,
		.ra_kib = 1024,
		.ra_segs = 4,
		.wc_kib = 8192,
		.wce = true,
		.spec_outer_kbps = 67800,
		.spec_inner_kbps = 32900,
	},
	{
		/* A flash disk: no positioning cost, parallel channels. */
		.name = "ssd",
		.product = "SIM SSD",
		.kind = SIMHBA_SSD,
		.capacity = 125034840,
		.channels = 8,
		.read_ns = 60000,
		.write_ns = 200000,
		.chan_mbps = 60,
		.iface_mbps = 300,
		.overhead_ns = 20000,
		.qdepth = 32,
	},
};
EXPORT_SYMBOL_IF_KUNIT(simhba_profiles);
const unsigned int simhba_nprofiles = ARRAY_SIZE(simhba_profiles);
EXPORT_SYMBOL_IF_KUNIT(simhba_nprofiles);

const struct simhba_profile *simhba_find_profile(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(simhba_profiles); i++)
		if (!strcmp(name, simhba_profiles[i].name))
			return &simhba_profiles[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_find_profile);

/* The mean seek time over uniformly random pairs of cylinders. */
static u64 seek_mean(const struct simhba_disk *d)
{
	u32 step = max_t(u32, 1, d->cyls / 4096), x;
	u64 sum = 0, w = 0;

	/* a distance x has cyls - x pairs in each direction */
	for (x = 1; x < d->cyls; x += step) {
		sum += (u64)(d->cyls - x) * simhba_seek_ns(d, x);
		w += d->cyls - x;
	}
	return w ? div64_u64(sum, w) : 0;
}

/*
 * A datasheet's average seek is the mean over all seeks.  The mean is
 * linear in the time at the knee, so two trials find the knee time that
 * makes the curve's mean the published average.
 */
static void seek_fit(struct simhba_disk *d)
{
	const struct simhba_profile *p = &d->p;
	u64 v1 = p->avg_ns, v2 = p->full_ns, m1, m2;
	s64 v;

	d->knee_ns = v1;
	m1 = seek_mean(d);
	d->knee_ns = v2;
	m2 = seek_mean(d);
	if (m2 <= m1) {
		d->knee_ns = p->avg_ns;
		return;
	}
	v = (s64)v1 + div64_s64(((s64)p->avg_ns - (s64)m1) * (s64)(v2 - v1),
				(s64)(m2 - m1));
	if (v < p->t2t_ns || v > p->full_ns)
		pr_warn("simhba: %s: no seek curve through t2t %u ns and full stroke %u ns has a mean of %u ns\n",
			p->name, p->t2t_ns, p->full_ns, p->avg_ns);
	d->knee_ns = clamp_t(s64, v, p->t2t_ns, p->full_ns);
}

int simhba_disk_init(struct simhba_disk *d, const struct simhba_profile *p,
		     u64 capacity)
{
	u64 spc1000 = 0, total = 0, first = 0;
	u32 i, cyl = 0;

	memset(d, 0, sizeof(*d));
	d->p = *p;
	d->capacity = capacity ? capacity : p->capacity;
	d->depth = p->qdepth ? p->qdepth : 1;
	d->age_ns = 1000ULL * NSEC_PER_MSEC;
	d->wb_idle_ns = SIMHBA_WB_IDLE_NS;
	d->wce = p->wce;
	d->ra_nseg = clamp_t(u32, p->ra_segs, 1, SIMHBA_RA_SEGS);
	INIT_LIST_HEAD(&d->queue);
	INIT_LIST_HEAD(&d->done);
	simhba_link_init(&d->own, p->iface_mbps);
	d->link[0] = &d->own;
	d->link[1] = &d->own;

	if (p->kind == SIMHBA_SSD) {
		if (!p->channels || p->channels > SIMHBA_MAX_CHANNELS ||
		    !p->chan_mbps || !p->iface_mbps)
			return -EINVAL;
		d->nch = p->channels;
		d->cyls = 1;
		return 0;
	}

	if (!p->rpm || !p->heads || !p->nzones ||
	    p->nzones > SIMHBA_MAX_ZONES || !p->iface_mbps ||
	    p->t2t_ns > p->avg_ns || p->avg_ns > p->full_ns)
		return -EINVAL;
	for (i = 0; i < p->nzones; i++)
		if (!p->zones[i].spt || !p->zones[i].permille)
			return -EINVAL;
	d->nch = 1;
	d->nzones = p->nzones;
	d->rot_ns = div_u64(NSEC_PER_MIN, p->rpm);
	for (i = 0; i < p->nzones; i++)
		spc1000 += (u64)p->zones[i].permille * p->zones[i].spt;
	spc1000 *= p->heads;
	d->cyls = div64_u64(d->capacity * 1000 + spc1000 - 1, spc1000);
	/* Small disks keep a minimum geometry (short-stroked). */
	d->cyls = max_t(u32, d->cyls, 4 * p->nzones);

	for (i = 0; i < p->nzones; i++) {
		struct simhba_zone *z = &d->zone[i];

		z->ncyl = max_t(u32, 1, div_u64((u64)d->cyls * p->zones[i].permille, 1000));
		if (i == p->nzones - 1)
			z->ncyl = max_t(u32, 1, d->cyls > cyl ? d->cyls - cyl : 1);
		z->first_cyl = cyl;
		z->spt = p->zones[i].spt;
		/* the switch, rounded up to sectors, and one to spare */
		z->hskew = div64_u64((u64)p->head_switch_ns * z->spt +
				     d->rot_ns - 1, d->rot_ns) + 1;
		z->cskew = div64_u64((u64)p->t2t_ns * z->spt +
				     d->rot_ns - 1, d->rot_ns) + 1;
		z->first_lba = first;
		z->nsect = (u64)z->ncyl * p->heads * z->spt;
		cyl += z->ncyl;
		first += z->nsect;
	}
	total = first;
	if (total < d->capacity) {
		struct simhba_zone *z = &d->zone[p->nzones - 1];
		u64 per = (u64)p->heads * z->spt;
		u32 extra = div64_u64(d->capacity - total + per - 1, per);

		z->ncyl += extra;
		z->nsect += extra * per;
		cyl += extra;
	}
	d->cyls = cyl;
	d->knee = max_t(u32, 1, (d->cyls - 1) / 3);
	seek_fit(d);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_init);

static const struct simhba_zone *lba_zone(const struct simhba_disk *d, u64 lba)
{
	u32 i;

	for (i = 0; i < d->nzones - 1; i++)
		if (lba < d->zone[i].first_lba + d->zone[i].nsect)
			break;
	return &d->zone[i];
}

static void lba_to_chs(const struct simhba_disk *d, u64 lba, u32 *cyl,
		       u32 *head, u32 *sect, u32 *spt)
{
	const struct simhba_zone *z = lba_zone(d, lba);
	u64 track;
	u32 s;

	track = div_u64_rem(lba - z->first_lba, z->spt, &s);
	*cyl = min_t(u64, z->first_cyl + div_u64(track, d->p.heads), d->cyls - 1);
	*head = do_div(track, d->p.heads);
	*sect = s;
	*spt = z->spt;
}

/*
 * Where sector @lba passes on its track, in sectors after the index.
 * Tracks are skewed: each starts hskew (across a head switch) or cskew
 * (across a cylinder switch) sectors later than the one before, so that a
 * transfer that crosses a switch finds the next sector arriving just after
 * it.
 */
static u32 lba_angle(const struct simhba_disk *d, u64 lba, u32 *spt)
{
	const struct simhba_zone *z = lba_zone(d, lba);
	u64 track, skew;
	u32 s, ncyl;

	track = div_u64_rem(lba - z->first_lba, z->spt, &s);
	ncyl = div_u64(track, d->p.heads);
	skew = (track - ncyl) * z->hskew + (u64)ncyl * z->cskew;
	*spt = z->spt;
	return (s + do_div(skew, z->spt)) % z->spt;
}

/* How long @nsect sectors from @lba take to pass, switches included. */
static u64 media_ns(const struct simhba_disk *d, u64 lba, u32 nsect)
{
	const struct simhba_zone *z = lba_zone(d, lba);
	u64 t0 = div_u64(lba - z->first_lba, z->spt);
	u64 t1 = div_u64(lba + nsect - 1 - z->first_lba, z->spt);
	u64 cyls = div_u64(t1, d->p.heads) - div_u64(t0, d->p.heads);

	return div_u64(d->rot_ns * (nsect + (t1 - t0 - cyls) * z->hskew +
				    cyls * z->cskew), z->spt);
}

/* Time per sector of a long stream in the zone of @lba, switches included. */
static u64 stream_sector_ns(const struct simhba_disk *d, u64 lba)
{
	const struct simhba_zone *z = lba_zone(d, lba);
	u64 h = d->p.heads;

	return max_t(u64, 1, div64_u64(d->rot_ns * (h * z->spt +
						    (h - 1) * z->hskew + z->cskew),
				       h * z->spt * z->spt));
}

u32 simhba_lba_to_cyl(const struct simhba_disk *d, u64 lba)
{
	u32 cyl, head, sect, spt;

	if (d->p.kind == SIMHBA_SSD)
		return 0;
	lba_to_chs(d, lba, &cyl, &head, &sect, &spt);
	return cyl;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_lba_to_cyl);

/*
 * Seek time against distance in cylinders (Ruemmler and Wilkes): a + b*sqrt(d)
 * up to one third of the stroke, through the track-to-track time at d = 1 and
 * knee_ns at the knee; linear from there to the full stroke.
 */
u64 simhba_seek_ns(const struct simhba_disk *d, u32 dist)
{
	const struct simhba_profile *p = &d->p;
	u64 s256, k256;

	if (!dist || p->kind == SIMHBA_SSD)
		return 0;
	if (dist >= d->cyls - 1)
		return p->full_ns;
	if (dist <= d->knee) {
		if (d->knee <= 1)
			return p->t2t_ns;
		s256 = int_sqrt((unsigned long)dist << 16);
		k256 = int_sqrt((unsigned long)d->knee << 16);
		return p->t2t_ns + div64_u64((d->knee_ns - p->t2t_ns) *
					     (s256 - 256), k256 - 256);
	}
	return d->knee_ns + div64_u64((p->full_ns - d->knee_ns) *
				      (dist - d->knee), d->cyls - 1 - d->knee);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_seek_ns);

/* Media rate at @lba in bytes per second. */
u64 simhba_media_rate(const struct simhba_disk *d, u64 lba)
{
	if (d->p.kind == SIMHBA_SSD)
		return (u64)d->p.chan_mbps * 1000000 * d->nch;
	return div64_u64((u64)lba_zone(d, lba)->spt * SIMHBA_SECTOR *
			 NSEC_PER_SEC, d->rot_ns);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_media_rate);

/*
 * What a long sequential transfer sustains at @lba in bytes per second:
 * the media rate less the skew of the head and cylinder switches.
 */
u64 simhba_sustained_rate(const struct simhba_disk *d, u64 lba)
{
	const struct simhba_zone *z;
	u64 h = d->p.heads;

	if (d->p.kind == SIMHBA_SSD)
		return simhba_media_rate(d, lba);
	z = lba_zone(d, lba);
	return div64_u64(SIMHBA_SECTOR * h * z->spt * z->spt * NSEC_PER_SEC,
			 d->rot_ns * (h * z->spt + (h - 1) * z->hskew + z->cskew));
}
EXPORT_SYMBOL_IF_KUNIT(simhba_sustained_rate);

/* Time the disk's link to the host needs for @bytes, if it is free. */
u64 simhba_xfer_ns(const struct simhba_disk *d, u64 bytes)
{
	return div_u64(bytes * 1000, d->link[0]->mbps);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_xfer_ns);

void simhba_link_init(struct simhba_link *l, u32 mbps)
{
	memset(l, 0, sizeof(*l));
	l->mbps = mbps;
	INIT_LIST_HEAD(&l->busy);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_link_init);

/*
 * A transfer that waits for the link moved: its operation finishes later,
 * and the channel serving it is busy until then.
 */
static void link_moved(struct simhba_op *op)
{
	struct simhba_disk *d = op->ldisk;
	u64 fin = max(op->lend, op->lfloor) + op->lpost;
	u32 i;

	op->finish = fin;
	for (i = 0; i < d->nch; i++)
		if (d->ch_busy[i] && d->ch_op[i] == op)
			d->ch_until[i] = fin;
}

/*
 * Carry @op's data over the link in direction @dir from @ready, when it can
 * move; returns when the transfer ends.  The link serves transfers in the
 * order their data is ready, each to its end, as targets that arbitrate
 * for a bus or a port as soon as they have data: one ready earlier goes
 * first, even if it was decided later.  A transfer decided now is ready
 * now or later, so the ones it goes ahead of have not started; they move
 * back, and their operations finish later.  Decisions come in model-time
 * order (the owner advances every disk that shares the link before it
 * hands anything over), so none of them has been reaped.
 */
static u64 link_xfer(struct simhba_disk *d, struct simhba_op *op, int dir,
		     u64 ready)
{
	struct simhba_link *l = d->link[dir];
	u64 bytes = (u64)op->nsect * SIMHBA_SECTOR;
	u64 ns = div_u64(bytes * 1000, l->mbps), end = 0;
	struct list_head *pos = &l->busy;
	struct simhba_op *x;

	list_for_each_entry(x, &l->busy, lnode) {
		if (x->lready > ready) {
			pos = &x->lnode;
			break;
		}
		end = x->lend;
	}
	op->ldisk = d;
	op->llink = l;
	op->lready = ready;
	op->lstart = max(ready, end);
	op->lend = op->lstart + ns;
	op->lfloor = 0;
	op->lpost = 0;
	list_add_tail(&op->lnode, pos);
	end = op->lend;
	x = op;
	list_for_each_entry_continue(x, &l->busy, lnode) {
		u64 s = max(x->lready, end);

		if (s <= x->lstart)
			break;
		x->lend += s - x->lstart;
		x->lstart = s;
		end = x->lend;
		link_moved(x);
	}
	l->busy_ns += ns;
	l->bytes += bytes;
	return op->lend;
}

/*
 * A read's data goes to the host as it comes: the transfer starts once
 * the first sector is there (@first) and ends no earlier than the last one
 * (@last).
 */
static u64 link_read(struct simhba_disk *d, struct simhba_op *op, u64 first,
		     u64 last)
{
	u64 ns = simhba_xfer_ns(d, (u64)op->nsect * SIMHBA_SECTOR);

	return link_xfer(d, op, 0, max(first, last > ns ? last - ns : 0));
}

/* Where the stream of segment @s has got to at time @t. */
static u64 ra_pos(const struct simhba_ra *s, u64 t)
{
	u64 pos = s->lba;

	if (t > s->t0)
		pos += div64_u64(t - s->t0, s->tsec);
	return min(pos, s->limit);
}

/*
 * Whether sector @lba is no older than the first one segment @s still holds
 * at @t (the segment's end is the caller's to check): the stream overwrites
 * the oldest sector with each one it reads, so the segment never holds more
 * than ra_kib, however far the stream has gone.  Within ra_kib of the
 * limit the stream cannot have overwritten @lba, so the common case, a
 * read near the stream's head, needs no division.
 */
static bool ra_kept(const struct simhba_disk *d, const struct simhba_ra *s,
		    u64 lba, u64 t)
{
	u64 size = (u64)d->p.ra_kib * 2;

	if (lba < s->base)
		return false;
	return lba + size >= s->limit || lba + size >= ra_pos(s, t);
}

/* The segment the head is streaming into, if any. */
static struct simhba_ra *ra_live(struct simhba_disk *d)
{
	u32 i;

	for (i = 0; i < d->ra_nseg; i++)
		if (d->ra[i].valid && !d->ra[i].frozen)
			return &d->ra[i];
	return NULL;
}

/* When a stream still following its read finishes filling its segment. */
static u64 ra_end(struct simhba_disk *d)
{
	struct simhba_ra *s = ra_live(d);

	if (!s)
		return 0;
	return s->t0 + (s->limit - s->lba) * s->tsec;
}

/*
 * The segment that serves a read starting inside it at @t: what is cached
 * goes at once, the rest as the head keeps reading.  Once the head has
 * left a stream, only what was read by then is there.
 */
static struct simhba_ra *ra_hit(struct simhba_disk *d,
				const struct simhba_op *op, u64 t)
{
	u32 i;

	if (op->write || op->flush)
		return NULL;
	for (i = 0; i < d->ra_nseg; i++) {
		struct simhba_ra *s = &d->ra[i];

		if (!s->valid || !ra_kept(d, s, op->lba, t))
			continue;
		if (s->frozen ? op->lba + op->nsect <= s->limit :
				op->lba <= s->limit)
			return s;
	}
	return NULL;
}

/* The head follows the read-ahead stream while the disk is otherwise idle. */
static void head_sync(struct simhba_disk *d, u64 t)
{
	struct simhba_ra *s = ra_live(d);
	u32 sect, spt;
	u64 pos;

	if (!s)
		return;
	pos = min(ra_pos(s, t), d->capacity - 1);
	lba_to_chs(d, pos, &d->cyl, &d->head, &sect, &spt);
}

/* The head leaves the stream at @t: the segment keeps what it holds. */
static void ra_stop(struct simhba_disk *d, u64 t)
{
	struct simhba_ra *s = ra_live(d);

	if (!s)
		return;
	head_sync(d, t);
	s->limit = ra_pos(s, t);
	s->frozen = true;
}

/*
 * A write of [@lba, @end), decided at @now, makes the segments that hold
 * any of it stale.  If the head was still filling one, it stops there at
 * @now, and its prefetch until then counts as head work for the idle time
 * before write-backs.
 */
static void ra_invalidate(struct simhba_disk *d, u64 lba, u64 end, u64 now)
{
	u32 i;

	for (i = 0; i < d->ra_nseg; i++) {
		struct simhba_ra *s = &d->ra[i];

		if (!s->valid || lba >= s->limit || !ra_kept(d, s, end - 1, now))
			continue;
		if (!s->frozen) {
			d->host_end = max(d->host_end, min(ra_end(d), now));
			ra_stop(d, now);
		}
		s->valid = false;
	}
}

/*
 * The segment for a media read at @lba at @t: the one whose stream the read
 * continues (it starts inside or just after what the segment holds), else
 * an empty one, else the least recently used.
 */
static struct simhba_ra *ra_victim(struct simhba_disk *d, u64 lba, u64 t)
{
	struct simhba_ra *v = NULL;
	u32 i;

	for (i = 0; i < d->ra_nseg; i++) {
		struct simhba_ra *s = &d->ra[i];

		if (s->valid && lba <= s->limit && ra_kept(d, s, lba, t))
			return s;
		if (!v || (v->valid && (!s->valid || s->used < v->used)))
			v = s;
	}
	return v;
}

/*
 * The write-back cache holds dirty extents.  wc_span() finds the extents
 * that [@lba, @end) overlaps or adjoins, wc[*first] to wc[*last - 1], and
 * returns how many of its sectors are dirty already.
 */
static u64 wc_span(const struct simhba_disk *d, u64 lba, u64 end, u32 *first,
		   u32 *last)
{
	u64 overlap = 0;
	u32 i = 0;

	while (i < d->wc_n && d->wc[i].lba + d->wc[i].nsect < lba)
		i++;
	*first = i;
	for (; i < d->wc_n && d->wc[i].lba <= end; i++) {
		u64 lo = max(d->wc[i].lba, lba);
		u64 hi = min(d->wc[i].lba + d->wc[i].nsect, end);

		if (hi > lo)
			overlap += hi - lo;
	}
	*last = i;
	return overlap;
}

/* Whether a write goes to the write-back cache rather than to the media. */
static bool wc_write(const struct simhba_disk *d, const struct simhba_op *op)
{
	return op->write && !op->flush && !op->fua && d->wce &&
	       op->nsect <= (u64)d->p.wc_kib * 2;
}

/*
 * Whether a read finds all its sectors dirty in the write cache (the
 * extents never overlap or adjoin, so they are in one of them).  A read
 * that finds only some of them there goes to the media.
 */
static bool wc_read_hit(const struct simhba_disk *d,
			const struct simhba_op *op)
{
	u32 first, last;

	if (op->write || op->flush || !d->wc_n)
		return false;
	return wc_span(d, op->lba, op->lba + op->nsect, &first, &last) ==
	       op->nsect;
}

/* Whether the cache has room for @op now, in sectors and in extents. */
static bool wc_fits(const struct simhba_disk *d, const struct simhba_op *op)
{
	u32 first, last;
	u64 overlap = wc_span(d, op->lba, op->lba + op->nsect, &first, &last);

	return d->wc_dirty + op->nsect - overlap <= (u64)d->p.wc_kib * 2 &&
	       d->wc_n + 1 - (last - first) <= SIMHBA_WC_EXTENTS;
}

static void wc_insert(struct simhba_disk *d, u64 lba, u32 nsect)
{
	u64 end = lba + nsect;
	u32 first, last;
	u64 overlap = wc_span(d, lba, end, &first, &last);

	if (last > first) {
		lba = min(lba, d->wc[first].lba);
		end = max(end, d->wc[last - 1].lba + d->wc[last - 1].nsect);
	}
	memmove(&d->wc[first + 1], &d->wc[last],
		(d->wc_n - last) * sizeof(d->wc[0]));
	d->wc_n = d->wc_n + 1 - (last - first);
	d->wc[first].lba = lba;
	d->wc[first].nsect = end - lba;
	d->wc_dirty += nsect - overlap;
}

/*
 * [@lba, @end) is on the media now.  Punching a hole needs one more extent;
 * with none left the extent stays whole and is written again later, which
 * costs time but never loses data.
 */
static void wc_clean(struct simhba_disk *d, u64 lba, u64 end)
{
	u32 i = 0;

	while (i < d->wc_n) {
		struct simhba_extent *x = &d->wc[i];
		u64 xend = x->lba + x->nsect;

		if (xend <= lba || x->lba >= end) {
			i++;
		} else if (x->lba >= lba && xend <= end) {
			d->wc_dirty -= x->nsect;
			d->wc_n--;
			memmove(x, x + 1, (d->wc_n - i) * sizeof(*x));
		} else if (x->lba < lba && xend > end) {
			if (d->wc_n == SIMHBA_WC_EXTENTS)
				return;
			memmove(x + 1, x, (d->wc_n - i) * sizeof(*x));
			d->wc_n++;
			x->nsect = lba - x->lba;
			x[1].lba = end;
			x[1].nsect = xend - end;
			d->wc_dirty -= end - lba;
			return;
		} else if (x->lba < lba) {
			d->wc_dirty -= xend - lba;
			x->nsect = lba - x->lba;
			i++;
		} else {
			d->wc_dirty -= end - x->lba;
			x->nsect = xend - end;
			x->lba = end;
			i++;
		}
	}
}

/* Seek plus rotational latency to sector @lba, leaving at @t. */
static u64 position_ns(const struct simhba_disk *d, u64 lba, u64 t)
{
	u32 cyl, head, sect, spt, dist;
	u64 seek, phase, target;

	lba_to_chs(d, lba, &cyl, &head, &sect, &spt);
	dist = cyl > d->cyl ? cyl - d->cyl : d->cyl - cyl;
	seek = simhba_seek_ns(d, dist);
	if (!dist && head != d->head)
		seek = d->p.head_switch_ns;
	div64_u64_rem(t + seek, d->rot_ns, &phase);
	target = div_u64(d->rot_ns * lba_angle(d, lba, &spt), spt);
	return seek + (target + d->rot_ns - phase) % d->rot_ns;
}

/*
 * Move the head to @lba, leaving at @t, and pass @nsect sectors under it;
 * returns when the last one has passed, and in *@first when the first one
 * came under the head.
 */
static u64 media_access(struct simhba_disk *d, u64 lba, u32 nsect, u64 t,
			u64 *first)
{
	u32 cyl, head, sect, spt, dist;

	t += position_ns(d, lba, t);
	*first = t;
	lba_to_chs(d, lba, &cyl, &head, &sect, &spt);
	dist = cyl > d->cyl ? cyl - d->cyl : d->cyl - cyl;
	if (dist) {
		d->st.seeks++;
		d->st.seek_cyls += dist;
	}
	t += media_ns(d, lba, nsect);
	lba_to_chs(d, lba + nsect - 1, &d->cyl, &d->head, &sect, &spt);
	return t;
}

/* The head is positioned or transferring from @t to @fin. */
static void head_busy(struct simhba_disk *d, u64 t, u64 fin)
{
	WARN_ON_ONCE(t < d->busy_end);
	d->st.busy_ns += fin - t;
	d->busy_end = fin;
}

/*
 * The dirty extent the head reaches first from where it is at @t, and in
 * *@cost the positioning time to it.
 */
static u32 destage_pick(const struct simhba_disk *d, u64 t, u64 *cost)
{
	u64 c;
	u32 i, best = 0;

	*cost = U64_MAX;
	for (i = 0; i < d->wc_n; i++) {
		c = position_ns(d, d->wc[i].lba, t);
		if (c < *cost) {
			best = i;
			*cost = c;
		}
	}
	return best;
}

/*
 * Write the front of the nearest dirty extent back to the media, starting
 * at @t when the mechanism is free; returns when it is done.  This is
 * firmware work: it occupies the head like any host command.
 */
static u64 destage(struct simhba_disk *d, u64 t)
{
	struct simhba_extent x;
	u32 n;
	u64 fin, first, cost;

	ra_stop(d, t);
	x = d->wc[destage_pick(d, t, &cost)];
	n = min_t(u32, x.nsect, SIMHBA_DESTAGE_MAX);
	fin = media_access(d, x.lba, n, t, &first);
	wc_clean(d, x.lba, x.lba + n);
	d->st.destages++;
	d->st.destage_bytes += (u64)n * SIMHBA_SECTOR;
	head_busy(d, t, fin);
	return fin;
}

/*
 * With nothing else to do the firmware writes dirty data back, once the
 * head has been idle for wb_idle_ns, neither working for the host nor
 * filling a read-ahead segment (so that a read arriving in a short pause
 * does not wait behind a write-back), until @now, the time of its next
 * decision.  Write-backs then follow each other until a host command
 * needs the head; the last one may run past @now, and the command waits
 * for it.
 */
static void destage_idle(struct simhba_disk *d, u64 now)
{
	u64 t = max(d->busy_end, max(d->host_end, ra_end(d)) + d->wb_idle_ns);

	/* no write-back of data that has not arrived yet */
	t = max(t, d->wb_floor);

	while (d->wc_n && t < now)
		t = destage(d, t);
}

/*
 * A flash channel reads (latency, then the channel transfer) and the data
 * crosses the link as it comes; a write crosses the link, then the channel
 * programs it.
 */
static u64 service_ssd(struct simhba_disk *d, struct simhba_op *op, u64 start)
{
	u64 chan = div_u64((u64)op->nsect * SIMHBA_SECTOR * 1000,
			   d->p.chan_mbps);
	u64 first = start + d->p.read_ns;

	if (op->flush)
		return start + d->p.write_ns;
	if (!op->write)
		return link_read(d, op, first, first + chan);
	link_xfer(d, op, 1, start);
	op->lfloor = start + chan;
	op->lpost = d->p.write_ns;
	return max(op->lend, op->lfloor) + op->lpost;
}

/*
 * A command occupies the disk's one command channel from @start.  Only a
 * media access, or a wait for the read-ahead stream, needs the head too;
 * transfers to and from the cache go on while the head writes back.  The
 * write-backs a command needs start at @now, when the firmware chose it,
 * without waiting for its own overhead.
 */
static u64 service_hdd(struct simhba_disk *d, struct simhba_op *op, u64 now,
		       u64 start)
{
	u64 t = max(now, d->busy_end), m, first;
	struct simhba_ra *s;

	if (op->flush) {
		/* SYNCHRONIZE CACHE: every dirty extent goes to the media. */
		while (d->wc_n)
			t = destage(d, t);
		return max(start, t);
	}

	if (op->write) {
		u64 in = link_xfer(d, op, 1, start);

		ra_invalidate(d, op->lba, op->lba + op->nsect, now);
		if (wc_write(d, op)) {
			u64 room = 0;

			/* A full cache makes the write wait for write-backs. */
			while (!wc_fits(d, op)) {
				t = destage(d, t);
				room = t;
			}
			wc_insert(d, op->lba, op->nsect);
			d->wb_floor = max(d->wb_floor, now);
			op->hit = true;
			d->st.wc_hits++;
			op->lfloor = room;
			return max(in, room);
		}
		wc_clean(d, op->lba, op->lba + op->nsect);
		/* the media write follows the data as it comes in */
		t = max(start, d->busy_end);
		ra_stop(d, t);
		m = media_access(d, op->lba, op->nsect, t, &first);
		head_busy(d, t, m);
		d->host_end = m;
		op->lfloor = m;
		return max(m, in);
	}

	if (wc_read_hit(d, op)) {
		/* Dirty data in the cache: no media access. */
		op->hit = true;
		d->st.wc_hits++;
		return link_read(d, op, start, start);
	}

	s = ra_hit(d, op, start);
	if (s) {
		u64 avail = ra_pos(s, start);
		u64 end = op->lba + op->nsect;

		if (avail >= s->limit && !s->frozen) {
			/*
			 * The segment had filled up: streaming resumes, and
			 * keeps what the segment holds.
			 */
			s->lba = s->limit;
			s->t0 = max(start, d->busy_end) + d->rot_ns / 2;
		}
		first = start;
		if (op->lba >= avail)
			first = s->t0 + (op->lba - s->lba) * s->tsec;
		m = start;
		if (end > avail) {
			/* The command waits for the head to read the rest. */
			m = s->t0 + (end - s->lba) * s->tsec;
			t = max(start, d->busy_end);
			if (m > t)
				head_busy(d, t, m);
			d->host_end = max(d->host_end, m);
		}
		if (!s->frozen)
			s->limit = min(max(s->limit, end + (u64)d->p.ra_kib * 2),
				       d->capacity);
		s->used = ++d->ra_clock;
		op->hit = true;
		d->st.ra_hits++;
		return link_read(d, op, max(start, first), m);
	}

	/* Media read, once the head is free. */
	t = max(start, d->busy_end);
	ra_stop(d, t);
	m = media_access(d, op->lba, op->nsect, t, &first);
	head_busy(d, t, m);
	d->host_end = d->busy_end;
	if (d->p.ra_kib) {
		s = ra_victim(d, op->lba, t);
		s->valid = true;
		s->frozen = false;
		s->lba = op->lba + op->nsect;
		s->base = s->lba;
		s->t0 = m;
		s->limit = min(s->lba + (u64)d->p.ra_kib * 2, d->capacity);
		s->tsec = stream_sector_ns(d, op->lba + op->nsect - 1);
		s->used = ++d->ra_clock;
		/*
		 * The prefetch goes on only while the head has nothing else to
		 * do: a command that is waiting stops it at once (a minimum
		 * prefetch of 0, the SCSI caching page's default), so readers
		 * that keep a command waiting find nothing prefetched.  This is
		 * the deceptive idleness anticipatory scheduling is about.
		 */
	}
	return link_read(d, op, first, m);
}

void simhba_disk_enqueue(struct simhba_disk *d, struct simhba_op *op,
			 u64 now, u64 extra_ns)
{
	u32 i, qd, busy = 0;

	op->enq = now;
	op->arrive = now + d->p.overhead_ns + extra_ns;
	op->finish = 0;
	op->queued = true;
	op->hit = false;
	INIT_LIST_HEAD(&op->lnode);
	list_add_tail(&op->node, &d->queue);
	d->nqueue++;
	for (i = 0; i < d->nch; i++)
		busy += d->ch_busy[i];
	qd = d->nqueue + busy;
	d->st.qd_hist[min_t(u32, fls(qd - 1), SIMHBA_QD_BUCKETS - 1)]++;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_enqueue);

/*
 * Shortest positioning time first within the window, with aging, among the
 * operations handed over by @now.  The queue is in hand-over order, so they
 * are a prefix of it; the caller makes sure the first one is.  A write the
 * cache has no room for costs the write-back that makes room.
 */
static struct simhba_op *pick(struct simhba_disk *d, u64 now)
{
	struct simhba_op *op, *best = NULL;
	u64 cost, best_cost = U64_MAX, wb = U64_MAX;
	u32 n = 0;

	op = list_first_entry(&d->queue, struct simhba_op, node);
	if (d->depth <= 1 || d->p.kind == SIMHBA_SSD ||
	    now > op->arrive + d->age_ns)
		return op;

	list_for_each_entry(op, &d->queue, node) {
		u64 t = max(now, op->arrive);

		if (n++ >= d->depth || op->enq > now)
			break;
		if (op->flush || ra_hit(d, op, t) || wc_read_hit(d, op) ||
		    (wc_write(d, op) && wc_fits(d, op))) {
			cost = 0;
		} else if (wc_write(d, op)) {
			/*
			 * The write-back that makes room starts at once; it is
			 * the same for every write that waits for room.
			 */
			t = max(now, d->busy_end);
			if (wb == U64_MAX)
				destage_pick(d, t, &wb);
			cost = wb;
		} else {
			t = max(t, d->busy_end);
			cost = position_ns(d, op->lba, t);
		}
		cost += t - now;
		if (cost < best_cost) {
			best = op;
			best_cost = cost;
		}
	}
	return best;
}

/*
 * Start the next queued operation on idle channel @i at model time @now.
 * A disk's head first catches up with the write-backs it did in its idle
 * time before @now.
 */
static void start_next(struct simhba_disk *d, u32 i, u64 now)
{
	struct simhba_op *op;
	u64 start, fin;

	if (d->p.kind == SIMHBA_HDD)
		destage_idle(d, now);
	head_sync(d, now);
	op = pick(d, now);
	list_del_init(&op->node);
	op->queued = false;
	d->nqueue--;
	start = max(now, op->arrive);
	if (d->p.kind == SIMHBA_SSD) {
		fin = service_ssd(d, op, start);
		if (fin > d->busy_end) {
			d->st.busy_ns += fin - max(start, d->busy_end);
			d->busy_end = fin;
		}
	} else {
		fin = service_hdd(d, op, now, start);
	}

	d->st.cmds++;
	if (op->flush) {
		d->st.flushes++;
	} else if (op->write) {
		d->st.writes++;
		d->st.write_bytes += (u64)op->nsect * SIMHBA_SECTOR;
	} else {
		d->st.reads++;
		d->st.read_bytes += (u64)op->nsect * SIMHBA_SECTOR;
	}
	op->finish = fin;
	d->ch_busy[i] = true;
	d->ch_op[i] = op;
	d->ch_until[i] = fin;
}

/*
 * Start queued operations on the idle channels at @now, the hand-over
 * time, once everything that finished by then has made room.
 */
void simhba_disk_dispatch(struct simhba_disk *d, u64 now)
{
	u32 i;

	d->now = max(d->now, now);
	while (simhba_disk_next_event(d) <= now)
		simhba_disk_step(d);
	for (i = 0; i < d->nch && d->nqueue; i++)
		if (!d->ch_busy[i])
			start_next(d, i, now);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_dispatch);

u64 simhba_disk_next_event(const struct simhba_disk *d)
{
	u64 next = U64_MAX;
	u32 i;

	for (i = 0; i < d->nch; i++)
		if (d->ch_busy[i])
			next = min(next, d->ch_until[i]);
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_next_event);

/* When the next finished operation is due to its owner. */
u64 simhba_disk_next_delivery(const struct simhba_disk *d)
{
	if (!list_empty(&d->done))
		return list_first_entry(&d->done, struct simhba_op, node)->finish;
	return simhba_disk_next_event(d);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_next_delivery);

/*
 * The operation that finishes first leaves its channel for the done list,
 * and the channel starts its next one at that finish time (or when the
 * next one was handed over, if later).  Stepping every disk that shares a
 * link in the order of their next events replays them in model time.
 */
void simhba_disk_step(struct simhba_disk *d)
{
	struct simhba_op *op, *head;
	u32 i, first = d->nch;
	u64 t;

	for (i = 0; i < d->nch; i++)
		if (d->ch_busy[i] &&
		    (first == d->nch || d->ch_until[i] < d->ch_until[first]))
			first = i;
	if (first == d->nch)
		return;
	t = d->ch_until[first];
	op = d->ch_op[first];
	d->ch_busy[first] = false;
	d->ch_op[first] = NULL;
	if (op)
		list_add_tail(&op->node, &d->done);
	if (d->nqueue) {
		head = list_first_entry(&d->queue, struct simhba_op, node);
		start_next(d, first, max(t, head->enq));
	}
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_step);

/*
 * Step the @n disks that share a link up to @now in the order of their
 * events (the first disk on a tie), so that their decisions are taken in
 * model time whenever their owner gets round to it.
 */
void simhba_advance(struct simhba_disk **d, unsigned int n, u64 now)
{
	unsigned int i, first;
	u64 t, e;

	for (i = 0; i < n; i++)
		d[i]->now = max(d[i]->now, now);
	for (;;) {
		first = n;
		t = now;
		for (i = 0; i < n; i++) {
			e = simhba_disk_next_event(d[i]);
			if (e < t || (e == t && first == n)) {
				first = i;
				t = e;
			}
		}
		if (first == n)
			return;
		simhba_disk_step(d[first]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(simhba_advance);

static void op_unlink(struct simhba_op *op)
{
	if (!list_empty(&op->lnode))
		list_del_init(&op->lnode);
}

/*
 * Take the next finished operation, in finishing order, once everything
 * up to @now has happened.  Returns false when none has finished by @now.
 */
bool simhba_disk_reap(struct simhba_disk *d, u64 now, struct simhba_op **op)
{
	d->now = max(d->now, now);
	while (simhba_disk_next_event(d) <= now)
		simhba_disk_step(d);
	if (list_empty(&d->done))
		return false;
	*op = list_first_entry(&d->done, struct simhba_op, node);
	list_del_init(&(*op)->node);
	op_unlink(*op);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_reap);

/*
 * An aborted command's transfer stops at @now: what had not moved by then
 * never crosses the link, and the rest of its reservation is free for
 * transfers decided from now on (those reserved already keep their times).
 */
static void link_cancel(struct simhba_op *op, u64 now)
{
	struct simhba_link *l = op->llink;
	u64 ns = op->lend - op->lstart, left;

	if (list_empty(&op->lnode))
		return;
	list_del_init(&op->lnode);
	if (now >= op->lend)
		return;
	left = op->lend - max(now, op->lstart);
	l->busy_ns -= left;
	l->bytes -= ns ? div64_u64((u64)op->nsect * SIMHBA_SECTOR * left, ns) : 0;
}

/*
 * Forget @op, wherever it is; a channel serving it stays busy until its
 * finish time.  The owner advances the disk to the present first.
 */
void simhba_disk_cancel(struct simhba_disk *d, struct simhba_op *op)
{
	u32 i;

	link_cancel(op, d->now);
	for (i = 0; i < d->nch; i++) {
		if (d->ch_op[i] == op) {
			d->ch_op[i] = NULL;
			return;
		}
	}
	if (!list_empty(&op->node)) {
		list_del_init(&op->node);
		if (op->queued)
			d->nqueue--;
		op->queued = false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_cancel);

bool simhba_disk_idle(const struct simhba_disk *d)
{
	return !d->nqueue && list_empty(&d->done) &&
	       simhba_disk_next_event(d) == U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_disk_idle);

/*
 * Split [lba, lba + nsect) of a RAID0 LUN into one contiguous range per
 * member (consecutive stripes of a member are adjacent on it).  Returns the
 * number of members involved; mnsect[m] is 0 for a member not involved.
 */
u32 simhba_raid0_split(u64 lba, u32 nsect, u32 members, u32 chunk,
		       u64 *mlba, u32 *mnsect)
{
	u64 pos = lba, end = lba + nsect;
	u32 m, n = 0;

	for (m = 0; m < members; m++)
		mnsect[m] = 0;
	while (pos < end) {
		u32 off, seg;
		u64 c, stripe, ml;

		c = div_u64_rem(pos, chunk, &off);
		stripe = div_u64_rem(c, members, &m);
		seg = min_t(u64, chunk - off, end - pos);
		ml = stripe * chunk + off;
		if (!mnsect[m]) {
			mlba[m] = ml;
			n++;
		}
		mnsect[m] = ml + seg - mlba[m];
		pos += seg;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_raid0_split);
