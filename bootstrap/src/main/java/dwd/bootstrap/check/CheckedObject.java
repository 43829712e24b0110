package dwd.bootstrap.check;

import dwd.application.check.CheckResult;
import dwd.domain.status.Finding;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectIdentity;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The result of checking one object, and where the object came from.
 *
 * @param source {@code file:line} for an object from a file, {@code live} for one read from the API
 * @param number the object's position in its file, from 1; 1 for a live object
 * @param fieldLocations {@code file:line:column} of each field a result names (a field that cannot be read)
 */
record CheckedObject(String source, int number, CheckResult result, Map<String, String> fieldLocations) {

    CheckedObject {
        fieldLocations = Map.copyOf(fieldLocations);
    }

    /** A live object: no file, so no locations. */
    static CheckedObject live(CheckResult result) {
        return new CheckedObject("live", 1, result, Map.of());
    }

    /** An object from a file, with the locations of the fields its result names. */
    static CheckedObject fromFile(SourceDocument document, CheckResult result) {
        var locations = new HashMap<String, String>();
        for (Finding finding : result.findings()) {
            if (!finding.field().isEmpty()) {
                locations.put(finding.field(), document.locate(finding.field()));
            }
        }
        result.kstatus().flatMap(KstatusResult::unreadable)
                .filter(field -> !field.fieldPath().isEmpty())
                .ifPresent(field -> locations.put(field.fieldPath(), document.locate(field.fieldPath())));
        return new CheckedObject(document.origin(), document.number(), result, locations);
    }

    /**
     * How report lines name the object: {@code kind/namespace/name}, or {@code object N (file:line)}
     * when it has no kind or name to be named by.
     */
    String name() {
        ObjectIdentity identity = result.object();
        return identity.kind().isEmpty() || identity.name().isEmpty()
                ? "object " + number + " (" + source + ")" : identity.describe();
    }

    /** Where a field named by the result is, if it came from a file. */
    Optional<String> locate(String field) {
        return Optional.ofNullable(fieldLocations.get(field));
    }
}
