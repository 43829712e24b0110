package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.watch.ListWatch;
import dwd.domain.config.GoDuration;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * When a copy in one of the prober's seed caches may stand in for the API server: the one rule of the
 * dependents' cache ({@code DependentsCache}), the Machines' ({@code KubernetesMachines}) and the
 * shoot-access secrets' ({@code KubeconfigSecrets}).
 * <ol>
 *   <li>The cache's copy is used while its watch has proven itself alive ({@link ListWatch#hasSynced()}: a
 *       complete list, a word from its server within the silence bound, its loop running) and has shown
 *       dwd's last write of the object, if dwd wrote it: an event or bookmark at or past the version the
 *       write was answered at, or the copy at that version (a watch delivers in order). A watch on a
 *       connection that went silent without closing never shows a write dwd made on another connection, and
 *       a copy from before the write shows what the write replaced.</li>
 *   <li>Otherwise a copy that was current (a list, an event, a bookmark) within the cache's stand-in age
 *       still answers: what changes slowly (a shoot's Machines, its access secret) is read from the seed at
 *       most once per {@link #STAND_IN_AGE} while the cache is not trusted. A dependent's copy never
 *       stands in: a decision taken on it may be one on what a missed write replaced.</li>
 *   <li>Otherwise the API server is asked.</li>
 * </ol>
 * Asking never waits: a cache that has not listed yet is not trusted. A reader that would rather wait for
 * a first list than ask the server does so before it asks, for a bounded time
 * ({@code DependentsCache.awaitFirstLists}, the secrets' first list within a probe's call timeout).
 *
 * @param <K> what names an object dwd writes
 */
final class CacheTrust<K extends CacheTrust.Written> {

    private static final Logger LOG = LogManager.getLogger();

    /**
     * How old a copy of what changes slowly may be and still stand in: four of Gardener's 30 s probe
     * intervals. A shoot's Machines change with its nodes, its access secret is rotated hours before the
     * old token expires.
     */
    static final Duration STAND_IN_AGE = Duration.ofMinutes(2);

    /** A write the watch has not shown for this long is logged at INFO: a live watch shows it within moments. */
    static final Duration UNSEEN_WRITE_NOTICE = Duration.ofSeconds(5);
    /** Writes noted at most; beyond, the ones their watch has seen are forgotten (dependents of deleted shoots). */
    private static final int MAX_NOTED_WRITES = 10_000;

    /** An object dwd writes, as the log names it. */
    interface Written {
        String namespace();

        String name();
    }

    /** What the rule reads of a cache's watch. */
    interface WatchState {
        /** {@link ListWatch#hasSynced()}. */
        boolean hasSynced();

        /** {@link ListWatch#copyAge()}. */
        Optional<Duration> copyAge();

        /** {@link ListWatch#hasSeen(String)}. */
        boolean hasSeen(String resourceVersion);

        /** {@link ListWatch#kinds()}. */
        String kinds();

        static WatchState of(ListWatch<?> watch) {
            return new WatchState() {
                @Override
                public boolean hasSynced() {
                    return watch.hasSynced();
                }

                @Override
                public Optional<Duration> copyAge() {
                    return watch.copyAge();
                }

                @Override
                public boolean hasSeen(String resourceVersion) {
                    return watch.hasSeen(resourceVersion);
                }

                @Override
                public String kinds() {
                    return watch.kinds();
                }
            };
        }
    }

    /** How a cache's copy may be used now. */
    enum Use {
        /** The watch is trusted and has shown dwd's last write of the object: its copy decides. */
        CACHE,
        /** The watch is not trusted, but its copy was current within the stand-in age: the copy answers. */
        RECENT_COPY,
        /** Ask the API server. */
        SERVER
    }

    private final Duration standIn;
    private final Function<K, Optional<WatchState>> watchOf;
    private final Map<K, OwnWrite> ownWrites = new ConcurrentHashMap<>();

    private CacheTrust(Duration standIn, Function<K, Optional<WatchState>> watchOf) {
        this.standIn = standIn;
        this.watchOf = watchOf;
    }

    /**
     * The rule for objects dwd writes, whose copies never stand in.
     *
     * @param watchOf the watch that shows an object, if one runs
     */
    static <K extends Written> CacheTrust<K> forWrittenObjects(Function<K, Optional<WatchState>> watchOf) {
        return new CacheTrust<>(Duration.ZERO, watchOf);
    }

    /** The rule for what dwd only reads and changes slowly, whose copies stand in for {@link #STAND_IN_AGE}. */
    static CacheTrust<Written> forSlowlyChanging() {
        return new CacheTrust<>(STAND_IN_AGE, ignored -> Optional.empty());
    }

    /** How {@code watch}'s copy of {@code object} may be used now, {@code copyVersion} being its version, if it holds one. */
    Use use(ListWatch<?> watch, K object, Optional<String> copyVersion) {
        return use(WatchState.of(watch), object, copyVersion);
    }

    /** How {@code watch}'s copies may be used now, for what dwd never writes. */
    Use use(ListWatch<?> watch) {
        return use(WatchState.of(watch), null, Optional.empty());
    }

    Use use(WatchState watch, K object, Optional<String> copyVersion) {
        if (watch.hasSynced()) {
            return ownWriteShown(watch, object, copyVersion) ? Use.CACHE : Use.SERVER;
        }
        boolean recent = standIn.isPositive() && watch.copyAge().filter(age -> age.compareTo(standIn) <= 0).isPresent();
        return recent ? Use.RECENT_COPY : Use.SERVER;
    }

    /** dwd wrote {@code object} and the API server answered at {@code version}: its copy is used again once its watch showed it. */
    void wrote(K object, String version) {
        if (ownWrites.size() >= MAX_NOTED_WRITES) {
            ownWrites.entrySet().removeIf(noted -> watchOf.apply(noted.getKey())
                    .map(watch -> watch.hasSeen(noted.getValue().version())).orElse(true));
        }
        ownWrites.put(object, new OwnWrite(version, System.nanoTime()));
    }

    /** Forgets every write noted (the cache is closed). */
    void forget() {
        ownWrites.clear();
    }

    private boolean ownWriteShown(WatchState watch, K object, Optional<String> copyVersion) {
        OwnWrite write = object == null ? null : ownWrites.get(object);
        if (write == null) {
            return true;
        }
        if (watch.hasSeen(write.version()) || copyVersion.filter(write.version()::equals).isPresent()) {
            ownWrites.remove(object, write);
            return true;
        }
        Duration unseenFor = Duration.ofNanos(System.nanoTime() - write.atNanos());
        Level level = unseenFor.compareTo(UNSEEN_WRITE_NOTICE) >= 0 && write.noticeOnce() ? Level.INFO : Level.DEBUG;
        LOG.log(level, () -> object.namespace() + ": the watch of " + watch.kinds() + " has not shown dwd's write of "
                + object.name() + " (version " + write.version() + ", " + GoDuration.format(unseenFor.truncatedTo(ChronoUnit.SECONDS))
                + " ago); reading the API server instead");
        return false;
    }

    /** A write the API server answered at {@code version}, at {@code atNanos} on the monotonic clock. */
    private record OwnWrite(String version, long atNanos, AtomicBoolean noticed) {
        OwnWrite(String version, long atNanos) {
            this(version, atNanos, new AtomicBoolean());
        }

        /** True the first time only: a write unseen for long is logged once at INFO. */
        boolean noticeOnce() {
            return noticed.compareAndSet(false, true);
        }
    }
}
