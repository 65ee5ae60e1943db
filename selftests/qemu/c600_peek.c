// SPDX-License-Identifier: GPL-2.0-only
/*
 * c600_peek: 32-bit reads and writes of a QEMU ipu-c600's BARs from the
 * guest, through /sys/bus/pci/devices/BDF/resourceN (no driver needed),
 * for checking the device by hand in the test VM (docs/qemu-c600.md):
 *
 *   c600_peek [-d BDF] BAR OFFSET [VALUE]      read, or write then read back
 *   c600_peek [-d BDF] -l                      print the device's BDF
 *   c600_peek [-d BDF] -a SLOT PAGES           attach a buffer to a slot
 *
 * -a (only with the IOMMU off: bus address = physical address) sets bus
 * master in the device's command register, locks
 * PAGES pages of this process, writes their physical addresses
 * (/proc/self/pagemap) as a segment table (docs/qemu-c600.md, BAR 4),
 * attaches them to SLOT through the window, prints SW_SLOT_STATUS,
 * detaches again and prints that status too.
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

/* Physical address of the page at @va (root: pagemap shows PFNs). */
static uint64_t phys_of(void *va)
{
	uint64_t ent = 0;
	long ps = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &ent, 8, (off_t)((uintptr_t)va / ps * 8)) != 8)
		ent = 0;
	close(fd);
	if (!(ent >> 63))
		return 0;
	return (ent & ((1ull << 55) - 1)) * (uint64_t)ps;
}

static int map_bar(const char *bdf, int bar, volatile uint32_t **regs, size_t *size)
{
	char path[512];
	struct stat st;
	void *map;
	int fd;

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
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "c600_peek: mmap %s: %s\n", path, strerror(errno));
		return -1;
	}
	*regs = map;
	*size = (size_t)st.st_size;
	return 0;
}

/* PCI_COMMAND |= bus master (and memory): the device may DMA. */
static int bus_master(const char *bdf)
{
	char path[512];
	uint16_t cmd = 0;
	int fd, ok;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/config", bdf);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	ok = pread(fd, &cmd, 2, 4) == 2;
	cmd |= 0x6;
	ok = ok && pwrite(fd, &cmd, 2, 4) == 2;
	close(fd);
	return ok ? 0 : -1;
}

static int attach_test(const char *bdf, uint32_t slot, uint32_t pages)
{
	long ps = sysconf(_SC_PAGESIZE);
	volatile uint32_t *w;
	uint64_t *table, tphys;
	uint8_t *buf;
	size_t wsize;

	if (!pages || pages > 1024 || map_bar(bdf, 4, &w, &wsize))
		return 1;
	if (bus_master(bdf)) {
		fprintf(stderr, "c600_peek: cannot set bus master\n");
		return 1;
	}
	buf = mmap(NULL, (size_t)pages * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	table = mmap(NULL, (size_t)ps * 4, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	if (buf == MAP_FAILED || table == MAP_FAILED || pages * 16 > (uint32_t)ps) {
		perror("c600_peek: mmap");
		return 1;
	}
	memset(table, 0, (size_t)ps);
	for (uint32_t i = 0; i < pages; i++) {
		buf[(size_t)i * ps] = (uint8_t)i;
		table[2 * i] = phys_of(buf + (size_t)i * ps);
		table[2 * i + 1] = (uint64_t)ps;
		if (!table[2 * i]) {
			fprintf(stderr, "c600_peek: no physical address (not root?)\n");
			return 1;
		}
	}
	tphys = phys_of(table);
	w[0x100 / 4] = slot;
	w[0x104 / 4] = pages * (uint32_t)ps;
	w[0x108 / 4] = (uint32_t)tphys;
	w[0x10c / 4] = (uint32_t)(tphys >> 32);
	w[0x110 / 4] = pages;
	w[0x114 / 4] = 1;
	printf("attach slot %u (%u pages, table at 0x%llx): status %d\n", slot, pages,
	       (unsigned long long)tphys, (int)w[0x118 / 4]);
	w[0x114 / 4] = 2;
	printf("detach slot %u: status %d\n", slot, (int)w[0x118 / 4]);
	w[0x114 / 4] = 2;
	printf("detach slot %u again: status %d\n", slot, (int)w[0x118 / 4]);
	return 0;
}

int main(int argc, char **argv)
{
	char bdf[256] = "";
	int argi = 1, bar;
	unsigned long off;
	volatile uint32_t *regs, *reg;
	size_t size;

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
	if (argi + 2 < argc && !strcmp(argv[argi], "-a"))
		return attach_test(bdf, (uint32_t)strtoul(argv[argi + 1], NULL, 0),
				   (uint32_t)strtoul(argv[argi + 2], NULL, 0));
	if (argc - argi != 2 && argc - argi != 3) {
		fprintf(stderr, "usage: c600_peek [-d BDF] BAR OFFSET [VALUE] | -l | -a SLOT PAGES\n");
		return 1;
	}
	bar = atoi(argv[argi]);
	off = strtoul(argv[argi + 1], NULL, 0);
	if (map_bar(bdf, bar, &regs, &size))
		return 1;
	if (off & 3 || off + 4 > size) {
		fprintf(stderr, "c600_peek: offset 0x%lx outside BAR %d (%zu bytes) or unaligned\n",
			off, bar, size);
		munmap((void *)regs, size);
		return 1;
	}
	reg = regs + off / 4;
	if (argc - argi == 3)
		*reg = (uint32_t)strtoul(argv[argi + 2], NULL, 0);
	printf("%d:0x%lx = 0x%08x\n", bar, off, *reg);
	munmap((void *)regs, size);
	return 0;
}
