package dwd.adapters.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/** Shared plumbing of the JDK HTTP servers: one virtual thread per request, GET only. */
final class Responses {

    private Responses() {
    }

    /** A server on {@code address} whose requests each run on a virtual thread (a slow client holds up nothing). */
    static HttpServer server(InetSocketAddress address, String what) {
        try {
            HttpServer server = HttpServer.create(address, 0);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address.getHostString() + ":" + address.getPort()
                    + " for " + what + ": " + e.getMessage(), e);
        }
    }

    /** False (after answering 405) unless the request is a GET or HEAD. */
    static boolean isRead(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if ("GET".equals(method) || "HEAD".equals(method)) {
            return true;
        }
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return false;
    }

    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (startResponse(exchange, status, contentType, bytes.length)) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /**
     * Sends the status and headers; true when a body of {@code length} bytes (0: unknown, sent
     * chunked) is to follow, false for a HEAD request, which gets none.
     */
    private static boolean startResponse(HttpExchange exchange, int status, String contentType, long length)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(status, -1);
            return false;
        }
        exchange.sendResponseHeaders(status, length);
        return true;
    }

    /** Writes a body of unknown length as it is produced (chunked), never holding it whole. */
    @FunctionalInterface
    interface BodyWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Sends {@code body} as it is written: a seed of 10,000 shoots scrapes to about 100,000 series,
     * tens of MB that need not be held in memory at once.
     */
    static void stream(HttpExchange exchange, int status, String contentType, BodyWriter body) throws IOException {
        if (startResponse(exchange, status, contentType, 0)) {
            try (OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 64 * 1024)) {
                body.writeTo(out);
            }
        }
    }
}
