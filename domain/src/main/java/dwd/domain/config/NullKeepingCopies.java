package dwd.domain.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Unmodifiable copies that keep nulls and order, for the records of a config file as written (which mirror the file, nulls included). */
final class NullKeepingCopies {

    private NullKeepingCopies() {
    }

    static <T> List<T> listKeepingNulls(List<T> list) {
        return list == null ? null : Collections.unmodifiableList(new ArrayList<>(list));
    }

    static <K, V> Map<K, V> mapKeepingNullsAndOrder(Map<K, V> map) {
        return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
