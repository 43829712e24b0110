package dwd.domain.config;

import java.util.regex.Pattern;

/**
 * Kubernetes' rules for names (k8s.io/apimachinery validation), for values of dwd's config and flags
 * that are used as names: a name that breaks them can never match an object, so it is refused when
 * read rather than looked for in vain.
 */
public final class KubernetesNames {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern KIND = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,62}");

    /** What a DNS subdomain is, for messages. */
    public static final String DNS_SUBDOMAIN_RULE = "a lowercase DNS subdomain (a-z, 0-9, '-' and '.', starting and ending"
            + " with a letter or digit, at most 253 characters)";
    /** What a DNS label is, for messages. */
    public static final String DNS_LABEL_RULE = "a lowercase DNS label (a-z, 0-9 and '-', starting and ending with a"
            + " letter or digit, at most 63 characters)";

    private KubernetesNames() {
    }

    /** Names of most objects: Secrets, Deployments, StatefulSets, ConfigMaps; API groups. */
    public static boolean isDnsSubdomain(String name) {
        return name != null && name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches();
    }

    /** Names of namespaces. */
    public static boolean isDnsLabel(String name) {
        return name != null && DNS_LABEL.matcher(name).matches();
    }

    /** Names of Services, and API versions: a DNS label that starts with a letter. */
    public static boolean isDns1035Label(String name) {
        return name != null && DNS_1035_LABEL.matcher(name).matches();
    }

    /** Kinds: letters and digits, starting with a letter ({@code Deployment}, {@code Etcd}). */
    public static boolean isKind(String kind) {
        return kind != null && KIND.matcher(kind).matches();
    }

    /**
     * Names of any object: what the API server asks of every name, custom resources included, which may
     * have names that are not DNS subdomains. Not {@code .} or {@code ..}; no {@code /} or {@code %}.
     */
    public static boolean isPathSegmentName(String name) {
        return name != null && !name.isEmpty() && !name.equals(".") && !name.equals("..")
                && name.indexOf('/') < 0 && name.indexOf('%') < 0 && name.length() <= 253;
    }
}
