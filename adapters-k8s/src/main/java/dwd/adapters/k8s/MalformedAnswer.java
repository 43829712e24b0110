package dwd.adapters.k8s;

/**
 * An API server's answer is not the JSON expected (not JSON, or not of the shape dwd reads), as a
 * streaming reader found it: whichever JSON library read it, the failure is this one. Translated to
 * {@code INVALID} by {@link ApiFailures}.
 */
public final class MalformedAnswer extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param detail what the reader found wrong, without the answer's content */
    public MalformedAnswer(String detail, Throwable cause) {
        super(detail, cause);
    }
}
