package dwd.domain.config;

import java.util.List;

/** The value of one service in {@code servicesAndDependantSelectors}, as written. */
public record DependantSelectorsDraft(List<LabelSelectorDraft> podSelectors) {

    public DependantSelectorsDraft {
        podSelectors = Copies.listKeepingNulls(podSelectors);
    }
}
