package dwd.application.port.out;

/**
 * Whether this process may write now. With leader election, only the holder of the role's Lease
 * may; the answer turns false the moment leadership is in doubt (renew deadline passed), before
 * anyone else can have taken over.
 */
@FunctionalInterface
public interface Leadership {

    /** True while this process may change the cluster. */
    boolean isLeading();

    /** For a single replica without leader election: always leading. */
    static Leadership always() {
        return () -> true;
    }
}
