package dwd.adapters.k8s.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class TextInputTest {

    private static final TextInput.Limit SMALL = new TextInput.Limit(1024, "a test input");

    @TempDir
    Path directory;

    @Test
    void readsARegularFileAndFollowsLinksAsConfigMapMountsUseThem() throws IOException {
        Path file = Files.writeString(directory.resolve("config.yaml"), "a: 1\n");
        Path link = Files.createSymbolicLink(directory.resolve("link.yaml"), file);
        assertThat(TextInput.read(link, SMALL)).isEqualTo("a: 1\n");
    }

    /** Opening a pipe blocks until a writer comes: the check comes first. The timeout only ends a hung build. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNamedPipeIsRefusedWithoutBeingOpened() throws Exception {
        Path pipe = directory.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();
        assertThatThrownBy(() -> TextInput.read(pipe, SMALL)).isInstanceOf(UnusableInput.class)
                .hasMessage("is a named pipe (FIFO), not a regular file; dwd reads only regular files");
    }

    @Test
    void aDeviceSuchAsDevZeroIsRefusedWithoutBeingRead() {
        assertThatThrownBy(() -> TextInput.read(Path.of("/dev/zero"), SMALL))
                .hasMessage("is a character device, not a regular file; dwd reads only regular files");
    }

    @Test
    void aDirectoryAndAMissingFileAreRefused() {
        assertThatThrownBy(() -> TextInput.read(directory, SMALL)).hasMessage("is a directory, not a file");
        assertThatThrownBy(() -> TextInput.read(directory.resolve("absent"), SMALL)).hasMessage("no such file");
    }

    @Test
    void aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws IOException {
        Path file = Files.writeString(directory.resolve("big.yaml"), "a".repeat(3000));
        assertThatThrownBy(() -> TextInput.read(file, SMALL))
                .hasMessage("is 2.9 KiB; dwd reads at most 1 KiB from a test input");
    }

    @Test
    void aStreamIsReadUpToTheLimitAndNoFurther() throws IOException {
        var endless = new InputStream() {
            long served;

            @Override
            public int read() {
                served++;
                return 'a';
            }
        };
        try (Reader reader = TextInput.open(endless, SMALL)) {
            assertThatThrownBy(() -> reader.transferTo(Writer.nullWriter()))
                    .hasMessage("holds more than 1 KiB, the most dwd reads from a test input");
        }
        assertThat(endless.served).isLessThan(64 * 1024);
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedWithTheirPosition() {
        byte[] png = {'a', ':', ' ', '1', '\n', 'b', ':', ' ', (byte) 0x89, 'P', 'N', 'G'};
        assertThatThrownBy(() -> TextInput.read(png, SMALL)).isInstanceOf(UnusableInput.class)
                .hasMessage("line 2, column 4: byte 0x89 is not UTF-8; dwd reads YAML and JSON as UTF-8 text"
                        + " (is this a binary file?)");
    }

    @Test
    void controlCharactersAreRefusedWithTheirPosition() {
        assertThatThrownBy(() -> TextInput.read(new byte[] {0, 0, 0}, SMALL))
                .hasMessage("line 1, column 1: the control character U+0000 cannot be in YAML or JSON text"
                        + " (is this a binary file?)");
        assertThatThrownBy(() -> TextInput.read("a: 1\r\n\tb: \u001b[0m".getBytes(StandardCharsets.UTF_8), SMALL))
                .hasMessageStartingWith("line 2, column 5: the control character U+001B");
    }

    @Test
    void utf8TextOfEveryPlaneReadsAsIs() throws IOException {
        String text = "name: Grüße\nemoji: \uD83D\uDE80\ncjk: 漢字\n";
        assertThat(TextInput.read(text.getBytes(StandardCharsets.UTF_8), SMALL)).isEqualTo(text);
        try (Reader reader = TextInput.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), SMALL)) {
            var read = new StringWriter();
            reader.transferTo(read);
            assertThat(read.toString()).isEqualTo(text);
        }
    }

    @Test
    void sizesAreWrittenAsPeopleWriteThem() {
        assertThat(TextInput.size(512)).isEqualTo("512 bytes");
        assertThat(TextInput.size(3L << 20)).isEqualTo("3 MiB");
        assertThat(TextInput.size(1536L << 20)).isEqualTo("1.5 GiB");
    }
}
