# SPDX-License-Identifier: GPL-2.0-or-later
# tdat - one plain Makefile.
#   make            build/tdat, the applet symlinks beside it, build/libfmt.a
#   make check      install missing packages, build, run every test
#   make check-asan the tests again under AddressSanitizer + UBSan
#   make check-vm   recordings in a VM booting Debian's kernel (tests/vm/)
#   make fuzz       libFuzzer target for the reader (clang)
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
LDLIBS  += -lzstd -lz $(shell pkg-config --libs libtraceevent 2>/dev/null || echo -ltraceevent) -lpthread -ldl
PREFIX  ?= /usr/local
B       ?= build

APPLETS := record report split merge restore convert check-events dump

# libfmt: the format library, built alone as libfmt.a.  Engines: one
# folder of convert/ each.  Applets: cmds/, one file each.
FMT_SRC  := $(wildcard libfmt/*.c)
ENG_SRC  := $(wildcard convert/*/*.c)
CMD_SRC  := $(wildcard cmds/*.c)
MAIN_SRC := multicall/main.c
UNIT_SRC := $(wildcard tests/unit/*.c)
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

$(B)/tdat: $(MAIN_OBJ) $(CMD_OBJ) $(ENG_OBJ) $(LIBFMT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
	FIXTURES=fixtures $(B)/unit-tests
	tests/e2e/run $(B)

check-asan: deps
	scripts/install-deps --extra
	$(MAKE) B=build-asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" all build-asan/unit-tests \
	  $(TOOL_SRC:tests/tools/%.c=build-asan/tools/%)
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp FIXTURES=fixtures build-asan/unit-tests
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp TDAT_SANITIZED=1 tests/e2e/run build-asan

# The VM test bed: a statically linked tdat goes into the VM's initramfs;
# tests/vm/run exits 77 (a skip, not a failure) when qemu or the kernel
# cannot be had.
VM_B ?= build-static
check-vm: deps all
	scripts/install-vm-deps || echo "check-vm: cannot install the VM's packages"
	$(MAKE) B=$(VM_B) LDFLAGS=-static $(VM_B)/tdat
	tests/vm/run $(B) $(VM_B) || [ $$? = 77 ]

FUZZ_SRC := tests/fuzz/fuzz_read.c
fuzz: deps
	scripts/install-deps --extra
	$(MAKE) B=build-fuzz CC=clang \
	  CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" \
	  build-fuzz/libfmt.a
	clang -O1 -g -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o build-fuzz/fuzz_read \
	  $(FUZZ_SRC) build-fuzz/libfmt.a $(LDLIBS)
	# Seeds: every fixture made small (no kallsyms, 2 pages per CPU), as
	# is and as a big-endian 32-bit-kernel variant (tests/tools/mkvariant).
	$(MAKE) $(B)/tools/mkvariant
	mkdir -p build-fuzz/corpus
	for f in fixtures/*.dat; do n=$${f##*/}; \
	  $(B)/tools/mkvariant --small $$f build-fuzz/corpus/small-$$n && \
	  $(B)/tools/mkvariant --small --big-endian --long4 $$f \
	    build-fuzz/corpus/small-be-long4-$$n || exit 1; done
	build-fuzz/fuzz_read -max_total_time=$${FUZZ_SECONDS:-60} -max_len=131072 \
	  -rss_limit_mb=512 -artifact_prefix=build-fuzz/ build-fuzz/corpus

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
	rm -rf build build-asan build-fuzz build-static build-vm

.PHONY: all deps check check-asan check-vm fuzz demo install uninstall clean

-include $(FMT_OBJ:.o=.d) $(ENG_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) \
         $(TOOL_SRC:tests/tools/%.c=$(B)/obj/tests/tools/%.d)
.SECONDARY:
