package dwd.adapters.k8s.prober;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What a probe reads from the seed while a cache is not trusted (its watch went silent, failed, or
 * died), bounded so that a seed-wide cache failure does not turn every probe into a seed request: the
 * cache's own copy stands in while it was current within {@link #LIMIT} ({@link CacheTrust}); after that,
 * each key (a namespace's Machines, a secret) is read from the seed at most once per {@link #LIMIT}, the
 * read kept as that key's copy. At 1,000 shoots that is about 8 reads a second, where one a probe would be 33
 * (Gardener's 30 s probe interval).
 *
 * @param <T> what is read
 */
final class RecentCopies<T> {

    /** How old a copy may be: as old as a cache's copy may be and still stand in ({@link CacheTrust#STAND_IN_AGE}). */
    static final Duration LIMIT = CacheTrust.STAND_IN_AGE;

    private record Copy<T>(T value, long readAtNanos) { }

    private final Map<String, Copy<T>> reads = new ConcurrentHashMap<>();

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
