package dwd.application.shadow;

import dwd.application.port.out.ShadowObserver;
import dwd.domain.scaling.ScaleDirection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Logs each would-be action of shadow mode as one line: the shoot namespace, the mode, what would
 * change on which resource, and per request its answer. A line with a finding (a request the API
 * server refused) is a warning.
 *
 * <pre>
 * shoot--a: [dry-run=server] would scale down apps/v1 Deployment kube-controller-manager from 3 to 0 replicas
 *     (5 candidates, 3 expired, fraction 0.60 &gt;= threshold 0.60): annotate …="3", …="": would succeed;
 *     scale to 0 replicas: FINDING: would be forbidden: …
 * </pre>
 */
public final class LoggingShadowObserver implements ShadowObserver {

    private static final System.Logger PROBER = System.getLogger("dwd.prober");
    private static final System.Logger WEEDER = System.getLogger("dwd.weeder");

    @Override
    public void wouldScale(WouldScale action) {
        String verb = action.direction() == ScaleDirection.DOWN ? "would scale down " : "would scale up ";
        PROBER.log(level(action.findings()), action.namespace() + ": [dry-run=" + action.mode().flagValue() + "] "
                + verb + action.ref() + " from " + action.from() + " to " + action.to() + " replicas ("
                + action.cause().summary() + "): " + writes(action.writes()));
    }

    @Override
    public void wouldAnnotate(WouldAnnotate action) {
        PROBER.log(level(action.findings()), action.namespace() + ": [dry-run=" + action.mode().flagValue() + "] "
                + "would change annotations of " + action.ref() + ": " + writes(action.writes()));
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        WEEDER.log(level(action.answer() instanceof Answer.Refused refused ? List.of(refused) : List.of()),
                action.namespace() + ": [dry-run=" + action.mode().flagValue() + "] would delete pod "
                        + action.pod().name() + " (uid " + action.pod().uid() + "): CrashLoopBackOff after service "
                        + action.service() + " turned ready: " + answer(action.answer()));
    }

    private static System.Logger.Level level(List<Answer.Refused> findings) {
        return findings.isEmpty() ? System.Logger.Level.INFO : System.Logger.Level.WARNING;
    }

    private static String writes(List<Write> writes) {
        return writes.stream().map(write -> write.change() + ": " + answer(write.answer()))
                .collect(Collectors.joining("; "));
    }

    /** {@code not sent}, {@code would succeed}, or {@code FINDING: would be forbidden: <the server's reason>}. */
    static String answer(Answer answer) {
        return switch (answer) {
            case Answer.NotSent ignored -> "not sent";
            case Answer.Accepted ignored -> "would succeed";
            case Answer.Refused refused -> "FINDING: " + refusal(refused) + ": " + refused.reason();
        };
    }

    private static String refusal(Answer.Refused refused) {
        return switch (refused.kind()) {
            case FORBIDDEN -> "would be forbidden";
            case UNAUTHORIZED -> "would be unauthorized";
            case CONFLICT -> "would conflict";
            case NOT_FOUND -> "would find no such object";
            case INVALID -> "would be rejected as invalid";
            default -> "would fail (" + refused.kind() + ")";
        };
    }
}
