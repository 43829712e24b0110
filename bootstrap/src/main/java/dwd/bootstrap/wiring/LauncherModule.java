package dwd.bootstrap.wiring;

import dagger.Module;
import dagger.Provides;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Bindings every command needs. */
@Module
public interface LauncherModule {

    @Provides
    @Singleton
    static BuildInfo buildInfo() {
        var properties = new Properties();
        try (InputStream in = LauncherModule.class.getResourceAsStream("/dwd/bootstrap/build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return BuildInfo.from(properties, Runtime.version().toString());
    }
}
