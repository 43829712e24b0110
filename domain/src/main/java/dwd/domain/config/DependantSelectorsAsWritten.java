package dwd.domain.config;

import java.util.List;

/** The value of one service in {@code servicesAndDependantSelectors}, as written. */
public record DependantSelectorsAsWritten(List<LabelSelectorAsWritten> podSelectors) {

    public DependantSelectorsAsWritten {
        podSelectors = NullKeepingCopies.listKeepingNulls(podSelectors);
    }
}
