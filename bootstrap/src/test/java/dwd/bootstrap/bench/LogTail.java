package dwd.bootstrap.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A log (a process's, an API server's audit log), read as it grows: each call returns only the lines it gained. */
public final class LogTail {

    private final Path file;
    private long offset;
    private String partial = "";

    public LogTail(Path file) {
        this.file = file;
    }

    /** The complete lines written since the last call; none while the file does not exist. */
    public List<String> newLines() throws IOException {
        var lines = new ArrayList<String>();
        if (!Files.exists(file)) {
            return lines;
        }
        try (var in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= offset) {
                return lines;
            }
            byte[] bytes = new byte[(int) (length - offset)];
            in.seek(offset);
            in.readFully(bytes);
            offset = length;
            String text = partial + new String(bytes, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            partial = text.substring(end + 1);
            if (end >= 0) {
                lines.addAll(text.substring(0, end).lines().toList());
            }
        }
        return lines;
    }

    List<String> all() throws IOException {
        return Files.readAllLines(file);
    }
}
