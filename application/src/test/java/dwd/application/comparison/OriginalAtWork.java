package dwd.application.comparison;

import dwd.application.port.out.ScalableResource;
import dwd.application.testing.InMemoryResources;
import dwd.application.testing.ProberFixture;
import dwd.domain.comparison.DependentSnapshot;
import dwd.domain.comparison.FieldManager;
import dwd.domain.config.ResourceRef;
import dwd.domain.scaling.Annotations;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Writes to the seed as the original dependency-watchdog does (a merge patch of the annotations, then the
 * scale subresource; on the way up the scale, then the meltdown annotation's removal), as a person with
 * {@code kubectl scale} does, and plays the comparison's watch: after each write it hands the dependent's
 * new version, with the {@code managedFields} the API server would have written, to {@link OriginalDependents}.
 */
final class OriginalAtWork {

    static final String MANAGER = "dependency-watchdog";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final InMemoryResources seed;
    private final OriginalDependents watch;
    private final Supplier<Instant> now;
    private final Map<String, Map<String, FieldManager>> managers = new HashMap<>();
    /** The API server's one sequence of resourceVersions (an etcd revision), across objects. */
    private long revision = 100;

    OriginalAtWork(InMemoryResources seed, OriginalDependents watch, Supplier<Instant> now) {
        this.seed = seed;
        this.watch = watch;
        this.now = now;
    }

    static ResourceRef ref(String name) {
        return new ResourceRef("apps/v1", "Deployment", name);
    }

    /** The dependent as created by gardenlet, which owns its replicas; the watch lists it. */
    void created(String namespace, String name) {
        entry(namespace, name, new FieldManager("gardenlet", "Update", "", Optional.of(second()), true, Set.of()));
        show(namespace, name);
    }

    /** The original's scale-down of one dependent: the record, then the scale to 0. */
    void scaleDown(String namespace, String name) {
        ScalableResource before = read(namespace, name);
        seed.patchAnnotationsAt(namespace, ref(name), before.version(), Map.of(
                Annotations.REPLICAS, Optional.of(String.valueOf(before.specReplicas())),
                Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.of("")), TIMEOUT);
        entry(namespace, name, new FieldManager(MANAGER, "Update", "", Optional.of(second()), false,
                Set.of(Annotations.REPLICAS, Annotations.MELTDOWN_PROTECTION_ACTIVE)));
        show(namespace, name);
        scale(namespace, name, MANAGER, 0);
    }

    /** The original's scale-up of one dependent: the recorded count, then the meltdown annotation removed. */
    void scaleUp(String namespace, String name) {
        int recorded = Integer.parseInt(read(namespace, name).annotations().get(Annotations.REPLICAS));
        scale(namespace, name, MANAGER, recorded);
        seed.patchAnnotationsAt(namespace, ref(name), read(namespace, name).version(),
                Map.of(Annotations.MELTDOWN_PROTECTION_ACTIVE, Optional.empty()), TIMEOUT);
        entry(namespace, name, new FieldManager(MANAGER, "Update", "", Optional.of(second()), false,
                Set.of(Annotations.REPLICAS)));
        show(namespace, name);
    }

    /** A person's {@code kubectl scale}. */
    void kubectlScale(String namespace, String name, int replicas) {
        scale(namespace, name, "kubectl", replicas);
    }

    private void scale(String namespace, String name, String manager, int replicas) {
        seed.scaleAt(namespace, ref(name), read(namespace, name).version(), replicas, TIMEOUT);
        var entries = managers.get(namespace + "/" + name);
        entries.replaceAll((key, entry) -> new FieldManager(entry.manager(), entry.operation(), entry.subresource(),
                entry.time(), false, entry.ownedAnnotations()));
        entry(namespace, name, new FieldManager(manager, "Update", "scale", Optional.of(second()), true, Set.of()));
        show(namespace, name);
    }

    private void entry(String namespace, String name, FieldManager entry) {
        managers.computeIfAbsent(namespace + "/" + name, key -> new HashMap<>())
                .put(entry.manager() + "/" + entry.subresource(), entry);
    }

    private void show(String namespace, String name) {
        ScalableResource now = read(namespace, name);
        watch.dependentChanged(namespace, ref(name), new DependentSnapshot("uid-" + name, now.specReplicas(),
                now.readyReplicas(), now.annotations(), new ArrayList<>(managers.get(namespace + "/" + name).values()),
                String.valueOf(++revision)));
    }

    private ScalableResource read(String namespace, String name) {
        return seed.read(namespace, ref(name), TIMEOUT).orElseThrow();
    }

    private Instant second() {
        return now.get().truncatedTo(ChronoUnit.SECONDS);
    }

    static List<String> gardenerDependents() {
        return List.of(ProberFixture.KCM, ProberFixture.MCM, ProberFixture.CA);
    }
}
