package dwd.adapters.k8s;

/**
 * An API server's answer went beyond what dwd reads of one (size, items, pages): refused unread
 * as a whole, so that no server can make dwd hold more than the bound. Translated to
 * {@code BAD_INPUT} by {@link ApiFailures}.
 */
public final class AnswerOutOfBounds extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param detail what exceeded which bound, and what to do about it */
    public AnswerOutOfBounds(String detail) {
        super(detail);
    }
}
