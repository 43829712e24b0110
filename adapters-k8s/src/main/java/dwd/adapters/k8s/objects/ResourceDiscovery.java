package dwd.adapters.k8s.objects;

import dwd.adapters.k8s.ApiFailures;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.Discovery.APIResource;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.exception.IncompleteDiscoveryException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/** Finds which resource serves a kind, through the API server's discovery endpoints. */
final class ResourceDiscovery {

    private final ApiClient client;

    ResourceDiscovery(ApiClient client) {
        this.client = client;
    }

    /**
     * The resource serving {@code kind}: matched exactly first, then case-insensitively against the
     * kind, the plural and the singular resource name.
     *
     * @param apiVersion {@code group/version} (or {@code version} for core) to look in only that
     *     group version; empty to look through every group at its preferred version
     */
    ServedResource resolve(String kind, String apiVersion) {
        Set<APIResource> served;
        String incomplete = "";
        if (apiVersion.isEmpty()) {
            try {
                served = new Discovery(client).findAll();
            } catch (IncompleteDiscoveryException partial) {
                // An aggregated API being down must not hide the kinds that are served.
                served = partial.getDiscoveredResources();
                incomplete = " (discovery was incomplete: " + partial.getMessage() + ")";
            } catch (ApiException e) {
                throw ApiFailures.readFailure("discover the kinds served by " + client.getBasePath(), e);
            }
        } else {
            served = groupVersion(apiVersion);
        }
        List<APIResource> matches = matching(served, resource -> resource.getKind().equals(kind));
        if (matches.isEmpty()) {
            String lower = kind.toLowerCase(Locale.ROOT);
            matches = matching(served, resource -> resource.getKind().toLowerCase(Locale.ROOT).equals(lower)
                    || lower.equals(resource.getResourcePlural())
                    || lower.equals(resource.getResourceSingular()));
        }
        if (matches.isEmpty()) {
            String where = apiVersion.isEmpty() ? "the cluster at " + client.getBasePath() : "API version " + apiVersion;
            throw new ObjectReadException(Reason.UNKNOWN_KIND, "kind " + kind + " is not served by " + where + incomplete
                    + "; check the spelling (kinds are case-sensitive, e.g. Deployment) and that its CRD is installed");
        }
        if (matches.size() > 1) {
            List<String> choices = matches.stream()
                    .map(resource -> apiVersionOf(resource, resource.getPreferredVersion()))
                    .sorted().toList();
            throw new ObjectReadException(Reason.AMBIGUOUS_KIND, "kind " + kind + " is served by several API groups ("
                    + String.join(", ", choices) + "); choose one with --api-version, e.g. --api-version " + choices.getFirst());
        }
        APIResource resource = matches.getFirst();
        String version = apiVersion.isEmpty() ? resource.getPreferredVersion() : apiVersion.substring(apiVersion.indexOf('/') + 1);
        return new ServedResource(resource.getGroup(), version, resource.getKind(), resource.getResourcePlural(),
                Boolean.TRUE.equals(resource.getNamespaced()));
    }

    private Set<APIResource> groupVersion(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        if (slash != apiVersion.lastIndexOf('/') || slash == 0 || slash == apiVersion.length() - 1) {
            throw new ObjectReadException(Reason.UNKNOWN_KIND, "API version " + apiVersion
                    + " is not of the form group/version (or version for the core group, e.g. v1)");
        }
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        String path = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        try {
            return new Discovery(client).findAll(group, List.of(version), version, path);
        } catch (ApiException e) {
            ObjectReadException failure = ApiFailures.readFailure("discover the kinds of " + apiVersion + " at "
                    + client.getBasePath(), e);
            if (failure.reason() == Reason.NOT_FOUND) {
                throw new ObjectReadException(Reason.UNKNOWN_KIND, "API version " + apiVersion + " is not served by "
                        + client.getBasePath() + "; leave out --api-version to use the version the server prefers", failure);
            }
            throw failure;
        }
    }

    private static List<APIResource> matching(Set<APIResource> served, Predicate<APIResource> test) {
        var matches = new ArrayList<APIResource>();
        served.stream().filter(test).sorted(Comparator.comparing(APIResource::getGroup)).forEach(matches::add);
        return matches;
    }

    private static String apiVersionOf(APIResource resource, String version) {
        return resource.getGroup().isEmpty() ? version : resource.getGroup() + "/" + version;
    }
}
