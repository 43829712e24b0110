package dwd.adapters.k8s.watch;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.JsonFields;
import dwd.application.runtime.Recurrences;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What one list-watch has seen, by namespace and name, kept as its caller's decoder makes it, and
 * its caller told of every change and deletion. Written by the watch's thread only; read from any
 * thread.
 */
final class WatchCache<T> {

    private static final Logger LOG = LogManager.getLogger();

    /** An object's place in the cache; {@code ""} as namespace for cluster-scoped objects. */
    record Key(String namespace, String name) {

        static Optional<Key> of(JsonObject object) {
            return JsonFields.string(object, "metadata", "name")
                    .map(name -> new Key(JsonFields.string(object, "metadata", "namespace").orElse(""), name));
        }

        @Override
        public String toString() {
            return namespace.isEmpty() ? name : namespace + "/" + name;
        }
    }

    private final String kinds;
    private final Function<JsonObject, T> decode;
    private final Consumer<T> onChange;
    private final Consumer<T> onDelete;
    private final BooleanSupplier closed;
    private final Map<String, Map<String, T>> byNamespace = new ConcurrentHashMap<>();
    /** Objects that do not decode, and objects whose handling failed: logged once while they keep failing. */
    private final Recurrences<Key> unreadable = new Recurrences<>(System::nanoTime);
    private final Recurrences<Key> unhandled = new Recurrences<>(System::nanoTime);

    /**
     * @param onChange told of an object added, modified, or still there after a fresh list
     * @param onDelete told of an object's last state when it is deleted, or gone after a fresh list
     * @param closed  once true, nobody is told anything more
     */
    WatchCache(String kinds, Function<JsonObject, T> decode, Consumer<T> onChange, Consumer<T> onDelete,
            BooleanSupplier closed) {
        this.kinds = kinds;
        this.decode = decode;
        this.onChange = onChange;
        this.onDelete = onDelete;
        this.closed = closed;
    }

    Optional<T> get(String namespace, String name) {
        Map<String, T> objects = byNamespace.get(namespace);
        return objects == null ? Optional.empty() : Optional.ofNullable(objects.get(name));
    }

    List<T> inNamespace(String namespace) {
        Map<String, T> objects = byNamespace.get(namespace);
        return objects == null ? List.of() : List.copyOf(objects.values());
    }

    /**
     * Keeps the object as decoded and tells of it; an object that does not decode is logged (once while
     * it goes on failing the same way, and once when it reads again) and left out.
     */
    void changed(Key key, JsonObject object) {
        T value;
        try {
            value = decode.apply(object);
        } catch (RuntimeException e) {
            if (unreadable.seen(key, String.valueOf(e)).worthTelling()) {
                LOG.error("{}: reading {} failed; it is left out (while it fails the same way, at debug level)", kinds,
                        key, e);
            } else {
                LOG.debug("{}: reading {} failed again; it is left out", kinds, key, e);
            }
            return;
        }
        unreadable.clear(key).ifPresent(cleared -> LOG.info("{}: {} reads again, after {}", kinds, key, cleared.summary()));
        byNamespace.computeIfAbsent(key.namespace(), namespace -> new ConcurrentHashMap<>()).put(key.name(), value);
        tell(key, () -> onChange.accept(value));
    }

    /** Forgets the object and tells its last state, if it was kept. */
    void deleted(Key key) {
        unreadable.forget(key);
        unhandled.forget(key);
        Map<String, T> objects = byNamespace.get(key.namespace());
        T last = objects == null ? null : objects.remove(key.name());
        if (last != null) {
            tell(key, () -> onDelete.accept(last));
        }
    }

    /** After a complete list: every object it did not hold is gone. */
    void keepOnly(Set<Key> listed) {
        for (var namespace : byNamespace.entrySet()) {
            for (String name : List.copyOf(namespace.getValue().keySet())) {
                var key = new Key(namespace.getKey(), name);
                if (!listed.contains(key)) {
                    deleted(key);
                }
            }
        }
    }

    private void tell(Key key, Runnable event) {
        if (closed.getAsBoolean()) {
            return;
        }
        try {
            event.run();
            unhandled.clear(key).ifPresent(cleared -> LOG.info("{}: handling {} works again, after {}", kinds, key,
                    cleared.summary()));
        } catch (RuntimeException e) {
            if (unhandled.seen(key, String.valueOf(e)).worthTelling()) {
                LOG.error("{}: handling {} failed (while it fails the same way, at debug level)", kinds, key, e);
            } else {
                LOG.debug("{}: handling {} failed again", kinds, key, e);
            }
        }
    }
}
