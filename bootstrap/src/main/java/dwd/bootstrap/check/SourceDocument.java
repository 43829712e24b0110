package dwd.bootstrap.check;

import dwd.domain.status.FieldProblem;
import java.util.Map;
import java.util.Optional;

/**
 * One object read from a file, with where each of its fields came from.
 *
 * @param source the file name as given ({@code stdin} for {@code -})
 * @param number the object's position in the file, from 1 (items of a {@code List} count one each)
 * @param line the line where the object starts
 * @param locations the line and column of every field, by its path in the object ({@code ""} is the object)
 * @param problem why the value cannot be checked as an object at all (not a mapping, no kind or name, a
 *     duplicate key); empty for an object that can
 */
record SourceDocument(String source, int number, int line, Map<String, Object> content, Map<String, Location> locations,
        Optional<FieldProblem> problem) {

    /** A line and column, both from 1. */
    record Location(int line, int column) {
        @Override
        public String toString() {
            return line + ":" + column;
        }
    }

    /** {@code file:line}: where the object starts. */
    String origin() {
        return source + ":" + line;
    }

    /**
     * {@code file:line:column} of a field of this object, given its path inside the object; a field
     * that is absent is located at its nearest present parent.
     */
    String locate(String fieldPath) {
        String path = fieldPath;
        while (true) {
            Location location = locations.get(path);
            if (location != null) {
                return source + ":" + location;
            }
            int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
            if (cut <= 0) {
                Location start = locations.get("");
                return start != null ? source + ":" + start : origin();
            }
            path = path.substring(0, cut);
        }
    }
}
