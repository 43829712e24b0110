package dwd.domain.config;

import java.util.Objects;

/**
 * One thing wrong with a config file: where it is and what to do about it.
 *
 * @param path    the location in the file: a top-level key ({@code kubeConfigSecretName}), list positions in brackets
 *                ({@code dependentResourceInfos[2].scaleDown}), map keys in brackets
 *                ({@code servicesAndDependantSelectors[etcd-main-client].podSelectors})
 * @param message what is wrong and how to fix it, e.g. {@code must be set; ...}
 */
public record ConfigProblem(String path, String message) {

    public ConfigProblem {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    /** {@code path: message}, the line {@code dwd validate} prints. */
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
