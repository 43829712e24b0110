package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The demo's ports for its roles and control plane stay out of the range outgoing connections take theirs from. */
class FreePortTest {

    @Test
    void aFreePortIsBelowTheEphemeralRangeAndCanBeBound() throws Exception {
        int ephemeralFrom = LocalKubernetes.ephemeralPortsFrom();
        for (int i = 0; i < 20; i++) {
            int port = LocalKubernetes.freePort();
            if (ephemeralFrom > LocalKubernetes.LOWEST_PORT) {
                assertThat(port).isBetween(LocalKubernetes.LOWEST_PORT, ephemeralFrom - 1);
            }
            try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
