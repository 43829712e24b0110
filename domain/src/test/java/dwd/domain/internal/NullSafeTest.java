package dwd.domain.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NullSafeTest {

    @Test
    void absentTextAndOptionalBecomeEmpty() {
        assertThat(NullSafe.text(null)).isEmpty();
        assertThat(NullSafe.text("x")).isEqualTo("x");
        assertThat(NullSafe.optional(null)).isEmpty();
        assertThat(NullSafe.optional(Optional.of(1))).contains(1);
    }

    @Test
    void listsLoseNullsKeepOrderAndAreDetached() {
        var source = new ArrayList<>(Arrays.asList("b", null, "a"));
        var copy = NullSafe.list(source);
        source.clear();
        assertThat(copy).containsExactly("b", "a");
        assertThatThrownBy(() -> copy.add("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(NullSafe.list(null)).isEmpty();
    }

    @Test
    void stringMapsKeepKeysWithAbsentValuesAndDropAbsentKeys() {
        var source = new LinkedHashMap<String, String>();
        source.put("z", "1");
        source.put("present-without-value", null);
        source.put(null, "dropped");
        source.put("a", "2");
        var copy = NullSafe.strings(source);
        source.clear();
        assertThat(copy).containsExactly(Map.entry("z", "1"), Map.entry("present-without-value", ""), Map.entry("a", "2"));
        assertThatThrownBy(() -> copy.put("b", "3")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(NullSafe.strings(null)).isEmpty();
    }

    @Test
    void stringListMapsDropAbsentKeysAndListsAndCopyTheLists() {
        var conditions = new ArrayList<>(Arrays.asList("X", null, "Y"));
        var source = new LinkedHashMap<String, List<String>>();
        source.put("b", conditions);
        source.put("absent", null);
        source.put(null, List.of("Z"));
        source.put("a", List.of());
        var copy = NullSafe.stringLists(source);
        conditions.clear();
        source.clear();
        assertThat(copy).containsExactly(Map.entry("b", List.of("X", "Y")), Map.entry("a", List.of()));
        assertThatThrownBy(() -> copy.put("c", List.of())).isInstanceOf(UnsupportedOperationException.class);
        assertThat(NullSafe.stringLists(null)).isEmpty();
    }
}
