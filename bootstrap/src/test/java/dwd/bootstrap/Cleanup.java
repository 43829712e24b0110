package dwd.bootstrap;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test started (processes, proxies, watches), closed after each test in reverse order of
 * starting, whether the test passed or not. Register with {@code @RegisterExtension}.
 */
public final class Cleanup implements AfterEachCallback {

    private final List<AutoCloseable> started = new ArrayList<>();

    public void add(AutoCloseable closeable) {
        started.add(closeable);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (AutoCloseable closeable : started.reversed()) {
            closeable.close();
        }
        started.clear();
    }
}
