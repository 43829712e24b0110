package dwd.bootstrap.demo;

import static dwd.bootstrap.demo.DemoSettings.ALPHA;
import static dwd.bootstrap.demo.DemoSettings.BETA;
import static dwd.bootstrap.demo.DemoSettings.GRACE;
import static dwd.bootstrap.demo.DemoSettings.MCM_DELAY;
import static dwd.bootstrap.demo.DemoSettings.STEP_TIMEOUT;

import dwd.bootstrap.demo.DemoTimeline.Event;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import dwd.domain.dryrun.DryRunMode;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The story the demo tells on its stage: normal operation, a network cut, the recovery, an etcd
 * outage. Each step plays its part (the demo stands in for kubelets and controllers), waits for
 * what dwd does, narrates it as it happens and records one row of the summary.
 */
final class DemoStory {

    private final Narrator narrator;
    private final DryRunMode mode;
    private final Map<String, String> lastVerdictShown = new ConcurrentHashMap<>();

    DemoStory(Narrator narrator, DryRunMode mode) {
        this.narrator = narrator;
        this.mode = mode;
    }

    /** Narrates one event of the timeline; a verdict only when it differs from the shoot's last one. */
    void show(Event event) {
        String who = event.namespace().equals(ALPHA) ? "alpha" : event.namespace().equals(BETA) ? "beta" : event.namespace();
        switch (event.kind()) {
            case VERDICT -> {
                if (!event.subject().equals(lastVerdictShown.put(event.namespace(), event.subject()))) {
                    narrator.at(event.at(), who, event.text());
                }
            }
            case FLOW_DONE -> { }
            default -> narrator.at(event.at(), who, event.text());
        }
    }

    /** Since the roles started: the prober probes alpha (twice, to be sure) and scales nothing. */
    void normalOperation(DemoTimeline timeline, Instant start) {
        boolean healthy = timeline.await(events -> count(events, start, Kind.VERDICT, ALPHA) >= 2, STEP_TIMEOUT);
        long scaled = timeline.since(start).stream().filter(e -> e.kind() == Kind.SCALED).count();
        narrator.check("1 normal operation", "leases fresh; nothing " + would() + "scaled",
                healthy ? scaled + " dependents " + would() + "scaled" : "no lease probe seen", healthy && scaled == 0);
    }

    /** 3 of alpha's 5 leases are no longer renewed; returns the instant of the cut, the origin of the narration's times. */
    Instant networkCut(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        List<String> cutNodes = alphaNodes.subList(0, 3);
        Instant cut = cut(seed, cutNodes);
        boolean scaledDown = timeline.await(events -> scaledTo(events, cut, ALPHA, 3), STEP_TIMEOUT);
        List<Event> scaled = timeline.since(cut).stream().filter(e -> e.is(Kind.SCALED, ALPHA)).toList();
        List<String> order = scaled.stream().map(Event::subject).toList();
        boolean levelOrder = order.size() == 3 && order.get(2).equals(DemoSeed.KCM);
        Instant lastRenewal = cutNodes.stream().map(seed::lastRenewal).max(Instant::compareTo).orElse(cut);
        Instant graceEnds = lastRenewal.plus(GRACE);
        boolean beforeGrace = !scaled.isEmpty() && scaled.getFirst().at().isBefore(graceEnds);
        boolean unchanged = !mode.isShadow() || replicasUnchanged(seed);
        narrator.check("2 network cut", (mode.isShadow() ? "would scale " : "")
                        + "MCM + CA to 0, then KCM; before the grace period ends" + (mode.isShadow() ? "; still 3/2/1" : ""),
                scaledDown ? String.join(", ", shortNames(order)) + " at " + narrator.relative(scaled.getFirst().at())
                        + " (grace ends " + narrator.relative(graceEnds) + ")" + (unchanged ? "" : "; replicas changed!")
                        : "not all " + would() + "scaled down",
                scaledDown && levelOrder && beforeGrace && unchanged);
        return cut;
    }

    /** Step 2's part of the demo: 3 of alpha's 5 nodes stop renewing their leases; the instant of the cut. */
    Instant cut(DemoSeed seed, List<String> cutNodes) {
        Instant cut = Instant.now();
        narrator.setOrigin(cut);
        narrator.step(2, "Network cut: 3 of alpha's 5 nodes stop renewing their leases");
        seed.cut(cutNodes);
        narrator.at(cut, "alpha", "the demo stops renewing the leases of " + String.join(", ", cutNodes)
                + ", as their kubelets would when cut off from their control plane");
        return cut;
    }

    /** Step 3's part of the demo: the cut nodes renew their leases again; the instant they do. */
    Instant heal(DemoSeed seed, List<String> alphaNodes) {
        narrator.step(3, "The cut heals");
        Instant healed = Instant.now();
        seed.heal(alphaNodes.subList(0, 3));
        narrator.at(healed, "alpha", "the demo renews those leases again");
        return healed;
    }

    void recovery(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        Instant healed = heal(seed, alphaNodes);
        // The flow is done when /probes says so; in shadow mode it lists no would-be scalings, so the reports count.
        boolean scaledUp = timeline.await(events -> scaledTo(events, healed, ALPHA, 3)
                && (mode.isShadow() || events.stream().anyMatch(e -> !e.at().isBefore(healed) && e.is(Kind.FLOW_DONE, ALPHA)
                        && e.subject().equals("up"))), STEP_TIMEOUT);
        List<Event> scaled = timeline.since(healed).stream().filter(e -> e.is(Kind.SCALED, ALPHA)).toList();
        List<String> order = scaled.stream().map(Event::subject).toList();
        boolean inOrder = order.equals(List.of(DemoSeed.KCM, DemoSeed.MCM, DemoSeed.CA));
        boolean delayed = inOrder && !Duration.between(scaled.get(0).at(), scaled.get(1).at()).minus(MCM_DELAY).isNegative();
        boolean restored;
        try {
            restored = seed.replicas(ALPHA, DemoSeed.KCM) == 3 && seed.replicas(ALPHA, DemoSeed.MCM) == 2
                    && seed.replicas(ALPHA, DemoSeed.CA) == 1
                    && DemoSeed.DEPENDENTS.stream().allMatch(d -> annotationsOf(seed, d).isEmpty());
        } catch (ApiException e) {
            restored = false;
        }
        narrator.check("3 recovery", mode.isShadow() ? "would scale KCM 3, MCM 2 after its delay, CA 1; no annotations"
                        : "KCM 3, MCM 2 after its delay, CA 1; annotations removed",
                scaledUp ? String.join(", ", shortNames(order)) + (restored ? "; 3/2/1, no annotations" : "; counts differ")
                        : "not all " + would() + "scaled up", scaledUp && inOrder && delayed && restored);
    }

    void otherShootUntouched(DemoTimeline timeline, Instant cut) {
        long betaScaled = timeline.since(cut).stream().filter(e -> e.is(Kind.SCALED, BETA)).count();
        narrator.check("  other shoot", "beta untouched (its leases kept being renewed)",
                betaScaled + " dependents " + would() + "scaled", betaScaled == 0);
    }

    /**
     * Step 4's part of the demo: etcd-main-client turns not ready, alpha's kube-apiserver pods crash-loop,
     * etcd returns; the instant it does.
     */
    Instant etcdReturns(DemoSeed seed, DemoTimeline timeline) {
        narrator.step(4, "etcd outage, played by the demo: alpha's kube-apiserver pods get crash-loop statuses");
        Instant outage = Instant.now();
        seed.setServiceReady(ALPHA, "etcd-main-client", false);
        narrator.at(outage, "alpha", "the demo marks etcd-main-client's endpoint not ready, as the endpoints controller"
                + " would for a failed etcd");
        // The weeder stops its weeder for the service when it sees the service not ready; crash loops written before
        // that would be weeded by the old weeder, not in answer to etcd's return.
        timeline.await(events -> noWeederRunning(events, ALPHA, "etcd-main-client"), Duration.ofSeconds(10));
        seed.crashLoop(ALPHA, "kube-apiserver-0");
        seed.crashLoop(ALPHA, "kube-apiserver-1");
        narrator.at(Instant.now(), "alpha", "the demo writes CrashLoopBackOff statuses (back-off 40s) for kube-apiserver-0"
                + " and kube-apiserver-1, as their kubelet would; no container runs or crashes here");
        Instant back = Instant.now();
        seed.setServiceReady(ALPHA, "etcd-main-client", true);
        narrator.at(back, "alpha", "etcd comes back: the demo marks its endpoint ready again");
        return back;
    }

    void etcdOutage(DemoSeed seed, DemoTimeline timeline) {
        Instant back = etcdReturns(seed, timeline);
        boolean deleted = timeline.await(events -> events.stream()
                .filter(e -> !e.at().isBefore(back) && e.is(Kind.POD_DELETED, ALPHA)).count() >= 2
                && events.stream().anyMatch(e -> !e.at().isBefore(back) && e.is(Kind.WEEDER, ALPHA)), STEP_TIMEOUT);
        List<Event> deletions = timeline.since(back).stream().filter(e -> e.is(Kind.POD_DELETED, ALPHA)).toList();
        boolean podsKept = !mode.isShadow() || podsStillThere(seed);
        narrator.check("4 etcd recovers", mode.isShadow() ? "would delete both crash-looping kube-apiserver pods; both still there"
                        : "both crash-looping kube-apiserver pods deleted",
                deletions.size() + " " + would() + "deleted" + (deletions.isEmpty() ? ""
                        : ", first " + Duration.between(back, deletions.getFirst().at()).toMillis() + " ms after ready")
                        + (podsKept ? "" : "; pods gone!"),
                deleted && (!mode.isShadow() || deletions.size() == 2) && podsKept);
    }

    /** Shadow mode's checks: after the whole story, not one object of the seed changed. */
    void nothingChanged(DemoSeed seed, Map<String, String> versionsBefore) {
        Map<String, String> versionsAfter = resourceVersions(seed);
        long changed = versionsBefore.keySet().stream()
                .filter(name -> !versionsBefore.get(name).equals(versionsAfter.get(name))).count();
        narrator.check("  nothing changed", "dependents: same resourceVersions; pods: same UIDs, not deleted",
                versionsBefore.size() + " objects, " + changed + " changed", changed == 0 && !versionsBefore.isEmpty());
    }

    /** What changes if dwd changes anything: alpha's dependents' resourceVersions, its pods' UIDs and deletion marks. */
    static Map<String, String> resourceVersions(DemoSeed seed) {
        try {
            return seed.fingerprints(ALPHA);
        } catch (ApiException e) {
            return Map.of();
        }
    }

    /** Whether {@code /weeders} last showed no weeder for the service (stopped, expired, or never started). */
    private static boolean noWeederRunning(List<Event> events, String namespace, String service) {
        return events.stream().filter(e -> e.namespace().equals(namespace) && e.subject().equals(service)
                        && (e.kind() == Kind.WEEDER || e.kind() == Kind.WEEDER_STOPPED))
                .reduce((first, second) -> second).map(last -> last.kind() == Kind.WEEDER_STOPPED).orElse(true);
    }

    private static boolean replicasUnchanged(DemoSeed seed) {
        try {
            return DemoSeed.DEPENDENTS.stream().allMatch(d -> replicasOf(seed, d) == DemoSeed.REPLICAS.get(d)
                    && annotationsOf(seed, d).isEmpty());
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static int replicasOf(DemoSeed seed, String deployment) {
        try {
            return seed.replicas(ALPHA, deployment);
        } catch (ApiException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean podsStillThere(DemoSeed seed) {
        try {
            return seed.podNames(ALPHA).containsAll(List.of("kube-apiserver-0", "kube-apiserver-1"));
        } catch (ApiException e) {
            return false;
        }
    }

    private static Map<String, String> annotationsOf(DemoSeed seed, String deployment) {
        try {
            return seed.annotations(ALPHA, deployment);
        } catch (ApiException e) {
            return Map.of("unreadable", e.getMessage());
        }
    }

    /** {@code "would be "} in shadow mode, so that the checks say what they count. */
    private String would() {
        return mode.isShadow() ? "would be " : "";
    }

    private static boolean scaledTo(List<Event> events, Instant since, String namespace, int count) {
        return events.stream().filter(e -> !e.at().isBefore(since) && e.is(Kind.SCALED, namespace)).count() >= count;
    }

    private static long count(List<Event> events, Instant since, Kind kind, String namespace) {
        return events.stream().filter(e -> !e.at().isBefore(since) && e.is(kind, namespace)).count();
    }

    static List<String> shortNames(List<String> names) {
        return names.stream().map(name -> switch (name) {
            case DemoSeed.KCM -> "KCM";
            case DemoSeed.MCM -> "MCM";
            case DemoSeed.CA -> "CA";
            default -> name;
        }).toList();
    }
}
