package dwd.domain.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseRecordsTest {

    @Test
    void absentFieldsOfClusterObjectsBecomeEmpty() {
        assertThat(new NodeCondition(null, null, null)).isEqualTo(new NodeCondition("", "", ""));
        var node = new Node(null, null, null, null);
        assertThat(node.name()).isEmpty();
        assertThat(node.labels()).isEmpty();
        assertThat(node.annotations()).isEmpty();
        assertThat(node.conditions()).isEmpty();
        assertThat(new Machine(null, null, null)).isEqualTo(new Machine("", Optional.empty(), ""));
        assertThat(new NodeLease(null, null)).isEqualTo(new NodeLease("", Optional.empty()));
    }

    @Test
    void annotationWithoutValueStillCountsAsPresent() {
        var annotations = new HashMap<String, String>();
        annotations.put("node.machine.sapcloud.io/not-managed-by-mcm", null);
        var node = new Node("a", Map.of(), annotations, null);
        assertThat(node.annotations()).containsEntry("node.machine.sapcloud.io/not-managed-by-mcm", "");
    }

    @Test
    void machineIsLiveUnlessFailedOrTerminating() {
        assertThat(new Machine("m", Optional.of("n"), "Failed").isLive()).isFalse();
        assertThat(new Machine("m", Optional.of("n"), "Terminating").isLive()).isFalse();
        assertThat(new Machine("m", Optional.of("n"), "").isLive()).isTrue();
        assertThat(new Machine("m", Optional.of("n"), "Running").isLive()).isTrue();
    }

    @Test
    void leaseKeepsItsRenewTime() {
        assertThat(new NodeLease("a", Optional.of(Instant.EPOCH)).renewTime()).contains(Instant.EPOCH);
    }
}
