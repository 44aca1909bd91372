/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simhba: the state shared by the parts of the driver: hosts, LUNs and
 * their member disks, the per-command private data, and the functions
 * one part calls in another.
 */
#ifndef _SIMHBA_H
#define _SIMHBA_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

#include "simhba_model.h"

#define SIMHBA_MAX_HOSTS	16
#define SIMHBA_MAX_LUNS		64

/* ---- personalities ------------------------------------------------------ */

struct simhba_pers {
	const char *name;
	unsigned int sg_tablesize;
	unsigned int max_sectors;
	unsigned int max_segment_size;	/* bytes, 0: the midlayer's default */
	unsigned int can_queue;
	unsigned int link_mbps;		/* host link, 10^6 B/s; 0: each disk's own */
	bool full_duplex;		/* one link each way */
	unsigned int cmd_us;		/* adapter processor time per command */
	bool aac;
	bool qla;
};

/* ---- state ---------------------------------------------------------------- */

struct simhba_lun;

/*
 * The ownership rule of the model: every disk belongs to one domain, the
 * disks that must be stepped together because they share something the
 * model keeps (a host's link, its adapter's processor), and the domain's
 * lock guards everything of its disks and of their LUNs: the disks'
 * models, the LUNs' inflight lists, fault settings and the owners of their
 * commands and, in the host's domain, its links and processor.  A host
 * with a link or a per-command cost (aacraid, qla2xxx) is one domain; on a
 * host whose LUNs share neither (generic: each disk its own link) each LUN
 * is its own domain, so that the commands and completions of one LUN
 * neither step nor lock another's disks.  No code takes two domain locks.
 */
struct simhba_domain {
	spinlock_t lock;		/* what the rule above says */
	struct simhba_disk **disks;	/* stepped together, in event order */
	unsigned int ndisks;
	u64 cmd_free;			/* the adapter's processor is free */
};

struct simhba_member {
	struct simhba_disk disk;
	struct hrtimer timer;
	struct simhba_lun *lun;
};

struct simhba_lun {
	struct simhba_host *host;
	unsigned int lun;
	u64 capacity;			/* sectors */
	const char *profile;
	unsigned int nmembers;
	u32 chunk;			/* raid0 chunk in sectors, 0 if not raid */
	struct simhba_member *m;
	struct simhba_domain *dom;	/* own or the host's shared */
	struct simhba_domain own;
	struct list_head inflight;
	struct xarray store;
	bool rotational;
	bool wce;
	unsigned int qdepth;
	/* faults */
	u64 medium_lba;
	u64 medium_sectors;
	atomic_t timeout_next;
	atomic_t busy_next;
	atomic_t nomem_next;		/* debugfs: store pages not had */
	u64 timer_lag_ns;		/* debugfs: fire completion timers late */
	atomic64_t medium_errors;
	atomic64_t timeouts;
	atomic64_t busies;
	atomic64_t aborts;
	atomic64_t resets;
	struct dentry *dbg;
};

struct simhba_host {
	struct device dev;
	u64 dma_mask;
	int id;
	const struct simhba_pers *pers;
	struct Scsi_Host *shost;
	struct mutex eh_mutex;		/* one abort or reset at a time */
	/* every disk of the host; its LUNs' domain if they share anything */
	struct simhba_domain shared;
	struct simhba_link link[2];	/* to the host, to the disks */
	u64 cmd_ns;			/* adapter processor time per command */
	unsigned int dma_bits;
	unsigned int nluns;
	unsigned int nluns_ready;	/* initialised, to be torn down */
	struct simhba_lun *lun;
	atomic64_t map_segs;
	atomic64_t map_bytes;
	atomic64_t bounce_segs;
	atomic64_t bounce_bytes;
	atomic64_t map_failures;
	atomic_t max_segs;		/* most segments one command had */
	bool added;
};

/*
 * Who owns a command: exactly one party at a time.  The owner changes
 * under its LUN's domain lock (the host's shared one for a command to no
 * LUN), from one that has it to the next, and only by
 * simhba_own_take(); whoever took it to TIMER, ABORT or RESET alone gives
 * it up with simhba_own_release() and then finishes it: unmaps it and,
 * unless it was aborted (the midlayer completes those), calls scsi_done().
 * So a command is unmapped and completed once, whatever the order in which
 * its completion timer, an abort and a reset reach it.
 */
enum simhba_owner {
	SIMHBA_OWN_NONE,	/* not issued, or finished */
	SIMHBA_OWN_QUICK,	/* its own timer, to complete without media */
	SIMHBA_OWN_DISK,	/* on lun->inflight: at the disks, or lost */
	SIMHBA_OWN_TIMER,	/* a completion timer's, being completed */
	SIMHBA_OWN_ABORT,	/* the error handler's abort's */
	SIMHBA_OWN_RESET,	/* a device or host reset's */
};

struct simhba_cmd {
	struct list_head node;		/* lun->inflight, while DISK */
	struct list_head done;		/* the taker's list, when taken */
	struct hrtimer timer;
	struct simhba_lun *lun;
	enum simhba_owner owner;
	unsigned int nops;
	unsigned int pending;
	bool mapped;
	bool medium_error;
	u64 bad_lba;
	struct simhba_op op[SIMHBA_MAX_MEMBERS];
	u8 member[SIMHBA_MAX_MEMBERS];
};

/* scsi_cmd_priv() is the memory right after the command. */
static inline struct scsi_cmnd *priv_to_cmd(struct simhba_cmd *c)
{
	return (struct scsi_cmnd *)c - 1;
}

static inline struct simhba_host *to_simhba(struct Scsi_Host *shost)
{
	return *(struct simhba_host **)shost_priv(shost);
}

/* ---- module parameters shared by the parts (simhba_main.c) ------------- */

extern unsigned int simhba_time_scale;
extern bool simhba_nostore;
extern unsigned int simhba_store_mb;
extern struct dentry *simhba_dbg_root;

/* ---- simhba_io.c ------------------------------------------------------- */

extern u64 simhba_epoch;
u64 simhba_model_now(void);
void simhba_lun_advance(struct simhba_lun *lun, u64 now);
enum hrtimer_restart simhba_member_timer_fn(struct hrtimer *t);
int simhba_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc);
int simhba_eh_abort(struct scsi_cmnd *sc);
int simhba_eh_device_reset(struct scsi_cmnd *sc);
int simhba_eh_host_reset(struct scsi_cmnd *sc);
int simhba_slave_alloc(struct scsi_device *sdev);
int simhba_slave_configure(struct scsi_device *sdev);
void simhba_slave_destroy(struct scsi_device *sdev);
int simhba_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *sc);

/* The ownership of commands, under the domain's lock but for release. */
bool simhba_own_take(struct simhba_cmd *c, enum simhba_owner from,
		     enum simhba_owner to);
bool simhba_own_release(struct simhba_cmd *c, enum simhba_owner by);
void simhba_cmd_issue(struct simhba_lun *lun, struct simhba_cmd *c);
void simhba_cmd_reaped(struct simhba_cmd *c, struct list_head *done);
bool simhba_cmd_abort_take(struct simhba_lun *lun, struct simhba_cmd *c);
void simhba_lun_reset_take(struct simhba_lun *lun, struct list_head *list);

/* ---- simhba_main.c ----------------------------------------------------- */

int simhba_host_domains(struct simhba_host *h);
void simhba_host_domains_free(struct simhba_host *h);

/* ---- simhba_scsi.c ----------------------------------------------------- */

/* The longest response: REPORT LUNS of a host with every LUN */
#define SIMHBA_RESP_MAX		(8 + 8 * SIMHBA_MAX_LUNS)

/* What an emulated command returns: data, or CHECK CONDITION if @key */
struct simhba_result {
	unsigned int len;	/* bytes of data, within the allocation length */
	u8 key, asc, ascq;	/* sense */
};

/* A media operation: READ, WRITE or SYNCHRONIZE CACHE (@flush) */
struct simhba_rw {
	u64 lba;
	u32 nsect;
	bool write;
	bool fua;
	bool flush;
};

enum simhba_emul {
	SIMHBA_EMUL_DONE,	/* complete with the simhba_result */
	SIMHBA_EMUL_MEDIA,	/* the disks carry out the simhba_rw */
};

enum simhba_emul simhba_emulate(const struct simhba_lun *lun,
				unsigned int nluns, const u8 *cdb, u8 *buf,
				struct simhba_result *res, struct simhba_rw *rw);

/* ---- simhba_store.c ---------------------------------------------------- */

void simhba_store_copy(struct simhba_lun *lun, u64 pos, void *buf, size_t len,
		       bool write, int *err);
void simhba_store_free(struct simhba_lun *lun);

/* ---- simhba_sysfs.c ---------------------------------------------------- */

extern const struct attribute_group *simhba_shost_groups[];
extern const struct attribute_group *simhba_sdev_groups[];
void simhba_lun_debugfs_init(struct simhba_lun *lun, const char *name);

#endif /* _SIMHBA_H */
