package dwd.bootstrap.config;

import java.util.List;

/** A config file that cannot be used, with every problem found, each with its location. */
public final class ConfigFileException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public ConfigFileException(String file, String summary, List<String> problems) {
        this(summary + " in " + file + (problems.isEmpty() ? "" : ":\n  " + String.join("\n  ", problems)), problems);
    }

    private ConfigFileException(String message, List<String> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /** A file that cannot be read at all: the message is the one line printed. */
    static ConfigFileException oneLine(String message) {
        return new ConfigFileException(message, List.of(message));
    }

    /** Each problem on its own, as {@code location: message}. */
    public List<String> problems() {
        return problems;
    }
}
