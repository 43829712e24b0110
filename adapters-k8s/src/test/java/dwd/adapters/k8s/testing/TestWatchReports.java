package dwd.adapters.k8s.testing;

import dwd.adapters.k8s.watch.OutageLog;
import dwd.adapters.k8s.watch.WatchReports;
import io.kubernetes.client.openapi.ApiClient;

/** Where the watches of a component under test report, as a process's seed connection would have them report. */
public final class TestWatchReports {

    private TestWatchReports() {
    }

    /** An OutageLog and a registry of running watches of their own, for the local API server. */
    public static WatchReports create() {
        return new WatchReports(new OutageLog("API server"));
    }

    /** As {@link #create()}, the OutageLog noting the outcome of every call of {@code client} (as the seed's clients do). */
    public static WatchReports detecting(ApiClient client) {
        var outages = new OutageLog("API server " + client.getBasePath());
        outages.detecting().apply(client);
        return new WatchReports(outages);
    }
}
