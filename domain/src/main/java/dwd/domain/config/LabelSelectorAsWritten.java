package dwd.domain.config;

import dwd.domain.selector.LabelSelectorInput;
import java.util.List;
import java.util.Map;

/** A Kubernetes label selector as written in a weeder config; validated by {@link dwd.domain.selector.LabelSelectors}. */
public record LabelSelectorAsWritten(Map<String, String> matchLabels, List<RequirementAsWritten> matchExpressions)
        implements LabelSelectorInput {

    public LabelSelectorAsWritten {
        matchLabels = NullKeepingCopies.mapKeepingNullsAndOrder(matchLabels);
        matchExpressions = NullKeepingCopies.listKeepingNulls(matchExpressions);
    }
}
