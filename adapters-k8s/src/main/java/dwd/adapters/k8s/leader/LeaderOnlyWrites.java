package dwd.adapters.k8s.leader;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.NotSent;
import dwd.application.port.out.Leadership;
import io.kubernetes.client.openapi.ApiClient;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import okhttp3.Interceptor;
import okhttp3.Request;

/**
 * The last check before a write leaves the process: a client's POST, PUT, PATCH and DELETE are sent
 * only while {@link Leadership#isLeading()}, asked as the request goes out, after any wait for the
 * client-side rate limit. A fence at the ports checks when a write is decided; writes queued since
 * (Events wait in a queue, and a process may be paused and resumed) are checked here again. Reads pass,
 * and so do reviews of this process's own permissions ({@code SelfSubjectAccessReview},
 * {@code SelfSubjectRulesReview}): they are POSTs that change no state, and a standby asks them too.
 */
public final class LeaderOnlyWrites {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** The path of a self-review, behind whatever prefix the server's URL has. */
    private static final Pattern SELF_REVIEW =
            Pattern.compile(".*/apis/authorization\\.k8s\\.io/[^/]+/selfsubject(access|rules)reviews/?");

    private LeaderOnlyWrites() {
    }

    /**
     * Adds the check to each client it is applied to; apply it after the rate limit, so that it is the
     * last thing a request passes before it is sent.
     *
     * @param lock the Lease, for the message: {@code garden/dwd-prober-leader-election}
     */
    public static UnaryOperator<ApiClient> of(Leadership leadership, String lock) {
        Interceptor check = chain -> {
            if (changesState(chain.request()) && !leadership.isLeading()) {
                throw new NotSent("not sent: this process does not hold the Lease " + lock + " (now or any more)");
            }
            return chain.proceed(chain.request());
        };
        return ApiClients.intercepting(check);
    }

    private static boolean changesState(Request request) {
        return WRITES.contains(request.method().toUpperCase(Locale.ROOT))
                && !SELF_REVIEW.matcher(request.url().encodedPath()).matches();
    }
}
