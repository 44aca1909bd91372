// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: SCSI commands emulated without media access (INQUIRY and its
 * VPD pages, MODE SENSE, REPORT LUNS) and the parsing of READ and WRITE.
 */

#include <linux/slab.h>
#include <linux/unaligned.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_proto.h>

#include "simhba.h"

/* ---- SCSI commands without media access -------------------------------- */

static int fill_vpd(struct simhba_lun *lun, u8 page, u8 *b)
{
	struct simhba_host *h = lun->host;
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

int simhba_do_inquiry(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	u8 *cdb = sc->cmnd;
	u16 alloc = get_unaligned_be16(&cdb[3]);
	u8 b[96] = { };
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
			scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
			return 0;
		}
	} else {
		if (cdb[2]) {
			scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
			return 0;
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
	scsi_sg_copy_from_buffer(sc, b, min_t(int, len, alloc));
	return 0;
}

void simhba_do_mode_sense(struct scsi_cmnd *sc, struct simhba_lun *lun)
{
	u8 *cdb = sc->cmnd;
	bool ten = cdb[0] == MODE_SENSE_10;
	bool dbd = cdb[1] & 0x08;
	u8 pc = cdb[2] >> 6, page = cdb[2] & 0x3f;
	unsigned int alloc = ten ? get_unaligned_be16(&cdb[7]) : cdb[4];
	int hdr = ten ? 8 : 4, len;
	u8 b[128] = { };
	u8 *p;

	if (pc == 3) {
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x39, 0);
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
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
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
	scsi_sg_copy_from_buffer(sc, b, min_t(unsigned int, len, alloc));
}

void simhba_do_report_luns(struct scsi_cmnd *sc, struct simhba_host *h)
{
	unsigned int alloc = get_unaligned_be32(&sc->cmnd[6]);
	unsigned int len = 8 + 8 * h->nluns, i;
	u8 *b;

	b = kzalloc(len, GFP_ATOMIC);
	if (!b) {
		sc->result = DID_REQUEUE << 16;
		return;
	}
	put_unaligned_be32(8 * h->nluns, &b[0]);
	for (i = 0; i < h->nluns; i++)
		int_to_scsilun(i, (struct scsi_lun *)&b[8 + 8 * i]);
	scsi_sg_copy_from_buffer(sc, b, min(len, alloc));
	kfree(b);
}

/* ---- media commands --------------------------------------------------------- */

bool simhba_parse_rw(struct scsi_cmnd *sc, u64 *lba, u32 *n, bool *write,
		     bool *fua)
{
	u8 *cdb = sc->cmnd;

	*fua = false;
	switch (cdb[0]) {
	case READ_6:
	case WRITE_6:
		*lba = get_unaligned_be24(&cdb[1]) & 0x1fffff;
		*n = cdb[4] ? cdb[4] : 256;
		break;
	case READ_10:
	case WRITE_10:
		*lba = get_unaligned_be32(&cdb[2]);
		*n = get_unaligned_be16(&cdb[7]);
		*fua = cdb[1] & 0x08;
		break;
	case READ_16:
	case WRITE_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*n = get_unaligned_be32(&cdb[10]);
		*fua = cdb[1] & 0x08;
		break;
	default:
		return false;
	}
	*write = cdb[0] == WRITE_6 || cdb[0] == WRITE_10 || cdb[0] == WRITE_16;
	return true;
}
