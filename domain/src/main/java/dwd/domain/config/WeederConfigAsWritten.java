package dwd.domain.config;

import java.util.Map;

/**
 * A weeder config file as written, before defaults and validation. The services keep the file's order, so problems
 * are reported in the order a reader sees them.
 */
public record WeederConfigAsWritten(String watchDuration, Map<String, DependantSelectorsAsWritten> servicesAndDependantSelectors) {

    public WeederConfigAsWritten {
        servicesAndDependantSelectors = NullKeepingCopies.mapKeepingNullsAndOrder(servicesAndDependantSelectors);
    }
}
