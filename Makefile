# SPDX-License-Identifier: GPL-2.0-or-later
# tdat - one plain Makefile.
#   make            build/tdat, the applet symlinks beside it, build/libfmt.a
#   make check      install missing packages, build, run every test
#                   (E2E_TESTS="NAME ...": only those end-to-end tests)
#   make check-asan the tests again under AddressSanitizer + UBSan
#                   (check-asan-quick: CI's share of them, ASAN_QUICK_E2E)
#   make check-vm   recordings in a VM booting Debian's kernel (tests/vm/),
#                   crashes, and extract --vmcore of their dumps;
#                   VM_ARCH=s390x|arm64: that architecture's, emulated
#   make check-fleet  issue 51 on a real Slurm cluster on this machine
#                   (tests/fleet/run: slurmctld and two slurmd's in
#                   network namespaces; about 2 minutes)
#   make fuzz       libFuzzer targets: reader, pages, formats, report, split,
#                   merge, restore (clang); make fuzz-short runs each 20 s
#   make bench      issue 22's table: every job against trace-cmd (bench/all.sh;
#                   BENCH_FILE=, RUNS=, RECORD=0, BENCH_DIR=)
#   make demo       convert a bundled v6 recording to v7 zstd and compare
#                   (with tdat dump and report: no trace-cmd needed)
#   make install PREFIX=/usr/local DESTDIR=
#   make uninstall  the same variables: removes exactly what install put

CC      ?= cc
CFLAGS  ?= -O2 -g
# Always on, even when CFLAGS is given on the command line.
BASE_CFLAGS := -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_FILE_OFFSET_BITS=64
# Includes name their path from the top: #include "libfmt/tracedat.h".
CPPFLAGS += -I. $(shell pkg-config --cflags libtraceevent 2>/dev/null)
LDLIBS  += -lzstd -lz -ldeflate $(shell pkg-config --libs libtraceevent 2>/dev/null || echo -ltraceevent) -lpthread -ldl
PREFIX  ?= /usr/local
B       ?= build

APPLETS := record report split merge restore convert check-events dump extract

# libfmt: the format library, built alone as libfmt.a.  Engines: one
# folder of convert/ each.  Applets: cmds/, one file each.
FMT_SRC  := $(wildcard libfmt/*.c)
ENG_SRC  := $(wildcard convert/*/*.c convert/*/*/*.c)
# extract --vmcore reads dumps through libkdumpfile and BTF through libbpf
# (convert/vmcore/).  A build without them gets convert/vmcore/absent.c,
# which says so: static builds (Debian ships no libkdumpfile.a: the VM's
# recorder) and cross builds whose sysroot lacks them.
VMCORE ?= $(if $(findstring -static,$(LDFLAGS)),0,$(shell pkg-config --exists libkdumpfile libbpf 2>/dev/null && echo 1 || echo 0))
ifeq ($(VMCORE),1)
ENG_SRC  := $(filter-out convert/vmcore/absent.c,$(ENG_SRC))
LDLIBS   += $(shell pkg-config --libs libkdumpfile libbpf)
CPPFLAGS += -DTDAT_HAVE_VMCORE
else
ENG_SRC  := $(filter-out convert/vmcore/%.c,$(ENG_SRC)) convert/vmcore/absent.c
UNIT_SRC_OUT := tests/unit/test_vmcore.c
endif
CMD_SRC  := $(wildcard cmds/*.c)
MAIN_SRC := multicall/main.c
UNIT_SRC := $(filter-out $(UNIT_SRC_OUT),$(wildcard tests/unit/*.c))
TOOL_SRC := $(wildcard tests/tools/*.c)

FMT_OBJ  := $(FMT_SRC:%.c=$(B)/obj/%.o)
ENG_OBJ  := $(ENG_SRC:%.c=$(B)/obj/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(B)/obj/%.o)
MAIN_OBJ := $(MAIN_SRC:%.c=$(B)/obj/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/obj/%.o)
TOOLS    := $(TOOL_SRC:tests/tools/%.c=$(B)/tools/%)

LIBFMT   := $(B)/libfmt.a

all: $(B)/tdat $(APPLETS:%=$(B)/%) $(LIBFMT)

# Objects live under obj/: build/report is the applet symlink.
$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIBFMT): $(FMT_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# The plugins' callbacks are exported (multicall/exports.list); a static
# build loads no plugin and leaves them out.
EXPORTS := $(if $(findstring -static,$(LDFLAGS)),,-Wl,--dynamic-list=multicall/exports.list)
$(B)/tdat: $(MAIN_OBJ) $(CMD_OBJ) $(ENG_OBJ) $(LIBFMT) multicall/exports.list
	$(CC) $(CFLAGS) $(LDFLAGS) $(EXPORTS) -o $@ $(filter-out %.list,$^) $(LDLIBS)

$(APPLETS:%=$(B)/%): | $(B)/tdat
	ln -sf tdat $@

# The allocation functions go through tests/unit/test_failalloc.c, which
# makes each fail in turn.
UNIT_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
$(B)/unit-tests: $(UNIT_OBJ) $(CMD_OBJ) $(ENG_OBJ) $(LIBFMT)
	$(CC) $(CFLAGS) $(LDFLAGS) $(UNIT_WRAP) -o $@ $^ $(LDLIBS) -lcunit

# Test tools: small programs over libfmt that the e2e tests call.
$(B)/tools/%: $(B)/obj/tests/tools/%.o $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

deps:
	@scripts/install-deps

check: deps
	$(MAKE) all $(B)/unit-tests $(TOOLS)
	tests/unit/run $(B)/unit-tests
	tests/e2e/run $(B) $(E2E_TESTS)

check-asan: deps
	scripts/install-deps --extra
	$(MAKE) B=build-asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" all build-asan/unit-tests \
	  $(TOOL_SRC:tests/tools/%.c=build-asan/tools/%)
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp tests/unit/run build-asan/unit-tests
	$(MAKE) fuzz-short
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp TDAT_SANITIZED=1 tests/e2e/run build-asan $(ASAN_E2E)

# CI's share of check-asan (.ci/run), to keep the whole CI run under an
# hour: every unit test and fuzz target, and the end-to-end tests that
# feed foreign, damaged and hostile files through every applet.  The
# others (mostly report's text against trace-cmd, option by option) run
# under the sanitizers in make check-asan.
ASAN_QUICK_E2E := 20-convert 21-convert-cli 29-external 30-badinput \
	31-outputs 40-report 43-report-damage 44-report-json 55-dump \
	60-split 61-merge 70-record 71-restore 74-vmcore 81-parquet-safety
check-asan-quick: deps
	$(MAKE) check-asan ASAN_E2E="$(ASAN_QUICK_E2E)"

# The VM test bed: a statically linked tdat goes into the VM's initramfs;
# tests/vm/run exits 77 (a skip, not a failure) when qemu or the kernel
# cannot be had.  On x86_64 tests/vm/crash then crashes Debian's 6.12
# and 7.2 kernels with a ring buffer kept across the reboot, and checks
# what extract reads of it after the reboot; tests/vm/vmcore crashes
# 6.12, 7.2 and 6.1 without one and checks extract --vmcore of their
# dumps.  make check-vm VM_ARCH=s390x|arm64 boots Debian's kernel
# of that architecture under software emulation, with a static cross
# build of tdat (make cross-static) recording there; the host's tdat
# reports what it recorded.
VM_ARCH ?= x86_64
VM_B ?= $(if $(filter x86_64,$(VM_ARCH)),build-static,build-$(VM_ARCH)-static)
check-vm: deps all
	scripts/install-vm-deps $(VM_ARCH) || echo "check-vm: cannot install the VM's packages"
ifeq ($(VM_ARCH),x86_64)
	$(MAKE) B=$(VM_B) LDFLAGS=-static $(VM_B)/tdat
else
	$(MAKE) cross-static ARCH=$(VM_ARCH) STATIC_B=$(VM_B)
endif
	VM_ARCH=$(VM_ARCH) tests/vm/run $(B) $(VM_B) || [ $$? = 77 ]
ifeq ($(VM_ARCH),x86_64)
	tests/vm/crash $(B) $(VM_B) || [ $$? = 77 ]
	POWERCUT_MAX_LOSS=2 POWERCUT_TAIL_HOLES=note \
	  tests/vm/powercut $(B) $(VM_B) || [ $$? = 77 ]
	$(MAKE) $(B)/tools/tdat-texts
	tests/vm/vmcore $(B) || [ $$? = 77 ]
endif

# What a recording keeps when the machine dies under it: check-vm runs
# tests/vm/powercut's short series (tdat record cut once by a panic, once
# by a power cut, once by a panic whose memory is dumped: restore
# --vmcore, extract --vmcore and merge must then give every marker up to
# the panic; a loss over 2 s fails it, before --flush-interval a
# cut lost everything; a hole at a CPU's end is noted there, as the CPUs'
# files are not yet synced at one moment); check-powercut its long one,
# where such a hole fails, 20 cuts of each kind for tdat record (and 10
# dumps) and 10 for trace-cmd record, with a table of the markers kept
# and the loss windows (build-vm/powercut/summary.txt; tdat's over
# POWERCUT_MAX_LOSS, 1.5 s, fail).  15 to 60 s a run under software
# emulation, about 35 minutes in all.
POWERCUT_RUNS ?= 10
POWERCUT_MAX_LOSS ?= 1.5
check-powercut: deps all
	scripts/install-vm-deps || echo "check-powercut: cannot install the VM's packages"
	$(MAKE) B=build-static LDFLAGS=-static build-static/tdat
	VM_POWERCUT="tdat:panic tdat:power tdat:panic tdat:power tdat:dump trace-cmd:panic trace-cmd:power" \
	  POWERCUT_RUNS=$(POWERCUT_RUNS) POWERCUT_MAX_LOSS=$(POWERCUT_MAX_LOSS) \
	  tests/vm/powercut $(B) build-static || [ $$? = 77 ]

# The fleet on Slurm (issue 51, tests/fleet/run): Debian's slurm-wlm and
# munge (installed when missing) brought up privately in a temporary
# directory, a controller and two nodes in network namespaces of their
# own; scripts/tdat-sbatch as a job array archives, exports and
# validates a tree of real recordings, one task cancelled mid-run and
# the array run again; the files, the dataset and the logs are checked
# against one machine's run.  Everything started is stopped on any end.
# Exits 77 (a skip, not a failure) when not root or the packages cannot
# be had.  About 2 minutes on 2 CPUs, most of it archiving at level 19.
check-fleet: deps all
	tests/fleet/run $(B) || [ $$? = 77 ]

# ---- other hosts: big-endian, 64-bit, 32-bit ----
# make cross ARCH=s390x|arm64|armhf builds tdat and the unit tests for
# ARCH into build-ARCH/ with Debian's cross compiler, against a sysroot
# of that architecture's Debian packages (scripts/cross-sysroot, in
# build-ARCH/sysroot/); scripts/cross-run runs what it made under
# qemu-user.  make check-cross builds all three and runs the unit tests
# and the end-to-end tests that need no live tracefs on each
# (tests/cross/run).
CROSS_ARCHS := s390x arm64 armhf
CROSS_TRIPLE_s390x := s390x-linux-gnu
CROSS_TRIPLE_arm64 := aarch64-linux-gnu
CROSS_TRIPLE_armhf := arm-linux-gnueabihf
ARCH ?=
XT = $(CROSS_TRIPLE_$(ARCH))
XSR = $(CURDIR)/build-$(ARCH)/sysroot/root
# A make of this Makefile with the cross compiler and the sysroot's
# pkg-config files.
XCC = $(XT)-gcc --sysroot=$(XSR)
XMAKE = PKG_CONFIG_LIBDIR=$(XSR)/usr/lib/$(XT)/pkgconfig:$(XSR)/usr/share/pkgconfig \
	PKG_CONFIG_SYSROOT_DIR=$(XSR) $(MAKE)
cross-sysroot:
	@[ -n "$(XT)" ] || { echo "make cross: ARCH=s390x, arm64 or armhf" >&2; exit 2; }
	scripts/install-deps --cross
	scripts/cross-sysroot $(ARCH) build-$(ARCH)/sysroot
cross: cross-sysroot
	$(XMAKE) CC="$(XCC)" B=build-$(ARCH) all build-$(ARCH)/unit-tests

# make cross-static ARCH=s390x|arm64: STATIC_B/tdat alone (default
# build-ARCH-static/), statically linked against the sysroot's .a files
# (the VM's recorder).  -B: the sysroot's own crt1.o, not the cross
# compiler's (libc6-dev-ARCH-cross, an older glibc): that one with the
# sysroot's libc.a crashes at start-up (in _dl_relocate_static_pie).
STATIC_B ?= build-$(ARCH)-static
cross-static: cross-sysroot
	$(XMAKE) CC="$(XCC) -B$(XSR)/usr/lib/$(XT)" B=$(STATIC_B) \
	  LDFLAGS=-static $(STATIC_B)/tdat

check-cross: deps
	$(MAKE) all $(TOOLS)
	for a in $(CROSS_ARCHS); do $(MAKE) cross ARCH=$$a || exit 1; done
	tests/cross/run $(B) $(CROSS_ARCHS)

# What CI affords of it (.ci/run): the unit tests and a few end-to-end
# tests (report and split: the byte layers) on all three.
CROSS_QUICK_E2E := 40-report 46-report-rawdata 46-report-pointers 60-split
check-cross-quick: deps
	$(MAKE) check-cross CROSS_E2E="$(CROSS_QUICK_E2E)"

# ---- fuzzing (clang, libFuzzer) ----
# One target per tests/fuzz/fuzz_NAME.c, built as build-fuzz/fuzz/fuzz_NAME
# from objects compiled with the fuzzer's coverage hooks; the other files
# of tests/fuzz/ are shared helpers.  Corpora: build-fuzz/corpus/NAME,
# seeded from fixtures/ (tests/fuzz/seed).  tests/fuzz/run runs them.
#   make fuzz [FUZZ_SECONDS=60] [FUZZ="fuzz_read fuzz_pages"]
#   make fuzz-short     20 s each (check-asan runs it)
#   make fuzz-coverage  line coverage of the corpora (tests/fuzz/coverage)
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(filter-out $(if $(filter 1,$(VMCORE)),,tests/fuzz/fuzz_vmcore.c),$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_HELPERS := $(filter-out $(wildcard tests/fuzz/fuzz_*.c),$(wildcard tests/fuzz/*.c))
FUZZ_HELPER_OBJ := $(FUZZ_HELPERS:%.c=$(B)/obj/%.o)
FUZZ     ?= $(FUZZ_TARGETS)
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
  -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# Engines and applets as archives: a target links only what it calls.
$(B)/libeng.a: $(ENG_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(B)/libcmd.a: $(CMD_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/fuzz/%: $(B)/obj/tests/fuzz/%.o $(FUZZ_HELPER_OBJ) $(B)/libcmd.a $(B)/libeng.a $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-build: deps
	scripts/install-deps --extra
	$(MAKE) B=build-fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" \
	  LDFLAGS="-fsanitize=fuzzer,address,undefined" \
	  $(FUZZ_TARGETS:%=build-fuzz/fuzz/%)
	$(MAKE) $(B)/tools/mkvariant $(B)/tools/mkfgraph $(B)/tools/mkfuzzseeds
	tests/fuzz/seed $(B) build-fuzz/corpus

fuzz: fuzz-build
	tests/fuzz/run build-fuzz $(FUZZ_SECONDS) $(FUZZ)

fuzz-short: fuzz-build
	tests/fuzz/run build-fuzz 20 $(FUZZ_TARGETS)

# Line coverage of the corpora, per target and file (build-cov/*.txt).
fuzz-coverage: deps
	$(MAKE) B=build-cov CC=clang \
	  CFLAGS="-O1 -g -fprofile-instr-generate -fcoverage-mapping -fsanitize=fuzzer-no-link" \
	  LDFLAGS="-fprofile-instr-generate -fsanitize=fuzzer" \
	  $(FUZZ_TARGETS:%=build-cov/fuzz/%)
	tests/fuzz/coverage build-cov build-fuzz/corpus $(FUZZ)

bench: all
	BUILD=$(B) bench/all.sh

demo: deps all
	scripts/demo $(B)

# What install puts where, so that uninstall removes exactly that.
MAN1 := $(notdir $(wildcard doc/*.1))
MAN5 := $(notdir $(wildcard doc/*.5))
COMPLETIONS := share/bash-completion/completions
INSTALL_DIRS := bin libexec/tdat share/man/man1 share/man/man5 $(COMPLETIONS)

install: all
	for d in $(INSTALL_DIRS); do install -d $(DESTDIR)$(PREFIX)/$$d; done
	install -m 755 $(B)/tdat $(DESTDIR)$(PREFIX)/bin/tdat
	for a in $(APPLETS); do ln -sf ../../bin/tdat $(DESTDIR)$(PREFIX)/libexec/tdat/$$a; done
	install -m 644 $(addprefix doc/,$(MAN1)) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(addprefix doc/,$(MAN5)) $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 644 scripts/tdat-completion.bash $(DESTDIR)$(PREFIX)/$(COMPLETIONS)/tdat

# With DESTDIR, the directories left empty go too (up to DESTDIR); on the
# live system only libexec/tdat, which is ours alone.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tdat $(DESTDIR)$(PREFIX)/$(COMPLETIONS)/tdat
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/libexec/tdat/,$(APPLETS))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(MAN1))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man5/,$(MAN5))
	-rmdir $(DESTDIR)$(PREFIX)/libexec/tdat 2>/dev/null
	if [ -n "$(DESTDIR)" ]; then \
	  for d in $(INSTALL_DIRS); do \
	    d=$(DESTDIR)$(PREFIX)/$$d; \
	    while [ "$$d" != "$(DESTDIR)" ]; do \
	      if [ -d "$$d" ]; then rmdir "$$d" 2>/dev/null || break; fi; \
	      d=$$(dirname "$$d"); done; \
	  done; \
	fi

clean:
	rm -rf build build-asan build-fuzz build-cov build-static build-vm \
	  build-vm-s390x build-vm-arm64 build-s390x-static build-arm64-static

.PHONY: all deps check check-asan check-asan-quick check-vm check-powercut check-fleet cross cross-sysroot cross-static check-cross check-cross-quick fuzz fuzz-build fuzz-short fuzz-coverage bench demo install uninstall clean

-include $(FMT_OBJ:.o=.d) $(ENG_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) \
         $(TOOL_SRC:tests/tools/%.c=$(B)/obj/tests/tools/%.d) \
         $(wildcard $(B)/obj/tests/fuzz/*.d)
.SECONDARY:
