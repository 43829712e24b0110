package dwd.adapters.k8s.watch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceVersionsTest {

    @Test
    void versionsCompareAsDecimalIntegersOfAnyLength() {
        assertThat(ResourceVersions.atLeast("10", "9")).isTrue();
        assertThat(ResourceVersions.atLeast("9", "10")).isFalse();
        assertThat(ResourceVersions.atLeast("123", "123")).isTrue();
        assertThat(ResourceVersions.atLeast("123", "124")).isFalse();
        assertThat(ResourceVersions.atLeast("100000000000000000000001", "99999999999999999999999")).isTrue();
    }

    @Test
    void whatIsNotAWellFormedVersionIsNeverSeen() {
        for (String odd : new String[] {"", "0", "007", "12a", "-5", " 5", null}) {
            assertThat(ResourceVersions.atLeast(odd, "5")).as("seen %s", odd).isFalse();
            assertThat(ResourceVersions.atLeast("5", odd)).as("wanted %s", odd).isFalse();
        }
    }
}
