# dwd — the two commands that matter: `make demo` and `make test`.
# Every target finds JDK 25 (scripts/java-home) and the pinned Maven (./mvnw) by itself.

MVN := scripts/mvn -B -ntp
SHELL := /bin/bash

.PHONY: help test test-beside-original demo build app image image-arm64-smoke control-plane kstatus-oracle original-dwd mutation bench bench-scale bench-weeder bench-versus bench-image bench-image-memory monitoring-picture clean

help:
	@echo "make demo           play a meltdown and a recovery on a local control plane"
	@echo "make test           build everything and run unit, architecture and integration tests"
	@echo "make test-beside-original  dwd in comparison mode beside the real original on a local seed (about 6 min; builds the original once)"
	@echo "make build          package the application (./dwd runs it; it also rebuilds by itself when sources change)"
	@echo "make image          build the container image dwd:<version> with podman: linux/amd64 and linux/arm64 (docs/deploy.md)"
	@echo "make image-arm64-smoke  the arm64 image's prober under emulation: a meltdown scaled down and back up (minutes: see docs/deploy.md)"
	@echo "make control-plane  build (once) the local etcd + kube-apiserver + kubectl"
	@echo "make kstatus-oracle build (once) kstatus from cli-utils, which dwd check's answers are compared with"
	@echo "make mutation       mutation-test the domain with PIT"
	@echo "make bench          run the benchmarks"
	@echo "make bench-scale N=250  one prober against N shoots (about 10 min + seeding; see docs/benchmarks.md)"
	@echo "make bench-weeder   time the weeder's first deletion from outside ./dwd weeder (about 10 minutes)"
	@echo "make bench-versus N=100  dwd and Gardener's original side by side in one harness and one table (about 35 min; builds the original once)"
	@echo "make bench-image    measure the image: start-up with and without its AOT cache, memory and CPU of the roles"
	@echo "make bench-image-memory N=1000  the prober in the image under Gardener's 512Mi limit against N shoots (MINUTES=10)"
	@echo "make monitoring-picture  redraw docs/monitoring-meltdown.png from a real run (prometheus, chromium)"

## test: the whole verification — unit, ArchUnit, integration on a real kube-apiserver, launch smoke test.
test: control-plane kstatus-oracle
	@command -v podman >/dev/null || echo "make test: podman is not installed, so the image tests skip (apt-get install -y podman runc)"
	@command -v slirp4netns >/dev/null || echo "make test: slirp4netns is not installed, so GardenerSwapInIT skips (apt-get install -y slirp4netns)"
	DWD_CONTROL_PLANE_DIR="$$(scripts/control-plane --path)" DWD_KSTATUS_ORACLE="$$(scripts/kstatus-oracle --path)" $(MVN) verify

## test-beside-original: opt-in, not part of make test: BesideOriginalIT (the original v1.7.0, Go, built once by
## scripts/original-dwd, protects three shoots; dwd in shadow mode compares itself with it) and DemoBesideOriginalIT
## (./dwd demo --beside-original); docs/migration.md.
test-beside-original: control-plane original-dwd app
	$(MVN) -pl bootstrap -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test=BesideOriginalIT,DemoBesideOriginalIT -Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true \
	  -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" -Ddwd.original="$$(scripts/original-dwd --path)"
	@cat bootstrap/target/beside-original/compare.txt

build:
	@scripts/build-app

## app: the packaged application, rebuilt only when a source or pom is newer than the last build.
app:
	@scripts/build-app --if-stale

## image: dwd:<version> with podman, a manifest list of linux/amd64 and linux/arm64 (docs/deploy.md).
image: app
	@scripts/image

## image-arm64-smoke: ProberImageIT on the arm64 image under emulation (opt-in: a JVM under qemu-user is slow;
## docs/deploy.md). It skips in one line where scripts/image built no arm64 image, saying why.
image-arm64-smoke: control-plane
	$(MVN) -pl bootstrap -am verify -Dit.test=ProberImageIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
		-Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true -Ddwd.image.platform=linux/arm64 \
		-Ddwd.controlPlane.dir="$$(scripts/control-plane --path)"

control-plane:
	@scripts/control-plane >/dev/null

## kstatus-oracle: cli-utils' kstatus, pinned in oracles/kstatus/go.mod, for KstatusDifferentialTest (docs/check-differential.md).
kstatus-oracle:
	@if command -v go >/dev/null; then scripts/kstatus-oracle >/dev/null; \
	else echo "make test: Go is not installed, so KstatusDifferentialTest skips (install Go 1.26+)"; fi

demo: control-plane app
	./dwd demo

mutation:
	$(MVN) -pl domain -am -Pmutation verify -DskipITs

bench:
	$(MVN) -Pbench -pl domain -am verify -DskipTests

## bench-weeder: the weeder's first deletion after a service turns ready, timed by the API server's audit
## log and a watch, on a process idle for a minute and on freshly started ones (docs/weeder.md).
bench-weeder: control-plane
	$(MVN) -pl bootstrap -am verify -Ddwd.bench=true -Dit.test=WeederFirstDeletionBenchIT -Dtest=none \
		-Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
		-Ddwd.controlPlane.dir="$$(scripts/control-plane --path)"
	@cat bootstrap/target/weeder-bench.txt

## bench-scale: the scale benchmark (opt-in, not part of make test). N shoots; BENCH_FLAGS adds
## -Ddwd.bench.scale.* settings (see bootstrap/src/test/java/dwd/bootstrap/bench/BenchSettings.java);
## SEED_GOGC=400 gives the seed's kube-apiserver and etcd that GOGC (docs/benchmarks.md says why).
N ?= 250
bench-scale: control-plane
	$(if $(SEED_GOGC),GOGC=$(SEED_GOGC) )$(MVN) -pl bootstrap -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test=ScaleBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true \
	  -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" -Ddwd.bench.scale.shoots=$(N) $(BENCH_FLAGS)
	@cat bootstrap/target/bench-scale/result-$(N).md

## bench-versus: dwd and the original (Go, built by scripts/original-dwd) one after the other in the same harness,
## one table with both columns and their ratio (opt-in, not part of make test). N shoots (0: the weeder only);
## MINUTES the window, WARMUP its warm-up (s), REPEAT the pairs, WEEDER=0 skips the weeder part, WEEDER_TRIALS /
## WEEDER_FRESH / WEEDER_IDLE its trials; BENCH_FLAGS adds -Ddwd.bench.versus.* settings (VersusSettings.java).
WARMUP ?= 60
REPEAT ?= 1
WEEDER ?= 1
WEEDER_TRIALS ?= 60
WEEDER_FRESH ?= 50
WEEDER_IDLE ?= 60
bench-versus: MINUTES ?= 5
bench-versus: control-plane original-dwd app
	$(MVN) -pl bootstrap -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test=VersusBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true \
	  -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" -Ddwd.bench.versus.original="$$(scripts/original-dwd --path)" \
	  -Ddwd.bench.versus.shoots=$(N) -Ddwd.bench.versus.minutes=$(MINUTES) -Ddwd.bench.versus.warmUpSeconds=$(WARMUP) \
	  -Ddwd.bench.versus.repeat=$(REPEAT) -Ddwd.bench.versus.weeder=$(if $(filter 0,$(WEEDER)),false,true) \
	  -Ddwd.bench.versus.weederTrials=$(WEEDER_TRIALS) -Ddwd.bench.versus.weederFreshTrials=$(WEEDER_FRESH) \
	  -Ddwd.bench.versus.weederIdleSeconds=$(WEEDER_IDLE) $(BENCH_FLAGS)
	@cat bootstrap/target/bench-versus/result-$(N).md

original-dwd:
	@scripts/original-dwd >/dev/null

bench-image: control-plane app
	@scripts/image --bench
	@scripts/image --resources

## bench-image-memory: the prober in the image under a memory limit (Gardener's: MEMORY=512m) with Gardener's
## flags and the image's own JVM settings, against N simulated shoots for MINUTES minutes after a minute of
## warm-up: OOM kills, the container's memory, the heap, probe lateness (docs/benchmarks.md, docs/deploy.md).
MEMORY ?= 512m
bench-image-memory: MINUTES ?= 10
bench-image-memory: control-plane
	$(MVN) -pl bootstrap -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test=ImageMemoryBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true \
	  -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" -Ddwd.bench.imageMemory.shoots=$(N) \
	  -Ddwd.bench.imageMemory.minutes=$(MINUTES) -Ddwd.bench.imageMemory.memory=$(MEMORY) $(BENCH_FLAGS)
	@cat bootstrap/target/bench-image-memory/result-$(N).md

## monitoring-picture: MonitoringIT (real Prometheus, real dwd) drawing the dashboard's key panels with headless Chromium.
monitoring-picture: control-plane
	$(MVN) -pl bootstrap -am verify -Dit.test=MonitoringIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
		-Dfailsafe.failIfNoSpecifiedTests=false -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" \
		-Ddwd.monitoring.picture=docs/monitoring-meltdown.png

clean:
	$(MVN) clean
