package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.watch.ListWatch;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What a probe reads from the seed while a cache is not trusted (its watch went silent, failed, or
 * died), bounded so that a seed-wide cache failure does not turn every probe into a seed request: the
 * cache's own copy stands in while it was current within {@link #LIMIT}; after that, each key (a
 * namespace's Machines, a secret) is read from the seed at most once per {@link #LIMIT}, the read kept
 * as that key's copy. At 1,000 shoots that is about 8 reads a second, where one a probe would be 33
 * (Gardener's 30 s probe interval).
 *
 * @param <T> what is read
 */
final class RecentCopies<T> {

    /**
     * How old a copy may be: four of Gardener's 30 s probe intervals. What these caches hold changes
     * slowly (a shoot's Machines, its access secret, rotated hours before the old token expires).
     */
    static final Duration LIMIT = Duration.ofMinutes(2);

    private record Copy<T>(T value, long readAtNanos) { }

    private final Map<String, Copy<T>> reads = new ConcurrentHashMap<>();

    /** Whether the cache's copy may stand in for a read: it was current (a list, an event, a bookmark) within {@link #LIMIT}. */
    static boolean youngEnough(ListWatch<?> cache) {
        return cache.copyAge().filter(age -> age.compareTo(LIMIT) <= 0).isPresent();
    }

    /** The copy of {@code key} read within {@link #LIMIT}, else what {@code read} reads now, kept as its copy. */
    T get(String key, Supplier<T> read) {
        long now = System.nanoTime();
        Copy<T> copy = reads.get(key);
        if (copy != null && now - copy.readAtNanos() <= LIMIT.toNanos()) {
            return copy.value();
        }
        T value = read.get();
        reads.put(key, new Copy<>(value, now));
        return value;
    }

    /** The cache is trusted again: the reads' copies are not needed any more. */
    void forget() {
        if (!reads.isEmpty()) {
            reads.clear();
        }
    }
}
