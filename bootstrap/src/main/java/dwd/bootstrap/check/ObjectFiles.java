package dwd.bootstrap.check;

import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the objects to check from a file: YAML with any number of documents, or JSON with any
 * number of values. A root mapping whose {@code items} is a list (what {@code kubectl get -o yaml}
 * prints for several objects; kubectl tells a list the same way) and a top-level sequence contribute
 * each of their items.
 *
 * <p>Objects are handed on one at a time, as they are read: memory holds one object, whatever the
 * size of the input ({@link #INPUT}, at most; an object at most {@link DocumentReader#MAX_VALUE_CHARS}).
 */
final class ObjectFiles {

    /** The file name that means standard input. */
    static final String STDIN = "-";

    /** The most dwd check reads from one input. */
    static final TextInput.Limit INPUT = new TextInput.Limit(256L << 20,
            "one input of dwd check; check a larger one in parts, e.g. one namespace at a time");

    private ObjectFiles() {
    }

    /**
     * Hands on every object of the file, in order.
     *
     * @throws InputException when the file cannot be read or parsed, holds no object, or holds
     *     something that is not an object with a kind and a name; the message names file and line
     */
    static void read(String file, InputStream stdin, Consumer<SourceDocument> each) {
        String source = file.equals(STDIN) ? "stdin" : file;
        int[] count = {0};
        try (Reader text = file.equals(STDIN) ? TextInput.open(stdin, INPUT) : TextInput.open(Path.of(file), INPUT)) {
            DocumentReader.read(source, text, true, value -> each.accept(object(source, ++count[0], value)));
        } catch (UnusableInput e) {
            throw new InputException(source + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot be read: " + e.getMessage(), e);
        }
        if (count[0] == 0) {
            throw new InputException(source + ": contains no object to check");
        }
    }

    @SuppressWarnings("unchecked")
    private static SourceDocument object(String source, int number, DocumentReader.ReadValue read) {
        SourceDocument.Location start = read.start();
        if (!(read.value() instanceof Map<?, ?> map)) {
            throw new InputException(source + ":" + start + ": expected an object (a mapping with apiVersion, kind,"
                    + " metadata and status), found " + describe(read.value()));
        }
        var document = new SourceDocument(source, number, start.line(), (Map<String, Object>) map, read.locations());
        if (!(map.get("kind") instanceof String kind) || kind.isBlank()) {
            throw new InputException(document.locate("kind") + ": object " + number + " has no kind; "
                    + "every object needs kind and metadata.name");
        }
        if (!(map.get("metadata") instanceof Map<?, ?> metadata) || !(metadata.get("name") instanceof String name)
                || name.isBlank()) {
            throw new InputException(document.locate("metadata.name") + ": object " + number + " (" + kind
                    + ") has no metadata.name; every object needs kind and metadata.name");
        }
        return document;
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
