package dwd.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The rules over the product's classes (tests excluded); RulesCatchViolationsTest shows that each one bites. */
@AnalyzeClasses(packages = "dwd", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycles = ArchitectureRules.NO_PACKAGE_CYCLES;

    @ArchTest
    static final ArchRule noTwoWayReferencesInAPackage = ArchitectureRules.NO_TWO_WAY_REFERENCES_IN_A_PACKAGE;

    @ArchTest
    static final ArchRule coreTellsTimeThroughItsPorts = ArchitectureRules.CORE_TELLS_TIME_THROUGH_ITS_PORTS;

    @ArchTest
    static final ArchRule portsDoNotKnowTheUseCases = ArchitectureRules.PORTS_DO_NOT_KNOW_THE_USE_CASES;
}
