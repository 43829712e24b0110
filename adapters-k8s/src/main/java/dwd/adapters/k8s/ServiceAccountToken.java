package dwd.adapters.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
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
 * the token in hand, with one warning per failure streak. Re-reads are timed on the monotonic clock:
 * a step of the wall clock neither delays one nor makes every request read the file.
 */
public final class ServiceAccountToken implements Interceptor {

    /** client-go's period (a minute) less its leeway (10 s). */
    static final Duration REREAD_AFTER = Duration.ofSeconds(50);

    private static final Logger LOG = LogManager.getLogger();

    /** A token and when its read began, on the monotonic clock. */
    private record Read(String token, long startedAtNanos) { }

    private final Path file;
    private final LongSupplier nanoTime;
    private final AtomicReference<Read> inHand;
    /** A request is reading the file because the token in hand is old: the others go on with that token meanwhile. */
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicBoolean warned = new AtomicBoolean();

    private ServiceAccountToken(Path file, LongSupplier nanoTime, Read first) {
        this.file = file;
        this.nanoTime = nanoTime;
        this.inHand = new AtomicReference<>(first);
    }

    /**
     * Reads the token now, so that a missing or empty file is reported at start-up.
     *
     * @param nanoTime the monotonic clock that times re-reads ({@link System#nanoTime()})
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ServiceAccountToken read(Path file, LongSupplier nanoTime) {
        long started = nanoTime.getAsLong();
        try {
            return new ServiceAccountToken(file, nanoTime, new Read(readFile(file), started));
        } catch (IOException e) {
            throw new IllegalArgumentException("service-account token " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The token to send now, read from the file again when the one in hand is old. The file is read
     * outside any lock the process's requests share: while one request reads it (a slow or stuck
     * volume), the others go on with the token in hand, which stays valid long after it is old.
     */
    String current() {
        Read held = inHand.get();
        if (nanoTime.getAsLong() - held.startedAtNanos() < REREAD_AFTER.toNanos() || !refreshing.compareAndSet(false, true)) {
            return held.token();
        }
        try {
            return readNow();
        } finally {
            refreshing.set(false);
        }
    }

    /**
     * The file's token now, whatever the age of the one in hand (after a 401); the token in hand when
     * the file cannot be read, with one warning per failure streak.
     */
    private String readNow() {
        long started = nanoTime.getAsLong();
        try {
            String fresh = readFile(file);
            // Of two reads that overlap, the one begun later wins: it cannot hold an older token.
            inHand.accumulateAndGet(new Read(fresh, started),
                    (held, read) -> read.startedAtNanos() - held.startedAtNanos() >= 0 ? read : held);
            if (warned.compareAndSet(true, false)) {
                LOG.info("service-account token {} can be read again", file);
            }
            return fresh;
        } catch (IOException e) {
            if (warned.compareAndSet(false, true)) {
                LOG.warn("service-account token {} cannot be read ({}); requests keep the token read before, which "
                        + "the API server refuses once it expires", file, e.getMessage());
            }
            return inHand.get().token();
        }
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String sent = current();
        Response response = chain.proceed(authorized(request, sent));
        if (response.code() != 401) {
            return response;
        }
        String fresh = readNow();
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
