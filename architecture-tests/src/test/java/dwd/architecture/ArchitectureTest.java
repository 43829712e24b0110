package dwd.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The rings of dwd, checked over the product's classes (tests excluded). */
@AnalyzeClasses(packages = "dwd", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule domainDependsOnTheJdkOnly = ArchitectureRules.DOMAIN_DEPENDS_ON_THE_JDK_ONLY;

    @ArchTest
    static final ArchRule applicationDependsOnDomainAndJdkOnly =
            ArchitectureRules.APPLICATION_DEPENDS_ON_DOMAIN_AND_JDK_ONLY;

    @ArchTest
    static final ArchRule coreIsFrameworkFree = ArchitectureRules.CORE_IS_FRAMEWORK_FREE;

    @ArchTest
    static final ArchRule kubernetesAdapterDoesNotUseMetricsAdapter =
            ArchitectureRules.KUBERNETES_ADAPTER_DOES_NOT_USE_METRICS_ADAPTER;

    @ArchTest
    static final ArchRule metricsAdapterDoesNotUseKubernetesAdapter =
            ArchitectureRules.METRICS_ADAPTER_DOES_NOT_USE_KUBERNETES_ADAPTER;

    @ArchTest
    static final ArchRule onlyBootstrapUsesDagger = ArchitectureRules.ONLY_BOOTSTRAP_USES_DAGGER;

    @ArchTest
    static final ArchRule noPackageCycles = ArchitectureRules.NO_PACKAGE_CYCLES;

    @ArchTest
    static final ArchRule adaptersDoNotLeakIntoTheCore = ArchitectureRules.ADAPTERS_DO_NOT_LEAK_INTO_THE_CORE;
}
