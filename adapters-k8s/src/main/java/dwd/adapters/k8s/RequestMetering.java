package dwd.adapters.k8s;

import dwd.application.port.out.ApiTraffic;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.UnaryOperator;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Reports every request a client makes ({@link ApiTraffic}): target, Kubernetes verb, status code
 * (or {@link ApiTraffic#NO_RESPONSE}) and duration (until the response headers). A watch counts
 * once, when it starts. Nothing about the request beyond its method and whether it watches is
 * looked at: no path, no header, no body.
 */
public final class RequestMetering implements Interceptor {

    private final String target;
    private final ApiTraffic traffic;

    private RequestMetering(String target, ApiTraffic traffic) {
        this.target = target;
        this.traffic = traffic;
    }

    /** Adds metering as {@code target} to each client it is applied to (keeping the client's timeouts). */
    public static UnaryOperator<ApiClient> as(String target, ApiTraffic traffic) {
        return ApiClients.intercepting(new RequestMetering(target, traffic));
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String verb = verb(request);
        long started = System.nanoTime();
        Response response;
        try {
            response = chain.proceed(request);
        } catch (NotSent notSent) {
            throw notSent; // refused by this process: no request
        } catch (IOException | RuntimeException e) {
            traffic.requestCompleted(target, verb, ApiTraffic.NO_RESPONSE, Duration.ofNanos(System.nanoTime() - started));
            throw e;
        }
        traffic.requestCompleted(target, verb, response.code(), Duration.ofNanos(System.nanoTime() - started));
        return response;
    }

    static String verb(Request request) {
        return switch (request.method().toUpperCase(Locale.ROOT)) {
            case "GET" -> "true".equals(request.url().queryParameter("watch")) ? "watch" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> request.method().toLowerCase(Locale.ROOT);
        };
    }
}
