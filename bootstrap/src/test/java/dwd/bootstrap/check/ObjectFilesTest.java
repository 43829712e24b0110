package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectFilesTest {

    private static final InputStream NO_STDIN = InputStream.nullInputStream();

    @TempDir
    Path directory;

    private String file(String name, String content) throws Exception {
        return Files.writeString(directory.resolve(name), content).toString();
    }

    @Test
    void readsEveryDocumentOfAYamlFileWithItsStartLine() throws Exception {
        String file = file("objects.yaml", """
                # two objects
                kind: Foo
                metadata: {name: a}
                ---
                ---
                kind: Bar
                metadata:
                  name: b
                  generation: 3
                """);
        List<SourceDocument> objects = ObjectFiles.read(file, NO_STDIN);
        assertThat(objects).extracting(SourceDocument::number, SourceDocument::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 2), org.assertj.core.groups.Tuple.tuple(2, 6));
        assertThat(objects.get(1).content()).containsEntry("kind", "Bar");
        assertThat(objects.get(1).origin()).isEqualTo(file + ":6");
        assertThat(objects.get(1).locate("metadata.generation")).isEqualTo(file + ":9:3");
    }

    @Test
    void readsSeveralJsonValuesAndKeepsIntegerTypes() throws Exception {
        String file = file("objects.json", """
                {"kind": "Foo", "metadata": {"name": "a", "generation": 2}}
                {"kind": "Foo", "metadata": {"name": "b", "generation": 1.5}}
                """);
        List<SourceDocument> objects = ObjectFiles.read(file, NO_STDIN);
        assertThat(objects).hasSize(2);
        assertThat(((Map<?, ?>) objects.get(0).content().get("metadata")).get("generation")).isEqualTo(2);
        assertThat(((Map<?, ?>) objects.get(1).content().get("metadata")).get("generation")).isEqualTo(1.5);
        assertThat(objects.get(1).line()).isEqualTo(2);
    }

    @Test
    void expandsTheItemsOfAListAndLocatesFieldsInsideThem() throws Exception {
        String file = file("list.yaml", """
                apiVersion: v1
                kind: List
                items:
                - kind: Foo
                  metadata: {name: a}
                - kind: Foo
                  metadata: {name: b}
                  status:
                    conditions: []
                """);
        List<SourceDocument> objects = ObjectFiles.read(file, NO_STDIN);
        assertThat(objects).extracting(SourceDocument::line).containsExactly(4, 6);
        assertThat(objects.get(1).locate("status.conditions")).isEqualTo(file + ":9:5");
        assertThat(objects.get(1).locate("status.conditions[0].type")).isEqualTo(file + ":9:5");
    }

    @Test
    void readsAJsonArrayOfObjects() throws Exception {
        String file = file("array.json", "[{\"kind\":\"Foo\",\"metadata\":{\"name\":\"a\"}},{\"kind\":\"Foo\",\"metadata\":{\"name\":\"b\"}}]");
        assertThat(ObjectFiles.read(file, NO_STDIN)).hasSize(2);
    }

    @Test
    void readsStandardInputForADash() {
        var stdin = new ByteArrayInputStream("kind: Foo\nmetadata: {name: a}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(ObjectFiles.read("-", stdin)).singleElement()
                .satisfies(object -> assertThat(object.origin()).isEqualTo("stdin:1"));
    }

    @Test
    void aSyntaxErrorNamesFileLineAndColumn() throws Exception {
        String file = file("broken.yaml", "kind: Foo\nmetadata:\n  name: x\n status: [1\n");
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(file + ":4:2: cannot parse YAML: ")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aJsonSyntaxErrorNamesFileAndLine() throws Exception {
        String file = file("broken.json", "{\"kind\": \"Foo\",\n \"metadata\": {\"name\": }\n}");
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN))
                .hasMessageStartingWith(file + ":2:").hasMessageContaining("cannot parse JSON: ");
    }

    @Test
    void aDuplicateKeyIsAnError() throws Exception {
        String file = file("duplicate.yaml", "kind: Foo\nmetadata:\n  name: a\n  name: b\n");
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN))
                .hasMessage(file + ":4:3: duplicate key 'name' in metadata");
    }

    @Test
    void aDocumentThatIsNotAMappingIsAnError() throws Exception {
        String file = file("scalar.yaml", "kind: Foo\nmetadata: {name: a}\n---\njust text\n");
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN))
                .hasMessage(file + ":4:1: expected an object (a mapping with apiVersion, kind, metadata and status), "
                        + "found the string \"just text\"");
    }

    @Test
    void objectsNeedAKindAndAName() throws Exception {
        String noKind = file("nokind.yaml", "metadata: {name: a}\n");
        String noName = file("noname.yaml", "kind: Foo\nmetadata:\n  namespace: ns\n");
        assertThatThrownBy(() -> ObjectFiles.read(noKind, NO_STDIN))
                .hasMessage(noKind + ":1:1: object 1 has no kind; every object needs kind and metadata.name");
        assertThatThrownBy(() -> ObjectFiles.read(noName, NO_STDIN))
                .hasMessage(noName + ":2:1: object 1 (Foo) has no metadata.name; every object needs kind and metadata.name");
    }

    @Test
    void aFileWithoutObjectsIsAnError() throws Exception {
        String file = file("empty.yaml", "# nothing here\n---\n");
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN)).hasMessage(file + ": contains no object to check");
    }

    @Test
    void aMissingFileIsAnError() {
        String file = directory.resolve("missing.yaml").toString();
        assertThatThrownBy(() -> ObjectFiles.read(file, NO_STDIN)).hasMessage(file + ": no such file");
    }
}
