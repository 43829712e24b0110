package dwd.application.testing;

import dwd.application.port.out.NodeLeaseWatch;
import dwd.application.port.out.ShootApi;
import dwd.domain.lease.Node;
import dwd.domain.lease.NodeLease;
import java.util.List;

/** A shoot API that passes every call on to another: a test overrides the call it changes. */
public class ForwardingShootApi implements ShootApi {

    private final ShootApi delegate;

    public ForwardingShootApi(ShootApi delegate) {
        this.delegate = delegate;
    }

    @Override
    public String version() {
        return delegate.version();
    }

    @Override
    public List<Node> nodes() {
        return delegate.nodes();
    }

    @Override
    public List<NodeLease> nodeLeases() {
        return delegate.nodeLeases();
    }

    @Override
    public NodeLeaseWatch watchNodeLeases(Runnable changed) {
        return delegate.watchNodeLeases(changed);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
