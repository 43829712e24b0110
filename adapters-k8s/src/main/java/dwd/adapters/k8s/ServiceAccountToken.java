package dwd.adapters.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The bearer token of a pod's service account, read from its file as client-go reads it: the kubelet
 * replaces a projected token long before it expires (at 80 % of its lifetime), so the file is read
 * again once the token in hand is {@link #REREAD_AFTER} old, and at once after the API server
 * answered 401. One instance serves every client of a process (as an OkHttp interceptor), so the
 * file is read about once a minute in all.
 *
 * <p>Beyond client-go: a request answered 401 is sent once more when the file then holds another
 * token, so that the request the rotation caught succeeds too (401 means the server did nothing);
 * and every 401 reads the file (client-go skips that when another request read it meanwhile, which
 * can hand the caller a 401 the file's token would have avoided). A file that cannot be read keeps
 * the token in hand, with one warning per failure streak.
 */
public final class ServiceAccountToken implements Interceptor {

    /** client-go's period (a minute) less its leeway (10 s). */
    static final Duration REREAD_AFTER = Duration.ofSeconds(50);

    private static final Logger LOG = LogManager.getLogger();

    private final Path file;
    private final Clock clock;
    private String token;
    private Instant readAt;
    private boolean warned;

    private ServiceAccountToken(Path file, Clock clock, String token) {
        this.file = file;
        this.clock = clock;
        this.token = token;
        this.readAt = clock.instant();
    }

    /**
     * Reads the token now, so that a missing or empty file is reported at start-up.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ServiceAccountToken read(Path file, Clock clock) {
        try {
            return new ServiceAccountToken(file, clock, readFile(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("service-account token " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The token to send now, read from the file again when the one in hand is old or was refused. */
    synchronized String current() {
        if (readAt != null && Duration.between(readAt, clock.instant()).compareTo(REREAD_AFTER) < 0) {
            return token;
        }
        try {
            String fresh = readFile(file);
            if (warned) {
                LOG.info("service-account token {} can be read again", file);
                warned = false;
            }
            token = fresh;
            readAt = clock.instant();
        } catch (IOException e) {
            if (!warned) {
                LOG.warn("service-account token {} cannot be read ({}); requests keep the token read before, which "
                        + "the API server refuses once it expires", file, e.getMessage());
                warned = true;
            }
        }
        return token;
    }

    /** The file's token now: after a 401, whatever the age of the token in hand. */
    private synchronized String reread() {
        readAt = null;
        return current();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String sent = current();
        Response response = chain.proceed(authorized(request, sent));
        if (response.code() != 401) {
            return response;
        }
        String fresh = reread();
        if (fresh.equals(sent)) {
            return response;
        }
        response.close();
        return chain.proceed(authorized(request, fresh));
    }

    private static Request authorized(Request request, String token) {
        return request.newBuilder().header("Authorization", "Bearer " + token).build();
    }

    private static String readFile(Path file) throws IOException {
        String token = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (token.isEmpty()) {
            throw new IOException("the file is empty");
        }
        return token;
    }
}
