package dwd.application.shadow;

import dwd.application.port.out.Clock;
import dwd.application.port.out.ShadowObserver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Records shadow reports with their (virtual) time. */
final class RecordingShadowObserver implements ShadowObserver {

    /** One report: a {@link WouldScale}, {@link WouldAnnotate} or {@link WouldDelete}. */
    record Report(Instant at, Record action) { }

    private final Clock clock;
    private final List<Report> reports = new ArrayList<>();

    RecordingShadowObserver(Clock clock) {
        this.clock = clock;
    }

    private synchronized void add(Record action) {
        reports.add(new Report(clock.now(), action));
    }

    synchronized List<Report> reports() {
        return List.copyOf(reports);
    }

    synchronized List<WouldScale> scalings() {
        return reports.stream().map(Report::action).filter(WouldScale.class::isInstance).map(WouldScale.class::cast).toList();
    }

    synchronized List<WouldAnnotate> annotations() {
        return reports.stream().map(Report::action).filter(WouldAnnotate.class::isInstance)
                .map(WouldAnnotate.class::cast).toList();
    }

    synchronized Instant timeOf(Record action) {
        return reports.stream().filter(r -> r.action() == action).findFirst().orElseThrow().at();
    }

    @Override
    public void wouldScale(WouldScale action) {
        add(action);
    }

    @Override
    public void wouldAnnotate(WouldAnnotate action) {
        add(action);
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        add(action);
    }
}
