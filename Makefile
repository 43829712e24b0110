# dwd — the two commands that matter: `make demo` and `make test`.
# Every target finds JDK 25 (scripts/java-home) and the pinned Maven (./mvnw) by itself.

MVN := scripts/mvn -B -ntp
SHELL := /bin/bash

.PHONY: help test demo build control-plane mutation bench clean

help:
	@echo "make demo           play a meltdown and a recovery on a local control plane"
	@echo "make test           build everything and run unit, architecture and integration tests"
	@echo "make build          package the application (./dwd runs it)"
	@echo "make control-plane  build (once) the local etcd + kube-apiserver + kubectl"
	@echo "make mutation       mutation-test the domain with PIT"
	@echo "make bench          run the benchmarks"

## test: the whole verification — unit, ArchUnit, integration on a real kube-apiserver, launch smoke test.
test: control-plane
	DWD_CONTROL_PLANE_DIR="$$(scripts/control-plane --path)" $(MVN) verify

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

clean:
	$(MVN) clean
