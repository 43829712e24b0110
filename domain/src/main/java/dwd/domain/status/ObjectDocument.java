package dwd.domain.status;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Kubernetes object as a generic document (maps, lists, strings, numbers, booleans), read the way
 * Kubernetes' unstructured helpers read it: strict accessors fail on a wrong type, lenient ones fall
 * back to a default.
 *
 * <p>Integers are {@link Integer}, {@link Long}, {@link Short}, {@link Byte} or a {@link BigInteger}
 * that fits a long. Any other number ({@code 1.0} included) is not an integer, as in Go, where JSON
 * {@code 1.0} decodes to a float.
 */
public final class ObjectDocument {

    private final Map<String, ?> content;

    private ObjectDocument(Map<String, ?> content) {
        this.content = content;
    }

    /** Wraps a parsed document; the map is read, never copied or changed. */
    public static ObjectDocument of(Map<String, ?> content) {
        if (content == null) {
            throw new IllegalArgumentException("an object document cannot be null");
        }
        return new ObjectDocument(content);
    }

    /** The wrapped document. */
    public Map<String, ?> content() {
        return content;
    }

    /** apiVersion, kind, metadata.namespace and metadata.name, each empty when absent or not a string. */
    public ObjectIdentity identity() {
        return new ObjectIdentity(
                string("apiVersion", ""), string("kind", ""),
                string("metadata.namespace", ""), string("metadata.name", ""));
    }

    /**
     * The value at a dotted path, if every step is a mapping and the last key is present with a
     * non-null value. A null on the way or at the end reads as absent, as a typed Go object decodes it.
     *
     * @throws MalformedObjectException when a step on the way is present but not a mapping
     */
    public Optional<Object> field(String path) {
        return Optional.ofNullable(nested(path).value());
    }

    /**
     * Where a walk along a dotted path ends, as Go's {@code unstructured.NestedFieldNoCopy} walks:
     * {@code found} when the last key is present, even with an explicit null as its value; not found
     * when a key is missing or a step on the way is null.
     *
     * @param value the value found, null when not found or when the field is an explicit null
     */
    public record Nested(boolean found, Object value) {
        static final Nested ABSENT = new Nested(false, null);
    }

    /**
     * Walks a dotted path as Go's {@code unstructured.NestedFieldNoCopy} does (see {@link Nested}).
     *
     * @throws MalformedObjectException when a step on the way is present but not a mapping
     */
    public Nested nested(String path) {
        String[] keys = path.split("\\.");
        Object current = content;
        StringBuilder walked = new StringBuilder();
        for (String key : keys) {
            if (current == null) {
                return Nested.ABSENT;
            }
            if (!(current instanceof Map<?, ?> map)) {
                throw new MalformedObjectException(walked.toString(), "expected a mapping, found " + describe(current));
            }
            if (!walked.isEmpty()) {
                walked.append('.');
            }
            walked.append(key);
            if (!map.containsKey(key)) {
                return Nested.ABSENT;
            }
            current = map.get(key);
        }
        return new Nested(true, current);
    }

    /** Like {@link #field(String)}, but a wrong type on the way counts as absent. */
    public Optional<Object> fieldOrAbsent(String path) {
        try {
            return field(path);
        } catch (MalformedObjectException wrongShape) {
            return Optional.empty();
        }
    }

    /**
     * An integer field, strictly: absent gives empty, present but not an integer fails.
     *
     * @throws MalformedObjectException when the value (or a step on the way) has the wrong type
     */
    public OptionalLong requiredTypeInteger(String path) {
        Optional<Object> value = field(path);
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(asInteger(value.get())
                .orElseThrow(() -> new MalformedObjectException(path, "expected an integer, found " + describe(value.get()))));
    }

    /**
     * A string field, strictly: absent gives empty, present but not a string fails.
     *
     * @throws MalformedObjectException when the value (or a step on the way) has the wrong type
     */
    public Optional<String> requiredTypeString(String path) {
        Optional<Object> value = field(path);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if (value.get() instanceof String text) {
            return Optional.of(text);
        }
        throw new MalformedObjectException(path, "expected a string, found " + describe(value.get()) + hintFor(value.get()));
    }

    /** An integer field, leniently: absent, wrongly typed or not an integer gives the default. */
    public long integer(String path, long defaultValue) {
        return fieldOrAbsent(path).flatMap(ObjectDocument::asInteger).orElse(defaultValue);
    }

    /** A string field, leniently: absent or not a string gives the default. */
    public String string(String path, String defaultValue) {
        return fieldOrAbsent(path).filter(String.class::isInstance).map(String.class::cast).orElse(defaultValue);
    }

    /** A boolean field, leniently: absent or not a boolean gives the default. */
    public boolean bool(String path, boolean defaultValue) {
        return fieldOrAbsent(path).filter(Boolean.class::isInstance).map(Boolean.class::cast).orElse(defaultValue);
    }

    /**
     * A list field, strictly: absent gives an empty list, present but not a list fails.
     *
     * @throws MalformedObjectException when the value (or a step on the way) has the wrong type
     */
    public List<?> requiredTypeList(String path) {
        Optional<Object> value = field(path);
        if (value.isEmpty()) {
            return List.of();
        }
        if (value.get() instanceof List<?> list) {
            return list;
        }
        throw new MalformedObjectException(path, "expected a list, found " + describe(value.get()));
    }

    /** The value as a long if it is an integer type (see the class comment), else empty. */
    static Optional<Long> asInteger(Object value) {
        return switch (value) {
            case null -> Optional.empty();
            case Integer i -> Optional.of(i.longValue());
            case Long l -> Optional.of(l);
            case Short s -> Optional.of(s.longValue());
            case Byte b -> Optional.of(b.longValue());
            case BigInteger big when big.bitLength() < Long.SIZE -> Optional.of(big.longValue());
            default -> Optional.empty();
        };
    }

    /** A short description of a value and its type, for error messages. */
    static String describe(Object value) {
        return switch (value) {
            case null -> "null";
            case String text -> GoQuoting.quote(text) + " (a string)";
            case Boolean bool -> bool + " (a boolean)";
            case Map<?, ?> ignored -> "a mapping";
            case List<?> ignored -> "a list";
            case Number number when asInteger(number).isPresent() -> number + " (an integer)";
            case Number number -> number + " (a decimal number)";
            default -> value.getClass().getSimpleName();
        };
    }

    /** YAML turns an unquoted {@code True} into a boolean; say how to keep it a string. */
    static String hintFor(Object value) {
        if (value instanceof Boolean bool) {
            String word = bool ? "True" : "False";
            return "; YAML reads an unquoted " + word + " as a boolean, quote it: \"" + word + "\"";
        }
        return "";
    }
}
