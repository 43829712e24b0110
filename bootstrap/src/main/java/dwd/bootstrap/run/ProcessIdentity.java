package dwd.bootstrap.run;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** Who this process is, for the Lease holder identity, Events' reporting instance and the user agent. */
public record ProcessIdentity(String host, String identity) {

    /** The pod name ({@code $HOSTNAME} in Kubernetes) or the host name, plus a random suffix, as controller-runtime does. */
    public static ProcessIdentity of(Map<String, String> environment) {
        String host = environment.getOrDefault("HOSTNAME", "");
        if (host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "dwd";
            }
        }
        host = host.toLowerCase(Locale.ROOT);
        return new ProcessIdentity(host, host + "_" + UUID.randomUUID());
    }
}
