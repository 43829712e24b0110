package dwd.bootstrap.demo;

/** The demo could not be played (not: a step was not observed). */
final class DemoFailure extends Exception {
    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
        super(message);
    }

    DemoFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
