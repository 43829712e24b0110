package dwd.application.shadow;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.application.port.out.ShadowObserver.Write;
import dwd.domain.config.ResourceRef;
import dwd.domain.dryrun.DryRunMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The dependents of the seed as shadow mode sees them. Reads go to the seed; writes are not sent
 * (client dry-run) or sent with {@code dryRun=All} (server dry-run), and what they would have
 * changed is kept as would-be changes that later reads see. So the prober behaves as if its writes had
 * landed: a would-be scale-down happens once (the next flows find the dependent at 0), and the
 * would-be scale-up after it restores the count recorded in the would-be annotation.
 *
 * <p>Reality wins: each would-be value remembers the seed's value it replaced, and is dropped as
 * soon as the seed's value differs from that (an operator scaled, someone annotated); a would-be
 * value equal to the seed's is dropped too. The would-be changes are therefore only differences,
 * and none are left once a would-be scale-up has undone a would-be scale-down.
 *
 * <p>A write the server refuses (forbidden, conflict, not found, invalid) is kept as a would-be change all
 * the same: it is a finding, reported once, and the flow goes on, so that one shadow run checks
 * every write of the plan. Each write waits, with its answer, until {@link ShadowProberObserver}
 * reports the step it belongs to.
 */
public final class ShadowScalableResources implements ScalableResources {

    private record Key(String namespace, ResourceRef ref) { }

    /** A value of the shadow world and the seed's value it was derived from. */
    private record Divergence<T>(T seedValue, T shadowValue) { }

    /** What the would-be writes changed on one resource, as far as the seed has not overtaken it. */
    private static final class WouldBeChanges {
        final Map<String, Divergence<Optional<String>>> annotations = new LinkedHashMap<>();
        Divergence<Integer> replicas;

        boolean isEmpty() {
            return annotations.isEmpty() && replicas == null;
        }

        /** {@code seed} with these changes made; first drops what the seed has overtaken. */
        ScalableResource over(ScalableResource seed) {
            var seen = new HashMap<>(seed.annotations());
            for (Iterator<Map.Entry<String, Divergence<Optional<String>>>> it = annotations.entrySet().iterator(); it.hasNext();) {
                Map.Entry<String, Divergence<Optional<String>>> entry = it.next();
                Optional<String> now = Optional.ofNullable(seed.annotations().get(entry.getKey()));
                Divergence<Optional<String>> divergence = entry.getValue();
                if (!now.equals(divergence.seedValue()) || now.equals(divergence.shadowValue())) {
                    it.remove();
                } else {
                    divergence.shadowValue().ifPresentOrElse(value -> seen.put(entry.getKey(), value),
                            () -> seen.remove(entry.getKey()));
                }
            }
            int specReplicas = seed.specReplicas();
            if (replicas != null) {
                if (seed.specReplicas() != replicas.seedValue() || seed.specReplicas() == replicas.shadowValue()) {
                    replicas = null;
                } else {
                    specReplicas = replicas.shadowValue();
                }
            }
            // Pods are not really started or stopped: as many are ready as the seed has, up to the would-be spec.
            int readyReplicas = Math.min(seed.readyReplicas(), specReplicas);
            return new ScalableResource(seed.ref(), seen, specReplicas, readyReplicas, seed.version());
        }
    }

    /** A resource whose shadow differs from the seed, for the status endpoint and tests. */
    public record Divergent(String namespace, ResourceRef ref, OptionalInt replicas,
                            Map<String, Optional<String>> annotations) {
        public Divergent {
            annotations = Map.copyOf(annotations);
        }
    }

    private final DryRunMode mode;
    private final ScalableResources seed;
    // All guarded by this; never held during a call to the seed.
    private final Map<Key, WouldBeChanges> wouldBe = new HashMap<>();
    private final Map<Key, ScalableResource> lastSeen = new HashMap<>();
    private final Map<Key, List<Write>> unreported = new HashMap<>();

    /**
     * @param mode {@code CLIENT} or {@code SERVER}
     * @param seed reads the seed; in server mode it must send its writes with {@code dryRun=All}
     * @throws IllegalArgumentException for {@code NONE}, or server mode on resources that would write for real
     */
    public ShadowScalableResources(DryRunMode mode, ScalableResources seed) {
        if (!mode.isShadow()) {
            throw new IllegalArgumentException("shadow resources need --dry-run=client or server, not " + mode.flagValue());
        }
        if (mode == DryRunMode.SERVER && !seed.dryRunWrites()) {
            throw new IllegalArgumentException("--dry-run=server needs resources that send their writes with dryRun=All");
        }
        this.mode = mode;
        this.seed = seed;
    }

    @Override
    public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        Optional<ScalableResource> real = seed.read(namespace, ref, timeout);
        var key = new Key(namespace, ref);
        synchronized (this) {
            if (real.isEmpty()) {
                lastSeen.remove(key);
                wouldBe.remove(key);
                return real;
            }
            lastSeen.put(key, real.get());
            WouldBeChanges changes = wouldBe.get(key);
            if (changes == null) {
                return real;
            }
            ScalableResource seen = changes.over(real.get());
            if (changes.isEmpty()) {
                wouldBe.remove(key);
            }
            return Optional.of(seen);
        }
    }

    /**
     * The seed's cached view, unless the shadow world differs from the seed there: then only a read tells.
     * A write may be decided on the view: it becomes the base that write diverges from.
     */
    @Override
    public Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        var key = new Key(namespace, ref);
        synchronized (this) {
            if (wouldBe.containsKey(key)) {
                return Optional.empty();
            }
        }
        Optional<ScalableResource> cached = seed.cached(namespace, ref);
        cached.ifPresent(seen -> {
            synchronized (this) {
                lastSeen.put(key, seen);
            }
        });
        return cached;
    }

    /**
     * Records would-be annotation changes, made at {@code version}: a server dry run is made at it too, and in
     * client mode the seed is read to check it. A conflict is no finding about the write but about the
     * base it was decided on: it is thrown, and the prober decides again on a read, as it would for real.
     */
    @Override
    public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
            Map<String, Optional<String>> changes, Duration timeout) {
        var key = new Key(namespace, ref);
        ScalableResource before = baseAt(key, version, timeout);
        String[] after = {version}; // a dry run changes nothing, the version included
        Answer answer = ServerAnswers.sendAt(mode, () -> after[0] = seed.patchAnnotationsAt(namespace, ref, version,
                changes, timeout));
        recordAnnotations(key, before, changes, answer);
        return after[0];
    }

    private synchronized void recordAnnotations(Key key, ScalableResource before, Map<String, Optional<String>> changes,
            Answer answer) {
        recordAnnotations(wouldBe.computeIfAbsent(key, k -> new WouldBeChanges()), before, changes);
        unreported.computeIfAbsent(key, k -> new ArrayList<>()).add(new Write(describe(changes), answer));
    }

    private static void recordAnnotations(WouldBeChanges record, ScalableResource before, Map<String, Optional<String>> changes) {
        changes.forEach((name, value) -> {
            Divergence<Optional<String>> earlier = record.annotations.get(name);
            Optional<String> seedValue = earlier != null ? earlier.seedValue()
                    : Optional.ofNullable(before.annotations().get(name));
            record.annotations.put(name, new Divergence<>(seedValue, value));
        });
    }

    /** Made at {@code version} as {@link #patchAnnotationsAt} is. */
    @Override
    public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
        var key = new Key(namespace, ref);
        ScalableResource before = baseAt(key, version, timeout);
        String[] after = {version}; // a dry run changes nothing, the version included
        Answer answer = ServerAnswers.sendAt(mode, () -> after[0] = seed.scaleAt(namespace, ref, version, replicas,
                timeout));
        synchronized (this) {
            recordReplicas(key, before, replicas);
            unreported.computeIfAbsent(key, k -> new ArrayList<>()).add(new Write(describeScale(replicas), answer));
        }
        return after[0];
    }

    @Override
    public boolean scalesInOneWrite(ResourceRef ref) {
        return seed.scalesInOneWrite(ref);
    }

    /** Made at {@code version} as {@link #patchAnnotationsAt} is; one would-be write, as the real one is one write. */
    @Override
    public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        var key = new Key(namespace, ref);
        ScalableResource before = baseAt(key, version, timeout);
        Answer answer = ServerAnswers.sendAt(mode, () -> seed.scaleAndAnnotateAt(namespace, ref, version, replicas,
                changes, timeout));
        synchronized (this) {
            recordAnnotations(recordReplicas(key, before, replicas), before, changes);
            unreported.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new Write(describeScale(replicas) + " and " + describe(changes), answer));
        }
    }

    private WouldBeChanges recordReplicas(Key key, ScalableResource before, int replicas) {
        WouldBeChanges record = wouldBe.computeIfAbsent(key, k -> new WouldBeChanges());
        int seedValue = record.replicas != null ? record.replicas.seedValue() : before.specReplicas();
        record.replicas = new Divergence<>(seedValue, replicas);
        return record;
    }

    private static String describeScale(int replicas) {
        return "scale to " + replicas + (replicas == 1 ? " replica" : " replicas");
    }

    /** Nothing this sends is ever persisted. */
    @Override
    public boolean dryRunWrites() {
        return true;
    }

    /** Every resource whose shadow differs from the seed as last read, sorted by namespace and name. */
    public synchronized List<Divergent> divergences() {
        var result = new ArrayList<Divergent>();
        wouldBe.forEach((key, changes) -> result.add(new Divergent(key.namespace(), key.ref(),
                changes.replicas == null ? OptionalInt.empty() : OptionalInt.of(changes.replicas.shadowValue()),
                changes.annotations.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().shadowValue())))));
        result.sort((a, b) -> (a.namespace() + "/" + a.ref().name()).compareTo(b.namespace() + "/" + b.ref().name()));
        return result;
    }

    /** The would-be writes on {@code ref} not reported yet, in the order they were made; forgets them. */
    synchronized List<Write> takeUnreported(String namespace, ResourceRef ref) {
        return Optional.ofNullable(unreported.remove(new Key(namespace, ref))).orElse(List.of());
    }

    /** The would-be writes in {@code namespace} not reported yet, by resource; forgets them. */
    synchronized Map<ResourceRef, List<Write>> takeUnreported(String namespace) {
        var taken = new LinkedHashMap<ResourceRef, List<Write>>();
        for (Iterator<Map.Entry<Key, List<Write>>> it = unreported.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Key, List<Write>> entry = it.next();
            if (entry.getKey().namespace().equals(namespace)) {
                taken.put(entry.getKey().ref(), entry.getValue());
                it.remove();
            }
        }
        return taken;
    }

    /**
     * The base of a would-be write made at {@code version}. Client mode sends nothing that the server
     * could check the version against: the seed is read, and a resource no longer at {@code version}
     * is a conflict, as the real write would be. Server mode leaves the check to the dry run.
     */
    private ScalableResource baseAt(Key key, String version, Duration timeout) {
        if (mode == DryRunMode.SERVER) {
            return seedValueOf(key, timeout);
        }
        ScalableResource now = seed.read(key.namespace(), key.ref(), timeout)
                .orElseThrow(() -> notFound(key));
        synchronized (this) {
            lastSeen.put(key, now);
        }
        if (!now.version().equals(version)) {
            throw new ApiFailure(ApiFailure.Kind.CONFLICT, key.ref() + " in namespace " + key.namespace()
                    + " has changed since version " + version + " (now " + now.version() + ")");
        }
        return now;
    }

    private static ApiFailure notFound(Key key) {
        return new ApiFailure(ApiFailure.Kind.NOT_FOUND, key.ref() + " not found in namespace " + key.namespace());
    }

    /** The seed's resource as last read: the base a would-be write diverges from. */
    private ScalableResource seedValueOf(Key key, Duration timeout) {
        synchronized (this) {
            ScalableResource known = lastSeen.get(key);
            if (known != null) {
                return known;
            }
        }
        // The prober always reads before it writes; should a write come first, read its base now.
        ScalableResource read = seed.read(key.namespace(), key.ref(), timeout).orElseThrow(() -> notFound(key));
        synchronized (this) {
            lastSeen.put(key, read);
        }
        return read;
    }

    /** {@code annotate a="1", b=""; remove annotation c}, keys sorted. */
    static String describe(Map<String, Optional<String>> changes) {
        var sorted = new TreeMap<>(changes);
        String set = sorted.entrySet().stream().filter(e -> e.getValue().isPresent())
                .map(e -> e.getKey() + "=\"" + e.getValue().get() + "\"")
                .collect(Collectors.joining(", "));
        List<String> removed = sorted.entrySet().stream().filter(e -> e.getValue().isEmpty())
                .map(Map.Entry::getKey).toList();
        var text = new StringBuilder();
        if (!set.isEmpty()) {
            text.append("annotate ").append(set);
        }
        if (!removed.isEmpty()) {
            text.append(text.isEmpty() ? "" : "; ").append(removed.size() == 1 ? "remove annotation " : "remove annotations ")
                    .append(String.join(", ", removed));
        }
        return text.toString();
    }
}
