package dwd.bootstrap.logging;

import java.util.Locale;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/** Maps the original's {@code --zap-log-level} onto Log4j's root level. */
public final class LogLevels {

    /** What {@link #parse} accepts, for messages. */
    public static final String EXPECTED = "expected debug, info, error, panic or an integer > 0";

    private LogLevels() {
    }

    /**
     * {@code debug}, {@code info}, {@code error}, {@code panic} in any case, or an integer verbosity
     * N > 0 (zap's V(N): 1 is debug, 2 and more are trace).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Level parse(String zapLevel) {
        return switch (zapLevel.toLowerCase(Locale.ROOT)) {
            case "debug" -> Level.DEBUG;
            case "info" -> Level.INFO;
            case "warn", "warning" -> Level.WARN;
            case "error" -> Level.ERROR;
            case "panic", "dpanic", "fatal" -> Level.FATAL;
            default -> {
                try {
                    int verbosity = Integer.parseInt(zapLevel);
                    if (verbosity <= 0) {
                        throw new IllegalArgumentException("--zap-log-level=" + zapLevel + ": a verbosity must be > 0");
                    }
                    yield verbosity == 1 ? Level.DEBUG : Level.TRACE;
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--zap-log-level=" + zapLevel + ": " + EXPECTED);
                }
            }
        };
    }

    /**
     * Silences client-java's informer classes, which log an interrupted watch at ERROR as they stop:
     * for the demo, whose outside observer of the seed uses them (the roles watch with their own
     * list-watch loop, whose stop logs nothing).
     */
    public static void quietInformersForShutdown() {
        Configurator.setLevel("io.kubernetes.client.informer", Level.OFF);
    }

    /** Flushes and stops logging; the last thing a process does (Log4j's own shutdown hook is disabled so that it comes last). */
    public static void shutdown() {
        org.apache.logging.log4j.LogManager.shutdown();
    }

    /** Sets the level of dwd's own loggers; libraries stay at WARN (their INFO/DEBUG is noise to an operator). */
    public static void apply(Level level) {
        Configurator.setLevel("dwd", level);
    }
}
