package dwd.bootstrap.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.adapters.k8s.input.YamlParsers;
import dwd.domain.config.ConfigProblem;
import dwd.domain.config.ProberConfig;
import dwd.domain.config.ProberConfigAsWritten;
import dwd.domain.config.ProberConfigs;
import dwd.domain.config.Validated;
import dwd.domain.config.WeederConfig;
import dwd.domain.config.WeederConfigAsWritten;
import dwd.domain.config.WeederConfigs;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
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
            text = TextInput.read(file, TextInput.CONFIG_FILE);
        } catch (UnusableInput e) {
            throw unusable(file, role, e);
        }
        if (text.isBlank()) {
            throw new ConfigFileException(file.toString(), "the " + role + " config file is empty", List.of());
        }
        ObjectReader reader = reader(type);
        try (JsonParser parser = YamlParsers.open(new StringReader(text));
                JsonParser again = YamlParsers.open(new StringReader(text))) {
            if (parser.nextToken() == null) {
                throw new ConfigFileException(file.toString(), "the " + role + " config file holds no document", List.of());
            }
            T written = bind(file, role, () -> reader.readValue(parser));
            List<String> unknownKeys = UnknownKeys.of(bind(file, role, () -> reader.readTree(again)), type);
            if (!unknownKeys.isEmpty()) {
                warnings.accept(file + ": ignoring unknown " + (unknownKeys.size() == 1 ? "key " : "keys ")
                        + String.join(", ", unknownKeys));
            }
            return written;
        } catch (UnusableInput e) {
            throw unusable(file, role, e);
        } catch (IOException e) {
            throw unusable(file, role, new UnusableInput("cannot be read: " + e.getMessage()));
        }
    }

    /** A step of reading that may fail. */
    @FunctionalInterface
    private interface Binding<T> {
        T bind() throws IOException;
    }

    /**
     * Runs {@code binding}, describing its failure while the parser still stands where it gave up: a value of the
     * wrong shape, or YAML that is not valid (or breaks a bound of {@link YamlParsers}).
     */
    private static <T> T bind(Path file, String role, Binding<T> binding) throws ConfigFileException, IOException {
        try {
            return binding.bind();
        } catch (JsonMappingException e) {
            if (causedBy(e) instanceof UnusableInput unusable) {
                throw unusable(file, role, unusable);
            }
            boolean shape = !(e.getCause() instanceof JsonProcessingException);
            throw new ConfigFileException(file.toString(), "the " + role + " config "
                    + (shape ? "does not have the expected shape" : "is not valid YAML"), List.of(ShapeProblems.describe(e)));
        } catch (JsonProcessingException e) {
            throw new ConfigFileException(file.toString(), "the " + role + " config is not valid YAML",
                    List.of(YamlParsers.problem(e).toString()));
        }
    }

    /** One line: the file, and why it cannot be used. */
    private static ConfigFileException unusable(Path file, String role, UnusableInput e) {
        return ConfigFileException.oneLine("the " + role + " config file " + file + ": " + e.getMessage()
                + (e.getMessage().equals("no such file") ? "; pass the path of an existing file with --config-file" : ""));
    }

    private static Throwable causedBy(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static ObjectReader reader(Class<?> type) {
        var mapper = YAMLMapper.builder()
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
                // The domain's records live in exported (not opened) packages: use public members only.
                .disable(MapperFeature.CAN_OVERRIDE_ACCESS_MODIFIERS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                // 1.5 is not a whole number: the original (Go) refuses it, Jackson would cut it to 1.
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
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
}
