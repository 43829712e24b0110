package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.ApiClients;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;

/**
 * A seed whose watches fail unexpectedly while {@link #failing}: an open watch on its next read, a new
 * request at once; so a cache on it is not trusted. The reads that a probe makes instead, those whose
 * path contains a given part, pass and are counted.
 */
final class FailingWatches {

    final AtomicBoolean failing = new AtomicBoolean();
    /** Requests whose path contains {@link #readPath}, counted, never failed. */
    final AtomicInteger reads = new AtomicInteger();
    /** New requests failed: once there is one, the watch has failed and is trying to list afresh. */
    final AtomicInteger refused = new AtomicInteger();
    private final String readPath;

    /** @param readPath e.g. {@code /namespaces/shoot--a/machines} */
    FailingWatches(String readPath) {
        this.readPath = readPath;
    }

    /** {@code client}, its requests passing through this seed. */
    ApiClient on(ApiClient client) {
        return ApiClients.intercepting(chain -> {
            if (chain.request().url().encodedPath().contains(readPath)) {
                reads.incrementAndGet();
                return chain.proceed(chain.request());
            }
            if (failing.get()) {
                refused.incrementAndGet();
                throw new IllegalStateException("injected: the watch fails");
            }
            Response response = chain.proceed(chain.request());
            if (!"true".equals(chain.request().url().queryParameter("watch"))) {
                return response;
            }
            var failingSource = new ForwardingSource(response.body().source()) {
                @Override
                public long read(Buffer sink, long byteCount) throws IOException {
                    long read = super.read(sink, byteCount);
                    if (failing.get()) {
                        throw new IllegalStateException("injected: the watch fails");
                    }
                    return read;
                }
            };
            return response.newBuilder()
                    .body(ResponseBody.create(Okio.buffer(failingSource), response.body().contentType(), -1)).build();
        }).apply(client);
    }
}
