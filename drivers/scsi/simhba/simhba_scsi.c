// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: the SCSI commands a LUN answers without media access (INQUIRY and
 * its VPD pages, MODE SENSE, READ CAPACITY, REPORT LUNS, REQUEST SENSE) and
 * the parsing and checking of READ, WRITE and SYNCHRONIZE CACHE.
 *
 * Nothing here touches a scsi_cmnd: simhba_emulate() takes a CDB, a LUN
 * (or none) and a response buffer, and says what to return or which media
 * operation to start, so that KUnit can call it without a SCSI host.
 */

#include <linux/unaligned.h>

#include <kunit/visibility.h>
#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_proto.h>

#include "simhba.h"

static void set_sense(struct simhba_result *res, u8 key, u8 asc, u8 ascq)
{
	res->len = 0;
	res->key = key;
	res->asc = asc;
	res->ascq = ascq;
}

static int fill_vpd(const struct simhba_lun *lun, u8 page, u8 *b)
{
	const struct simhba_host *h = lun->host;
	int n;

	b[0] = TYPE_DISK;
	b[1] = page;
	switch (page) {
	case 0x00:
		b[4] = 0x00;
		b[5] = 0x80;
		b[6] = 0x83;
		b[7] = 0xb0;
		b[8] = 0xb1;
		b[3] = 5;
		return 9;
	case 0x80:
		n = scnprintf(&b[4], 32, "SIMHBA%02d%04u", h->id, lun->lun);
		b[3] = n;
		return n + 4;
	case 0x83:
		/* T10 vendor identification designator, ASCII */
		b[4] = 0x02;
		b[5] = 0x01;
		n = scnprintf(&b[8], 40, "SIMHBA  %s-%02d-%04u",
			      lun->profile, h->id, lun->lun);
		b[7] = n;
		b[3] = n + 4;
		return n + 8;
	case 0xb0:
		b[3] = 0x3c;
		return 0x40;
	case 0xb1:
		b[3] = 0x3c;
		put_unaligned_be16(lun->rotational ?
				   lun->m[0].disk.p.rpm : 1, &b[4]);
		return 0x40;
	}
	return -1;
}

static void do_inquiry(const struct simhba_lun *lun, const u8 *cdb, u8 *b,
		       struct simhba_result *res)
{
	u16 alloc = get_unaligned_be16(&cdb[3]);
	int len;

	if (!lun) {
		b[0] = 0x7f;	/* no logical unit here */
		b[2] = 6;
		b[3] = 2;
		b[4] = 31;
		len = 36;
	} else if (cdb[1] & 1) {
		len = fill_vpd(lun, cdb[2], b);
		if (len < 0) {
			set_sense(res, ILLEGAL_REQUEST, 0x24, 0);
			return;
		}
	} else {
		if (cdb[2]) {
			set_sense(res, ILLEGAL_REQUEST, 0x24, 0);
			return;
		}
		b[0] = TYPE_DISK;
		b[2] = 6;		/* SPC-4 */
		b[3] = 2;
		b[4] = 91;
		b[7] = 0x02;		/* CmdQue */
		memcpy(&b[8], "SIMHBA  ", 8);
		memset(&b[16], ' ', 16);
		memcpy(&b[16], lun->m[0].disk.p.product,
		       min_t(size_t, 16, strlen(lun->m[0].disk.p.product)));
		if (lun->chunk)
			memcpy(&b[16], "SIM RAID0       ", 16);
		memcpy(&b[32], "0001", 4);
		len = 96;
	}
	res->len = min_t(int, len, alloc);
}

static void do_mode_sense(const struct simhba_lun *lun, const u8 *cdb, u8 *b,
			  struct simhba_result *res)
{
	bool ten = cdb[0] == MODE_SENSE_10;
	bool dbd = cdb[1] & 0x08;
	u8 pc = cdb[2] >> 6, page = cdb[2] & 0x3f;
	unsigned int alloc = ten ? get_unaligned_be16(&cdb[7]) : cdb[4];
	int hdr = ten ? 8 : 4, len;
	u8 *p;

	if (pc == 3) {
		/* SAVING PARAMETERS NOT SUPPORTED */
		set_sense(res, ILLEGAL_REQUEST, 0x39, 0);
		return;
	}
	len = hdr;
	if (!dbd) {
		put_unaligned_be32(min_t(u64, lun->capacity, 0xffffff), &b[len]);
		b[len] = 0;
		put_unaligned_be32(SIMHBA_SECTOR, &b[len + 4]);
		len += 8;
	}
	if (page == 0x08 || page == 0x3f) {
		p = &b[len];
		p[0] = 0x08;
		p[1] = 0x12;
		if (pc == 0 || pc == 2)
			p[2] = lun->wce ? 0x04 : 0;
		len += 20;
	}
	if (page == 0x0a || page == 0x3f) {
		p = &b[len];
		p[0] = 0x0a;
		p[1] = 0x0a;
		len += 12;
	}
	if (len == hdr + (dbd ? 0 : 8) && page != 0x3f) {
		set_sense(res, ILLEGAL_REQUEST, 0x24, 0);
		return;
	}
	if (ten) {
		put_unaligned_be16(len - 2, &b[0]);
		b[3] = 0x10;		/* DPOFUA */
		b[7] = dbd ? 0 : 8;
	} else {
		b[0] = len - 1;
		b[2] = 0x10;
		b[3] = dbd ? 0 : 8;
	}
	res->len = min_t(unsigned int, len, alloc);
}

static void do_report_luns(unsigned int nluns, const u8 *cdb, u8 *b,
			   struct simhba_result *res)
{
	unsigned int alloc = get_unaligned_be32(&cdb[6]);
	unsigned int len = 8 + 8 * nluns, i;

	put_unaligned_be32(8 * nluns, &b[0]);
	for (i = 0; i < nluns; i++)
		int_to_scsilun(i, (struct scsi_lun *)&b[8 + 8 * i]);
	res->len = min(len, alloc);
}

static bool parse_rw(const u8 *cdb, struct simhba_rw *rw)
{
	rw->fua = false;
	rw->flush = false;
	switch (cdb[0]) {
	case READ_6:
	case WRITE_6:
		rw->lba = get_unaligned_be24(&cdb[1]) & 0x1fffff;
		rw->nsect = cdb[4] ? cdb[4] : 256;
		break;
	case READ_10:
	case WRITE_10:
		rw->lba = get_unaligned_be32(&cdb[2]);
		rw->nsect = get_unaligned_be16(&cdb[7]);
		rw->fua = cdb[1] & 0x08;
		break;
	case READ_16:
	case WRITE_16:
		rw->lba = get_unaligned_be64(&cdb[2]);
		rw->nsect = get_unaligned_be32(&cdb[10]);
		rw->fua = cdb[1] & 0x08;
		break;
	default:
		return false;
	}
	rw->write = cdb[0] == WRITE_6 || cdb[0] == WRITE_10 ||
		    cdb[0] == WRITE_16;
	return true;
}

/**
 * simhba_emulate() - decide what a command does, without doing it
 * @lun: the logical unit, NULL if the command is for one that is not there
 * @nluns: the logical units of the host, for REPORT LUNS
 * @cdb: the command
 * @buf: SIMHBA_RESP_MAX bytes, zeroed, for the data to return
 * @res: the data length (already cut to the allocation length) or the sense
 * @rw: the media operation, when the result is SIMHBA_EMUL_MEDIA
 *
 * Return: SIMHBA_EMUL_DONE if the command completes with @res alone (a sense
 * key in @res->key means CHECK CONDITION), SIMHBA_EMUL_MEDIA if the LUN's
 * disks must carry out @rw (READ, WRITE of a non-zero length within the
 * capacity, SYNCHRONIZE CACHE).
 */
enum simhba_emul simhba_emulate(const struct simhba_lun *lun,
				unsigned int nluns, const u8 *cdb, u8 *buf,
				struct simhba_result *res, struct simhba_rw *rw)
{
	memset(res, 0, sizeof(*res));
	if (cdb[0] == INQUIRY) {
		do_inquiry(lun, cdb, buf, res);
		return SIMHBA_EMUL_DONE;
	}
	if (cdb[0] == REPORT_LUNS) {
		do_report_luns(nluns, cdb, buf, res);
		return SIMHBA_EMUL_DONE;
	}
	if (!lun) {
		/* LOGICAL UNIT NOT SUPPORTED */
		set_sense(res, ILLEGAL_REQUEST, 0x25, 0);
		return SIMHBA_EMUL_DONE;
	}

	if (parse_rw(cdb, rw)) {
		if (rw->lba + rw->nsect > lun->capacity ||
		    rw->lba + rw->nsect < rw->lba) {
			/* LOGICAL BLOCK ADDRESS OUT OF RANGE */
			set_sense(res, ILLEGAL_REQUEST, 0x21, 0);
			return SIMHBA_EMUL_DONE;
		}
		return rw->nsect ? SIMHBA_EMUL_MEDIA : SIMHBA_EMUL_DONE;
	}

	switch (cdb[0]) {
	case SYNCHRONIZE_CACHE:
	case SYNCHRONIZE_CACHE_16:
		memset(rw, 0, sizeof(*rw));
		rw->flush = true;
		return SIMHBA_EMUL_MEDIA;
	case TEST_UNIT_READY:
	case START_STOP:
	case VERIFY:
	case VERIFY_16:
		break;
	case REQUEST_SENSE:
		buf[0] = 0x70;
		buf[7] = 10;
		res->len = min_t(u8, 18, cdb[4]);
		break;
	case READ_CAPACITY:
		put_unaligned_be32(min_t(u64, lun->capacity - 1, 0xffffffff),
				   &buf[0]);
		put_unaligned_be32(SIMHBA_SECTOR, &buf[4]);
		res->len = 8;
		break;
	case SERVICE_ACTION_IN_16:
		if ((cdb[1] & 0x1f) != SAI_READ_CAPACITY_16) {
			set_sense(res, ILLEGAL_REQUEST, 0x24, 0);
			break;
		}
		put_unaligned_be64(lun->capacity - 1, &buf[0]);
		put_unaligned_be32(SIMHBA_SECTOR, &buf[8]);
		res->len = min_t(u32, 32, get_unaligned_be32(&cdb[10]));
		break;
	case MODE_SENSE:
	case MODE_SENSE_10:
		do_mode_sense(lun, cdb, buf, res);
		break;
	default:
		/* INVALID COMMAND OPERATION CODE */
		set_sense(res, ILLEGAL_REQUEST, 0x20, 0);
		break;
	}
	return SIMHBA_EMUL_DONE;
}
EXPORT_SYMBOL_IF_KUNIT(simhba_emulate);
