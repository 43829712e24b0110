package dwd.bootstrap.check;

import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.domain.status.FieldProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the objects to check from a file: YAML with any number of documents, or JSON with any
 * number of values. A root mapping whose {@code items} is a list (what {@code kubectl get -o yaml}
 * prints for several objects; kubectl tells a list the same way) and a top-level sequence contribute
 * each of their items.
 *
 * <p>Objects are handed on one at a time, as they are read: memory holds one object, whatever the
 * size of the input ({@link #INPUT}, at most; an object at most {@link DocumentReader#MAX_VALUE_CHARS}).
 * A value that is not an object with a kind and a name, or that repeats a key, is handed on too, with
 * its {@link SourceDocument#problem()}: it gets a result of its own and the others are still read.
 */
final class ObjectFiles {

    /** The file name that means standard input. */
    static final String STDIN = "-";

    /** The most dwd check reads from one input. */
    static final TextInput.Limit INPUT = new TextInput.Limit(256L << 20,
            "one input of dwd check; check a larger one in parts, e.g. one namespace at a time");

    private static final String EVERY_OBJECT_NEEDS = "every object needs kind and metadata.name";

    private ObjectFiles() {
    }

    /**
     * Hands on every object of the file, in order.
     *
     * @return how many values were handed on (0 for an input without any)
     * @throws InputException when the file cannot be read, is not YAML or JSON, or breaks a bound; the
     *     message names file and line
     */
    static int read(String file, InputStream stdin, Consumer<SourceDocument> each) {
        String source = source(file);
        int[] count = {0};
        try (Reader text = file.equals(STDIN) ? TextInput.open(stdin, INPUT) : TextInput.open(Path.of(file), INPUT)) {
            DocumentReader.read(source, text, true, value -> each.accept(object(source, ++count[0], value)));
        } catch (UnusableInput e) {
            throw new InputException(source + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot be read: " + e.getMessage(), e);
        }
        return count[0];
    }

    /** The name errors and results use for a {@code --file}: {@code stdin} for {@code -}. */
    static String source(String file) {
        return file.equals(STDIN) ? "stdin" : file;
    }

    @SuppressWarnings("unchecked")
    private static SourceDocument object(String source, int number, DocumentReader.ReadValue read) {
        SourceDocument.Location start = read.start();
        if (!(read.value() instanceof Map<?, ?> map)) {
            return new SourceDocument(source, number, start.line(), Map.of(), read.locations(), Optional.of(new FieldProblem("",
                    "expected an object (a mapping with apiVersion, kind, metadata and status), found " + describe(read.value()))));
        }
        var content = (Map<String, Object>) map;
        if (read.problem().isPresent()) {
            return new SourceDocument(source, number, start.line(), content, read.locations(), read.problem());
        }
        Optional<FieldProblem> problem = Optional.empty();
        if (!(map.get("kind") instanceof String kind) || kind.isBlank()) {
            problem = Optional.of(new FieldProblem("kind", "missing; " + EVERY_OBJECT_NEEDS));
        } else if (!(map.get("metadata") instanceof Map<?, ?> metadata) || !(metadata.get("name") instanceof String name)
                || name.isBlank()) {
            problem = Optional.of(new FieldProblem("metadata.name", "missing; " + EVERY_OBJECT_NEEDS));
        }
        return new SourceDocument(source, number, start.line(), content, read.locations(), problem);
    }

    private static String describe(Object value) {
        return switch (value) {
            case null -> "empty";
            case String text -> "the string \"" + text + "\"";
            case List<?> ignored -> "a list";
            case Map<?, ?> ignored -> "a mapping";
            default -> "the value " + value;
        };
    }
}
