package dwd.domain.selector;

import java.util.Arrays;
import java.util.Optional;

/** The operator of a label selector requirement, with the spelling Kubernetes uses in {@code matchExpressions}. */
public enum Operator {
    IN("In"),
    NOT_IN("NotIn"),
    EXISTS("Exists"),
    DOES_NOT_EXIST("DoesNotExist");

    private final String kubernetesName;

    Operator(String kubernetesName) {
        this.kubernetesName = kubernetesName;
    }

    /** The spelling in a selector: {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}. */
    public String kubernetesName() {
        return kubernetesName;
    }

    /** {@code true} for {@code In} and {@code NotIn}, which compare against a non-empty list of values. */
    public boolean takesValues() {
        return this == IN || this == NOT_IN;
    }

    /** The operator spelled exactly (case matters, as in Kubernetes), or empty for anything else. */
    public static Optional<Operator> parse(String text) {
        return Arrays.stream(values()).filter(operator -> operator.kubernetesName.equals(text)).findFirst();
    }
}
