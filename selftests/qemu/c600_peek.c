// SPDX-License-Identifier: GPL-2.0
/*
 * c600_peek: 32-bit reads and writes of a QEMU ipu-c600's BARs from the
 * guest, through /sys/bus/pci/devices/BDF/resourceN (no driver needed),
 * for checking the device by hand in the test VM (docs/qemu-c600.md):
 *
 *   c600_peek [-d BDF] BAR OFFSET [VALUE]      read, or write then read back
 *   c600_peek [-d BDF] -l                      print the device's BDF
 *
 * Without -d the first device 1d95:c600 is used. The device's memory
 * decoding is switched on through its sysfs "enable" file first. A read
 * prints "BAR:OFFSET = 0xVALUE". Exit status 0, or 1 on any error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCI_DEVICES "/sys/bus/pci/devices"

static unsigned long read_hex(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return ~0ul;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoul(buf, NULL, 16);
}

static int find_device(char *bdf, size_t len)
{
	DIR *d = opendir(PCI_DEVICES);
	struct dirent *e;
	char path[512];
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/vendor", e->d_name);
		if (read_hex(path) != 0x1d95)
			continue;
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/device", e->d_name);
		if (read_hex(path) != 0xc600)
			continue;
		snprintf(bdf, len, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char bdf[256] = "", path[512];
	int argi = 1, fd, bar;
	unsigned long off;
	struct stat st;
	volatile uint32_t *reg;
	void *map;

	if (argi + 1 < argc && !strcmp(argv[argi], "-d")) {
		snprintf(bdf, sizeof(bdf), "%s", argv[argi + 1]);
		argi += 2;
	}
	if (!bdf[0] && !find_device(bdf, sizeof(bdf))) {
		fprintf(stderr, "c600_peek: no 1d95:c600 device\n");
		return 1;
	}
	if (argi < argc && !strcmp(argv[argi], "-l")) {
		printf("%s\n", bdf);
		return 0;
	}
	if (argc - argi != 2 && argc - argi != 3) {
		fprintf(stderr, "usage: c600_peek [-d BDF] BAR OFFSET [VALUE] | [-d BDF] -l\n");
		return 1;
	}
	bar = atoi(argv[argi]);
	off = strtoul(argv[argi + 1], NULL, 0);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/enable", bdf);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (read_hex(path) == 0 && write(fd, "1", 1) != 1)
			perror("c600_peek: enable");
		close(fd);
	}
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/resource%d", bdf, bar);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "c600_peek: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (off & 3 || off + 4 > (unsigned long)st.st_size) {
		fprintf(stderr, "c600_peek: offset 0x%lx outside BAR %d (%lld bytes) or unaligned\n",
			off, bar, (long long)st.st_size);
		return 1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "c600_peek: mmap %s: %s\n", path, strerror(errno));
		return 1;
	}
	reg = (volatile uint32_t *)((char *)map + off);
	if (argc - argi == 3)
		*reg = (uint32_t)strtoul(argv[argi + 2], NULL, 0);
	printf("%d:0x%lx = 0x%08x\n", bar, off, *reg);
	munmap(map, (size_t)st.st_size);
	close(fd);
	return 0;
}
