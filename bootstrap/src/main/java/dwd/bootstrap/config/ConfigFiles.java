package dwd.bootstrap.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dwd.domain.config.ConfigProblem;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.ProberConfigAsWritten;
import dwd.domain.config.ProberConfigs;
import dwd.domain.config.Validated;
import dwd.domain.config.WeederConfig;
import dwd.domain.config.WeederConfigAsWritten;
import dwd.domain.config.WeederConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.function.Consumer;

/**
 * Reads prober and weeder config files the way the original does: YAML, keys matched
 * case-insensitively, durations in Go syntax (validated by the domain), unknown keys accepted
 * and reported once, explicit nulls treated as absent. Then validates them, reporting every
 * problem with its location.
 */
public final class ConfigFiles {

    private final Consumer<String> warnings;

    /** @param warnings receives one warning per file naming every unknown key */
    public ConfigFiles(Consumer<String> warnings) {
        this.warnings = warnings;
    }

    public ProberConfig prober(Path file) throws ConfigFileException {
        ProberConfigAsWritten written = read(file, ProberConfigAsWritten.class, "prober");
        return valid(file, ProberConfigs.validate(written), "prober");
    }

    public WeederConfig weeder(Path file) throws ConfigFileException {
        WeederConfigAsWritten written = read(file, WeederConfigAsWritten.class, "weeder");
        return valid(file, WeederConfigs.validate(written), "weeder");
    }

    private static <T> T valid(Path file, Validated<T> validated, String role) throws ConfigFileException {
        return switch (validated) {
            case Validated.Valid<T> valid -> valid.value();
            case Validated.Invalid<T> invalid -> {
                List<String> problems = invalid.problems().stream().map(ConfigProblem::toString).toList();
                throw new ConfigFileException(file.toString(), problems.size() == 1
                        ? "1 problem in the " + role + " config"
                        : problems.size() + " problems in the " + role + " config", problems);
            }
        };
    }

    private <T> T read(Path file, Class<T> type, String role) throws ConfigFileException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigFileException(file.toString(), "the " + role + " config file does not exist", List.of(
                    "pass the path of an existing file with --config-file"));
        } catch (IOException e) {
            throw new ConfigFileException(file.toString(), "the " + role + " config file cannot be read: " + e.getMessage(),
                    List.of());
        }
        if (text.isBlank()) {
            throw new ConfigFileException(file.toString(), "the " + role + " config file is empty", List.of());
        }
        try {
            ObjectReader reader = reader(type);
            T written = reader.readValue(text);
            if (written == null) {
                throw new ConfigFileException(file.toString(), "the " + role + " config file holds no document", List.of());
            }
            List<String> unknownKeys = UnknownKeys.of(reader.readTree(text), type);
            if (!unknownKeys.isEmpty()) {
                warnings.accept(file + ": ignoring unknown " + (unknownKeys.size() == 1 ? "key " : "keys ")
                        + String.join(", ", unknownKeys));
            }
            return written;
        } catch (JsonMappingException e) {
            throw new ConfigFileException(file.toString(), "the " + role + " config does not have the expected shape",
                    List.of(describe(e)));
        } catch (JsonProcessingException e) {
            throw new ConfigFileException(file.toString(), "the " + role + " config is not valid YAML",
                    List.of(at(e.getLocation()) + oneLine(e.getOriginalMessage())));
        }
    }

    private static ObjectReader reader(Class<?> type) {
        var mapper = YAMLMapper.builder()
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
                // The domain's records live in exported (not opened) packages: use public members only.
                .disable(MapperFeature.CAN_OVERRIDE_ACCESS_MODIFIERS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .build();
        // Unknown keys are skipped here and named by UnknownKeys, which walks the document itself: Jackson
        // buffers a record's properties before it reports one it does not know, so its parser's path is
        // no longer the key's.
        mapper.addHandler(new DeserializationProblemHandler() {
            @Override
            public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
                    JsonDeserializer<?> deserializer, Object beanOrClass, String propertyName) throws IOException {
                parser.skipChildren();
                return true;
            }
        });
        return mapper.readerFor(type);
    }

    /** {@code line 12, column 5: dependentResourceInfos[0].scaleUp: …} from a mapping problem. */
    private static String describe(JsonMappingException e) {
        var path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        String message = e.getOriginalMessage();
        int detail = message.indexOf(" at [Source");
        if (detail > 0) {
            message = message.substring(0, detail);
        }
        String problem = e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                ? "expected " + describeType(mismatch.getTargetType()) + found(message)
                : message.replace("dwd.domain.config.", "").replace("`", "");
        return at(e.getLocation()) + (path.isEmpty() ? "" : path + ": ") + problem;
    }

    private static String describeType(Class<?> type) {
        if (type.isRecord()) {
            return "a mapping (key: value lines)";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "a mapping (key: value lines)";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        return "a " + type.getSimpleName();
    }

    private static final Pattern FOUND = Pattern.compile("from (String|Integer|Floating-point|Boolean) value \\('?(.*?)'?\\)"
            + "|from (String) \"(.*?)\"");

    private static String found(String jacksonMessage) {
        if (jacksonMessage.contains("from Array value") || jacksonMessage.contains("START_ARRAY")) {
            return ", found a list";
        }
        if (jacksonMessage.contains("from Object value") || jacksonMessage.contains("START_OBJECT")) {
            return ", found a mapping";
        }
        Matcher matcher = FOUND.matcher(jacksonMessage);
        if (matcher.find()) {
            String kind = matcher.group(1) != null ? matcher.group(1) : matcher.group(3);
            String value = matcher.group(1) != null ? matcher.group(2) : matcher.group(4);
            return ", found " + (kind.equals("String") ? "the string" : "the value") + " '" + value + "'";
        }
        return "";
    }

    /** snakeyaml's multi-line message (with source excerpts and carets) as one line. */
    private static String oneLine(String yamlMessage) {
        return yamlMessage.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.equals("^") && !line.startsWith("in 'reader'"))
                .reduce((a, b) -> a + "; " + b)
                .orElse(yamlMessage);
    }

    private static String at(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? ""
                : "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
    }
}
