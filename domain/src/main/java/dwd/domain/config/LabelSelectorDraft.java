package dwd.domain.config;

import dwd.domain.selector.LabelSelectorInput;
import java.util.List;
import java.util.Map;

/** A Kubernetes label selector as written in a weeder config; validated by {@link dwd.domain.selector.LabelSelectors}. */
public record LabelSelectorDraft(Map<String, String> matchLabels, List<RequirementDraft> matchExpressions)
        implements LabelSelectorInput {

    public LabelSelectorDraft {
        matchLabels = Copies.mapKeepingNullsAndOrder(matchLabels);
        matchExpressions = Copies.listKeepingNulls(matchExpressions);
    }
}
