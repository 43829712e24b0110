package dwd.bootstrap.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table {@code dwd compare} prints, from pages as the roles serve them. */
class ComparisonTableTest {

    private static final String PROBER = """
            {"generatedAt":"2026-11-28T10:10:00Z","role":"prober","since":"2026-11-28T10:00:00Z","window":"1m0s",
             "originalFieldManager":"dependency-watchdog","totals":{"both":2,"dwd_only":1,"original_only":0,"different":0},
             "episodes":[
              {"namespace":"shoot--dev--alpha","kind":"meltdown","subject":"","openedAt":"2026-11-28T10:01:00Z",
               "decidedAt":"2026-11-28T10:01:30Z","outcome":"both","reason":"same dependents in the same order: mcm 2→0, kcm 3→0",
               "leadSeconds":19.5,"reconstructed":false,
               "dwd":[{"target":"kcm","label":"kcm","from":3,"to":0,"at":"2026-11-28T10:01:00.2Z","why":"3 of 5 expired"}],
               "original":[{"target":"kcm","label":"kcm","from":3,"to":0,"at":"2026-11-28T10:01:19.7Z","why":"by dependency-watchdog"}]},
              {"namespace":"shoot--dev--alpha","kind":"recovery","subject":"","openedAt":"2026-11-28T10:02:00Z",
               "decidedAt":"2026-11-28T10:02:40Z","outcome":"both","reason":"same","leadSeconds":-0.04,"reconstructed":false,
               "dwd":[],"original":[]},
              {"namespace":"shoot--dev--gamma","kind":"meltdown","subject":"","openedAt":"2026-11-28T10:04:00Z",
               "decidedAt":"2026-11-28T10:05:00Z","outcome":"dwd_only","reason":"the original did not act on kcm 3→0",
               "leadSeconds":null,"reconstructed":false,
               "dwd":[{"target":"kcm","label":"kcm","from":3,"to":0,"at":"2026-11-28T10:04:00.1Z","why":"3 of 5 expired"}],
               "original":[]}],
             "open":[],
             "otherChanges":[{"namespace":"shoot--dev--beta","target":"kcm","change":"replicas 3→2","writer":"kubectl",
               "at":"2026-11-28T10:03:00Z"}]}
            """;

    @Test
    void perShootAndOverallThenEveryDisagreementWithBothSidesAndTheChangesLeftOut() throws Exception {
        String table = ComparisonTable.render(List.of(new ComparisonTable.Page("http://127.0.0.1:9643/comparison",
                new ObjectMapper().readTree(PROBER))), false);

        assertThat(table).startsWith("""
                dwd beside the original dependency-watchdog
                  prober  http://127.0.0.1:9643/comparison: since 2026-11-28T10:00:00Z, window 1m0s, the original's writes by field manager dependency-watchdog

                shoot              episodes  both  dwd only  original only  different  agreement  dwd lead p50       p99
                shoot--dev--alpha         2     2         0              0          0       100%         -40ms    +19.5s
                shoot--dev--gamma         1     0         1              0          0         0%             -         -
                all meltdowns             2     1         1              0          0        50%        +19.5s    +19.5s
                all recoveries            1     1         0              0          0       100%         -40ms     -40ms
                all                       3     2         1              0          0        67%         -40ms    +19.5s

                Disagreements (1)
                  shoot--dev--gamma  meltdown: dwd only, decided 2026-11-28T10:05:00Z
                    dwd would have:  kcm 3→0 at 2026-11-28T10:04:00.100Z; 3 of 5 expired
                    the original:    nothing in the window
                    compared:        the original did not act on kcm 3→0
                """);
        assertThat(table).endsWith("""
                Open, judged as they stand (0)

                Not counted as the original's (1)
                  shoot--dev--beta  kcm replicas 3→2 by kubectl at 2026-11-28T10:03:00Z
                """);
    }

    @Test
    void actionsWithReasonsOfTheirOwnShowEachAndTimesAreCutToTheMillisecond() throws Exception {
        var json = new ObjectMapper().readTree(PROBER);
        var gamma = (com.fasterxml.jackson.databind.node.ArrayNode) json.path("episodes").get(2).path("dwd");
        gamma.addObject().put("target", "ca").put("label", "ca").put("from", 1).put("to", 0)
                .put("at", "2026-11-28T10:04:00.123456789Z").put("why", "4 of 5 expired");
        String page = json.toString();

        String table = ComparisonTable.render(List.of(new ComparisonTable.Page("p", new ObjectMapper().readTree(page))), false);

        assertThat(table).contains("    dwd would have:  kcm 3→0 at 2026-11-28T10:04:00.100Z (3 of 5 expired);"
                + " ca 1→0 at 2026-11-28T10:04:00.123Z (4 of 5 expired)\n");
    }

    @Test
    void leadsAndPercentiles() {
        assertThat(ComparisonTable.lead(19.54)).isEqualTo("+19.5s");
        assertThat(ComparisonTable.lead(-0.035)).isEqualTo("-35ms");
        assertThat(ComparisonTable.lead(Double.NaN)).isEqualTo("-");
        assertThat(ComparisonTable.percentile(List.of(1.0, 2.0, 3.0, 4.0), 0.5)).isEqualTo(2.0);
        assertThat(ComparisonTable.percentile(List.of(1.0, 2.0, 3.0, 4.0), 0.99)).isEqualTo(4.0);
    }
}
