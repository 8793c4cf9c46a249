# SPDX-License-Identifier: MIT
# qosgen: `make` builds build/qosgen; `make demo` and `make test` set up a
# fresh Debian 12 machine first (scripts/setup.sh). See README.md.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=
BUILD ?= build
CC ?= cc
PKG_CONFIG ?= pkg-config

# Libraries by pkg-config name, and the Debian package that ships each.
PKG_QOSGEN := yaml-0.1 libcjson libxml-2.0 libcrypto libssh libibverbs librdmacm libcurl
PKG_TEST := cmocka
DEB_yaml-0.1 := libyaml-dev
DEB_libcjson := libcjson-dev
DEB_libxml-2.0 := libxml2-dev
DEB_libcrypto := libssl-dev
DEB_libssh := libssh-dev
DEB_libibverbs := libibverbs-dev
DEB_librdmacm := librdmacm-dev
DEB_libcurl := libcurl4-openssl-dev
DEB_cmocka := libcmocka-dev

# `make demo`, `make test` and `make bench` install what is missing first
# (scripts/setup.sh) and then build in a sub-make: the flags below run
# pkg-config when make reads this file, so they must be read after the
# install, never before it (a set with one missing package prints nothing,
# and every object would be compiled without its include paths).
SETUP_GOALS := setup demo sim-start sim-stop test bench fresh-check clean
BUILD_GOALS := $(filter-out $(SETUP_GOALS),$(or $(MAKECMDGOALS),all))
# The test binaries need cmocka too; qosgen itself does not.
NEED_TEST := $(filter test-run unit $(BUILD)/tests/%,$(BUILD_GOALS))
ifneq ($(BUILD_GOALS),)
QG_NEED := $(PKG_QOSGEN) $(if $(NEED_TEST),$(PKG_TEST))
QG_MISSING := $(shell command -v $(PKG_CONFIG) >/dev/null 2>&1 || { echo pkg-config; exit 0; }; \
	for p in $(QG_NEED); do $(PKG_CONFIG) --exists $$p || echo $$p; done)
ifeq ($(QG_MISSING),pkg-config)
$(error pkg-config is missing: apt-get install pkg-config (or run 'make setup', which installs everything))
else ifneq ($(QG_MISSING),)
$(error missing libraries: $(QG_MISSING): apt-get install $(foreach p,$(QG_MISSING),$(DEB_$(p))) (or run 'make setup', which installs everything))
endif
ifeq ($(shell command -v $(CC) 2>/dev/null),)
$(error no C compiler '$(CC)': apt-get install gcc (or run 'make setup', which installs everything))
endif
endif

CFLAGS ?= -O2 -g
# -Wno-format-truncation: snprintf into bounded buffers is how diagnostic paths
# are cut on purpose; paths that must not be cut check snprintf's result.
WARNINGS := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes -Wvla \
	-Wno-format-truncation
ifneq ($(BUILD_GOALS),)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKG_QOSGEN))
QG_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARNINGS) -MMD -MP $(PKG_CFLAGS) \
	$(if $(NEED_TEST),$(shell $(PKG_CONFIG) --cflags $(PKG_TEST)))
QG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKG_QOSGEN))
TEST_LIBS := $(if $(NEED_TEST),$(shell $(PKG_CONFIG) --libs $(PKG_TEST)))
endif

# SAN=1: AddressSanitizer + UndefinedBehaviorSanitizer, stopping at the first report.
# float-cast-overflow is not part of GCC's "undefined": a peer's 1e300 cast to
# int must stop the run too.
ifeq ($(SAN),1)
QG_CFLAGS += -O1 -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
QG_LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif

TEMPLATES := $(sort $(wildcard templates/*.in))
# The library, layer by layer from the bottom (docs/architecture.md; tests/core/layers.sh).
LAYERS := lib model intent emit
LIB_SRCS := $(sort $(foreach d,$(LAYERS),$(wildcard $(d)/*.c)) $(wildcard targets/*.c) $(wildcard targets/*/*.c) $(wildcard transport/*.c) \
	$(wildcard verbs/*.c) $(wildcard vsphere/*.c) $(wildcard push/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/model/templates_builtin.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# The compiler core and the two pure targets the core-only test builds with
# (tests/core/): linked with libyaml, cJSON and libcrypto alone, so a core
# that reached for libssh, libcurl or libxml2 would not link.
CORE_SRCS := $(sort $(foreach d,$(LAYERS),$(wildcard $(d)/*.c))) targets/onyx/onyx.c targets/onyx/onyx_config.c \
	targets/onyx/onyx_parse.c targets/onyx/onyx_judge.c targets/onyx/onyx_diff.c \
	targets/onyx/onyx_restore.c targets/onyx/onyx_version.c \
	targets/onyx/onyx_text.c targets/onyx/onyx_ports.c targets/host/linux.c \
	targets/common/host_script.c
PKG_CORE := yaml-0.1 libcjson libcrypto
UNIT_BINS += $(BUILD)/tests/test_core_only
E2E_SRCS := $(sort $(wildcard tests/e2e/*.c))
E2E_BINS := $(E2E_SRCS:tests/e2e/%.c=$(BUILD)/tests/e2e_%)

.PHONY: all setup demo demo-run sim-start sim-start-run sim-stop test test-run unit golden golden-update fuzz fuzz-build bench \
	bench-run fresh-check install clean schema

all: $(BUILD)/qosgen $(BUILD)/tools/intent-schema

# `make setup` installs everything; `make demo` only what building needs.
setup:
	@sh scripts/setup.sh test

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(QG_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARNINGS) $(CFLAGS) $< -o $@

$(BUILD)/model/templates_builtin.c: $(TEMPLATES) $(BUILD)/tools/embed
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed $@ $(foreach t,$(TEMPLATES),$(patsubst templates/%.in,%,$(t))=$(t))

$(BUILD)/model/templates_builtin.o: $(BUILD)/model/templates_builtin.c
	$(CC) $(QG_CFLAGS) -Imodel $(CFLAGS) -c $< -o $@

$(BUILD)/libqosgen.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# The command line: main.c's table, cli.c's shared parts, one cmd_*.c per group of commands.
CLI_SRCS := $(sort $(wildcard cli/*.c))
$(BUILD)/qosgen: $(CLI_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/libqosgen.a
	$(CC) $(QG_LDFLAGS) $(LDFLAGS) $^ $(QG_LIBS) -lpthread -o $@

# The intent's JSON Schema and the man page's key list, from the key table (model/keys.c):
# tests/schema/run.sh checks docs/intent.schema.json and docs/qosgen.1 against it.
$(BUILD)/tools/intent-schema: $(BUILD)/tools/intent_schema.o $(BUILD)/libqosgen.a
	$(CC) $(QG_LDFLAGS) $(LDFLAGS) $^ $(QG_LIBS) -lpthread -o $@

# `make schema` rewrites both from the key table (a target's key rows and platform
# name are in it): commit them with the change (docs/targets.md, adding a target).
# Written to a temporary file first, so a failing tool leaves the docs as they were.
schema: $(BUILD)/tools/intent-schema
	$(BUILD)/tools/intent-schema >$(BUILD)/intent.schema.json
	$(BUILD)/tools/intent-schema --man >$(BUILD)/keys.man
	awk -v keys=$(BUILD)/keys.man '/^\.\\" END KEYS/ { while ((getline l <keys) > 0) print l; skip = 0 } \
		!skip { print } /^\.\\" BEGIN KEYS/ { skip = 1 }' docs/qosgen.1 >$(BUILD)/qosgen.1
	cat $(BUILD)/intent.schema.json >docs/intent.schema.json
	cat $(BUILD)/qosgen.1 >docs/qosgen.1

# The Onyx CLI simulator, a test tool (tests/sim/); it shares no code with qosgen.
$(BUILD)/tests/onyx-sim: tests/sim/onyx_sim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARNINGS) $(CFLAGS) $(QG_LDFLAGS) $< -o $@

# LD_PRELOAD fault injection for the e2e SSH test; never built with sanitizers
# (it is preloaded into the ASan binaries too).
$(BUILD)/tests/slow_pub_write.so: tests/e2e/shim/slow_pub_write.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARNINGS) -O2 -shared -fPIC $< -ldl -lpthread -o $@

$(BUILD)/tests/e2e_%: tests/e2e/%.c $(BUILD)/libqosgen.a
	@mkdir -p $(dir $@)
	$(CC) $(QG_CFLAGS) $(CFLAGS) $< $(BUILD)/libqosgen.a \
		$(QG_LDFLAGS) $(LDFLAGS) $(QG_LIBS) $(TEST_LIBS) -o $@

$(BUILD)/tests/test_core_only: tests/core/test_core_only.c $(CORE_SRCS:%.c=$(BUILD)/%.o) \
		$(BUILD)/model/templates_builtin.o
	@mkdir -p $(dir $@)
	$(CC) $(QG_CFLAGS) $(CFLAGS) $^ $(QG_LDFLAGS) $(LDFLAGS) \
		$(shell $(PKG_CONFIG) --libs $(PKG_CORE)) $(TEST_LIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libqosgen.a
	@mkdir -p $(dir $@)
	$(CC) $(QG_CFLAGS) $(CFLAGS) -DQG_SOURCE_DIR='"$(CURDIR)"' $< $(BUILD)/libqosgen.a \
		$(QG_LDFLAGS) $(LDFLAGS) $(QG_LIBS) $(TEST_LIBS) -lpthread -o $@

# The builds after an install run as many jobs as the machine has cores,
# unless make was given -j itself (then its jobserver is shared).
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

# The demo drives simulated switches and hosts (scripts/simfabric.sh), so it
# needs their packages too: setup.sh's demo level.
demo:
	@sh scripts/setup.sh demo
	@$(MAKE) --no-print-directory $(JOBS) demo-run

demo-run: all $(BUILD)/tests/onyx-sim
	@QG_BUILD=$(BUILD) sh scripts/demo.sh $(BUILD)/qosgen

# The demo's fabric in sim-fabric/, kept running for the user's own commands.
sim-start:
	@sh scripts/setup.sh demo
	@$(MAKE) --no-print-directory $(JOBS) sim-start-run

sim-start-run: all $(BUILD)/tests/onyx-sim
	@QG_BUILD=$(BUILD) sh scripts/simfabric.sh start

sim-stop:
	@sh scripts/simfabric.sh stop

test: setup
	@$(MAKE) --no-print-directory $(JOBS) test-run

# Every test: unit and golden, then both again under ASan+UBSan, then a short fuzz run.
test-run: all $(UNIT_BINS) $(E2E_BINS) $(BUILD)/tests/onyx-sim $(BUILD)/tests/slow_pub_write.so
	@$(MAKE) --no-print-directory SAN=1 BUILD=$(BUILD)/asan $(BUILD)/asan/qosgen \
		$(UNIT_BINS:$(BUILD)/%=$(BUILD)/asan/%) $(E2E_BINS:$(BUILD)/%=$(BUILD)/asan/%) \
		$(BUILD)/asan/tests/onyx-sim $(BUILD)/asan/tests/slow_pub_write.so
	@$(MAKE) --no-print-directory fuzz-build
	@sh tests/run.sh $(BUILD)

unit: all $(UNIT_BINS)
	@QG_ONLY=unit sh tests/run.sh $(BUILD)

golden: all
	@QG_ONLY=golden sh tests/run.sh $(BUILD)

golden-update: all $(BUILD)/tests/onyx-sim
	@sh tests/golden/update.sh $(BUILD)/qosgen
	@QG_UPDATE=1 sh tests/onyx/run.sh $(BUILD)/qosgen $(BUILD)/tests/onyx-sim

# libFuzzer needs clang. The library is compiled once for all the fuzz
# targets, with their coverage instrumentation and sanitizers
# (-fsanitize=fuzzer-no-link), in $(BUILD)/fuzz/obj/; each target links its
# own file, compiled with -fsanitize=fuzzer (libFuzzer's main), against those.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all $(PKG_CFLAGS)
FUZZ_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o) $(BUILD)/fuzz/obj/model/templates_builtin.o
# Kept, not removed as intermediates: the next fuzz-build reuses them.
.SECONDARY: $(FUZZ_OBJS)
# One target per untrusted input (the intent, each kind of device answer):
# tests/fuzz/fuzz_NAME.c, its seeds in tests/fuzz/corpus-NAME/, and an
# optional dictionary tests/fuzz/NAME.dict (NAME's underscores as dashes).
# tests/run.sh runs every one.
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -Imodel -c $< -o $@

$(BUILD)/fuzz/obj/model/templates_builtin.o: $(BUILD)/model/templates_builtin.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Imodel -c $< -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -Imodel $^ $(QG_LIBS) -o $@

FUZZ_SECONDS ?= 300
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do n=$$(echo $${t#fuzz_} | tr _ -); mkdir -p $(BUILD)/fuzz/corpus-$$n; \
		d=; [ -f tests/fuzz/$$n.dict ] && d=-dict=tests/fuzz/$$n.dict; \
		$(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=8192 $$d \
			$(BUILD)/fuzz/corpus-$$n tests/fuzz/corpus-$$n || exit 1; done

# Benchmarks print their figures and ratios against a baseline run in the same
# invocation; they are not part of `make test`.
bench: setup
	@$(MAKE) --no-print-directory bench-run

bench-run: all $(BUILD)/tests/onyx-sim
	@sh bench/build.sh $(BUILD)
	@sh bench/push.sh $(BUILD)
	@sh bench/nvue_readback.sh $(BUILD)
	@sh bench/verify.sh $(BUILD)
	@sh bench/sonic_readback.sh $(BUILD)
	@sh bench/sonic_ports.sh $(BUILD)

# The README's two commands in a fresh Debian 12 root (needs root; .ci/run runs it).
fresh-check:
	@sh tests/fresh/run.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BUILD)/qosgen $(DESTDIR)$(BINDIR)/qosgen
	install -m 0644 docs/qosgen.1 $(DESTDIR)$(MANDIR)/man1/qosgen.1

clean:
	rm -rf $(BUILD) demo-out

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
