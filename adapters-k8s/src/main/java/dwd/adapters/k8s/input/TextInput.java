package dwd.adapters.k8s.input;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * Reads the text dwd is given (config files, kubeconfigs, the objects {@code dwd check} reads, a
 * Secret's kubeconfig) as UTF-8, within a bound on its size. A path must name a regular file (links
 * are followed): a named pipe, a device such as {@code /dev/zero} or a directory is refused before
 * anything is read, so nothing waits on a writer that never comes or reads without end.
 *
 * <p>Every problem is an {@link UnusableInput} whose message reads after the input's name:
 * {@code "<name>: is a named pipe (FIFO), not a regular file"}.
 */
public final class TextInput {

    /**
     * How much of an input dwd reads.
     *
     * @param bytes the most bytes read
     * @param of    what the bound is for, in messages: "a config file"
     */
    public record Limit(long bytes, String of) {
    }

    /** Config files: dwd's own, and {@code dwd check}'s conditions. */
    public static final Limit CONFIG_FILE = new Limit(1L << 20, "a config file");

    /**
     * Kubeconfigs, from files or Secrets: client-java's YAML parser refuses documents of more than 3 Mi code
     * points, so more would fail later with its message.
     */
    public static final Limit KUBECONFIG = new Limit(3L << 20, "a kubeconfig");

    private TextInput() {
    }

    /**
     * The whole text of {@code file}.
     *
     * @throws UnusableInput when it is missing, not a regular file, larger than the limit, unreadable or
     *     not UTF-8 text
     */
    public static String read(Path file, Limit limit) {
        try (Reader reader = open(file, limit)) {
            return readAll(reader);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** The whole text of {@code bytes} (a Secret's value, say), with the checks of {@link #read(Path, Limit)}. */
    public static String read(byte[] bytes, Limit limit) {
        try (Reader reader = reader(new ByteArrayInputStream(bytes), limit)) {
            return readAll(reader);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /**
     * A reader of {@code file}'s text, which refuses to read past the limit; the checks before reading are
     * done at once.
     */
    public static Reader open(Path file, Limit limit) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new UnusableInput("no such file");
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (attributes.isDirectory()) {
            throw new UnusableInput("is a directory, not a file");
        }
        if (!attributes.isRegularFile()) {
            throw new UnusableInput("is " + kind(file) + ", not a regular file; dwd reads only regular files");
        }
        if (attributes.size() > limit.bytes()) {
            throw new UnusableInput("is " + size(attributes.size()) + "; dwd reads at most " + size(limit.bytes())
                    + " from " + limit.of());
        }
        try {
            return reader(Files.newInputStream(file), limit);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** A reader of {@code in}'s text (standard input, say), which refuses to read past the limit. */
    public static Reader open(InputStream in, Limit limit) {
        return reader(in, limit);
    }

    private static Reader reader(InputStream in, Limit limit) {
        return new Utf8TextReader(in, limit.bytes(),
                "holds more than " + size(limit.bytes()) + ", the most dwd reads from " + limit.of());
    }

    /** A size in bytes as people write it: {@code 512 bytes}, {@code 3 MiB}, {@code 1.5 GiB}. */
    static String size(long bytes) {
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f", value).replace(".0", "") + " " + units[unit];
    }

    private static String readAll(Reader reader) throws IOException {
        var text = new StringWriter();
        reader.transferTo(text);
        return text.toString();
    }

    /** What kind of file {@code file} is, from its Unix mode where the platform tells it. */
    private static String kind(Path file) {
        try {
            int type = (Integer) Files.getAttribute(file, "unix:mode") & 0170000;
            return switch (type) {
                case 0010000 -> "a named pipe (FIFO)";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a special file";
        }
    }

    private static UnusableInput unreadable(IOException e) {
        if (e instanceof AccessDeniedException) {
            return new UnusableInput("cannot be read: permission denied");
        }
        return new UnusableInput("cannot be read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
}
