package dwd.bootstrap.check;

/**
 * Input that cannot be used: a file that does not parse, a config with a wrong entry, an object
 * that cannot be read. The message says what and where ({@code file:line:column: ...}).
 */
final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InputException(String message) {
        super(message);
    }

    InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
