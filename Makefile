# dwd — the two commands that matter: `make demo` and `make test`.
# Every target finds JDK 25 (scripts/java-home) and the pinned Maven (./mvnw) by itself.

MVN := scripts/mvn -B -ntp
SHELL := /bin/bash

.PHONY: help test demo build control-plane mutation bench monitoring-picture clean

help:
	@echo "make demo           play a meltdown and a recovery on a local control plane"
	@echo "make test           build everything and run unit, architecture and integration tests"
	@echo "make build          package the application (./dwd runs it)"
	@echo "make control-plane  build (once) the local etcd + kube-apiserver + kubectl"
	@echo "make mutation       mutation-test the domain with PIT"
	@echo "make bench          run the benchmarks"
	@echo "make monitoring-picture  redraw docs/monitoring-meltdown.png from a real run (prometheus, chromium)"

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

## monitoring-picture: MonitoringIT (real Prometheus, real dwd) drawing the dashboard's key panels with headless Chromium.
monitoring-picture: control-plane
	$(MVN) -pl bootstrap -am verify -Dit.test=MonitoringIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
		-Dfailsafe.failIfNoSpecifiedTests=false -Ddwd.controlPlane.dir="$$(scripts/control-plane --path)" \
		-Ddwd.monitoring.picture=docs/monitoring-meltdown.png

clean:
	$(MVN) clean
