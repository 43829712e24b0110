package dwd.adapters.metrics;

import dwd.application.prober.ProbeStatusBoard;
import dwd.application.prober.ProbeStatusBoard.Flow;
import dwd.application.prober.ProbeStatusBoard.ShootStatus;
import dwd.domain.lease.LeaseVerdict;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** The {@code /probes} page: the probe status board as JSON, one entry per shoot. */
public final class ProbeStatusJson implements Supplier<String> {

    private final ProbeStatusBoard board;
    private final Supplier<Instant> now;

    public ProbeStatusJson(ProbeStatusBoard board, Supplier<Instant> now) {
        this.board = board;
        this.now = now;
    }

    @Override
    public String get() {
        List<ShootStatus> shoots = board.snapshot();
        var page = new LinkedHashMap<String, Object>();
        page.put("generatedAt", now.get());
        page.put("count", shoots.size());
        page.put("shoots", shoots.stream().map(ProbeStatusJson::shoot).toList());
        return Json.write(page);
    }

    private static Map<String, Object> shoot(ShootStatus status) {
        var shoot = new LinkedHashMap<String, Object>();
        shoot.put("namespace", status.namespace());
        shoot.put("state", name(status.state()));
        shoot.put("probingSince", status.probingSince());
        shoot.put("nextProbe", status.nextProbe());
        shoot.put("lastVerdict", status.lastVerdict().map(verdict -> {
            var out = verdict(verdict.verdict());
            out.put("at", verdict.at());
            out.put("action", verdict.action().map(ProbeStatusJson::name));
            return out;
        }));
        shoot.put("lastFailure", status.lastFailure().map(failure -> {
            var out = new LinkedHashMap<String, Object>();
            out.put("at", failure.at());
            out.put("stage", name(failure.stage()));
            out.put("kind", name(failure.kind()));
            out.put("message", failure.message());
            return out;
        }));
        shoot.put("lastFlow", status.lastFlow().map(ProbeStatusJson::flow));
        return shoot;
    }

    private static LinkedHashMap<String, Object> verdict(LeaseVerdict verdict) {
        var out = new LinkedHashMap<String, Object>();
        out.put("decision", name(verdict.decision()));
        out.put("candidates", verdict.candidates());
        out.put("expired", verdict.expired());
        out.put("fraction", verdict.fraction());
        out.put("threshold", verdict.threshold());
        out.put("summary", verdict.summary());
        out.put("excludedNodes", verdict.excludedNodes().entrySet().stream().map(entry -> {
            var node = new LinkedHashMap<String, Object>();
            node.put("node", entry.getKey());
            node.put("reasons", entry.getValue().stream().map(ProbeStatusJson::name).toList());
            return node;
        }).toList());
        out.put("leasesWithoutRenewTime", verdict.leasesWithoutRenewTime());
        out.put("orphanLeases", verdict.orphanLeases());
        out.put("candidateNodesWithoutLease", verdict.candidateNodesWithoutLease());
        out.put("predictedCrossing", verdict.predictedCrossing());
        return out;
    }

    private static Map<String, Object> flow(Flow flow) {
        var out = new LinkedHashMap<String, Object>();
        out.put("direction", name(flow.direction()));
        out.put("startedAt", flow.startedAt());
        out.put("finishedAt", flow.finishedAt());
        out.put("result", flow.outcome().map(ProbeStatusJson::name).orElse("running"));
        out.put("resources", flow.steps().stream().map(step -> {
            var resource = new LinkedHashMap<String, Object>();
            resource.put("resource", step.ref().toString());
            resource.put("result", step.result());
            resource.put("detail", step.detail());
            return resource;
        }).toList());
        return out;
    }

    /** {@code NOT_MANAGED_BY_MCM} → {@code not-managed-by-mcm}. */
    static String name(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
