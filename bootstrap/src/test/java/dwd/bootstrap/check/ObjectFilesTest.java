package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.domain.status.FieldProblem;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectFilesTest {

    private static final InputStream NO_STDIN = InputStream.nullInputStream();

    @TempDir
    Path directory;

    private static List<SourceDocument> read(String file, InputStream stdin) {
        var objects = new ArrayList<SourceDocument>();
        ObjectFiles.read(file, stdin, objects::add);
        return objects;
    }

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
        List<SourceDocument> objects = read(file, NO_STDIN);
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
        List<SourceDocument> objects = read(file, NO_STDIN);
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
        List<SourceDocument> objects = read(file, NO_STDIN);
        assertThat(objects).extracting(SourceDocument::line).containsExactly(4, 6);
        assertThat(objects.get(1).locate("status.conditions")).isEqualTo(file + ":9:5");
        assertThat(objects.get(1).locate("status.conditions[0].type")).isEqualTo(file + ":9:5");
    }

    @Test
    void readsAJsonArrayOfObjects() throws Exception {
        String file = file("array.json", "[{\"kind\":\"Foo\",\"metadata\":{\"name\":\"a\"}},{\"kind\":\"Foo\",\"metadata\":{\"name\":\"b\"}}]");
        assertThat(read(file, NO_STDIN)).hasSize(2);
    }

    @Test
    void readsStandardInputForADash() {
        var stdin = new ByteArrayInputStream("kind: Foo\nmetadata: {name: a}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(read("-", stdin)).singleElement()
                .satisfies(object -> assertThat(object.origin()).isEqualTo("stdin:1"));
    }

    @Test
    void aSyntaxErrorNamesFileLineAndColumn() throws Exception {
        String file = file("broken.yaml", "kind: Foo\nmetadata:\n  name: x\n status: [1\n");
        assertThatThrownBy(() -> read(file, NO_STDIN))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(file + ":4:2: cannot parse YAML: ")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aJsonSyntaxErrorNamesFileAndLine() throws Exception {
        String file = file("broken.json", "{\"kind\": \"Foo\",\n \"metadata\": {\"name\": }\n}");
        assertThatThrownBy(() -> read(file, NO_STDIN))
                .hasMessageStartingWith(file + ":2:").hasMessageContaining("cannot parse JSON: ");
    }

    @Test
    void aDuplicateKeyMakesItsObjectUnreadableAndTheNextIsStillRead() throws Exception {
        String file = file("duplicate.yaml", "kind: Foo\nmetadata:\n  name: a\n  name: b\n---\nkind: Foo\nmetadata: {name: c}\n");
        List<SourceDocument> objects = read(file, NO_STDIN);
        assertThat(objects).hasSize(2);
        assertThat(objects.get(0).problem()).contains(new FieldProblem("metadata.name",
                "duplicate key; a key may appear only once in a mapping"));
        assertThat(objects.get(0).locate("metadata.name")).isEqualTo(file + ":4:3");
        assertThat(objects.get(1).problem()).isEmpty();
    }

    @Test
    void aDuplicateKeyOfAListItselfBelongsToNoObjectAndStopsTheRun() throws Exception {
        String file = file("list.yaml", "kind: List\nkind: List\nitems:\n- kind: Foo\n  metadata: {name: a}\n");
        assertThatThrownBy(() -> read(file, NO_STDIN)).isInstanceOf(InputException.class)
                .hasMessage(file + ":2:1: duplicate key kind in the list itself (outside its items); a key may appear only once"
                        + " in a mapping");
    }

    @Test
    void aDocumentThatIsNotAMappingIsAValueOfItsOwn() throws Exception {
        String file = file("scalar.yaml", "kind: Foo\nmetadata: {name: a}\n---\njust text\n");
        List<SourceDocument> objects = read(file, NO_STDIN);
        assertThat(objects).hasSize(2);
        assertThat(objects.get(1).problem()).contains(new FieldProblem("",
                "expected an object (a mapping with apiVersion, kind, metadata and status), found the string \"just text\""));
        assertThat(objects.get(1).origin()).isEqualTo(file + ":4");
    }

    @Test
    void objectsWithoutAKindOrANameAreValuesOfTheirOwn() throws Exception {
        String noKind = file("nokind.yaml", "metadata: {name: a}\n");
        String noName = file("noname.yaml", "kind: Foo\nmetadata:\n  namespace: ns\n");
        assertThat(read(noKind, NO_STDIN)).singleElement().extracting(SourceDocument::problem)
                .isEqualTo(Optional.of(new FieldProblem("kind", "missing; every object needs kind and metadata.name")));
        SourceDocument nameless = read(noName, NO_STDIN).getFirst();
        assertThat(nameless.problem()).contains(new FieldProblem("metadata.name", "missing; every object needs kind and metadata.name"));
        assertThat(nameless.locate("metadata.name")).isEqualTo(noName + ":2:1");
    }

    @Test
    void aFileWithoutObjectsHandsOnNothing() throws Exception {
        String file = file("empty.yaml", "# nothing here\n---\n");
        assertThat(ObjectFiles.read(file, NO_STDIN, object -> { })).isZero();
    }

    /** kubectl turns YAML into JSON, where Go writes 1.0 as 1: an integer. JSON's own 1.0 stays a decimal. */
    @Test
    @SuppressWarnings("unchecked")
    void yamlNumbersWithIntegralValuesAreIntegersAsKubectlReadsThem() throws Exception {
        String yaml = file("numbers.yaml", "kind: Foo\nmetadata: {name: a, generation: 1.0}\nspec: {a: 1e3, b: 1.5, c: 1e19}\n");
        String json = file("numbers.json", "{\"kind\": \"Foo\", \"metadata\": {\"name\": \"a\", \"generation\": 1.0}}");
        Map<String, Object> fromYaml = read(yaml, NO_STDIN).getFirst().content();
        assertThat(((Map<?, ?>) fromYaml.get("metadata")).get("generation")).isEqualTo(1L);
        assertThat((Map<String, Object>) fromYaml.get("spec")).containsEntry("a", 1000L).containsEntry("b", 1.5).containsEntry("c", 1e19);
        assertThat(((Map<?, ?>) read(json, NO_STDIN).getFirst().content().get("metadata")).get("generation")).isEqualTo(1.0);
    }

    @Test
    void aMissingFileIsAnError() {
        String file = directory.resolve("missing.yaml").toString();
        assertThatThrownBy(() -> read(file, NO_STDIN)).hasMessage(file + ": no such file");
    }

    @Test
    void aliasesReadAsTheNodesTheirAnchorsMark() throws Exception {
        String file = file("aliases.yaml", """
                kind: Foo
                metadata: {name: a}
                status:
                  conditions:
                    - {type: Ready, status: "False", reason: &why FetchFailed, message: &what "cannot fetch"}
                    - {type: FetchFailed, status: "True", reason: *why, message: *what}
                """);
        Map<?, ?> status = (Map<?, ?>) read(file, NO_STDIN).getFirst().content().get("status");
        assertThat(((List<?>) status.get("conditions")).get(1))
                .isEqualTo(Map.of("type", "FetchFailed", "status", "True", "reason", "FetchFailed", "message", "cannot fetch"));
    }

    /** As kubectl tells a list (unstructured.IsList): by its items, whatever the order of its keys. */
    @Test
    void aMappingWhoseItemsIsAListIsAListWhateverItsKind() throws Exception {
        String file = file("items-first.yaml", """
                apiVersion: v1
                items:
                - kind: Foo
                  metadata: {name: a}
                - kind: Foo
                  metadata: {name: b}
                kind: FooList
                metadata: {resourceVersion: ""}
                """);
        assertThat(read(file, NO_STDIN)).extracting(SourceDocument::number, SourceDocument::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 3), org.assertj.core.groups.Tuple.tuple(2, 5));
    }

    @Test
    void anObjectLargerThanAnyKubernetesObjectIsRefused() throws Exception {
        String file = file("huge.yaml", "kind: Foo\nmetadata: {name: a}\ndata:\n  one: " + "x".repeat(9 << 20)
                + "\n  two: y\n");
        assertThatThrownBy(() -> read(file, NO_STDIN)).isInstanceOf(InputException.class)
                .hasMessage(file + ":5:8: the value that starts at line 1 is larger than 8 MiB, the most dwd check reads"
                        + " as one object; Kubernetes objects are at most 1.5 MiB");
    }

    @Test
    void zerosOnStandardInputAreRefusedAtTheFirstByte() throws Exception {
        try (InputStream zeros = new java.io.FileInputStream("/dev/zero")) {
            assertThatThrownBy(() -> read("-", zeros)).isInstanceOf(InputException.class).hasMessage("stdin: line 1,"
                    + " column 1: the control character U+0000 cannot be in YAML or JSON text (is this a binary file?)");
        }
    }

    @Test
    void aDeviceOrAPipeGivenAsAFileIsRefusedWithoutBeingRead() throws Exception {
        assertThatThrownBy(() -> read("/dev/zero", NO_STDIN))
                .hasMessage("/dev/zero: is a character device, not a regular file; dwd reads only regular files");
        Path pipe = directory.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).isZero();
        assertThatThrownBy(() -> read(pipe.toString(), NO_STDIN))
                .hasMessage(pipe + ": is a named pipe (FIFO), not a regular file; dwd reads only regular files");
    }
}
