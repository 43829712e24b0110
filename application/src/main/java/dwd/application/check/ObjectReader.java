package dwd.application.check;

import java.util.Map;

/** Driven port: reads any live object, custom resources included, as a generic document. */
@FunctionalInterface
public interface ObjectReader {

    /**
     * Reads the object as the API server returns it: maps, lists, strings, booleans, and numbers as
     * {@link Long} when integral in the JSON and {@link Double} otherwise.
     *
     * @throws ObjectReadException when the kind is unknown, the object is missing or the API server
     *     cannot be asked; its message says which and how to fix it
     */
    Map<String, Object> read(ObjectReference reference);
}
