package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.stream.JsonReader;
import dwd.adapters.k8s.AnswerOutOfBounds;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Why a shoot's lists are read with Jackson's parser while every other answer is read with Gson
 * (docs/decisions.md, "One JSON library and one logging API per module"): a node whose name is
 * longer than any field etcd stores is refused by {@link BoundedList} after its bound, while Gson's
 * reader holds the whole string before anyone can look at it. The test asserts the behaviour; the
 * bytes each allocated are printed, not asserted (they are the figure in the decision).
 */
class ListReadersTest {

    /** 64 MiB of name: a hostile shoot's answer, 64 times the longest string dwd reads. */
    private static final int NAME_LENGTH = 64 << 20;

    private static byte[] nodeListWithLongName(int nameLength) {
        String head = "{\"items\":[{\"metadata\":{\"name\":\"";
        String tail = "\"}}],\"metadata\":{}}";
        byte[] answer = new byte[head.length() + nameLength + tail.length()];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, answer, 0, head.length());
        java.util.Arrays.fill(answer, head.length(), head.length() + nameLength, (byte) 'n');
        System.arraycopy(tail.getBytes(StandardCharsets.US_ASCII), 0, answer, head.length() + nameLength, tail.length());
        return answer;
    }

    /** HotSpot's count of the bytes this thread allocated (its MXBean's extension, read reflectively: tests run in the module). */
    private static long allocatedBytes() throws ReflectiveOperationException {
        Object threads = ManagementFactory.getThreadMXBean();
        return (long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes")
                .invoke(threads);
    }

    @Test
    void aStringLongerThanTheBoundIsRefusedByTheListReaderAndHeldWholeByGsons() throws Exception {
        byte[] small = nodeListWithLongName(2 << 20);
        readWithTheListReader(small); // both warmed up: class loading and first-call costs are not the answer's
        readWithGson(small);
        byte[] answer = nodeListWithLongName(NAME_LENGTH);

        long before = allocatedBytes();
        readWithTheListReader(answer);
        long listReader = allocatedBytes() - before;
        before = allocatedBytes();
        String name = readWithGson(answer);
        long gson = allocatedBytes() - before;

        assertThat(name).hasSize(NAME_LENGTH);
        System.out.printf("a %d MiB name: the list reader refused it after allocating %.1f MiB; Gson's reader"
                + " returned it after allocating %.1f MiB%n", NAME_LENGTH >> 20, listReader / 1048576.0, gson / 1048576.0);
    }

    private static void readWithTheListReader(byte[] answer) {
        var list = new BoundedList<>("nodes", KubernetesShootApi::readNode);
        assertThatThrownBy(() -> list.readPage(new ByteArrayInputStream(answer)))
                .isInstanceOf(AnswerOutOfBounds.class).hasMessageContaining("String value length");
    }

    /** The node's name, as Gson's streaming reader gives it. */
    private static String readWithGson(byte[] answer) throws Exception {
        try (var reader = new JsonReader(new InputStreamReader(new ByteArrayInputStream(answer), StandardCharsets.UTF_8))) {
            reader.beginObject();
            reader.nextName();
            reader.beginArray();
            reader.beginObject();
            reader.nextName();
            reader.beginObject();
            reader.nextName();
            return reader.nextString();
        }
    }
}
