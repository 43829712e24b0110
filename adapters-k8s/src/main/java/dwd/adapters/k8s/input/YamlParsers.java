package dwd.adapters.k8s.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The one way dwd parses YAML: config files, kubeconfigs (files and Secrets) and the objects
 * {@code dwd check} reads. Parsers take time linear in the input, resolve aliases within a bound
 * ({@link AliasResolvingParser}), nest at most {@value LinearYamlFactory#MAX_NESTING_DEPTH} levels deep,
 * and report problems in one line without quoting the input.
 */
public final class YamlParsers {

    private static final LinearYamlFactory FACTORY = new LinearYamlFactory();

    /** How many values aliases may add to one input. */
    public static final int MAX_VALUES_FROM_ALIASES = AliasResolvingParser.MAX_VALUES_FROM_ALIASES;

    /** A problem in the input: where (from 1; 0 when unknown) and what. */
    public record Problem(int line, int column, String message) {
        @Override
        public String toString() {
            return line > 0 ? "line " + line + ", column " + column + ": " + message : message;
        }
    }

    private YamlParsers() {
    }

    /**
     * A parser of the YAML documents in {@code text}, one root value each. Give it a reader of
     * {@link TextInput} to bound and check the text; its {@link UnusableInput} comes through as it is.
     */
    public static JsonParser open(Reader text) {
        try {
            return new AliasResolvingParser((LinearYamlParser) FACTORY.createParser(text));
        } catch (IOException e) {
            throw new UnusableInput("cannot be read: " + e.getMessage());
        }
    }

    /**
     * Reads every document of {@code text} to its end, as {@link #open} parses it, for a document that
     * another library then parses (client-java's kubeconfig loader): the same YAML is then refused
     * everywhere in dwd, with the same messages.
     *
     * @throws UnusableInput naming the line, column and problem
     */
    public static void readThrough(String text) {
        try (JsonParser parser = open(new StringReader(text))) {
            while (parser.nextToken() != null) {
                // every token, so that every alias is resolved and every bound applies
            }
        } catch (JsonProcessingException e) {
            throw new UnusableInput(problem(e).toString());
        } catch (IOException e) {
            throw new UnusableInput("cannot be read: " + e.getMessage());
        }
    }

    /**
     * What a parser's exception says, in one line and without quoting the input: SnakeYAML's context and
     * problem without its excerpt, Jackson's message without its internals.
     */
    public static Problem problem(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException marked) {
            var mark = marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
            String message = Stream.of(marked.getContext(), marked.getProblem())
                    .filter(part -> part != null && !part.isBlank())
                    .map(String::strip)
                    .collect(Collectors.joining("; "));
            return mark == null ? located(e.getLocation(), message)
                    : new Problem(mark.getLine() + 1, mark.getColumn() + 1, message);
        }
        String message = e.getOriginalMessage() == null ? "malformed input" : e.getOriginalMessage();
        if (message.startsWith("Expected a field name (Scalar value in YAML)")) {
            message = message.contains("AliasEvent") ? "an alias cannot be a key; write the key out"
                    : "a key must be a plain value, not a mapping or a list";
        } else if (e instanceof StreamConstraintsException) {
            message = message.replaceAll(", from `[^`]*`", "");
        }
        return located(e.getLocation(), firstLine(message));
    }

    private static Problem located(JsonLocation location, String message) {
        return location == null || location.getLineNr() < 1 ? new Problem(0, 0, message)
                : new Problem(location.getLineNr(), location.getColumnNr(), message);
    }

    /** SnakeYAML's own messages go on with its "in 'reader', line …" marks and an excerpt of the input. */
    private static String firstLine(String message) {
        return message.lines().filter(line -> !line.isBlank()).findFirst().orElse(message).strip();
    }
}
