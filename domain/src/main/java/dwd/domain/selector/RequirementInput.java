package dwd.domain.selector;

import java.util.List;

/** An unvalidated {@code matchExpressions} entry: the operator is still text; any field may be {@code null}. */
public interface RequirementInput {

    String key();

    /** {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}, if valid. */
    String operator();

    List<String> values();
}
