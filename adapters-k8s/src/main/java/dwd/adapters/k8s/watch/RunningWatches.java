package dwd.adapters.k8s.watch;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The registry of one API server's list-watches that run: for what the process says about its
 * caches, how long since each resource's cache last heard from the server (a metric), and which
 * watches ended for good (a liveness check). A watch joins when it starts and leaves when its thread
 * has ended, or, if its loop died, when it is closed.
 */
public final class RunningWatches {

    private final Set<CacheLiveness> running = ConcurrentHashMap.newKeySet();
    private final Set<String> resources = ConcurrentHashMap.newKeySet();
    private volatile Consumer<String> newResource = resource -> { };

    void add(CacheLiveness watch) {
        running.add(watch);
        String resource = watch.resource();
        if (resources.add(resource)) {
            newResource.accept(resource);
        }
    }

    void remove(CacheLiveness watch) {
        running.remove(watch);
    }

    /**
     * Tells {@code listener} about every resource watched so far and each one watched for the first time
     * from now on (once each): where the age of a resource's caches is published.
     */
    public synchronized void onEachResource(Consumer<String> listener) {
        Consumer<String> previous = newResource;
        newResource = resource -> {
            previous.accept(resource);
            listener.accept(resource);
        };
        resources.forEach(listener);
    }

    /** The age of the oldest running cache of {@code resource} (since it last heard from its server); empty when none runs. */
    public Optional<Duration> oldest(String resource) {
        return running.stream().filter(watch -> watch.resource().equals(resource)).map(CacheLiveness::age)
                .max(Duration::compareTo);
    }

    /** The watches whose loop ended without being closed, as {@code kinds}: their caches will not fill again. */
    public List<String> dead() {
        return running.stream().filter(CacheLiveness::isDead).map(CacheLiveness::kinds).sorted().toList();
    }
}
