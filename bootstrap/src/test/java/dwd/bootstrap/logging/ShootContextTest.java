package dwd.bootstrap.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

class ShootContextTest {

    private static LogEvent event(String logger, String message) {
        return Log4jLogEvent.newBuilder().setLoggerName(logger).setLevel(Level.INFO)
                .setMessage(new SimpleMessage(message)).build();
    }

    @Test
    void liftsTheShootNamespaceAndTheResourceOutOfDwdMessages() {
        LogEvent rewritten = new ShootContext().rewrite(event("dwd.prober",
                "shoot--dev--a: scale-down: scaled apps/v1 Deployment kube-controller-manager from 3 to 0 replicas"));
        assertThat(rewritten.getContextData().<String>getValue(ShootContext.SHOOT_NAMESPACE)).isEqualTo("shoot--dev--a");
        assertThat(rewritten.getContextData().<String>getValue(ShootContext.RESOURCE))
                .isEqualTo("apps/v1 Deployment kube-controller-manager");
        assertThat(rewritten.getMessage().getFormattedMessage()).startsWith("shoot--dev--a: scale-down");
    }

    @Test
    void leavesOtherLinesAlone() {
        assertThat(ShootContext.shootNamespace("leader election: competing for Lease garden/x")).isEmpty();
        assertThat(ShootContext.shootNamespace("dwd prober starting: config x")).isEmpty();
        assertThat(ShootContext.resource("scaled v1 ReplicationController rc-1 to 0"))
                .contains("v1 ReplicationController rc-1");
        assertThat(ShootContext.resource("probe interval 2s, fraction 0.6")).isEmpty();
        LogEvent library = event("io.kubernetes.client.informer", "shoot--x: something");
        assertThat(new ShootContext().rewrite(library)).isSameAs(library);
    }

    @Test
    void logFormatsByNameAndZapEncoder() {
        assertThat(LogSetup.parse("JSON")).isEqualTo(LogSetup.Format.JSON);
        assertThat(LogSetup.parse("console")).isEqualTo(LogSetup.Format.TEXT);
        assertThatIllegalArgumentException().isThrownBy(() -> LogSetup.parse("xml"))
                .withMessage("'xml': expected json or text");
    }
}
