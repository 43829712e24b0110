package dwd.bootstrap.check;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the objects to check from a file: YAML with any number of documents, or JSON with any
 * number of values. A {@code kind: List} (what {@code kubectl get -o yaml} prints for several
 * objects) and a top-level sequence contribute each of their items.
 */
final class ObjectFiles {

    /** The file name that means standard input. */
    static final String STDIN = "-";

    private ObjectFiles() {
    }

    /**
     * @throws InputException when the file cannot be read or parsed, holds no object, or holds
     *     something that is not an object with a kind and a name; the message names file and line
     */
    static List<SourceDocument> read(String file, InputStream stdin) {
        String source = file.equals(STDIN) ? "stdin" : file;
        String text;
        try {
            text = file.equals(STDIN)
                    ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InputException(source + ": no such file", e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot read: " + e.getMessage(), e);
        }
        var objects = new ArrayList<SourceDocument>();
        for (DocumentReader.RootValue root : DocumentReader.read(source, text)) {
            switch (root.value()) {
                case Map<?, ?> map when isList(map) -> addItems(source, root, (List<?>) map.get("items"), "items", objects);
                case Map<?, ?> ignored -> add(source, root, root.value(), "", root.start(), objects);
                case List<?> list -> addItems(source, root, list, "", objects);
                default -> throw new InputException(source + ":" + root.start() + ": expected an object (a mapping with "
                        + "apiVersion, kind, metadata and status), found " + describe(root.value()));
            }
        }
        if (objects.isEmpty()) {
            throw new InputException(source + ": contains no object to check");
        }
        return objects;
    }

    private static boolean isList(Map<?, ?> map) {
        return map.get("kind") instanceof String kind && kind.endsWith("List") && map.get("items") instanceof List<?>;
    }

    private static void addItems(String source, DocumentReader.RootValue root, List<?> items, String prefix,
            List<SourceDocument> objects) {
        for (int index = 0; index < items.size(); index++) {
            String path = prefix + "[" + index + "]";
            SourceDocument.Location start = root.locations().getOrDefault(path, root.start());
            add(source, root, items.get(index), path, start, objects);
        }
    }

    @SuppressWarnings("unchecked")
    private static void add(String source, DocumentReader.RootValue root, Object value, String path,
            SourceDocument.Location start, List<SourceDocument> objects) {
        int number = objects.size() + 1;
        if (!(value instanceof Map<?, ?> map)) {
            throw new InputException(source + ":" + start + ": object " + number + " is " + describe(value)
                    + ", not a mapping with apiVersion, kind, metadata and status");
        }
        var document = new SourceDocument(source, number, start.line(), (Map<String, Object>) map, path, root.locations());
        if (!(map.get("kind") instanceof String kind) || kind.isBlank()) {
            throw new InputException(document.locate("kind") + ": object " + number + " has no kind; "
                    + "every object needs kind and metadata.name");
        }
        if (!(map.get("metadata") instanceof Map<?, ?> metadata) || !(metadata.get("name") instanceof String name)
                || name.isBlank()) {
            throw new InputException(document.locate("metadata.name") + ": object " + number + " (" + kind
                    + ") has no metadata.name; every object needs kind and metadata.name");
        }
        objects.add(document);
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
