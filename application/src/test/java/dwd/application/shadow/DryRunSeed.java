package dwd.application.shadow;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.application.testing.InMemoryResources;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The seed as a server-side dry run sees it: reads from {@link InMemoryResources}, writes checked and
 * recorded but never applied. A test can make the server refuse a kind of write on a resource, or
 * fail the next writes without an answer (unreachable).
 */
final class DryRunSeed implements ScalableResources {

    private final InMemoryResources seed;
    private final List<String> sentWrites = new ArrayList<>();
    private final Map<String, ApiFailure> refusals = new HashMap<>();
    private final Deque<ApiFailure> outages = new ArrayDeque<>();

    DryRunSeed(InMemoryResources seed) {
        this.seed = seed;
    }

    /** Every {@code op} ("annotate" or "scale") on {@code name} is refused with {@code kind}. */
    synchronized void refuse(String name, String op, ApiFailure.Kind kind) {
        refusals.put(name + "/" + op, new ApiFailure(kind, op + " of " + name + ": simulated " + kind));
    }

    /** The next {@code count} writes fail without an answer from the server. */
    synchronized void unreachableFor(int count) {
        for (int i = 0; i < count; i++) {
            outages.add(new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "simulated: connection refused"));
        }
    }

    synchronized List<String> sentWrites() {
        return List.copyOf(sentWrites);
    }

    @Override
    public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        return seed.read(namespace, ref, timeout);
    }

    /** Checked at {@code version} as the server would; a dry run changes nothing, the version included. */
    @Override
    public synchronized String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
            Map<String, Optional<String>> changes, Duration timeout) {
        requireAt(namespace, ref, version);
        send(ref, "annotate", "annotate " + ref.name() + " " + new TreeMap<>(changes));
        return version;
    }

    @Override
    public synchronized String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
        requireAt(namespace, ref, version);
        send(ref, "scale", "scale " + ref.name() + " to " + replicas);
        return version;
    }

    @Override
    public boolean scalesInOneWrite(ResourceRef ref) {
        return seed.scalesInOneWrite(ref);
    }

    /** Refused as a scale would be ({@code "scale"} refusals), being one. */
    @Override
    public synchronized void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        requireAt(namespace, ref, version);
        send(ref, "scale", "scale " + ref.name() + " to " + replicas + " and annotate " + new TreeMap<>(changes));
    }

    private void requireAt(String namespace, ResourceRef ref, String version) {
        String now = seed.version(namespace, ref.name());
        if (!now.equals(version)) {
            throw new ApiFailure(ApiFailure.Kind.CONFLICT, ref + " is at version " + now + ", not " + version);
        }
    }

    private void send(ResourceRef ref, String op, String write) {
        if (!outages.isEmpty()) {
            throw outages.poll();
        }
        sentWrites.add(write);
        ApiFailure refusal = refusals.get(ref.name() + "/" + op);
        if (refusal != null) {
            throw refusal;
        }
    }

    @Override
    public boolean dryRunWrites() {
        return true;
    }
}
