package dwd.domain.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A resource in the shoot namespace that has a {@code scale} subresource, e.g. {@code apps/v1 Deployment
 * kube-controller-manager}.
 *
 * @param apiVersion {@code group/version}, or only {@code version} for the core group
 */
public record ResourceRef(String apiVersion, String kind, String name) {

    static final String API_VERSION_SHAPE = "write group/version, e.g. apps/v1, or only the version, e.g. v1, for the core group";

    public ResourceRef {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        apiVersionProblem(apiVersion).ifPresent(problem -> {
            throw new IllegalArgumentException("apiVersion " + problem);
        });
        if (kind.isBlank()) {
            throw new IllegalArgumentException("kind must not be empty");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be empty");
        }
    }

    /** The API group; {@code ""} for the core group. */
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** The API version within the group, e.g. {@code v1}. */
    public String version() {
        return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    /** Whether both name the same object: same group, kind and name, whatever the version. */
    public boolean refersToSameObjectAs(ResourceRef other) {
        return group().equals(other.group()) && kind.equals(other.kind) && name.equals(other.name);
    }

    /** {@code apps/v1 Deployment kube-controller-manager}. */
    @Override
    public String toString() {
        return apiVersion + " " + kind + " " + name;
    }

    /** What is wrong with an apiVersion, or empty when it is well-formed. */
    static Optional<String> apiVersionProblem(String apiVersion) {
        if (apiVersion == null || apiVersion.isEmpty()) {
            return Optional.of("must be set; " + API_VERSION_SHAPE);
        }
        String quoted = InvalidGoDuration.quote(apiVersion);
        if (hasMoreThanOneSlash(apiVersion)) {
            return Optional.of(quoted + " has more than one '/'; " + API_VERSION_SHAPE);
        }
        if (apiVersion.chars().anyMatch(Character::isWhitespace)) {
            return Optional.of(quoted + " contains whitespace; " + API_VERSION_SHAPE);
        }
        int slash = apiVersion.indexOf('/');
        if (slash == 0) {
            return Optional.of(quoted + " has an empty group before '/'; " + API_VERSION_SHAPE);
        }
        if (slash == apiVersion.length() - 1) {
            return Optional.of(quoted + " has an empty version after '/'; " + API_VERSION_SHAPE);
        }
        if (slash > 0 && !KubernetesNames.isDnsSubdomain(apiVersion.substring(0, slash))) {
            return Optional.of(quoted + " has a group that is not " + KubernetesNames.DNS_SUBDOMAIN_RULE + "; "
                    + API_VERSION_SHAPE);
        }
        if (!KubernetesNames.isDns1035Label(apiVersion.substring(slash + 1))) {
            return Optional.of(quoted + " has a version that is not a lowercase DNS label starting with a letter; "
                    + API_VERSION_SHAPE);
        }
        return Optional.empty();
    }

    /**
     * Whether {@code name} can name a resource of {@code apiVersion}: a DNS subdomain for the built-in groups
     * (core, apps, …: no dot in the group), any name the API server accepts for the others (custom resources).
     */
    static boolean isName(String apiVersion, String name) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        boolean builtIn = slash < 0 || apiVersion.substring(0, slash).indexOf('.') < 0;
        return builtIn ? KubernetesNames.isDnsSubdomain(name) : KubernetesNames.isPathSegmentName(name);
    }

    static boolean hasMoreThanOneSlash(String apiVersion) {
        return apiVersion != null && apiVersion.indexOf('/') != apiVersion.lastIndexOf('/');
    }
}
