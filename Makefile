# dwd — the two commands that matter: `make demo` and `make test`.
# Every target finds JDK 25 (scripts/java-home) and the pinned Maven (./mvnw) by itself.

MVN := scripts/mvn -B -ntp
SHELL := /bin/bash

.PHONY: help test demo build control-plane mutation bench bench-scale clean

help:
	@echo "make demo           play a meltdown and a recovery on a local control plane"
	@echo "make test           build everything and run unit, architecture and integration tests"
	@echo "make build          package the application (./dwd runs it)"
	@echo "make control-plane  build (once) the local etcd + kube-apiserver + kubectl"
	@echo "make mutation       mutation-test the domain with PIT"
	@echo "make bench          run the benchmarks"
	@echo "make bench-scale N=250  one prober against N shoots (about 10 min + seeding; see docs/benchmarks.md)"

## test: the whole verification — unit, ArchUnit, integration on a real kube-apiserver, launch smoke test.
test: control-plane
	$(MVN) verify -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)"

build:
	$(MVN) package -DskipTests

control-plane:
	@scripts/control-plane >/dev/null

demo: control-plane
	./dwd demo

mutation:
	$(MVN) -pl domain -am -Pmutation verify -DskipITs

bench:
	$(MVN) -Pbench -pl domain -am verify -DskipTests

## bench-scale: the scale benchmark (opt-in, not part of make test). N shoots; BENCH_FLAGS adds
## -Ddwd.bench.scale.* settings (see bootstrap/src/test/java/dwd/bootstrap/bench/BenchSettings.java).
N ?= 250
bench-scale: control-plane
	$(MVN) -pl bootstrap -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test=ScaleBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Djacoco.skip=true \
	  -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" -Ddwd.bench.scale.shoots=$(N) $(BENCH_FLAGS)
	@cat bootstrap/target/bench-scale/result-$(N).md

clean:
	$(MVN) clean
