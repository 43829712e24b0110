package dwd.adapters.k8s.watch;

import java.util.Objects;

/**
 * Where the list-watches of one API server report: an unreachable server to its {@link OutageLog}
 * (shared with the server's other clients, so an outage is one warning), and that they run to its
 * {@link RunningWatches}. One per server and process.
 */
public record WatchReports(OutageLog outages, RunningWatches running) {

    public WatchReports {
        Objects.requireNonNull(outages, "outages");
        Objects.requireNonNull(running, "running");
    }

    /** Reports to {@code outages}, and to a registry of running watches of their own. */
    public WatchReports(OutageLog outages) {
        this(outages, new RunningWatches());
    }
}
