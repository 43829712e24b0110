package dwd.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.application.port.out.ShadowObserver.WouldDelete;
import dwd.application.port.out.ShadowObserver.WouldScale;
import dwd.application.port.out.ShadowObserver.Write;
import dwd.domain.config.ResourceRef;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.weeding.PodState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShadowMetricsTest {

    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");

    @Test
    void wouldBeActionsAreCountedByModeActionAndAnswerAndTheModeIsAGauge() {
        var registry = MetricsServer.newRegistry();
        var metrics = new ShadowMetrics(registry, DryRunMode.SERVER);

        metrics.wouldScale(new WouldScale(DryRunMode.SERVER, "shoot--a", ScaleDirection.DOWN, KCM, 3, 0, List.of(
                new Write("annotate", new Answer.Accepted()),
                new Write("scale to 0 replicas", new Answer.Refused(ApiFailure.Kind.FORBIDDEN, "403"))), null));
        metrics.wouldScale(new WouldScale(DryRunMode.SERVER, "shoot--a", ScaleDirection.UP, KCM, 0, 3, List.of(
                new Write("scale to 3 replicas", new Answer.Accepted())), null));
        metrics.wouldDelete(new WouldDelete(DryRunMode.SERVER, "shoot--a", "etcd-main-client",
                new PodState("shoot--a", "kube-apiserver-0", "uid", false, List.of(), List.of()), new Answer.Accepted()));
        metrics.wouldDelete(new WouldDelete(DryRunMode.SERVER, "shoot--a", "etcd-main-client",
                new PodState("shoot--a", "kube-apiserver-1", "uid", false, List.of(), List.of()), new Answer.Accepted()));

        String scrape = registry.scrape();
        assertThat(scrape).contains(
                "dwd_dry_run{dry_run=\"server\"} 1.0",
                "dwd_shadow_actions_total{action=\"scale_down\",answer=\"forbidden\",dry_run=\"server\",namespace=\"shoot--a\"} 1.0",
                "dwd_shadow_actions_total{action=\"scale_up\",answer=\"accepted\",dry_run=\"server\",namespace=\"shoot--a\"} 1.0",
                "dwd_shadow_actions_total{action=\"delete\",answer=\"accepted\",dry_run=\"server\",namespace=\"shoot--a\"} 2.0");
    }

    @Test
    void clientModeCountsNotSent() {
        assertThat(ShadowMetrics.answerOf(List.of(new Answer.NotSent(), new Answer.NotSent()))).isEqualTo("not_sent");
        assertThat(ShadowMetrics.answerOf(List.of(new Answer.Accepted(),
                new Answer.Refused(ApiFailure.Kind.NOT_FOUND, "404")))).isEqualTo("not_found");
    }
}
