package dwd.adapters.metrics;

import dwd.application.weeder.WeederStatusBoard;
import dwd.application.weeder.WeederStatusBoard.WeederStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The {@code /weeders} page: the weeder status board as JSON, one entry per running weeder. */
public final class WeederStatusJson implements Supplier<String> {

    private final WeederStatusBoard board;
    private final Supplier<Instant> now;

    public WeederStatusJson(WeederStatusBoard board, Supplier<Instant> now) {
        this.board = board;
        this.now = now;
    }

    @Override
    public String get() {
        List<WeederStatus> weeders = board.snapshot();
        var page = new LinkedHashMap<String, Object>();
        page.put("generatedAt", now.get());
        page.put("count", weeders.size());
        page.put("weeders", weeders.stream().map(WeederStatusJson::weeder).toList());
        return Json.write(page);
    }

    private static Map<String, Object> weeder(WeederStatus status) {
        var weeder = new LinkedHashMap<String, Object>();
        weeder.put("namespace", status.namespace());
        weeder.put("service", status.service());
        weeder.put("started", status.started());
        weeder.put("until", status.until());
        weeder.put("podsDeleted", status.podsDeleted());
        weeder.put("lastDeletion", status.lastDeletion().map(deletion -> {
            var out = new LinkedHashMap<String, Object>();
            out.put("pod", deletion.pod());
            out.put("at", deletion.at());
            return out;
        }));
        return weeder;
    }
}
