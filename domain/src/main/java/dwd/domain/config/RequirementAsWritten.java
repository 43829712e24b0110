package dwd.domain.config;

import dwd.domain.selector.RequirementInput;
import java.util.List;

/** One {@code matchExpressions} entry as written: the operator is still the raw text ({@code In}, {@code NotIn}, ...). */
public record RequirementAsWritten(String key, String operator, List<String> values) implements RequirementInput {

    public RequirementAsWritten {
        values = NullKeepingCopies.listKeepingNulls(values);
    }
}
