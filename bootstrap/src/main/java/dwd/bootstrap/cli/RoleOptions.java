package dwd.bootstrap.cli;

import dwd.adapters.k8s.leader.LeaderElectionTimings;
import dwd.adapters.k8s.ClientSideThrottle;
import dwd.bootstrap.logging.LogLevels;
import dwd.bootstrap.logging.LogSetup;
import dwd.domain.config.GoDuration;
import dwd.domain.gosyntax.GoBool;
import dwd.domain.config.KubernetesNames;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.logging.log4j.Level;
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

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig of the seed. If empty,"
            + " $KUBECONFIG is used, then the in-cluster service account, then ~/.kube/config.")
    String kubeconfig = "";

    @Option(names = "--kube-api-qps", paramLabel = "QPS", defaultValue = "5", converter = QpsConverter.class,
            description = "Requests per second to the seed's API server, sustained (a client-side token bucket;"
                    + " the prober's scaling and leader election are exempt); a negative value turns the limit off"
                    + " (default: ${DEFAULT-VALUE}).")
    double kubeApiQps;

    @Option(names = "--kube-api-burst", paramLabel = "N", defaultValue = "10", converter = BurstConverter.class,
            description = "Requests to the seed's API server that may go at once, before --kube-api-qps paces"
                    + " them; at least 1 (default: ${DEFAULT-VALUE}).")
    int kubeApiBurst;

    @Option(names = "--metrics-bind-addr", paramLabel = "ADDR", defaultValue = ":9643",
            converter = ListenAddressConverter.class,
            description = "Where /metrics and the status page are served, e.g. 127.0.0.1:9643, or :9643 for"
                    + " every interface; 0 disables (default: ${DEFAULT-VALUE}).")
    String metricsBindAddress;

    @Option(names = "--health-bind-addr", paramLabel = "ADDR", defaultValue = ":9644",
            converter = ListenAddressConverter.class,
            description = "Where /healthz and /readyz are served; 0 disables (default: ${DEFAULT-VALUE}).")
    String healthBindAddress;

    @Option(names = "--pprof-bind-addr", paramLabel = "ADDR", defaultValue = ":8081",
            description = "Accepted for compatibility; Go's pprof has no Java counterpart here"
                    + " (a warning is logged when set).")
    String pprofBindAddress;

    @Option(names = "--enable-leader-election", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            converter = GoBoolean.class, defaultValue = "false",
            description = "Run only while holding the role's Lease lock (default: ${DEFAULT-VALUE}).")
    boolean enableLeaderElection;

    @Option(names = "--leader-election-namespace", paramLabel = "NS", defaultValue = "garden",
            converter = NamespaceConverter.class,
            description = "Namespace of the Lease lock (default: ${DEFAULT-VALUE}).")
    String leaderElectionNamespace;

    @Option(names = "--leader-elect-lease-duration", paramLabel = "DURATION", defaultValue = "15s",
            converter = GoDurationConverter.class,
            description = "How long a standby waits for the leader's renewal before it takes over"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration leaseDuration;

    @Option(names = "--leader-elect-renew-deadline", paramLabel = "DURATION", defaultValue = "10s",
            converter = GoDurationConverter.class,
            description = "How long the leader tries to renew before it stops leading and exits;"
                    + " shorter than the lease duration (default: ${DEFAULT-VALUE}).")
    Duration renewDeadline;

    @Option(names = "--leader-elect-retry-period", paramLabel = "DURATION", defaultValue = "2s",
            converter = GoDurationConverter.class,
            description = "Interval between attempts to acquire or renew; shorter than the renew deadline"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration retryPeriod;

    @Option(names = "--zap-log-level", paramLabel = "LEVEL", defaultValue = "info", converter = LevelConverter.class,
            description = "debug, info, error, panic, or an integer verbosity (>0 means debug)"
                    + " (default: ${DEFAULT-VALUE}).")
    Level logLevel;

    @Option(names = "--log-format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "json (one object per line: time, level, logger, message, shootNamespace, resource) or"
                    + " text (human-readable) (default: json).")
    LogSetup.Format logFormat;

    @Option(names = "--zap-encoder", paramLabel = "ENCODER", hidden = true, converter = FormatConverter.class,
            description = "Accepted for compatibility: console means --log-format=text, json means json.")
    LogSetup.Format zapEncoder;

    @Option(names = {"--zap-devel", "--zap-stacktrace-level", "--zap-time-encoding"},
            paramLabel = "VALUE", arity = "0..1", fallbackValue = "", hidden = true,
            description = "Accepted for compatibility and ignored.")
    String ignoredZapFlag;

    /** The metrics address, or empty when disabled. */
    public Optional<InetSocketAddress> metricsAddress() {
        return listenAddress(metricsBindAddress);
    }

    /** The health address, or empty when disabled. */
    public Optional<InetSocketAddress> healthAddress() {
        return listenAddress(healthBindAddress);
    }

    public Path configFile() {
        return configFile;
    }

    public String kubeconfig() {
        return kubeconfig;
    }

    public Level logLevel() {
        return logLevel;
    }

    /** The log layout: {@code --log-format}, else zap's {@code --zap-encoder}, else JSON. */
    public LogSetup.Format logFormat() {
        if (logFormat != null) {
            return logFormat;
        }
        return zapEncoder != null ? zapEncoder : LogSetup.Format.JSON;
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

    /** The client-side rate limit of the seed requests that are not exempt from it. */
    public ClientSideThrottle seedThrottle() {
        return ClientSideThrottle.of(kubeApiQps, kubeApiBurst);
    }

    /** {@code 5} for 5.0, {@code 2.5} for 2.5. */
    private static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /** For the start-up line: {@code at most 5 per second, bursts of 10} or {@code no client-side limit}. */
    public String describeSeedLimit() {
        return kubeApiQps < 0 ? "no client-side limit"
                : "at most " + plain(kubeApiQps) + " per second, bursts of " + kubeApiBurst;
    }

    public boolean pprofRequested() {
        return !pprofBindAddress.equals(":8081") && !pprofBindAddress.equals("0");
    }

    /**
     * Go's listen-address syntax: {@code :PORT} (all interfaces), {@code HOST:PORT}, {@code [v6]:PORT};
     * {@code 0} disables the listener.
     */
    static Optional<InetSocketAddress> listenAddress(String value) {
        if (value.equals("0")) {
            return Optional.empty();
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("'" + value + "' is not HOST:PORT or :PORT (or 0 to disable)");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "': the port is not a number");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("'" + value + "': the port must be between 0 and 65535");
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
            return GoBool.parse(value)
                    .orElseThrow(() -> new TypeConversionException("'" + value + "' is not a boolean (true or false)"));
        }
    }

    /** {@code --kube-api-qps}: a finite number other than 0; a negative one means no limit, as in client-go. */
    public static final class QpsConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double qps;
            try {
                qps = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a number of requests per second, e.g. 20");
            }
            if (qps == 0 || Double.isNaN(qps) || Double.isInfinite(qps)) {
                throw new TypeConversionException("'" + value + "' is not a usable rate: give requests per second"
                        + " > 0 (e.g. 20), or a negative number (e.g. -1) for no client-side limit");
            }
            return qps;
        }
    }

    /** {@code --kube-api-burst}: a whole number, at least 1. */
    public static final class BurstConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int burst;
            try {
                burst = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a whole number of requests, e.g. 100");
            }
            if (burst < 1) {
                throw new TypeConversionException("'" + value + "' is too small: at least 1 request must be able to go");
            }
            return burst;
        }
    }

    /** {@code --zap-log-level}: zap's level names, or a verbosity > 0. */
    public static final class LevelConverter implements ITypeConverter<Level> {
        @Override
        public Level convert(String value) {
            try {
                return LogLevels.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not a level: " + LogLevels.EXPECTED);
            }
        }
    }

    /** {@code --log-format} and {@code --zap-encoder}: json, or text (zap's console). */
    public static final class FormatConverter implements ITypeConverter<LogSetup.Format> {
        @Override
        public LogSetup.Format convert(String value) {
            try {
                return LogSetup.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not a log format: expected json or text");
            }
        }
    }

    /** A namespace's name: no namespace could have another, so no Lease would ever be found there. */
    public static final class NamespaceConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!KubernetesNames.isDnsLabel(value)) {
                throw new TypeConversionException("'" + value + "' is not a namespace name: " + KubernetesNames.DNS_LABEL_RULE);
            }
            return value;
        }
    }

    /** The bind-address flags: checked when the command line is read, kept as written. */
    public static final class ListenAddressConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                listenAddress(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
