package dwd.adapters.metrics;

import dwd.application.port.out.ShadowObserver;
import dwd.domain.dryrun.DryRunMode;
import dwd.domain.scaling.ScaleDirection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;

/**
 * The metrics of shadow mode: {@code dwd_dry_run{dry_run}} is 1 for the mode the process runs in,
 * and {@code dwd_shadow_actions_total{dry_run,namespace,action,answer}} counts would-be actions
 * (action {@code scale_down}, {@code scale_up}, {@code annotate}, {@code delete}) by the API server's
 * answer: {@code not_sent} (client), {@code accepted}, or the refusal ({@code forbidden},
 * {@code conflict}, {@code not_found}, {@code invalid}, {@code unauthorized}) — a finding.
 */
public final class ShadowMetrics implements ShadowObserver {

    static final String DRY_RUN = "dwd.dry.run";
    static final String SHADOW_ACTIONS = "dwd.shadow.actions";

    private final MeterRegistry registry;

    public ShadowMetrics(MeterRegistry registry, DryRunMode mode) {
        this.registry = registry;
        Gauge.builder(DRY_RUN, () -> 1).tag("dry_run", mode.flagValue()).strongReference(true)
                .description("1 for the --dry-run mode of this process: none, client or server")
                .register(registry);
    }

    @Override
    public void wouldScale(WouldScale action) {
        count(action.mode(), action.namespace(), action.direction() == ScaleDirection.DOWN ? "scale_down" : "scale_up",
                answerOf(action.writes().stream().map(Write::answer).toList()));
    }

    @Override
    public void wouldAnnotate(WouldAnnotate action) {
        count(action.mode(), action.namespace(), "annotate", answerOf(action.writes().stream().map(Write::answer).toList()));
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        count(action.mode(), action.namespace(), "delete", answerOf(List.of(action.answer())));
    }

    private void count(DryRunMode mode, String namespace, String action, String answer) {
        Counter.builder(SHADOW_ACTIONS)
                .tag("dry_run", mode.flagValue()).tag("namespace", namespace).tag("action", action).tag("answer", answer)
                .description("Would-be changes of shadow mode (--dry-run), by the API server's answer")
                .register(registry).increment();
    }

    /** The first refusal among the answers, else accepted or not_sent. */
    static String answerOf(List<Answer> answers) {
        for (Answer answer : answers) {
            if (answer instanceof Answer.Refused refused) {
                return refused.kind().name().toLowerCase(Locale.ROOT);
            }
        }
        return answers.stream().anyMatch(Answer.Accepted.class::isInstance) ? "accepted" : "not_sent";
    }
}
