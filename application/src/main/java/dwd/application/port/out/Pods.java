package dwd.application.port.out;

/**
 * Deletes pods. The weeder's only write: shadow mode decorates this port (client dry-run: nothing is
 * sent; server dry-run: sent with {@code dryRun=All}, precondition included).
 */
@FunctionalInterface
public interface Pods {

    /** How a deletion ended, when it did not fail. */
    enum Deletion {
        /** The pod was deleted (or, in server dry-run, would have been). */
        DELETED,
        /** No pod of that name exists any more. */
        ALREADY_GONE,
        /** A pod of that name exists, but it is another incarnation (another UID): it was left alone. */
        REPLACED,
    }

    /**
     * Deletes pod {@code name} in {@code namespace} only if its UID is still {@code uid}, so that a
     * replacement with the same name is never deleted by mistake. The pod's own grace period applies.
     *
     * @throws ApiFailure when the call fails for another reason
     */
    Deletion delete(String namespace, String name, String uid);

    /**
     * {@code true} when every deletion is sent with {@code dryRun=All}: checked by the API server,
     * persisted nowhere. Server-side shadow mode refuses to start on pods that would be deleted for real.
     */
    default boolean dryRunWrites() {
        return false;
    }
}
