package dwd.bootstrap.logging;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

/** The layout of the log: JSON lines (default) or human-readable text. */
public final class LogSetup {

    /** The layouts, by the names {@code --log-format} takes. */
    public enum Format { JSON, TEXT }

    private LogSetup() {
    }

    /**
     * {@code json} or {@code text}; zap's encoder names are accepted too ({@code console} is text).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Format parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "json" -> Format.JSON;
            case "text", "console" -> Format.TEXT;
            default -> throw new IllegalArgumentException("'" + value + "': expected json or text");
        };
    }

    /** Routes every log line through the appender of {@code format} (log4j2.xml defines both). */
    public static void apply(Format format) {
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return; // not Log4j Core: nothing to switch
        }
        Configuration config = context.getConfiguration();
        String wanted = format == Format.JSON ? "json" : "text";
        Appender appender = config.getAppender(wanted);
        if (appender == null) {
            return;
        }
        LoggerConfig root = config.getRootLogger();
        for (String name : java.util.List.copyOf(root.getAppenders().keySet())) {
            if (!name.equals(wanted)) {
                root.removeAppender(name);
            }
        }
        if (!root.getAppenders().containsKey(wanted)) {
            root.addAppender(appender, null, null);
        }
        context.updateLoggers();
    }
}
