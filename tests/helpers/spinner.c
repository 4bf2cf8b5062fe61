// SPDX-License-Identifier: GPL-2.0
/*
 * spinner DIR: a process whose user-mode time, once it is ready, is all
 * in one function, spin().
 *
 * Writes DIR/range, the first and the last address of spin()'s code in
 * hex (spin() alone is in the section spin_text), and maps DIR/laps shared;
 * then calls spin(), which counts its laps in DIR/laps and never returns
 * nor makes a system call. DIR/laps other than zero: the process is in
 * spin() for good, until killed (SIGSTOP and SIGKILL run no code of its
 * own). The test reads the file as the laps grow.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* the linker's bounds of the section spin_text */
extern const char __start_spin_text[], __stop_spin_text[];

static __attribute__((noinline, noreturn, section("spin_text")))
void spin(volatile uint64_t *laps)
{
	for (;;)
		(*laps)++;
}

int main(int argc, char **argv)
{
	volatile uint64_t *laps;
	char path[4096];
	FILE *f;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: spinner DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/laps", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, sizeof(*laps))) {
		perror(path);
		return 1;
	}
	laps = mmap(NULL, sizeof(*laps), PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	if (laps == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/range", argv[1]);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%lx %lx\n", (unsigned long)__start_spin_text,
			  (unsigned long)__stop_spin_text - 1) < 0 || fclose(f)) {
		perror(path);
		return 1;
	}
	spin(laps);
}
