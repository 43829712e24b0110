package dwd.domain.selector;

import java.util.List;
import java.util.Map;

/**
 * An unvalidated label selector, as a config file gives it: any field or element may be {@code null}.
 * {@link LabelSelectors#validate} checks it; {@link LabelSelectors#toLabelSelector} turns a valid one into a
 * {@link LabelSelector}.
 */
public interface LabelSelectorInput {

    /** Labels that must all be present with exactly these values; {@code null} when absent. */
    Map<String, String> matchLabels();

    /** Requirements that must all hold; {@code null} when absent. */
    List<? extends RequirementInput> matchExpressions();
}
