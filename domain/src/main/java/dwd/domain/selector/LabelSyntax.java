package dwd.domain.selector;

import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes' syntax rules for label keys (qualified names) and label values. */
final class LabelSyntax {

    private static final int MAX_NAME_LENGTH = 63;
    private static final int MAX_PREFIX_LENGTH = 253;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private static final String KEY_SHAPE = "a key is a name with an optional DNS prefix, e.g. app or gardener.cloud/role";
    private static final String VALUE_SHAPE = "e.g. controlplane, kube-apiserver or v1.2.3";
    private static final String NAME_CHARACTERS =
            "must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit";

    private LabelSyntax() {
    }

    /** Why {@code key} is not a valid label key, or empty when it is. */
    static Optional<String> keyProblem(String key) {
        String reason = keyReason(key);
        return reason == null ? Optional.empty()
                : Optional.of(quote(key) + " is not a valid label key: " + reason + "; " + KEY_SHAPE);
    }

    /** Why {@code value} is not a valid label value, or empty when it is. */
    static Optional<String> valueProblem(String value) {
        String reason;
        if (value.length() > MAX_NAME_LENGTH) {
            reason = "it has " + value.length() + " characters, at most " + MAX_NAME_LENGTH + " are allowed";
        } else if (!value.isEmpty() && !NAME.matcher(value).matches()) {
            reason = "a value " + NAME_CHARACTERS + ", or is empty";
        } else {
            return Optional.empty();
        }
        return Optional.of(quote(value) + " is not a valid label value: " + reason + "; " + VALUE_SHAPE);
    }

    private static String keyReason(String key) {
        if (key.isEmpty()) {
            return "it is empty";
        }
        String[] parts = key.split("/", -1);
        if (parts.length > 2) {
            return "it has more than one '/'";
        }
        String name = parts[parts.length - 1];
        if (parts.length == 2) {
            String prefix = parts[0];
            if (prefix.isEmpty()) {
                return "the prefix before '/' is empty";
            }
            if (prefix.length() > MAX_PREFIX_LENGTH) {
                return "the prefix has " + prefix.length() + " characters, at most " + MAX_PREFIX_LENGTH + " are allowed";
            }
            if (!DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return "the prefix " + quote(prefix) + " must be a lowercase DNS subdomain (a-z, 0-9, '-' and '.',"
                        + " starting and ending with a letter or digit), e.g. gardener.cloud";
            }
            if (name.isEmpty()) {
                return "the name after '/' is empty";
            }
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return "the name has " + name.length() + " characters, at most " + MAX_NAME_LENGTH + " are allowed";
        }
        if (!NAME.matcher(name).matches()) {
            return "the name " + NAME_CHARACTERS;
        }
        return null;
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append('"').toString();
    }
}
