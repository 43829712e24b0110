package dwd.adapters.k8s.input;

/**
 * Input dwd cannot use: a file that is not a regular file, too large, not UTF-8 text, or YAML that
 * breaks one of dwd's bounds. The message is one line saying what is wrong and where (a line and
 * column when there is one), never quoting a library's internals; the caller names the input.
 */
public final class UnusableInput extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnusableInput(String message) {
        super(message);
    }
}
