package dwd.adapters.k8s.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class YamlParsersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode tree(String yaml) throws IOException {
        try (JsonParser parser = YamlParsers.open(new StringReader(yaml))) {
            return JSON.readTree(parser);
        }
    }

    /** The problem the text is refused for, as {@code line L, column C: message}. */
    private static String refusal(String yaml) {
        try (JsonParser parser = YamlParsers.open(new StringReader(yaml))) {
            while (parser.nextToken() != null) {
                // to the end, or to the problem
            }
        } catch (JsonProcessingException e) {
            return YamlParsers.problem(e).toString();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("not refused: " + yaml);
    }

    @Test
    void anAliasReadsAsTheNodeItsAnchorMarks() throws IOException {
        JsonNode config = tree("""
                common: {apiVersion: &v apps/v1, kind: &kind Deployment}
                timeouts: &timeouts {timeout: 30s, initialDelay: 0s}
                dependentResourceInfos:
                  - ref: {apiVersion: *v, kind: *kind, name: kube-controller-manager}
                    scaleUp: *timeouts
                """);
        assertThat(config.at("/dependentResourceInfos/0/ref")).isEqualTo(JSON.readTree(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"kube-controller-manager\"}"));
        assertThat(config.at("/dependentResourceInfos/0/scaleUp")).isEqualTo(config.get("timeouts"));
    }

    @Test
    void anchorsOnKeysListItemsAndNestedAliasesResolve() throws IOException {
        assertThat(tree("&k reason: x\nwhy: *k\n").get("why").asText()).isEqualTo("reason");
        assertThat(tree("l: [&one 1, *one, &pair {a: *one}, *pair]\n").get("l"))
                .isEqualTo(JSON.readTree("[1, 1, {\"a\": 1}, {\"a\": 1}]"));
        assertThat(tree("a: &a first\nb: *a\na2: &a second\nc: *a\n").get("c").asText()).isEqualTo("second");
    }

    @Test
    void anAliasOutsideItsAnchorsReachIsRefused() {
        assertThat(refusal("a: *nope\n")).isEqualTo("line 1, column 4: alias *nope names no anchor; an anchor"
                + " (&nope) must come before its aliases, in the same document");
        assertThat(refusal("x: &a [1]\n---\ny: *a\n")).startsWith("line 3, column 4: alias *a names no anchor");
        assertThat(refusal("a: &r [1, *r]\n"))
                .isEqualTo("line 1, column 11: alias *r is inside the node it names, which would never end");
    }

    @Test
    void mergeKeysAndKeysThatAreNotScalarsAreRefused() {
        assertThat(refusal("base: &b {x: 1}\nuse: {<<: *b, y: 2}\n")).isEqualTo("line 2, column 7: merge keys (<<) are"
                + " not supported; write the keys out (YAML 1.2 has no merge keys)");
        assertThat(refusal("a: &k key\n*k : v\n")).isEqualTo("line 2, column 3: an alias cannot be a key; write the key out");
        assertThat(refusal("? [a, b]\n: v\n")).endsWith("a key must be a plain value, not a mapping or a list");
    }

    @Test
    void aliasesExpandToAtMostTheBoundThenTheInputIsRefused() throws IOException {
        String anchor = "anchor: &nine [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"; // 10 values each time it is repeated
        int fits = YamlParsers.MAX_VALUES_FROM_ALIASES / 10;
        assertThat(tree(anchor + "uses: [" + String.join(", ", Collections.nCopies(fits, "*nine")) + "]\n")
                .get("uses")).hasSize(fits);
        assertThat(refusal(anchor + "uses: [" + String.join(", ", Collections.nCopies(fits + 1, "*nine")) + "]\n"))
                .endsWith("aliases expand to more than 100,000 values; write the repeated parts out, or repeat less");
    }

    @Test
    void aBillionLaughsIsRefusedNotExpanded() {
        var laughs = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int level = 1; level <= 9; level++) {
            laughs.append("a").append(level).append(": &a").append(level).append(" [")
                    .append(String.join(", ", Collections.nCopies(10, "*a" + (level - 1)))).append("]\n");
        }
        assertThat(refusal(laughs.toString())).startsWith("line 5, ").contains("aliases expand to more than 100,000");
    }

    @Test
    void nestingIsBoundedAndSaidPlainly() {
        String deep = "a: " + "[".repeat(1_100) + "]".repeat(1_100) + "\n";
        assertThat(refusal(deep)).contains("nesting depth").contains("1000").doesNotContain("StreamReadConstraints");
    }

    @Test
    void aSyntaxErrorIsOneLineWithoutAnExcerptOfTheInput() {
        String problem = refusal("token: s3cr3t-value\n  nested: x\n");
        assertThat(problem).isEqualTo("line 2, column 9: mapping values are not allowed here").doesNotContain("s3cr3t");
    }

    @Test
    void characterYamlForbidsAreRefusedWithTheirPosition() {
        assertThatThrownBy(() -> refusal("a: 1\nb: \"x\u007fy\"\n")).isInstanceOf(UnusableInput.class)
                .hasMessage("line 2, column 6: the character U+007F cannot be in YAML text");
    }

    @Test
    void aValueOfTwentyMegabytesOnOneLineReads() throws IOException {
        String value = "x".repeat(20_000_000);
        assertThat(tree("data:\n  k: " + value + "\n").at("/data/k").asText()).hasSize(20_000_000);
    }

    /** The reader replaced in SnakeYAML changes its speed, not what it reads: tokens, values and positions. */
    @Test
    void readsEveryDocumentAsJacksonsOwnParserDoes() throws IOException {
        var documents = new ArrayList<String>();
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("../deploy")), Files.walk(Path.of("../bootstrap/src/test/resources")))) {
            for (Path file : files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList()) {
                documents.add(Files.readString(file));
            }
        }
        assertThat(documents).hasSizeGreaterThan(20);
        documents.add("\uFEFFkey: value\r\nlist:\r\n  - a\r\n  - \"b\\tc\"\r\nblock: |\r\n  one\r\n  two\r\n");
        documents.add("emoji: \uD83D\uDE80\uD83D\uDE80\nfolded: >\n  a\n  b\n---\n[1, 2.5, true, null, ~, 0x1F]\n...\n");
        documents.add("long: " + "y".repeat(100_000) + "\nquoted: '" + "z ".repeat(50_000) + "'\n");
        var random = new Random(29);
        for (int i = 0; i < 50; i++) {
            documents.add(randomDocument(random));
        }
        for (String document : documents) {
            assertThat(tokens(YamlParsers.open(new StringReader(document))))
                    .as(document.length() > 200 ? document.substring(0, 200) : document)
                    .isEqualTo(tokens(new YAMLFactory().createParser(document)));
        }
    }

    private static String randomDocument(Random random) {
        var yaml = new StringBuilder();
        String[] scalars = {"plain", "'single quoted'", "\"double \\u00e9\"", "42", "-1.5e3", "true", "~", "\"\"",
                "漢字", "\uD83D\uDE80", "a b c", "x".repeat(5_000)};
        for (int key = 0; key < 1 + random.nextInt(20); key++) {
            yaml.append("k").append(key).append(':');
            switch (random.nextInt(3)) {
                case 0 -> yaml.append(' ').append(scalars[random.nextInt(scalars.length)]).append('\n');
                case 1 -> {
                    yaml.append('\n');
                    for (int item = 0; item < random.nextInt(5); item++) {
                        yaml.append("  - ").append(scalars[random.nextInt(scalars.length)]).append('\n');
                    }
                }
                default -> yaml.append(" {a: ").append(scalars[random.nextInt(4)]).append(", b: [1, 2]}")
                        .append(random.nextBoolean() ? "  # comment\n" : "\r\n");
            }
        }
        return yaml.toString();
    }

    private static List<String> tokens(JsonParser parser) throws IOException {
        var tokens = new ArrayList<String>();
        try (parser) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                var location = parser.currentTokenLocation();
                tokens.add(token + " " + (token == JsonToken.FIELD_NAME ? parser.currentName()
                        : token.isScalarValue() ? parser.getText() : "")
                        + " @" + location.getLineNr() + ":" + location.getColumnNr() + "/" + location.getCharOffset());
            }
        }
        return tokens;
    }
}
