package dwd.bootstrap.cli;

import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.bootstrap.logging.LogSetup;
import dwd.domain.config.GoDuration;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The flags both roles share, with the original's names and defaults (design §2), so that its
 * Deployments' command lines work unchanged.
 */
public final class RoleOptions {

    @Option(names = "--config-file", required = true, paramLabel = "FILE",
            description = "Path of the role's YAML config file.")
    Path configFile;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = {
        "Kubeconfig of the seed. If empty: $KUBECONFIG, then the in-cluster service account, then ~/.kube/config."})
    String kubeconfig = "";

    @Option(names = "--kube-api-qps", paramLabel = "QPS", defaultValue = "5.0",
            description = "Sustained requests per second to the seed's API server (default: ${DEFAULT-VALUE}).")
    double kubeApiQps;

    @Option(names = "--kube-api-burst", paramLabel = "N", defaultValue = "10",
            description = "Burst of requests to the seed's API server (default: ${DEFAULT-VALUE}).")
    int kubeApiBurst;

    @Option(names = "--concurrent-reconciles", paramLabel = "N", defaultValue = "1",
            description = "Accepted for compatibility; dwd handles Cluster events without a work queue.")
    int concurrentReconciles;

    @Option(names = "--metrics-bind-addr", paramLabel = "ADDR", defaultValue = ":9643",
            description = "Where /metrics is served, e.g. :9643 or 127.0.0.1:9643; 0 disables (default: ${DEFAULT-VALUE}).")
    String metricsBindAddress;

    @Option(names = "--health-bind-addr", paramLabel = "ADDR", defaultValue = ":9644",
            description = "Where /healthz and /readyz are served; 0 disables (default: ${DEFAULT-VALUE}).")
    String healthBindAddress;

    @Option(names = "--pprof-bind-addr", paramLabel = "ADDR", defaultValue = ":8081",
            description = "Accepted for compatibility; Go's pprof has no Java counterpart here (a warning is logged when set).")
    String pprofBindAddress;

    @Option(names = "--enable-leader-election", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            converter = GoBoolean.class, defaultValue = "false",
            description = "Run only while holding the role's Lease lock (default: ${DEFAULT-VALUE}).")
    boolean enableLeaderElection;

    @Option(names = "--leader-election-namespace", paramLabel = "NS", defaultValue = "garden",
            description = "Namespace of the Lease lock (default: ${DEFAULT-VALUE}).")
    String leaderElectionNamespace;

    @Option(names = "--leader-elect-lease-duration", paramLabel = "DURATION", defaultValue = "15s",
            converter = GoDurationConverter.class, description = "Default: ${DEFAULT-VALUE}.")
    Duration leaseDuration;

    @Option(names = "--leader-elect-renew-deadline", paramLabel = "DURATION", defaultValue = "10s",
            converter = GoDurationConverter.class, description = "Default: ${DEFAULT-VALUE}.")
    Duration renewDeadline;

    @Option(names = "--leader-elect-retry-period", paramLabel = "DURATION", defaultValue = "2s",
            converter = GoDurationConverter.class, description = "Default: ${DEFAULT-VALUE}.")
    Duration retryPeriod;

    @Option(names = "--zap-log-level", paramLabel = "LEVEL", defaultValue = "info",
            description = "debug, info, error, panic, or an integer verbosity (>0 means debug) (default: ${DEFAULT-VALUE}).")
    String logLevel;

    @Option(names = "--log-format", paramLabel = "FORMAT",
            description = "json (one object per line: time, level, logger, message, shootNamespace, resource) or text"
                    + " (human-readable) (default: json).")
    String logFormat;

    @Option(names = "--zap-encoder", paramLabel = "ENCODER", hidden = true,
            description = "Accepted for compatibility: console means --log-format=text, json means json.")
    String zapEncoder;

    @Option(names = {"--zap-devel", "--zap-stacktrace-level", "--zap-time-encoding"},
            paramLabel = "VALUE", arity = "0..1", fallbackValue = "", hidden = true,
            description = "Accepted for compatibility and ignored.")
    String ignoredZapFlag;

    /** The metrics address, or empty when disabled. */
    public Optional<InetSocketAddress> metricsAddress() {
        return listenAddress("--metrics-bind-addr", metricsBindAddress);
    }

    /** The health address, or empty when disabled. */
    public Optional<InetSocketAddress> healthAddress() {
        return listenAddress("--health-bind-addr", healthBindAddress);
    }

    public Path configFile() {
        return configFile;
    }

    public String kubeconfig() {
        return kubeconfig;
    }

    public String logLevel() {
        return logLevel;
    }

    /**
     * The log layout: {@code --log-format}, else zap's {@code --zap-encoder}, else JSON.
     *
     * @throws IllegalArgumentException for an unknown format
     */
    public LogSetup.Format logFormat() {
        if (logFormat != null) {
            return LogSetup.parse("--log-format", logFormat);
        }
        if (zapEncoder != null && !zapEncoder.isEmpty()) {
            return LogSetup.parse("--zap-encoder", zapEncoder);
        }
        return LogSetup.Format.JSON;
    }

    /**
     * The three leader-election durations.
     *
     * @throws IllegalArgumentException when they do not fit (lease duration > renew deadline > retry period)
     */
    public LeaderElectionTimings leaderElectionTimings() {
        return new LeaderElectionTimings(leaseDuration, renewDeadline, retryPeriod);
    }

    public boolean leaderElection() {
        return enableLeaderElection;
    }

    public String leaderElectionNamespace() {
        return leaderElectionNamespace;
    }

    public Duration leaseDuration() {
        return leaseDuration;
    }

    public Duration renewDeadline() {
        return renewDeadline;
    }

    public Duration retryPeriod() {
        return retryPeriod;
    }

    public double kubeApiQps() {
        return kubeApiQps;
    }

    public int kubeApiBurst() {
        return kubeApiBurst;
    }

    public boolean pprofRequested() {
        return !pprofBindAddress.equals(":8081") && !pprofBindAddress.equals("0");
    }

    /**
     * Go's listen-address syntax: {@code :PORT} (all interfaces), {@code HOST:PORT}, {@code [v6]:PORT};
     * {@code 0} disables the listener.
     */
    static Optional<InetSocketAddress> listenAddress(String flag, String value) {
        if (value.equals("0")) {
            return Optional.empty();
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(flag + "=" + value + ": expected HOST:PORT or :PORT (or 0 to disable)");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + "=" + value + ": the port is not a number");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(flag + "=" + value + ": the port must be between 0 and 65535");
        }
        return Optional.of(host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port));
    }

    /** Go durations for duration flags ({@code 15s}, {@code 1m30s}). */
    public static final class GoDurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return GoDuration.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Go's strconv.ParseBool, as the original's flag package accepts it. */
    public static final class GoBoolean implements ITypeConverter<Boolean> {
        @Override
        public Boolean convert(String value) {
            return switch (value) {
                case "1", "t", "T", "TRUE", "true", "True" -> true;
                case "0", "f", "F", "FALSE", "false", "False" -> false;
                default -> throw new TypeConversionException("'" + value + "' is not a boolean (true or false)");
            };
        }
    }
}
