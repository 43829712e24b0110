package dwd.application.check;

import java.util.Objects;

/** A live object that could not be read; the message says what failed, where, and what to do. */
public final class ObjectReadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the read failed. */
    public enum Reason {
        /** No served resource has the kind (or the API version is not served). */
        UNKNOWN_KIND,
        /** The kind is served by several API groups; an API version must choose one. */
        AMBIGUOUS_KIND,
        /** The kind is known but the object does not exist. */
        NOT_FOUND,
        /** The credentials were rejected or lack permission. */
        NOT_ALLOWED,
        /** The API server could not be reached or answered with an error. */
        UNAVAILABLE,
        /** The API server answered with something that is not an object. */
        INVALID_RESPONSE
    }

    private final Reason reason;

    public ObjectReadException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public ObjectReadException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
