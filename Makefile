# SPDX-License-Identifier: GPL-2.0
#
# make                 build perfkstat, then perfkmod.ko against KDIR; with
#                      CROSS_COMPILE, perfkmod.ko alone (the tool needs the
#                      target's C library: make perfkstat builds it)
# make perfkstat       build the tool alone (tools/perfkstat/perfkstat): a
#                      userspace program, it needs no kernel headers;
#                      CC, CFLAGS, LDFLAGS (-static), WERROR=1 and
#                      CROSS_COMPILE reach its own Makefile
# make module          build perfkmod.ko alone (DKMS' target)
# make tests           also build the KUnit suites (KDIR needs CONFIG_KUNIT)
# make samples         also build the example client module in samples/
# make clients         also build the test client modules in tests/clients/
# make check           build the test kernels and run every test lane, in
#                      QEMU but for the host and lint lanes (tests/lanes)
# make check LANE=x    one lane of tests/lanes (or several: LANE="x y")
# make check QUICK=1   the quick loop: the host tests, KUnit on the
#                      x86-debug kernel and the guest scripts on Debian's
# make check T=NAME    one test: a guest script (T=test-debugfs or
#                      T=debugfs) on the distro lane, a KUnit suite
#                      (T=perfkmod_overflow, or SUITE.CASE) on x86-kunit,
#                      or a host test (T=parse) on the host lane; LANE=x
#                      runs it on lane x
# make lint            the style gates: checkpatch, kernel-doc, sparse, SPDX
# make demo            load perfkmod in Debian's kernel in QEMU, show counters
# make shell           a shell in Debian's kernel in QEMU, perfkmod loaded;
#                      CLIENT=DIR adds the client module built in DIR,
#                      RUN=SCRIPT runs SCRIPT there instead of the shell,
#                      LANE=x boots lane x's kernel (arm64-pmu: with a PMU)
# make bench           perfkmod's costs next to raw perf, in QEMU (docs/BENCHMARKS.md)
# make bench SMOKE=1   the same with tiny iteration counts, timing nothing
# make bench-module    build the benchmark module in bench/ against KDIR
# make deb             the Debian packages perfkmod-dkms and perfkmod-tools,
#                      into .build/deb/ (debhelper, dh-dkms)
#
# KDIR, ARCH and CROSS_COMPILE are passed to the kernel build as usual.

KDIR ?= /lib/modules/$(shell uname -r)/build
LANE ?=

kbuild = $(MAKE) -C $(KDIR) M=$(CURDIR)

# perfkstat first: without kernel headers it is built before module stops.
# A cross build is the module's alone: the tool would need the target's
# C library, which a module does not.
all: $(if $(CROSS_COMPILE),,perfkstat) module

perfkstat:
	$(MAKE) -C tools/perfkstat

module: kdir
	$(kbuild) modules

tests: kdir
	$(kbuild) PERFKMOD_TESTS=m modules

# Built as any client module outside this tree would be.
samples: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/samples PERFKMOD=$(CURDIR) modules

# The client modules of the cross-module tests, built as samples/ is.
clients: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/clients \
		KBUILD_EXTRA_SYMBOLS=$(CURDIR)/Module.symvers modules

# The benchmark module, a client like samples/.
bench-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/bench \
		KBUILD_EXTRA_SYMBOLS=$(CURDIR)/Module.symvers modules

# dpkg-buildpackage writes beside the tree it builds: a copy in .build/deb/
deb:
	rm -rf --one-file-system .build/deb
	mkdir -p .build/deb/perfkmod
	tar -c --exclude=./.git --exclude=./.build . | tar -x -C .build/deb/perfkmod
	cd .build/deb/perfkmod && dpkg-buildpackage -b -us -uc
	@ls .build/deb/*.deb

kdir:
	@test -f $(KDIR)/Makefile || { \
	  echo "No kernel build tree at $(KDIR)."; \
	  echo "Install the headers of the running kernel, or name a tree:"; \
	  echo "  make KDIR=/path/to/linux/build"; exit 1; }

# (a tree without tools/, as DKMS copies one, cleans too)
clean:
	test ! -d tools/perfkstat || $(MAKE) -C tools/perfkstat clean
	$(kbuild) clean 2>/dev/null || true
	$(MAKE) -C $(KDIR) M=$(CURDIR)/samples clean 2>/dev/null || true
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/clients clean 2>/dev/null || true
	$(MAKE) -C $(KDIR) M=$(CURDIR)/bench clean 2>/dev/null || true
	# --one-file-system: never into what a killed fresh lane left mounted
	rm -rf --one-file-system .build

check:
	scripts/check.sh $(if $(T),--test=$(T),$(if $(QUICK),--quick)) $(LANE)

lint:
	scripts/check.sh lint

demo:
	scripts/demo.sh

shell:
	scripts/shell.sh "$(or $(LANE),distro)" "$(CLIENT)" "$(RUN)"

bench:
	scripts/bench.sh $(if $(SMOKE),--smoke)

.PHONY: all perfkstat module tests samples clients bench-module kdir clean check lint demo shell bench deb
