package dwd.domain.status;

/**
 * kstatus' status values. {@link Kstatus#compute} yields the first four; {@link #NOT_FOUND} and
 * {@link #UNKNOWN} belong to whoever reads the object (a 404, a read or compute error).
 */
public enum KstatusStatus {
    IN_PROGRESS("InProgress"),
    FAILED("Failed"),
    CURRENT("Current"),
    TERMINATING("Terminating"),
    NOT_FOUND("NotFound"),
    UNKNOWN("Unknown");

    private final String text;

    KstatusStatus(String text) {
        this.text = text;
    }

    /** The value as kstatus spells it, e.g. {@code InProgress}. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
