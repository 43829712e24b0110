package dwd.application.comparison;

import dwd.application.port.out.ComparisonObserver;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Outcome;
import dwd.domain.config.GoDuration;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One log line per decided episode: INFO when dwd would have done what the original did, WARN for every
 * disagreement, with what each side did, when, and why dwd decided as it did. Changes not counted as the
 * original's are logged at INFO.
 */
public final class LoggingComparisonObserver implements ComparisonObserver {

    private static final System.Logger LOG = System.getLogger("dwd.comparison");

    private final Duration window;

    public LoggingComparisonObserver(Duration window) {
        this.window = window;
    }

    @Override
    public void episodeDecided(Episode episode) {
        boolean agreed = episode.outcome() == Outcome.BOTH;
        LOG.log(agreed ? System.Logger.Level.INFO : System.Logger.Level.WARNING, () -> line(episode, window));
    }

    @Override
    public void otherChange(OtherChange change) {
        LOG.log(System.Logger.Level.INFO, () -> change.namespace() + ": comparison: " + change.target() + " "
                + change.change() + " by " + change.writer() + ": not the original's, not compared");
    }

    static String line(Episode episode, Duration window) {
        String what = episode.kind().name().toLowerCase(Locale.ROOT)
                + (episode.subject().isEmpty() ? "" : " of " + episode.subject());
        String lead = episode.judgement().lead()
                .map(value -> value.truncatedTo(ChronoUnit.MILLIS))
                .map(value -> ", dwd " + (value.isNegative() ? GoDuration.format(value.abs()) + " behind"
                        : GoDuration.format(value) + " ahead"))
                .orElse("");
        return episode.namespace() + ": comparison: " + what + ": " + episode.outcome().name().toLowerCase(Locale.ROOT)
                .replace('_', ' ') + lead + " (" + episode.judgement().reason() + "); dwd would have: "
                + acts(episode.dwd(), window) + "; the original: " + acts(episode.original(), window)
                + (episode.reconstructed() ? "; picked up after dwd started" : "");
    }

    private static String acts(List<Act> acts, Duration window) {
        if (acts.isEmpty()) {
            return "nothing within " + GoDuration.format(window);
        }
        return acts.stream().map(act -> act.label() + (act.from() == act.to() ? "" : " " + act.from() + "→" + act.to())
                + " at " + act.at() + (act.why().isEmpty() ? "" : " (" + act.why() + ")"))
                .collect(Collectors.joining(", "));
    }
}
