package dwd.adapters.k8s;

import java.io.EOFException;
import java.net.SocketException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * What a library's exception says, in words for an operator: without the library's class names
 * ({@code sun.security…}, {@code com.google.gson…}), its advice to the programmer (Gson's "use
 * JsonReader.setStrictness…", Jackson's "from `StreamReadConstraints…`") or its links; an
 * exception without a message is named by what happened, not by its class.
 */
final class InDwdWords {

    /** A qualified Java class name, and the ": " that follows it when it prefixes a message. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?::\\s*)?");
    /** Gson's advice on malformed JSON, whatever its version. */
    private static final Pattern GSON_ADVICE = Pattern.compile(
            "Use JsonReader\\.set(?:Strictness|Lenient)\\([^)]*\\) to accept malformed JSON");
    /** Jackson's note on which of its constraints refused a value. */
    private static final Pattern JACKSON_CONSTRAINT = Pattern.compile(",?\\s*from `[^`]*`");
    private static final Pattern LINK = Pattern.compile("\\s*See https?://\\S+");
    /** How a JSON parser reports where it stopped. */
    private static final Pattern POSITION = Pattern.compile("at line (\\d+) column (\\d+)");
    /** What the JDK says when the peer ends a handshake with an alert. */
    private static final Pattern RECEIVED_ALERT = Pattern.compile("Received fatal alert: (\\w+)");
    /** Alerts by which a server refuses the client's certificate (RFC 8446, 6.2). */
    private static final Set<String> CLIENT_CERTIFICATE_ALERTS = Set.of("bad_certificate", "unsupported_certificate",
            "certificate_revoked", "certificate_expired", "certificate_unknown", "unknown_ca", "certificate_required",
            "access_denied");

    private InDwdWords() {
    }

    /** {@code text} without class names, programmers' advice and links; one line. */
    static String of(String text) {
        if (text == null) {
            return "";
        }
        String words = GSON_ADVICE.matcher(text).replaceAll("malformed JSON");
        words = JACKSON_CONSTRAINT.matcher(words).replaceAll("");
        words = LINK.matcher(words).replaceAll("");
        words = CLASS_NAME.matcher(words).replaceAll("");
        return words.replaceAll("\\s+", " ").strip();
    }

    /** What a transport failure says, or, when it says nothing, what happened. */
    static String detail(Throwable failure) {
        String said = of(failure.getMessage());
        if (!said.isEmpty()) {
            return said;
        }
        return switch (failure) {
            case EOFException ignored -> "the connection ended early";
            case SSLException ignored -> "the TLS handshake failed";
            case SocketException ignored -> "the connection failed";
            default -> "no detail";
        };
    }

    /** Why a JSON parser refused an answer: malformed JSON, or other JSON than expected, and where. */
    static String jsonProblem(Throwable refused) {
        String said = of(refused.getMessage());
        Matcher position = POSITION.matcher(said);
        if (said.contains("malformed JSON") && position.find()) {
            return "malformed JSON at line " + position.group(1) + ", column " + position.group(2);
        }
        return said.isEmpty() ? "not JSON" : said;
    }

    /** The TLS alert by which the server refused the client's certificate, if that is what ended the handshake. */
    static Optional<String> refusedClientCertificate(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SSLException && cause.getMessage() != null) {
                Matcher alert = RECEIVED_ALERT.matcher(cause.getMessage());
                if (alert.find() && CLIENT_CERTIFICATE_ALERTS.contains(alert.group(1))) {
                    return Optional.of(alert.group(1));
                }
            }
        }
        return Optional.empty();
    }
}
