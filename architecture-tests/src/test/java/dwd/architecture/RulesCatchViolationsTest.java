package dwd.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dwd.domain.archfixture.DomainClassUsingClientJava;
import org.junit.jupiter.api.Test;

/** Proves the rules bite: each is checked against a fixture that breaks it on purpose. */
class RulesCatchViolationsTest {

    private final JavaClasses violation = new ClassFileImporter().importClasses(DomainClassUsingClientJava.class);

    @Test
    void aDomainClassUsingClientJavaBreaksTheJdkOnlyRule() {
        assertThatThrownBy(() -> ArchitectureRules.DOMAIN_DEPENDS_ON_THE_JDK_ONLY.check(violation))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("DomainClassUsingClientJava")
                .hasMessageContaining("io.kubernetes.client.openapi.ApiClient")
                .hasMessageContaining("the domain holds dwd's rules as pure Java");
    }

    @Test
    void aDomainClassUsingClientJavaBreaksTheFrameworkFreeRule() {
        assertThatThrownBy(() -> ArchitectureRules.CORE_IS_FRAMEWORK_FREE.check(violation))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("DomainClassUsingClientJava");
    }
}
