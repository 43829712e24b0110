package dwd.adapters.k8s.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real etcd + kube-apiserver on loopback, built by
 * {@code scripts/control-plane}. Test methods and constructors can take a {@link LocalControlPlane}
 * or a client-java {@code ApiClient} as a parameter.
 *
 * <p>Classes without {@link #apiServerFlags()} share one server per test JVM; a class with flags
 * gets a server of its own, stopped after the class. Tests isolate themselves by namespace
 * ({@link LocalControlPlane#createNamespace(String)}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalControlPlaneExtension.class)
public @interface WithLocalControlPlane {

    /** Extra kube-apiserver flags, as {@code --name=value}; a non-empty list means a dedicated server. */
    String[] apiServerFlags() default {};

    /**
     * Users the API server authenticates by static bearer tokens, besides the admin's client
     * certificate; they belong to no group, so RBAC grants them nothing until the test binds roles.
     * {@link LocalControlPlane#kubeconfigOf(String)} gives one's kubeconfig. A non-empty list means a
     * dedicated server.
     */
    String[] tokenUsers() default {};
}
