/* SPDX-License-Identifier: GPL-2.0 */
/* Decimal digits without vsnprintf(), for the files read most often. */
#ifndef _PERFKMOD_CONTROL_DEC_U64_H
#define _PERFKMOD_CONTROL_DEC_U64_H

#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>

/*
 * @v in decimal, ending just before @end: returns where it begins. What
 * "%llu" gives, without vsnprintf()'s cost (its format parsing costs more
 * than the digits), which the files read most often would pay for each
 * number, and in list for eight numbers a counter. Eight digits a step
 * where there are more (one 64-bit division), then two a step, in 32-bit
 * arithmetic and from a table of pairs: divisions by constants are
 * multiplications, and what costs is their number. Inline: the files
 * read most often call it for each number.
 */
static __always_inline char *perfkmod_dec_u64(char *end, u64 v)
{
	static const char pairs[100][2] = {
		"00", "01", "02", "03", "04", "05", "06", "07", "08", "09",
		"10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
		"20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
		"30", "31", "32", "33", "34", "35", "36", "37", "38", "39",
		"40", "41", "42", "43", "44", "45", "46", "47", "48", "49",
		"50", "51", "52", "53", "54", "55", "56", "57", "58", "59",
		"60", "61", "62", "63", "64", "65", "66", "67", "68", "69",
		"70", "71", "72", "73", "74", "75", "76", "77", "78", "79",
		"80", "81", "82", "83", "84", "85", "86", "87", "88", "89",
		"90", "91", "92", "93", "94", "95", "96", "97", "98", "99",
	};
	u32 low, high, i;

	while (v >= 100000000) {
		low = do_div(v, 100000000);
		/* all eight digits of @low, zeros included */
		for (i = 0; i < 4; i++) {
			high = low / 100;
			end -= 2;
			memcpy(end, pairs[low - high * 100], 2);
			low = high;
		}
	}
	low = v;
	while (low >= 100) {
		high = low / 100;
		end -= 2;
		memcpy(end, pairs[low - high * 100], 2);
		low = high;
	}
	if (low >= 10) {
		end -= 2;
		memcpy(end, pairs[low], 2);
	} else {
		*--end = '0' + low;
	}
	return end;
}

#endif /* _PERFKMOD_CONTROL_DEC_U64_H */
