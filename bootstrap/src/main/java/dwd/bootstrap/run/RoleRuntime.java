package dwd.bootstrap.run;

/**
 * A role's work (the prober's or the weeder's watches and loops), as {@link RoleOperability}
 * drives it: started once leading (at once without leader election), closed on shutdown.
 */
public interface RoleRuntime extends AutoCloseable {

    /** Starts watching; returns once the role's caches are synced. */
    void start();

    /** Whether it was started and its caches are synced (readiness). */
    boolean isStartedAndSynced();

    /** Stops in reverse order of start; called whether or not it was started. */
    @Override
    void close();
}
