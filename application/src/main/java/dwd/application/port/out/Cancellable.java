package dwd.application.port.out;

/** A scheduled task that may be called off before it runs. */
@FunctionalInterface
public interface Cancellable {

    /** Prevents the task from starting if it has not started yet; a running task is not interrupted. */
    void cancel();
}
