# annabella: build, tests, demo, benchmarks.  GNU make.
#
# Every *.c file in the layer folders goes into one static library; the two
# programs and each test are linked against it, so adding a module needs no
# change here.  main_*.c files are programs, not library code.

SHELL := /bin/bash
CC ?= cc
PKG_CONFIG ?= pkg-config

# Cross builds for the Pi: make CROSS=aarch64-linux-gnu (arm64) or CROSS=arm-linux-gnueabihf
# (armhf) builds into build-ARCH with Debian's cross compiler.  The target's libraries come
# from the sysroot that make deps-cross unpacks (tools/cross/sysroot.sh), or, where there is
# none (or with SYSROOT= given empty), from Debian multiarch: dpkg --add-architecture ARCH and
# the -dev packages as :ARCH.
CROSS_CACHE ?= $(HOME)/.cache/annabella-cross
CROSS_ARCH_aarch64-linux-gnu := arm64
CROSS_ARCH_arm-linux-gnueabihf := armhf
ifneq ($(CROSS),)
CROSS_ARCH := $(or $(CROSS_ARCH_$(CROSS)),$(shell dpkg-architecture -t$(CROSS) -qDEB_HOST_ARCH 2>/dev/null))
BUILD ?= build-$(CROSS_ARCH)
SYSROOT ?= $(wildcard $(CROSS_CACHE)/$(CROSS_ARCH)/root)
AR := $(CROSS)-ar
ifneq ($(SYSROOT),)
CC := $(CROSS)-gcc --sysroot=$(SYSROOT)
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig pkg-config
else
CC := $(CROSS)-gcc
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
endif
BUILD ?= build
VERSION := 0.13.1
# Installation (make install DESTDIR=... PREFIX=...).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
sysconfdir ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
MANDIR ?= $(PREFIX)/share/man
EXAMPLESDIR ?= $(PREFIX)/share/doc/annabella/examples
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# Quiet by default; V=1 shows the commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif

LAYERS := base chess game referee host control gpio clockface voice braille config store daemon net cli
PKGS := libgpiod espeak-ng alsa inih opus ogg

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wcast-qual -Wcast-align -Wundef -Wvla -Wimplicit-fallthrough -Wformat=2
ifneq ($(CI),)
WARN += -Werror
endif

ifneq ($(CROSS),)
ifeq ($(filter deps-cross cross-check clean,$(MAKECMDGOALS)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(PKGS) && echo ok),ok)
$(error CROSS=$(CROSS): pkg-config finds no $(CROSS_ARCH) libraries ($(PKGS)); make deps-cross \
	unpacks them into $(CROSS_CACHE)/$(CROSS_ARCH), or install them as :$(CROSS_ARCH) with SYSROOT=)
endif
endif
endif

# libgpiod v1 (Debian 12) or v2 (Raspberry Pi OS trixie): one source file, two APIs.
GPIOD_V2 := $(shell $(PKG_CONFIG) --atleast-version=2.0 libgpiod 2>/dev/null && echo 1 || echo 0)

OPT ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -I. -DANNABELLA_GPIOD_V2=$(GPIOD_V2) \
	-DANNABELLA_VERSION='"$(VERSION)"'
CFLAGS += -std=c17 $(OPT) $(WARN) -pthread $(EXTRA_CFLAGS)
# The networked helpers (annabella web, broadcast, relay: "The web page for the assistant and
# the arbiter" and "Live broadcast and the room relay" in the README) and online play
# (`annabella online`, docs/online.md "Playing online": Debian's libcurl) are linked into the
# `annabella` tool only: the daemon never opens a network socket.
NET_PKGS := libmicrohttpd libmosquitto zlib libcurl gnutls
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(NET_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
NET_LIBS := $(shell $(PKG_CONFIG) --libs $(NET_PKGS) 2>/dev/null)
LDLIBS += $(PKG_LIBS) -lbrlapi -lpthread -lm
TEST_LIBS := -lcmocka

LIB_SRC := $(filter-out %/main_annabellad.c %/main_annabella.c,$(wildcard $(addsuffix /*.c,$(LAYERS))))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libannabella.a

TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_SUPPORT := $(wildcard tests/unit/support_*.c)

# The live braille display against a real BRLTTY (tests/check-brltty.sh, make brltest).
BRLTEST := $(BUILD)/tests/brltest

# Who can still checkmate (chess/mate.c) against an independent retrograde analysis
# (tests/mate/, tests/check-mate.sh).
MATEPROOF := $(BUILD)/tests/mateproof
# ... and on the public classified sets, real games' positions included (tests/check-mate.sh,
# tests/bench-mate.sh).
MATESET := $(BUILD)/tests/mateset

BENCH_SRC := $(wildcard tests/bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)
# A sound card that plays in real time for the benchmarks: an ALSA plugin
# (tests/bench/pcm_paced.c).
BENCH_BIN += $(BUILD)/bench/libasound_module_pcm_paced.so

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_SECONDS ?= 5

PROGRAMS := $(BUILD)/annabellad $(BUILD)/annabella

.PHONY: package pkgtest trixie-check fresh-check pipewire-check
.PHONY: valgrind
.PHONY: codes-doc guides
.PHONY: all deps deps-runtime deps-cross cross-check check tests checks brltest unit regress vmtest regress-update speech-samples san tsan lint format bench bench-quick demo fuzz clean torture install
.DEFAULT_GOAL := all

all: $(PROGRAMS)

# The files that say the version are made again when it changes (a stamp named for it).
VERSION_STAMP := $(BUILD)/obj/.version-$(VERSION)
$(VERSION_STAMP):
	@mkdir -p $(@D)
	@rm -f $(BUILD)/obj/.version-*
	@touch $@
$(addprefix $(BUILD)/obj/,$(addsuffix .o,daemon/annabellad_sources daemon/main_annabellad \
	cli/lichess cli/cli_seal cli/main_annabella)): $(VERSION_STAMP)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/annabellad: $(BUILD)/obj/daemon/main_annabellad.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The web page's and the relay page's files (web/), built into the tool.
WEB_FILES := $(sort $(wildcard web/*))
$(BUILD)/gen/assets.c: $(WEB_FILES) tools/gen-assets.sh
	@mkdir -p $(@D)
	$(Q)tools/gen-assets.sh $@ $(WEB_FILES)

$(BUILD)/obj/gen/assets.o: $(BUILD)/gen/assets.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/annabella: $(BUILD)/obj/cli/main_annabella.o $(BUILD)/obj/gen/assets.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(NET_LIBS) -lreadline

# The tests' support files are compiled on their own, each with its own dependency file (one
# compiler run over several sources writes only the last one's headers into -MF).
TEST_SUPPORT_OBJ := $(TEST_SUPPORT:%.c=$(BUILD)/obj/%.o)
.SECONDARY: $(TEST_SUPPORT_OBJ)
$(BUILD)/obj/tests/unit/support_%.o: tests/unit/support_%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(TEST_SUPPORT_OBJ) $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(TEST_SUPPORT_OBJ) $(LIB) $(TEST_LIBS) $(LDLIBS) $(NET_LIBS)

$(BRLTEST): tests/brltty/brltest.c $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(MATEPROOF): tests/mate/mateproof.c tests/mate/retro.c $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -MF $@.d $(LDFLAGS) -o $@ tests/mate/mateproof.c tests/mate/retro.c $(LIB) $(LDLIBS)

$(MATESET): tests/mate/mateset.c tests/mate/retro.c $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -MF $@.d $(LDFLAGS) -o $@ tests/mate/mateset.c tests/mate/retro.c $(LIB) $(LDLIBS)

$(BUILD)/bench/libasound_module_pcm_paced.so: tests/bench/pcm_paced.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -Wno-missing-prototypes -fPIC -DPIC -shared -MMD -MP \
		-MF $@.d $(LDFLAGS) -o $@ $< $(shell $(PKG_CONFIG) --libs alsa)

$(BUILD)/bench/%: tests/bench/%.c $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC LD   $@")
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# ---------------------------------------------------------------- install
# The programs, the service (its ExecStart pointed at BINDIR), the users and groups it runs
# as (systemd-sysusers), the udev rule for the GPIO chips, and the configuration (kept if
# one is there already).
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(sysconfdir)/annabella \
		$(DESTDIR)$(sysconfdir)/annabella/annabella.conf.d
	install -m 0755 $(BUILD)/annabellad $(BUILD)/annabella $(DESTDIR)$(BINDIR)/
	for u in configs/systemd/*.service; do \
		sed -e 's|/usr/bin/annabella|$(BINDIR)/annabella|' \
			-e 's|/etc/annabella/|$(sysconfdir)/annabella/|' $$u \
			>$(DESTDIR)$(SYSTEMDUNITDIR)/$${u##*/} || exit 1; \
	done
	install -m 0644 configs/systemd/annabella.sysusers $(DESTDIR)$(SYSUSERSDIR)/annabella.conf
	install -d $(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man8
	install -m 0644 configs/systemd/annabella.tmpfiles $(DESTDIR)$(TMPFILESDIR)/annabella.conf
	install -m 0644 man/annabella.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/annabella.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/annabellad.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 configs/udev/60-annabella-gpio.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -d $(DESTDIR)$(EXAMPLESDIR)/mosquitto
	install -m 0644 configs/mosquitto/annabella.conf configs/mosquitto/annabella.acl \
		$(DESTDIR)$(EXAMPLESDIR)/mosquitto/
	[ -e $(DESTDIR)$(sysconfdir)/annabella/annabella.conf ] || \
		install -m 0640 configs/annabella.conf $(DESTDIR)$(sysconfdir)/annabella/annabella.conf
	[ -e $(DESTDIR)$(sysconfdir)/annabella/relay.conf ] || \
		install -m 0644 configs/relay.conf $(DESTDIR)$(sysconfdir)/annabella/relay.conf
	# The web page's certificate, made on this machine (never into a package: each device
	# has its own key).
	[ -n "$(DESTDIR)" ] || $(BINDIR)/annabella web certificate $(sysconfdir)/annabella

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- packages
# Everything above this line builds or installs what the package installs: a change there is
# a change to the package, which needs a new version (tools/pkg/manifest.sh,
# tests/check-package.sh).
#
# What building and running the daemon and the demo need (also on Raspberry Pi OS bookworm
# or trixie): the compiler, the libraries that debian/control's Build-Depends names (
# tests/check-package.sh holds the two together) and the tools the device uses.
DEB_RUNTIME := build-essential pkg-config libgpiod-dev gpiod libespeak-ng-dev espeak-ng-data \
	libopus-dev libogg-dev libasound2-dev alsa-utils libinih-dev libbrlapi-dev libreadline-dev \
	libmicrohttpd-dev libmosquitto-dev zlib1g-dev libcurl4-openssl-dev libgnutls28-dev
# What the unit tests and the golden replays need besides (make unit regress: cmocka, the
# process engine's espeak-ng, the UCI test's Stockfish, the damage scripts' Python); make
# trixie-check's build tree has them too.
DEB_UNIT := libcmocka-dev espeak-ng stockfish python3
# The sanitizer runtime's package is named per release (Debian 12: clang 14's).
SAN_RUNTIME := $(shell . /etc/os-release 2>/dev/null; \
	[ "$$VERSION_CODENAME" = bookworm ] && echo libclang-rt-14-dev || echo libclang-rt-dev)
# What the tests and benchmarks need, from Debian 12 or 13.
DEB_PACKAGES := $(DEB_RUNTIME) $(DEB_UNIT) pgn-extract clang $(SAN_RUNTIME) cppcheck \
	clang-format valgrind time brltty systemd mosquitto mosquitto-clients chromium \
	chromium-driver python3-selenium openssl curl nodejs python3-jsonschema python3-yaml \
	pocketsphinx pocketsphinx-en-us

# What building the package needs besides DEB_RUNTIME (debhelper stands for debhelper-compat
# and dh-sequence-* of Build-Depends), and systemd.pc, where the units go (systemd-dev from
# Debian 13 on).
DEB_PACKAGE := dpkg-dev debhelper fakeroot lintian
SYSTEMD_PC_PKG := $(shell . /etc/os-release 2>/dev/null; \
	[ "$$VERSION_CODENAME" = bookworm ] && echo systemd || echo systemd-dev)
# The package's tests and the fresh machines: Debian trees made with mmdebstrap and booted
# with systemd-nspawn.
DEB_TREES := mmdebstrap systemd-container arch-test

# The Debian package (../annabella_VERSION_ARCH.deb), built from a copy of the tree (so the
# other builds here are left alone) and checked by lintian (tools/pkg/build.sh); and its
# test: installed into a Debian 12 tree booted with systemd (tests/pkg/run.sh).
package:
	@tools/deps.sh $(DEB_RUNTIME) $(DEB_PACKAGE) $(SYSTEMD_PC_PKG)
	@tools/pkg/build.sh ..

pkgtest:
	@tools/deps.sh $(DEB_RUNTIME) $(DEB_PACKAGE) $(SYSTEMD_PC_PKG) $(DEB_TREES)
	@tests/pkg/run.sh

# Debian 13 (trixie), amd64 and arm64: built, tested, packaged, lintian clean, installed into
# trees booted with systemd (arm64 under Debian 13's qemu-user); tests/trixie/run.sh.  The
# trees are made once with mmdebstrap and cached in ~/.cache/annabella-trixie.
trixie-check:
	@tools/deps.sh $(DEB_TREES)
	@tests/trixie/run.sh

# make check as a newcomer runs it: in a fresh Debian 12 tree booted with systemd, the
# repository cloned into a sudo user's home (0700), as that user; tests/fresh/run.sh.
fresh-check:
	@tools/deps.sh $(DEB_TREES) git
	@tests/fresh/run.sh

deps:
	@tools/deps.sh $(DEB_PACKAGES)

# Cross builds (make CROSS=...) and their tests under qemu-user: the cross compilers and
# qemu on this machine, the target's libraries in a sysroot per architecture (see
# tools/cross/sysroot.sh), the binfmt_misc entries that let the tests run ARM programs.
DEB_CROSS := gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf binutils-aarch64-linux-gnu \
	binutils-arm-linux-gnueabihf qemu-user-static binfmt-support dpkg-dev pkg-config
CROSS_LIBS := libgpiod-dev libespeak-ng-dev libopus-dev libogg-dev libasound2-dev libinih-dev \
	libbrlapi-dev libreadline-dev libcmocka-dev libmicrohttpd-dev libmosquitto-dev zlib1g-dev \
	espeak-ng-data libcurl4-openssl-dev libgnutls28-dev
deps-cross:
	@tools/deps.sh $(DEB_CROSS)
	@tools/cross/sysroot.sh arm64 $(CROSS_CACHE)/arm64 $(CROSS_LIBS)
	@tools/cross/sysroot.sh armhf $(CROSS_CACHE)/armhf $(CROSS_LIBS)
	@tools/cross/binfmt.sh aarch64 arm

# Both architectures built, unit-tested and replayed under qemu-user, and the demo compared
# byte for byte with the native one (tests/cross/check.sh).
cross-check: deps deps-cross
	@tests/cross/check.sh

deps-runtime:
	@tools/deps.sh $(DEB_RUNTIME)

# ---------------------------------------------------------------- tests
check: deps
	@$(MAKE) --no-print-directory all tests
	@$(MAKE) --no-print-directory unit regress checks

tests: $(TEST_BIN) $(PROGRAMS) $(BENCH_BIN) $(BRLTEST) $(MATEPROOF) $(MATESET)

# Script checks (tests/check-*.sh BUILD): differential tests against Stockfish and
# pgn-extract, whole-game replays through the daemon.
checks: $(PROGRAMS) $(TEST_BIN) $(BENCH_BIN) $(BRLTEST) $(MATEPROOF) $(MATESET)
	@tests/run-checks.sh $(BUILD)

brltest: $(BRLTEST)
	@tests/check-brltty.sh $(BUILD)

unit: $(TEST_BIN)
	@tests/run-unit.sh $(TEST_BIN)

regress: $(PROGRAMS)
	@tests/regress/run.sh $(BUILD)

regress-update: $(PROGRAMS)
	@tests/regress/run.sh $(BUILD) --update
	@REGRESS_UPDATE=1 tests/check-scoresheet.sh $(BUILD)
	@REGRESS_UPDATE=1 tests/check-speech.sh $(BUILD)

# The table of reply codes in docs/control.md, made again from the code's table after a change
# to game/replies.c (tests/check-codes.sh fails while it differs).
codes-doc: $(BUILD)/annabella
	@$(BUILD)/annabella codes | python3 tools/gen-codes-doc.py docs/control.md

# The printable one-page guides to the clock (docs/guide/clock.LANG.txt) in braille for an
# embosser, made again after a change of a guide's text (tests/check-scoresheet.sh fails while
# one differs).
guides: $(BUILD)/annabella
	@for t in docs/guide/clock.*.txt; do $(BUILD)/annabella brf "$$t" >"$${t%.txt}.brf"; done

# The listening kit: one WAV per phrase and language, and an index page to review them.
# SPEECH_VOICES="de=mb-de7": said by those voices ([voice] voice-de), to hear them first.
SPEECH_SAMPLES ?= $(BUILD)/speech-samples
SPEECH_VOICES ?=
speech-samples: $(BUILD)/annabella
	@$(BUILD)/annabella speech-samples $(foreach v,$(SPEECH_VOICES),--voice $(v)) \
		$(SPEECH_SAMPLES)

san: deps
	@$(MAKE) --no-print-directory BUILD=build-san OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" all tests
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) --no-print-directory BUILD=build-san OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" unit regress brltest
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/check-web.sh build-san
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/check-mqtt.sh build-san
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/check-room.sh build-san
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/check-privacy.sh build-san

tsan: deps
	@$(MAKE) --no-print-directory BUILD=build-tsan CC=clang OPT="-O1 -g" \
		EXTRA_CFLAGS="-fsanitize=thread" LDFLAGS="-fsanitize=thread" \
		build-tsan/tests/test_voice_thread build-tsan/tests/brltest
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_voice_thread
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/brltest
	@$(MAKE) --no-print-directory BUILD=build-tsan CC=clang OPT="-O1 -g" \
		EXTRA_CFLAGS="-fsanitize=thread" LDFLAGS="-fsanitize=thread" build-tsan/annabella \
		build-tsan/annabellad
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" tests/check-web.sh build-tsan
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" tests/check-mqtt.sh build-tsan
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" tests/check-room.sh build-tsan

# Our C sources (no git needed: a source tarball lints the same).
FORMAT_SRC = $(shell find $(LAYERS) tests -name '*.[ch]' -not -path '*/corpus/*' | sort)

format:
	clang-format -i $(FORMAT_SRC)

lint: deps
	@tests/lint-layers.sh && echo "lint: layers clean"
	@tests/lint-references.sh && echo "lint: references clean"
	@clang-format --dry-run --Werror $(FORMAT_SRC) && echo "lint: clang-format clean"
	@cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr --suppress=missingIncludeSystem -D_GNU_SOURCE -DANNABELLA_GPIOD_V2=0 \
		-I. $(LAYERS) && echo "lint: cppcheck clean"

# The gpiod backend against a real kernel's GPIO character device: a small kernel with
# gpio-sim (built once and cached) under QEMU.  See tests/vm/README.md.
# Then again built against libgpiod 2.x (from bookworm-backports on Debian 12).
vmtest: $(BUILD)/annabellad
	@tests/vm/run.sh $(BUILD)
	@tests/vm/gpiod2.sh $(BUILD)-gpiod2

# Crash safety at full size: a power cut after every action of a fast-played game, 200
# flipped bytes and 200 cuts of a long game's journal, and the recovery torture test with
# TORTURE_TRIALS (100) trials of each kind of damage (tests/check-crash.sh,
# tests/check-recovery.sh and tests/check-torture.sh run smaller in make check); who can
# still checkmate, proven for every material of five men and the public sets' "never"
# answers enumerated up to 300,000 positions each (tests/check-mate.sh runs up to four men
# and one of five, and 20,000).
# The unit tests and the golden replays under valgrind's memcheck.
valgrind: deps
	@$(MAKE) --no-print-directory all tests
	@tests/valgrind.sh $(BUILD)

TORTURE_TRIALS ?= 100
torture: all $(MATEPROOF) $(MATESET)
	@MATE_FULL=1 tests/check-mate.sh $(BUILD)
	@CRASH_ALL=1 CRASH_FAST=1 tests/check-crash.sh $(BUILD)
	@RECOVERY_TRIALS=200 tests/check-recovery.sh $(BUILD)
	@python3 tests/torture.py $(BUILD) $(TORTURE_TRIALS)

# ---------------------------------------------------------------- fuzzing
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_FLAGS := -std=c17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o)

# The library once, instrumented for coverage; each target links it with libFuzzer's main.
build-fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

FUZZ_LIB := build-fuzz/libannabella.a
$(FUZZ_LIB): $(FUZZ_OBJ)
	rm -f $@
	ar rcs $@ $^

build-fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(FUZZ_LIB) $(LDLIBS)

# Header changes rebuild the instrumented objects too.
-include $(shell find build-fuzz -name '*.d' 2>/dev/null)

fuzz: deps $(FUZZ_BIN)
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# ---------------------------------------------------------------- bench, demo
bench: deps
	@$(MAKE) --no-print-directory all tests
	@tests/bench.sh $(BUILD)

# Every benchmark on a few moves, boards and loads (CI): one that fails or prints no figure
# fails this (tests/bench.sh).
bench-quick: deps
	@$(MAKE) --no-print-directory all tests
	@BENCH_QUICK=1 tests/bench.sh $(BUILD)

# The demo needs what the device needs (make deps-runtime), not the test tools.
demo: deps-runtime
	@$(MAKE) --no-print-directory all
	@tests/demo.sh $(BUILD)

# The daemon's sound where PipeWire owns it (Raspberry Pi OS with desktop): through PipeWire's
# ALSA plugin in a Debian 12 tree under systemd-nspawn, since installing pipewire-alsa here
# would change this machine's ALSA default for everyone; tests/pipewire/run.sh.
pipewire-check: $(BUILD)/annabellad
	@tools/deps.sh $(DEB_TREES)
	@tests/pipewire/run.sh $(BUILD)

# make print-VAR: a variable's value (the package lists, for tests/check-package.sh and
# tests/trixie/run.sh).
print-%:
	@echo $($*)

clean:
	rm -rf build build-san build-tsan build-fuzz build-gpiod2 build-arm64 build-armhf
