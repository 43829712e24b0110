package dwd.domain.selector;

import java.util.Objects;

/**
 * One thing wrong with a label selector.
 *
 * @param path    where: the selector's own path followed by e.g. {@code .matchExpressions[1].values}
 * @param message what is wrong and how to fix it
 */
public record SelectorProblem(String path, String message) {

    public SelectorProblem {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
