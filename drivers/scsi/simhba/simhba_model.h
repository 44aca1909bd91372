/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simhba: timing model of the simulated disks.
 *
 * The model is pure computation on a virtual clock in nanoseconds; it knows
 * nothing about SCSI.  The driver feeds it operations and arms an hrtimer
 * for the next completion the model predicts.
 */
#ifndef _SIMHBA_MODEL_H
#define _SIMHBA_MODEL_H

#include <linux/types.h>
#include <linux/list.h>

#define SIMHBA_SECTOR		512
#define SIMHBA_MAX_ZONES	16
#define SIMHBA_MAX_CHANNELS	16
#define SIMHBA_MAX_MEMBERS	16
#define SIMHBA_QD_BUCKETS	9	/* 1, 2, 3-4, 5-8, ..., 65-128, >128 */
#define SIMHBA_WC_EXTENTS	64	/* dirty extents the write cache tracks */
#define SIMHBA_DESTAGE_MAX	256	/* sectors written back per media access */
#define SIMHBA_RA_SEGS		16	/* most read-ahead segments of a disk */
#define SIMHBA_WB_IDLE_NS	3000000	/* idle time before write-backs */

enum simhba_kind {
	SIMHBA_HDD,
	SIMHBA_SSD,
};

struct simhba_zone_spec {
	u16 permille;		/* share of the cylinders, outer zone first */
	u16 spt;		/* sectors per track */
};

struct simhba_profile {
	const char *name;
	const char *product;	/* INQUIRY product id, at most 16 chars */
	enum simhba_kind kind;
	u64 capacity;		/* default capacity in 512-byte sectors */
	/* mechanics (HDD) */
	u32 rpm;
	u32 heads;
	u32 nzones;
	struct simhba_zone_spec zones[SIMHBA_MAX_ZONES];
	u32 t2t_ns;		/* track-to-track seek, also the cylinder switch */
	u32 avg_ns;		/* average seek: the mean over all seeks */
	u32 full_ns;		/* full-stroke seek */
	u32 head_switch_ns;
	/* flash (SSD) */
	u32 channels;
	u32 read_ns;		/* per-command flash read latency */
	u32 write_ns;		/* per-command flash program latency */
	u32 chan_mbps;		/* per-channel transfer rate, 10^6 bytes/s */
	/* interface and firmware */
	u32 iface_mbps;		/* bus transfer rate, 10^6 bytes/s */
	u32 overhead_ns;	/* per-command controller overhead */
	u32 qdepth;		/* tagged queue depth (1 = no reordering) */
	u32 ra_kib;		/* read-ahead segment size */
	u32 ra_segs;		/* read-ahead segments (0 = 1) */
	u32 wc_kib;		/* write-back cache size */
	bool wce;		/* write cache enabled by default */
	/* the named drive's published sustained rates, for the tests */
	u32 spec_outer_kbps;	/* 10^3 bytes/s */
	u32 spec_inner_kbps;
};

struct simhba_zone {
	u64 first_lba;
	u64 nsect;
	u32 first_cyl;
	u32 ncyl;
	u32 spt;
	u32 hskew;		/* sectors of skew across a head switch */
	u32 cskew;		/* and across a cylinder switch */
};

/*
 * A link carries the data between the host and its disks: an Ultra320 bus
 * or a Fibre Channel port shared by a host's disks, or a disk's own SATA
 * link.  Transfers take it one at a time, in the order their data is
 * ready, none interrupted; a full-duplex link is one simhba_link per
 * direction.
 */
struct simhba_link {
	u32 mbps;		/* 10^6 bytes/s */
	struct list_head busy;	/* reserved transfers, by ready time */
	u64 busy_ns;		/* statistics */
	u64 bytes;
};

struct simhba_disk;

/* One operation on one disk (a command, or a RAID0 member piece of one). */
struct simhba_op {
	struct list_head node;	/* the disk's queue, then its done list */
	struct list_head lnode;	/* its transfer on a link */
	struct simhba_disk *ldisk;	/* whose channel waits for it */
	struct simhba_link *llink;	/* the link it is reserved on */
	u64 lready;		/* its data can move from here */
	u64 lstart, lend;
	u64 lfloor, lpost;	/* finish = max(lend, lfloor) + lpost */
	u64 lba;
	u32 nsect;
	bool write;
	bool fua;
	bool flush;
	bool queued;		/* on the disk's queue, not started */
	bool hit;		/* served from the buffer, no media access */
	u64 enq;		/* model ns at which the host handed it over */
	u64 arrive;		/* model ns at which the firmware may start it */
	u64 finish;		/* model ns of its completion, once dispatched */
	void *priv;		/* owner's cookie */
};

struct simhba_stats {
	u64 cmds;
	u64 reads;
	u64 writes;
	u64 flushes;
	u64 read_bytes;
	u64 write_bytes;
	u64 seeks;
	u64 seek_cyls;
	u64 busy_ns;
	u64 ra_hits;
	u64 wc_hits;
	u64 destages;		/* media writes of dirty cache data */
	u64 destage_bytes;
	u64 qd_hist[SIMHBA_QD_BUCKETS];
};

/*
 * A read-ahead segment, a ring of ra_kib: the stream reads into it from
 * base, sector lba + k at t0 + k * tsec, and stops at limit.  Each sector
 * it reads overwrites the oldest, so of what it has read by now the
 * segment holds the last ra_kib.
 */
struct simhba_ra {
	bool valid;
	bool frozen;			/* the head left the stream */
	u64 base;			/* the first sector the stream read */
	u64 lba;
	u64 t0;
	u64 limit;
	u64 tsec;
	u64 used;			/* LRU stamp */
};

/* A run of dirty sectors in the write-back cache. */
struct simhba_extent {
	u64 lba;
	u32 nsect;
};

struct simhba_disk {
	struct simhba_profile p;
	u64 capacity;			/* sectors */
	u32 cyls;
	u32 nzones;
	struct simhba_zone zone[SIMHBA_MAX_ZONES];
	u64 rot_ns;
	u32 knee;			/* end of the square-root seek regime */
	u64 knee_ns;			/* seek time there: the mean is avg_ns */

	/* tunables */
	u32 depth;			/* firmware reordering window */
	u64 age_ns;			/* a request older than this goes first */
	u64 wb_idle_ns;			/* idle time before write-backs begin */
	bool wce;

	/* mechanism state */
	u32 cyl;
	u32 head;
	struct list_head queue;
	u32 nqueue;
	u32 nch;
	bool ch_busy[SIMHBA_MAX_CHANNELS];
	struct simhba_op *ch_op[SIMHBA_MAX_CHANNELS];
	u64 ch_until[SIMHBA_MAX_CHANNELS];
	struct list_head done;		/* finished, not yet reaped */
	struct simhba_link own;		/* the disk's own interface */
	struct simhba_link *link[2];	/* to the host, to the disk */
	u64 now;			/* the owner brought the disk up to here */
	u64 busy_end;			/* the mechanism is free from here */
	u64 host_end;			/* the head's last work for the host */
	u64 wb_floor;			/* the newest dirty extent was made here */

	/* read-ahead segments; at most one is live (the head follows it) */
	struct simhba_ra ra[SIMHBA_RA_SEGS];
	u32 ra_nseg;			/* tunable: segments in use */
	u64 ra_clock;			/* LRU stamps */

	/* write-back cache: dirty extents sorted by LBA, never adjacent */
	struct simhba_extent wc[SIMHBA_WC_EXTENTS];
	u32 wc_n;
	u64 wc_dirty;			/* sectors */

	struct simhba_stats st;
};

extern const struct simhba_profile simhba_profiles[];
extern const unsigned int simhba_nprofiles;

const struct simhba_profile *simhba_find_profile(const char *name);
int simhba_disk_init(struct simhba_disk *d, const struct simhba_profile *p,
		     u64 capacity);
u64 simhba_seek_ns(const struct simhba_disk *d, u32 dist);
u64 simhba_media_rate(const struct simhba_disk *d, u64 lba);
u64 simhba_sustained_rate(const struct simhba_disk *d, u64 lba);
u32 simhba_lba_to_cyl(const struct simhba_disk *d, u64 lba);
u64 simhba_xfer_ns(const struct simhba_disk *d, u64 bytes);

void simhba_link_init(struct simhba_link *l, u32 mbps);
void simhba_disk_enqueue(struct simhba_disk *d, struct simhba_op *op,
			 u64 now, u64 extra_ns);
void simhba_disk_dispatch(struct simhba_disk *d, u64 now);
u64 simhba_disk_next_event(const struct simhba_disk *d);
u64 simhba_disk_next_delivery(const struct simhba_disk *d);
void simhba_disk_step(struct simhba_disk *d);
void simhba_advance(struct simhba_disk **d, unsigned int n, u64 now);
bool simhba_disk_reap(struct simhba_disk *d, u64 now, struct simhba_op **op);
void simhba_disk_cancel(struct simhba_disk *d, struct simhba_op *op);
bool simhba_disk_idle(const struct simhba_disk *d);

u32 simhba_raid0_split(u64 lba, u32 nsect, u32 members, u32 chunk,
		       u64 *mlba, u32 *mnsect);

#endif /* _SIMHBA_MODEL_H */
