package dwd.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcFsTest {

    @Test
    void aThreadThatRenamedItselfCountsOnlyItsOwnTimeBetweenTheReadingsUnderItsLaterName() {
        var earlier = Map.of(
                7L, new ProcFs.ThreadCpu("OkHttp tasks", 40.0),
                8L, new ProcFs.ThreadCpu("GC Thread", 3.0));
        var later = Map.of(
                7L, new ProcFs.ThreadCpu("OkHttp tasks", 40.5),
                8L, new ProcFs.ThreadCpu("GC Thread", 3.25),
                9L, new ProcFs.ThreadCpu("GC Thread", 0.5));

        assertThat(ProcFs.cpuByGroupBetween(earlier, later))
                .containsExactlyInAnyOrderEntriesOf(Map.of("OkHttp tasks", 0.5, "GC Thread", 0.75));
    }

    @Test
    void threadNamesLoseTheirNumbersAndOkHttpsTaskNamesAreOneGroup() {
        assertThat(ProcFs.group("GC Thread#3")).isEqualTo("GC Thread");
        assertThat(ProcFs.group("ForkJoinPool-1-worker-2")).isEqualTo("ForkJoinPool-1-worker");
        assertThat(ProcFs.group("OkHttp TaskRunner")).isEqualTo("OkHttp tasks");
        assertThat(ProcFs.group("OkHttp ConnectionPool")).isEqualTo("OkHttp tasks");
    }

    @Test
    void theSelectedModeOfAKernelSettingIsTheBracketedOne() {
        assertThat(ProcFs.selectedMode("always [madvise] never\n")).isEqualTo("madvise");
        assertThat(ProcFs.selectedMode("never\n")).isEqualTo("never");
    }
}
