package dwd.adapters.k8s.watch;

/**
 * Comparing resourceVersions as Kubernetes documents them (KEP-5504, apimachinery's
 * {@code resourceversion.CompareResourceVersion}): within one resource, a version is a decimal
 * integer without leading zeros, and a larger one is later. Anything else cannot be compared.
 */
final class ResourceVersions {

    private ResourceVersions() {
    }

    /** Whether {@code seen} is {@code wanted} or later; false when either cannot be compared. */
    static boolean atLeast(String seen, String wanted) {
        if (!wellFormed(seen) || !wellFormed(wanted)) {
            return false;
        }
        return seen.length() != wanted.length() ? seen.length() > wanted.length() : seen.compareTo(wanted) >= 0;
    }

    static boolean wellFormed(String version) {
        if (version == null || version.isEmpty() || version.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < version.length(); i++) {
            if (version.charAt(i) < '0' || version.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
