package dwd.bootstrap;

import io.kubernetes.client.openapi.ApiClient;
import javax.net.ssl.SSLContext;

/**
 * For a role's start: initializes client-java (its JSON adapters for every model, OkHttp's platform and the security
 * providers it asks for) and the JDK's TLS on a thread of its own, while the main thread reads the command line and
 * the config file; the role's first client, which leader election builds, then finds them ready. Nothing is
 * connected or read. Logging is set up first: class loading on two threads while Log4j initializes can deadlock
 * (a signed jar's verification logs a security event, which waits for Log4j, which waits for that jar). A failure
 * here only means the main thread does the work itself.
 */
final class Prewarm {

    private Prewarm() {
    }

    static void start() {
        org.apache.logging.log4j.LogManager.getContext(false);
        Thread.ofPlatform().name("dwd-prewarm").daemon().start(() -> {
            try {
                new ApiClient();
                SSLContext.getDefault();
            } catch (Exception | LinkageError ignored) {
                // the main thread does it when it needs it
            }
        });
    }
}
