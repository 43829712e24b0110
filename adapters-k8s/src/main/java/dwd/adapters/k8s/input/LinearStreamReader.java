package dwd.adapters.k8s.input;

import java.io.IOException;
import java.io.Reader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's {@link StreamReader} with a window that grows by doubling. SnakeYAML's own copies its
 * whole unread window for every 1,024 characters it reads, and a scalar is scanned before any of it
 * is consumed: a 2 MB value on one line took 2 s, a 20 MB one minutes. This one reads in linear time;
 * positions, marks, line counting and the refusal of non-printable characters are SnakeYAML's.
 *
 * <p>Every public method of the base class is overridden: its own fields stay unused.
 */
final class LinearStreamReader extends StreamReader {

    private static final int CHUNK = 8192;

    private final Reader stream;
    private final char[] buffer = new char[CHUNK + 1];
    private int[] window = new int[CHUNK];
    private int length;
    private int pointer;
    private boolean eof;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    LinearStreamReader(Reader stream) {
        super(Reader.nullReader());
        this.stream = stream;
    }

    @Override
    public Mark getMark() {
        return new Mark("'reader'", index, line, column, window, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int count) {
        for (int i = 0; i < count && ensureEnoughData(0); i++) {
            int c = window[pointer++];
            index++;
            documentIndex++;
            if (Constant.LINEBR.has(c) || c == '\r' && ensureEnoughData(0) && window[pointer] != '\n') {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return ensureEnoughData(0) ? window[pointer] : '\0';
    }

    @Override
    public int peek(int offset) {
        return ensureEnoughData(offset) ? window[pointer + offset] : '\0';
    }

    @Override
    public String prefix(int count) {
        if (count == 0) {
            return "";
        }
        ensureEnoughData(count);
        return new String(window, pointer, Math.min(count, length - pointer));
    }

    @Override
    public String prefixForward(int count) {
        String prefix = prefix(count);
        pointer += count;
        index += count;
        documentIndex += count;
        column += count;
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }

    /** Whether the code point {@code offset} ahead of the pointer is there, reading as much as it takes. */
    private boolean ensureEnoughData(int offset) {
        while (!eof && pointer + offset >= length) {
            readChunk();
        }
        return pointer + offset < length;
    }

    private void readChunk() {
        int read;
        try {
            read = stream.read(buffer, 0, CHUNK);
            if (read > 0 && Character.isHighSurrogate(buffer[read - 1]) && stream.read(buffer, read, 1) == 1) {
                read++;
            }
        } catch (IOException e) {
            throw new UnusableInput("cannot be read: " + e.getMessage());
        }
        if (read <= 0) {
            eof = true;
            return;
        }
        makeRoom(read);
        int first = length;
        for (int i = 0; i < read; ) {
            int codePoint = Character.codePointAt(buffer, i, read);
            window[length++] = codePoint;
            i += Character.charCount(codePoint);
        }
        for (int at = first; at < length; at++) {
            if (!isPrintable(window[at])) {
                throw new UnusableInput(position(at) + "the character U+" + String.format("%04X", window[at])
                        + " cannot be in YAML text");
            }
        }
    }

    /**
     * Room for {@code count} more code points: unread ones move to the front of a new array (marks
     * keep the old one), which doubles whenever the unread part fills half of it.
     */
    private void makeRoom(int count) {
        if (length + count <= window.length) {
            return;
        }
        int unread = length - pointer;
        int[] grown = new int[Math.max(window.length, Integer.highestOneBit(Math.max(1, unread + count)) * 2)];
        System.arraycopy(window, pointer, grown, 0, unread);
        window = grown;
        length = unread;
        pointer = 0;
    }

    /** {@code line L, column C: } of the code point at {@code at} in the window, counting from the pointer. */
    private String position(int at) {
        int atLine = line;
        int atColumn = column;
        for (int i = pointer; i < at; i++) {
            if (Constant.LINEBR.has(window[i])) {
                atLine++;
                atColumn = 0;
            } else {
                atColumn++;
            }
        }
        return "line " + (atLine + 1) + ", column " + (atColumn + 1) + ": ";
    }
}
