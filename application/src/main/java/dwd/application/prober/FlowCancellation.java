package dwd.application.prober;

import java.util.ArrayList;
import java.util.List;

/**
 * Cancellation of one scale flow, shared by its steps. Steps check it before writing and
 * register their waits (initial delay, retry back-off, readiness polls) so that a cancelled flow
 * stops at once instead of when the wait would have ended.
 */
final class FlowCancellation {

    private boolean cancelled;
    private final List<Runnable> onCancel = new ArrayList<>();

    synchronized boolean isCancelled() {
        return cancelled;
    }

    /** Cancels the flow and runs every registered action once. */
    void cancel() {
        List<Runnable> actions;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            actions = List.copyOf(onCancel);
            onCancel.clear();
        }
        actions.forEach(Runnable::run);
    }

    /** Runs {@code action} when the flow is cancelled, or now if it already is. */
    void onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                onCancel.add(action);
                return;
            }
        }
        action.run();
    }
}
