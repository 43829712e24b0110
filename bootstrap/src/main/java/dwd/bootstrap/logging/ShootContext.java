package dwd.bootstrap.logging;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.rewrite.RewritePolicy;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.core.impl.ContextDataFactory;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.util.StringMap;

/**
 * Gives JSON log lines their {@code shootNamespace} and {@code resource} fields. The application
 * ring logs through {@code System.Logger}, which carries no key-value context, so its lines follow
 * one convention instead: a line about a shoot starts with {@code <shoot namespace>: }, and a
 * dependent appears as {@code <apiVersion> <Kind> <name>} (e.g. {@code apps/v1 Deployment
 * kube-controller-manager}). This policy lifts both into the event's context data, for dwd's own
 * loggers only; the message stays as it was.
 */
@Plugin(name = "ShootContext", category = Core.CATEGORY_NAME, elementType = "rewritePolicy", printObject = true)
public final class ShootContext implements RewritePolicy {

    public static final String SHOOT_NAMESPACE = "shootNamespace";
    public static final String RESOURCE = "resource";

    /** A DNS label (what a namespace is), then a colon: {@code shoot--dev--x: lease probe: …}. */
    private static final Pattern NAMESPACE_PREFIX = Pattern.compile("^([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?): ");
    /** {@code [group/]version Kind name}, as ResourceRef prints itself. */
    private static final Pattern RESOURCE_REF = Pattern.compile(
            "(?<![\\w/.-])((?:[a-z0-9][-a-z0-9.]*/)?v\\d+(?:(?:alpha|beta)\\d+)? [A-Z][A-Za-z0-9]* [a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)");

    @PluginFactory
    public static ShootContext create() {
        return new ShootContext();
    }

    @Override
    public LogEvent rewrite(LogEvent event) {
        if (event.getLoggerName() == null || !event.getLoggerName().startsWith("dwd")) {
            return event;
        }
        String message = event.getMessage() == null ? "" : event.getMessage().getFormattedMessage();
        Optional<String> namespace = shootNamespace(message);
        Optional<String> resource = resource(message);
        if (namespace.isEmpty() && resource.isEmpty()) {
            return event;
        }
        StringMap context = ContextDataFactory.createContextData(event.getContextData());
        namespace.ifPresent(value -> context.putValue(SHOOT_NAMESPACE, value));
        resource.ifPresent(value -> context.putValue(RESOURCE, value));
        return new Log4jLogEvent.Builder(event).setContextData(context).build();
    }

    static Optional<String> shootNamespace(String message) {
        Matcher matcher = NAMESPACE_PREFIX.matcher(message);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    static Optional<String> resource(String message) {
        Matcher matcher = RESOURCE_REF.matcher(message);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }
}
