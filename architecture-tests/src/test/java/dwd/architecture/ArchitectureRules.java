package dwd.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;

/** The rules of the hexagon, shared by the test over the product and the test that breaks them on purpose. */
final class ArchitectureRules {

    static final String[] FRAMEWORKS = {
        "dagger..", "jakarta.inject..", "javax.inject..", "com.fasterxml.jackson..", "org.apache.logging..",
        "org.slf4j..", "io.micrometer..", "io.prometheus..", "io.kubernetes..", "okhttp3..", "picocli..",
        "com.google.gson..",
    };

    private ArchitectureRules() {
    }

    static final ArchRule DOMAIN_DEPENDS_ON_THE_JDK_ONLY = classes()
            .that().resideInAPackage("dwd.domain..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dwd.domain..", "java..")
            .because("the domain holds dwd's rules as pure Java, testable without any framework or cluster");

    static final ArchRule APPLICATION_DEPENDS_ON_DOMAIN_AND_JDK_ONLY = classes()
            .that().resideInAPackage("dwd.application..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dwd.application..", "dwd.domain..", "java..")
            .because("use cases talk to the world only through their ports, so they run on fakes and virtual time");

    static final ArchRule CORE_IS_FRAMEWORK_FREE = noClasses()
            .that().resideInAnyPackage("dwd.domain..", "dwd.application..")
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("frameworks are plugged in at the edges (adapters, bootstrap), never in the core");

    static final ArchRule KUBERNETES_ADAPTER_DOES_NOT_USE_METRICS_ADAPTER = noClasses()
            .that().resideInAPackage("dwd.adapters.k8s..")
            .should().dependOnClassesThat().resideInAnyPackage("dwd.adapters.metrics..", "dwd.bootstrap..")
            .because("adapters implement ports independently; only bootstrap composes them");

    static final ArchRule METRICS_ADAPTER_DOES_NOT_USE_KUBERNETES_ADAPTER = noClasses()
            .that().resideInAPackage("dwd.adapters.metrics..")
            .should().dependOnClassesThat().resideInAnyPackage("dwd.adapters.k8s..", "dwd.bootstrap..")
            .because("adapters implement ports independently; only bootstrap composes them");

    static final ArchRule ONLY_BOOTSTRAP_USES_DAGGER = noClasses()
            .that().resideOutsideOfPackage("dwd.bootstrap..")
            .should().dependOnClassesThat().resideInAnyPackage("dagger..", "jakarta.inject..", "javax.inject..")
            .because("wiring is the composition root's job; the rings stay annotation-free");

    static final ArchRule NO_PACKAGE_CYCLES = slices()
            .matching("dwd.(**)")
            .should().beFreeOfCycles()
            .because("cycles between packages make the rings meaningless");

    static final ArchRule ADAPTERS_DO_NOT_LEAK_INTO_THE_CORE = noClasses()
            .that().resideInAnyPackage("dwd.domain..", "dwd.application..")
            .should().dependOnClassesThat().resideInAnyPackage("dwd.adapters..", "dwd.bootstrap..")
            .because("dependencies point inward only");
}
