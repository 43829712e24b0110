package dwd.adapters.k8s.watch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** The log lines of one logger (and its children) at every level, while open. */
final class LogLines extends AbstractAppender implements AutoCloseable {

    /** One line: its level, its message, and whether it carries a stack trace. */
    record Line(Level level, String message, boolean hasThrowable) {
        @Override
        public String toString() {
            return level + " " + message + (hasThrowable ? " [+stack trace]" : "");
        }
    }

    private final String loggerName;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private LogLines(String loggerName) {
        super("test-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        this.loggerName = loggerName;
    }

    /** Captures what {@code loggerName} logs, at every level, until closed. */
    static LogLines of(String loggerName) {
        var capture = new LogLines(loggerName);
        capture.start();
        var context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        var logger = new LoggerConfig(loggerName, Level.ALL, true);
        logger.addAppender(capture, Level.ALL, null);
        config.addLogger(loggerName, logger);
        context.updateLoggers();
        return capture;
    }

    @Override
    public void append(LogEvent event) {
        lines.add(new Line(event.getLevel(), event.getMessage().getFormattedMessage(), event.getThrown() != null));
    }

    List<Line> lines() {
        return List.copyOf(lines);
    }

    List<Line> atLeast(Level level) {
        return lines.stream().filter(line -> line.level().isMoreSpecificThan(level)).toList();
    }

    @Override
    public void close() {
        var context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().removeLogger(loggerName);
        context.updateLoggers();
        stop();
    }
}
