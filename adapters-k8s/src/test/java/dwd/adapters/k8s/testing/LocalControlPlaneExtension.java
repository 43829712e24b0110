package dwd.adapters.k8s.testing;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Starts (or reuses) the {@link LocalControlPlane} for a class annotated {@link WithLocalControlPlane}. */
public final class LocalControlPlaneExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalControlPlaneExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        controlPlane(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalControlPlane.class || type == ApiClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        LocalControlPlane controlPlane = controlPlane(context);
        Class<?> type = parameter.getParameter().getType();
        if (type == LocalControlPlane.class) {
            return controlPlane;
        }
        if (type == ApiClient.class) {
            return controlPlane.apiClient();
        }
        throw new ParameterResolutionException("cannot resolve " + type);
    }

    private static LocalControlPlane controlPlane(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        var annotation = AnnotationSupport.findAnnotation(testClass, WithLocalControlPlane.class);
        List<String> flags = annotation.map(found -> List.of(found.apiServerFlags())).orElse(List.of());
        List<String> tokenUsers = annotation.map(found -> List.of(found.tokenUsers())).orElse(List.of());
        boolean shared = flags.isEmpty() && tokenUsers.isEmpty();
        // Shared servers live in the root store (closed when the JVM's test plan ends);
        // a server with its own flags or users lives in the class's store (closed after the class).
        ExtensionContext owner = shared ? context.getRoot() : classContext(context);
        Object key = shared ? "shared" : testClass.getName();
        return owner.getStore(NAMESPACE)
                .computeIfAbsent(key, ignored -> LocalControlPlane.start(flags, tokenUsers), LocalControlPlane.class);
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current;
    }
}
