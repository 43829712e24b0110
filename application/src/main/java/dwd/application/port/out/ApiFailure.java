package dwd.application.port.out;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A call through a driven port failed. Adapters translate their technology's errors into this,
 * so no client library exception ever reaches a use case.
 */
public final class ApiFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What went wrong, as far as a use case needs to know. */
    public enum Kind {
        /** The object does not exist (404). */
        NOT_FOUND,
        /** The object changed since it was read (409); re-read and retry. */
        CONFLICT,
        /** The server asked us to slow down (429). */
        THROTTLED,
        /** Credentials were rejected (401). */
        UNAUTHORIZED,
        /** The identity may not do this (403). */
        FORBIDDEN,
        /** The server rejected the request as invalid (400, 422), or the kind is unknown to it. */
        INVALID,
        /** The server could not be reached, reset the connection, or answered 5xx. */
        UNAVAILABLE,
        /** The call did not complete within its timeout. */
        TIMEOUT,
        /**
         * Input we were given is unusable: a secret without kubeconfig, a kubeconfig that does not parse, an
         * answer beyond what dwd reads of one (too large, too many items or pages), a redirect.
         */
        BAD_INPUT,
        /**
         * The server's certificate is signed by no certificate authority the client trusts (or its chain does
         * not verify): a credentials or rotation problem, not an outage.
         */
        CERTIFICATE_NOT_TRUSTED,
        /** The server's certificate (or one of its chain) is outside its validity: expired, or not valid yet. */
        CERTIFICATE_EXPIRED,
        /** The server's certificate is valid and trusted, but not for the host the client connected to. */
        CERTIFICATE_HOST_MISMATCH;

        /**
         * Whether the server's certificate did not verify: not a network outage, but a matter of the certificates
         * and the trust the kubeconfig carries, for whoever issues and rotates them.
         */
        public boolean isCertificateTrust() {
            return this == CERTIFICATE_NOT_TRUSTED || this == CERTIFICATE_EXPIRED || this == CERTIFICATE_HOST_MISMATCH;
        }
    }

    private final Kind kind;
    private final transient Optional<Duration> retryAfter;

    public ApiFailure(Kind kind, String message) {
        this(kind, message, Optional.empty(), null);
    }

    public ApiFailure(Kind kind, String message, Throwable cause) {
        this(kind, message, Optional.empty(), cause);
    }

    public ApiFailure(Kind kind, String message, Optional<Duration> retryAfter, Throwable cause) {
        super(Objects.requireNonNull(message), cause);
        this.kind = Objects.requireNonNull(kind);
        this.retryAfter = Objects.requireNonNull(retryAfter);
    }

    public Kind kind() {
        return kind;
    }

    /** For {@link Kind#THROTTLED}: how long the server asked us to wait, if it said. */
    public Optional<Duration> retryAfter() {
        return retryAfter;
    }

    public boolean is(Kind candidate) {
        return kind == candidate;
    }
}
