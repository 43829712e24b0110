package dwd.application.testing;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The seed's dependent resources in memory: annotations and replicas per namespace/name, every
 * write logged with its (virtual) time, failures queued per resource. Ready replicas follow the
 * spec at once unless a test says otherwise.
 */
public final class InMemoryResources implements ScalableResources {

    /** One write: an annotation patch or a scale, and the deadline it was sent with. */
    public record Write(Instant at, String namespace, String name, String description, Duration deadline) { }

    private static final class Stored {
        final Map<String, String> annotations = new TreeMap<>();
        int specReplicas;
        Integer fixedReadyReplicas;
        /** Raised by every change, as a resourceVersion is. */
        long version = 1;
    }

    /** A queued "no failure" that lets one call through. */
    private static final ApiFailure PASS = new ApiFailure(ApiFailure.Kind.UNAVAILABLE, "pass");

    private final Clock clock;
    private final Map<String, Stored> store = new HashMap<>();
    private final List<Write> writes = new ArrayList<>();
    /** Per resource: what the next calls throw (an {@link ApiFailure}, or an {@link Error} a bug would throw). */
    private final Map<String, Deque<Throwable>> failures = new HashMap<>();
    /** Without a cache (the default), {@link #cached} is always empty, as for resources that keep none. */
    private boolean cacheKept;
    /** Resources whose cached view is stuck at what it was when {@link #freezeCache} was called. */
    private final Map<String, ScalableResource> frozenCache = new HashMap<>();
    /** Whether resources {@linkplain #scalesInOneWrite scale in one write} (as Deployments) or not (the default, as other kinds). */
    private boolean oneWriteScales;
    private int reads;
    private int writesAt;
    /** Per resource: what other writers do just before each of the next writes (a no-op lets one pass). */
    private final Map<String, Deque<Runnable>> beforeWrites = new HashMap<>();
    /** Per resource: the next write is held by the network (see {@link #holdNextWrite}). */
    private final Map<String, Hold> holds = new HashMap<>();
    private Runnable afterEachWrite = () -> { };
    /** Per resource: how long each read takes to be answered (see {@link #slowReads}). */
    private final Map<String, SlowReads> slowReads = new HashMap<>();

    private record SlowReads(VirtualScheduler scheduler, Duration each) { }

    /** A write the network holds: it gets no answer within its deadline, then lands {@code landsAfter} later. */
    private record Hold(VirtualScheduler scheduler, Duration landsAfter, Runnable whileHeld) { }

    public InMemoryResources(Clock clock) {
        this.clock = clock;
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    public synchronized void put(String namespace, String name, int replicas) {
        Stored stored = new Stored();
        stored.specReplicas = replicas;
        store.put(key(namespace, name), stored);
    }

    public synchronized void putAnnotation(String namespace, String name, String key, String value) {
        Stored stored = store.get(key(namespace, name));
        stored.annotations.put(key, value);
        stored.version++;
    }

    /** Somebody else sets the replicas (an operator, an HPA). */
    public synchronized void setReplicas(String namespace, String name, int replicas) {
        Stored stored = store.get(key(namespace, name));
        stored.specReplicas = replicas;
        stored.version++;
    }

    /** Ready replicas stay at {@code ready} whatever the spec says (a rollout that does not progress). */
    public synchronized void fixReadyReplicas(String namespace, String name, int ready) {
        store.get(key(namespace, name)).fixedReadyReplicas = ready;
    }

    /** Ready replicas follow the spec again (the rollout completed). */
    public synchronized void releaseReadyReplicas(String namespace, String name) {
        store.get(key(namespace, name)).fixedReadyReplicas = null;
    }

    /** The next calls on this resource (any method) fail with these, in order. */
    public synchronized void failNext(String namespace, String name, ApiFailure... failures) {
        Deque<Throwable> queue = this.failures.computeIfAbsent(key(namespace, name), k -> new ArrayDeque<>());
        queue.addAll(List.of(failures));
    }

    /** The next call on this resource throws {@code error}, as a bug or an exhausted JVM would. */
    public synchronized void throwNext(String namespace, String name, Error error) {
        failures.computeIfAbsent(key(namespace, name), k -> new ArrayDeque<>()).add(error);
    }

    /**
     * Lets {@code skip} calls on this resource succeed, then fails the next one: a failure (or a
     * crash) can land between any two calls, e.g. between the annotation patch and the scale.
     */
    public synchronized void failAfter(String namespace, String name, int skip, ApiFailure failure) {
        Deque<Throwable> queue = this.failures.computeIfAbsent(key(namespace, name), k -> new ArrayDeque<>());
        for (int i = 0; i < skip; i++) {
            queue.add(PASS);
        }
        queue.add(failure);
    }

    /** From now on {@link #cached} shows the store as it is (a cache in sync with the seed). */
    public synchronized void keepCache() {
        cacheKept = true;
    }

    /** The cached view of this resource stays as it is now, whatever happens to it (a cache falling behind). */
    public synchronized void freezeCache(String namespace, String name, ResourceRef ref) {
        frozenCache.put(key(namespace, name), view(ref, store.get(key(namespace, name))));
    }

    public synchronized void thawCache(String namespace, String name) {
        frozenCache.remove(key(namespace, name));
    }

    /**
     * Lets {@code skip} writes on this resource pass, then runs another writer's change ({@link #setReplicas},
     * {@link #putAnnotation}, …) just before the next one: between the decision and a write.
     */
    public synchronized void beforeWrite(String namespace, String name, int skip, Runnable change) {
        Deque<Runnable> queue = beforeWrites.computeIfAbsent(key(namespace, name), k -> new ArrayDeque<>());
        for (int i = 0; i < skip; i++) {
            queue.add(() -> { });
        }
        queue.add(change);
    }

    private void runChangeBeforeWrite(String namespace, String name) {
        Deque<Runnable> queue = beforeWrites.get(key(namespace, name));
        if (queue != null && !queue.isEmpty()) {
            queue.poll().run();
        }
    }

    /**
     * The next write of this resource (any: a scale, a record, a clean-up) is held by the network:
     * {@code whileHeld} runs (the world goes on meanwhile), the call takes its whole deadline and fails
     * as a timeout, and the request lands {@code landsAfter} after that, if the resource is still at the
     * version it was made at (the API server's check), else it is refused.
     */
    public synchronized void holdNextWrite(String namespace, String name, VirtualScheduler scheduler,
            Duration landsAfter, Runnable whileHeld) {
        holds.put(key(namespace, name), new Hold(scheduler, landsAfter, whileHeld));
    }

    /**
     * From now on every read of this resource takes {@code each} to be answered; one whose timeout is
     * shorter takes its timeout and fails as a timeout.
     */
    public synchronized void slowReads(String namespace, String name, VirtualScheduler scheduler, Duration each) {
        slowReads.put(key(namespace, name), new SlowReads(scheduler, each));
    }

    /** Runs {@code check} after every write that changed something (a held write's landing included). */
    public synchronized void afterEachWrite(Runnable check) {
        this.afterEachWrite = check;
    }

    /**
     * Sends {@code write} (one write at a version) or, if it is to be held, holds it: the caller gets a
     * timeout after the deadline, and the write lands later unless the resource moved on.
     */
    private void sendOrHold(String namespace, String name, Duration deadline, Runnable write) {
        Hold hold = holds.remove(key(namespace, name));
        if (hold == null) {
            write.run();
            afterEachWrite.run();
            return;
        }
        hold.whileHeld().run();
        hold.scheduler().elapse(deadline);
        hold.scheduler().schedule(hold.landsAfter(), () -> {
            synchronized (this) {
                try {
                    write.run();
                    afterEachWrite.run();
                } catch (ApiFailure refused) {
                    writes.add(new Write(clock.now(), namespace, name, "held write refused: " + refused.getMessage(),
                            deadline));
                }
            }
        });
        throw new ApiFailure(ApiFailure.Kind.TIMEOUT, "writing " + name + " in " + namespace + ": timed out after "
                + deadline);
    }

    /** From now on, resources scale and annotate in one write, as Deployments and StatefulSets do. */
    public synchronized void scaleAndAnnotateInOneWrite() {
        oneWriteScales = true;
    }

    /** Calls of {@link #patchAnnotationsAt}, {@link #scaleAt} and {@link #scaleAndAnnotateAt} so far, conflicts included. */
    public synchronized int writesAt() {
        return writesAt;
    }

    /** Calls of {@link #read} so far. */
    public synchronized int reads() {
        return reads;
    }

    /** The resource's version now (its resourceVersion), without counting as a read. */
    public synchronized String version(String namespace, String name) {
        Stored stored = store.get(key(namespace, name));
        if (stored == null) {
            throw new ApiFailure(ApiFailure.Kind.NOT_FOUND, name + " not found in " + namespace);
        }
        return Long.toString(stored.version);
    }

    public synchronized int replicas(String namespace, String name) {
        return store.get(key(namespace, name)).specReplicas;
    }

    public synchronized Map<String, String> annotations(String namespace, String name) {
        return Map.copyOf(store.get(key(namespace, name)).annotations);
    }

    public synchronized List<Write> writes() {
        return List.copyOf(writes);
    }

    public synchronized List<Write> writes(String namespace) {
        return writes.stream().filter(w -> w.namespace().equals(namespace)).toList();
    }

    /** What the writes to {@code name} in {@code namespace} did, in order. */
    public synchronized List<String> writeDescriptions(String namespace, String name) {
        return writes.stream().filter(w -> w.namespace().equals(namespace) && w.name().equals(name))
                .map(Write::description).toList();
    }

    private void failIfQueued(String namespace, String name) {
        Deque<Throwable> queue = failures.get(key(namespace, name));
        if (queue != null && !queue.isEmpty()) {
            Throwable next = queue.poll();
            if (next instanceof Error error) {
                throw error;
            }
            if (next != PASS) {
                throw (ApiFailure) next;
            }
        }
    }

    @Override
    public synchronized Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        reads++;
        SlowReads slow = slowReads.get(key(namespace, ref.name()));
        if (slow != null) {
            slow.scheduler().elapse(slow.each().compareTo(timeout) < 0 ? slow.each() : timeout);
            if (slow.each().compareTo(timeout) > 0) {
                throw new ApiFailure(ApiFailure.Kind.TIMEOUT, "reading " + ref.name() + ": no answer within " + timeout);
            }
        }
        failIfQueued(namespace, ref.name());
        Stored stored = store.get(key(namespace, ref.name()));
        return stored == null ? Optional.empty() : Optional.of(view(ref, stored));
    }

    @Override
    public synchronized Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        if (!cacheKept) {
            return Optional.empty();
        }
        ScalableResource frozen = frozenCache.get(key(namespace, ref.name()));
        if (frozen != null) {
            return Optional.of(frozen);
        }
        Stored stored = store.get(key(namespace, ref.name()));
        return stored == null ? Optional.empty() : Optional.of(view(ref, stored));
    }

    private static ScalableResource view(ResourceRef ref, Stored stored) {
        int ready = stored.fixedReadyReplicas != null ? stored.fixedReadyReplicas : stored.specReplicas;
        return new ScalableResource(ref, Map.copyOf(stored.annotations), stored.specReplicas, ready,
                Long.toString(stored.version));
    }

    @Override
    public synchronized String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
            Map<String, Optional<String>> changes, Duration timeout) {
        writesAt++;
        failIfQueued(namespace, ref.name());
        runChangeBeforeWrite(namespace, ref.name());
        String[] answered = new String[1];
        sendOrHold(namespace, ref.name(), timeout, () -> {
            Stored stored = atVersion(namespace, ref, version);
            annotate(namespace, ref, stored, changes, timeout);
            answered[0] = Long.toString(stored.version);
        });
        return answered[0];
    }

    private void annotate(String namespace, ResourceRef ref, Stored stored, Map<String, Optional<String>> changes,
            Duration timeout) {
        var description = new StringBuilder("annotate");
        new TreeMap<>(changes).forEach((k, v) -> {
            if (v.isPresent()) {
                stored.annotations.put(k, v.get());
                description.append(' ').append(k).append('=').append(v.get());
            } else {
                stored.annotations.remove(k);
                description.append(' ').append(k).append('-');
            }
        });
        stored.version++;
        writes.add(new Write(clock.now(), namespace, ref.name(), description.toString(), timeout));
    }

    @Override
    public synchronized String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
        writesAt++;
        failIfQueued(namespace, ref.name());
        runChangeBeforeWrite(namespace, ref.name());
        String[] answered = new String[1];
        sendOrHold(namespace, ref.name(), timeout, () -> {
            Stored stored = atVersion(namespace, ref, version);
            writes.add(new Write(clock.now(), namespace, ref.name(), "scale " + stored.specReplicas + "->" + replicas,
                    timeout));
            stored.specReplicas = replicas;
            stored.version++;
            answered[0] = Long.toString(stored.version);
        });
        return answered[0];
    }

    @Override
    public synchronized boolean scalesInOneWrite(ResourceRef ref) {
        return oneWriteScales;
    }

    @Override
    public synchronized void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        if (!oneWriteScales) {
            throw new IllegalArgumentException(ref + " does not scale and annotate in one write");
        }
        writesAt++;
        failIfQueued(namespace, ref.name());
        runChangeBeforeWrite(namespace, ref.name());
        sendOrHold(namespace, ref.name(), timeout, () -> {
            Stored stored = atVersion(namespace, ref, version);
            var description = new StringBuilder("scale " + stored.specReplicas + "->" + replicas + " and annotate");
            new TreeMap<>(changes).forEach((k, v) -> {
                v.ifPresentOrElse(value -> stored.annotations.put(k, value), () -> stored.annotations.remove(k));
                description.append(' ').append(k).append(v.map(value -> "=" + value).orElse("-"));
            });
            stored.specReplicas = replicas;
            stored.version++;
            writes.add(new Write(clock.now(), namespace, ref.name(), description.toString(), timeout));
        });
    }

    /** The stored resource, if it is still at {@code version} (the API server's check of a versioned write). */
    private Stored atVersion(String namespace, ResourceRef ref, String version) {
        Stored stored = existing(namespace, ref);
        if (!Long.toString(stored.version).equals(version)) {
            throw new ApiFailure(ApiFailure.Kind.CONFLICT, ref + " in " + namespace + " is at version " + stored.version
                    + ", not " + version);
        }
        return stored;
    }

    private Stored existing(String namespace, ResourceRef ref) {
        Stored stored = store.get(key(namespace, ref.name()));
        if (stored == null) {
            throw new ApiFailure(ApiFailure.Kind.NOT_FOUND, ref + " not found in " + namespace);
        }
        return stored;
    }
}
