package dwd.adapters.k8s.input;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a byte stream as UTF-8 text, refusing (with line and column) what no YAML or JSON input
 * holds: bytes that are not UTF-8, and control characters other than tab, line feed and carriage
 * return. Refuses too, once it is reached, more than a given number of bytes. So a binary file or
 * {@code /dev/zero} is refused at its first character, and nothing reads without bound.
 */
final class Utf8TextReader extends Reader {

    private final InputStream in;
    private final long maxBytes;
    private final String overMaxBytes;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(8192).flip();
    private final CharBuffer chars = CharBuffer.allocate(8192).flip();
    private long bytesRead;
    private boolean endOfInput;
    private boolean drained;
    private int line = 1;
    private int column = 1;

    /**
     * @param maxBytes     the most bytes read
     * @param overMaxBytes the problem when there are more, as it reads after the input's name
     */
    Utf8TextReader(InputStream in, long maxBytes, String overMaxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.overMaxBytes = overMaxBytes;
    }

    @Override
    public int read(char[] target, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (!chars.hasRemaining()) {
            if (drained) {
                return -1;
            }
            decodeMore();
        }
        int count = Math.min(length, chars.remaining());
        chars.get(target, offset, count);
        return count;
    }

    /** Decodes the next chunk into {@link #chars}, checking each character. */
    private void decodeMore() throws IOException {
        if (!endOfInput && bytes.remaining() < 4) {
            fill();
        }
        chars.clear();
        CoderResult result = decoder.decode(bytes, chars, endOfInput);
        if (result.isError()) {
            chars.flip();
            check(chars);
            int bad = bytes.get(bytes.position()) & 0xff;
            throw new UnusableInput(at() + "byte 0x" + Integer.toHexString(bad).toUpperCase()
                    + " is not UTF-8; dwd reads YAML and JSON as UTF-8 text (is this a binary file?)");
        }
        if (endOfInput && !bytes.hasRemaining() && result.isUnderflow()) {
            decoder.flush(chars);
            drained = true;
        }
        chars.flip();
        check(chars);
    }

    private void fill() throws IOException {
        bytes.compact();
        int read = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (read < 0) {
            endOfInput = true;
        } else {
            bytesRead += read;
            bytes.position(bytes.position() + read);
            if (bytesRead > maxBytes) {
                throw new UnusableInput(overMaxBytes);
            }
        }
        bytes.flip();
    }

    /** Counts lines and columns of the decoded characters and refuses control characters. */
    private void check(CharBuffer decoded) {
        for (int i = decoded.position(); i < decoded.limit(); i++) {
            char c = decoded.get(i);
            if (c == '\n') {
                line++;
                column = 1;
                continue;
            }
            if (c < 0x20 && c != '\t' && c != '\r') {
                throw new UnusableInput(at() + "the control character U+" + String.format("%04X", (int) c)
                        + " cannot be in YAML or JSON text (is this a binary file?)");
            }
            column++;
        }
    }

    private String at() {
        return "line " + line + ", column " + column + ": ";
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
