package dwd.adapters.k8s;

import java.io.IOException;

/**
 * A request this process refused to send (a write while it does not lead): it says nothing about the
 * server, so it neither begins an outage nor counts as a request; callers see it as
 * {@code FORBIDDEN} with its message.
 */
public final class NotSent extends IOException {

    private static final long serialVersionUID = 1L;

    public NotSent(String message) {
        super(message);
    }
}
