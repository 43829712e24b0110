package dwd.application.port.out;

/** A running watch on pods, from {@link PodWatches#watch}. */
@FunctionalInterface
public interface PodWatch extends AutoCloseable {

    /**
     * Stops the watch: no event is delivered after this returns, except one already being
     * delivered. Returns at once, never fails, and may be called more than once.
     */
    @Override
    void close();
}
