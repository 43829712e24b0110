package dwd.bootstrap.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The knobs of {@code make bench-versus}, from system properties {@code dwd.bench.versus.*} (the Makefile sets them).
 *
 * @param shoots         {@code shoots} (N): shoots in the seed; 0 runs the weeder part only
 * @param nodes          {@code nodes} (3): nodes (Machines, leases) per shoot
 * @param window         {@code minutes} (5): the measured window after the warm-up
 * @param warmUp         {@code warmUpSeconds} (60): after every shoot's first probe, before the window
 * @param repeats        {@code repeat} (1): how often the pair runs; the order alternates from one repeat to the next
 * @param meltdown       {@code meltdown} (0.1): fraction of the shoots whose kubelets stop at once
 * @param meltdownLimit  {@code meltdownMinutes} (4): how long after the last crossing the scale-downs may take
 * @param settle         {@code settleSeconds} (75): after every dependent is restored, how long the harness waits
 *                       before it reads the annotations left (two probe intervals with their jitter)
 * @param proberJvm      {@code dwdJvmOptions} ({@link #IMAGE_AT_GARDENERS_LIMIT}): dwd's JVM options for the prober, by
 *                       default what the image runs with under Gardener's 512Mi limit
 * @param weeder         {@code weeder} (true): run the weeder part
 * @param warmTrials     {@code weederTrials} (60): trials of the warm weeder process
 * @param freshTrials    {@code weederFreshTrials} (50): trials with a fresh weeder process each
 * @param weederIdle     {@code weederIdleSeconds} (60): the warm process's idle time before its first trial
 * @param weederJvm      {@code dwdWeederJvmOptions} ({@link #IMAGE_AT_GARDENERS_LIMIT}): dwd's JVM options for the
 *                       weeder
 * @param only           {@code only} (empty): {@code dwd} or {@code original} runs that one alone (A/B runs of one
 *                       implementation, e.g. of JVM options); empty runs both
 * @param out            where logs, audit logs and the result go
 */
record VersusSettings(int shoots, int nodes, Duration window, Duration warmUp, int repeats, double meltdown,
                      Duration meltdownLimit, Duration settle, String proberJvm, boolean weeder, int warmTrials,
                      int freshTrials, Duration weederIdle, String weederJvm, String only, Path out) {

    static final String PREFIX = "dwd.bench.versus.";

    /**
     * The JVM of the image in a container limited to Gardener's 512Mi, through {@code ./dwd}: the memory the limit
     * gives, the image's heap share and its flags ({@code deploy/image/image.args}), and the collector the JVM picks
     * itself below 1,792 MB (Serial; on this 24 GiB machine it would pick G1).
     */
    static final String IMAGE_AT_GARDENERS_LIMIT =
            "-XX:MaxRAM=512m -XX:MaxRAMPercentage=65 -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError";

    static VersusSettings fromSystemProperties(Path target) {
        return new VersusSettings(Integer.getInteger(PREFIX + "shoots", 100),
                Integer.getInteger(PREFIX + "nodes", 3),
                Duration.ofSeconds(Math.round(Double.parseDouble(System.getProperty(PREFIX + "minutes", "5")) * 60)),
                Duration.ofSeconds(Integer.getInteger(PREFIX + "warmUpSeconds", 60)),
                Math.max(1, Integer.getInteger(PREFIX + "repeat", 1)),
                Double.parseDouble(System.getProperty(PREFIX + "meltdown", "0.1")),
                Duration.ofSeconds(Math.round(Double.parseDouble(System.getProperty(PREFIX + "meltdownMinutes", "4")) * 60)),
                Duration.ofSeconds(Integer.getInteger(PREFIX + "settleSeconds", 75)),
                System.getProperty(PREFIX + "dwdJvmOptions", IMAGE_AT_GARDENERS_LIMIT).strip(),
                Boolean.parseBoolean(System.getProperty(PREFIX + "weeder", "true")),
                Integer.getInteger(PREFIX + "weederTrials", 60),
                Integer.getInteger(PREFIX + "weederFreshTrials", 50),
                Duration.ofSeconds(Integer.getInteger(PREFIX + "weederIdleSeconds", 60)),
                System.getProperty(PREFIX + "dwdWeederJvmOptions", IMAGE_AT_GARDENERS_LIMIT).strip(),
                System.getProperty(PREFIX + "only", "").strip(),
                target.resolve("bench-versus"));
    }

    /** The implementations a repeat runs, in its order. */
    java.util.List<Implementation> pair(int repeat) {
        return Implementation.inOrderOf(repeat).stream().filter(i -> only.isEmpty() || i.label().equals(only)).toList();
    }

    /** Every k-th shoot melts down, for a fraction of 1/k (the scale benchmark's choice). */
    boolean melts(int shoot) {
        return BenchSettings.everyKth(meltdown, shoot);
    }
}
