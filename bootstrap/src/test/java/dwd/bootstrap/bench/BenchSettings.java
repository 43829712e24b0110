package dwd.bootstrap.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The scale benchmark's knobs, from system properties ({@code make bench-scale N=… } sets them).
 *
 * @param shoots          {@code dwd.bench.scale.shoots}: shoots in the seed
 * @param nodes           {@code dwd.bench.scale.nodes} (3): nodes (Machines, leases) per shoot
 * @param window          {@code dwd.bench.scale.minutes} (5): length of the measured window
 * @param warmUp          {@code dwd.bench.scale.warmUpSeconds} (60): after every shoot's first probe, before the window
 * @param realShootApis   {@code dwd.bench.scale.shootApi} ({@code real} up to 1,000 shoots, else {@code simulated})
 * @param latency         {@code dwd.bench.scale.shootLatencyMillis} (0): the simulator's added latency per answer
 * @param meltdown        {@code dwd.bench.scale.meltdown} (0.1): fraction of the shoots whose leases expire at once
 * @param warmUpMeltdown  {@code dwd.bench.scale.warmUpMeltdown} (0): fraction of the other shoots whose leases expire
 *                        first and stay expired, so that the measured meltdown meets a prober whose scale-down path
 *                        has run (and been compiled) before; simulated shoot APIs only
 * @param profile         {@code dwd.bench.scale.profile} (false): record a CPU profile (JFR) over the window
 * @param seedConcurrency {@code dwd.bench.scale.seedConcurrency} (32): shoots loaded at a time
 * @param dwdJvmOptions   {@code dwd.bench.scale.jvmOptions} (none): extra JVM options for dwd (JAVA_TOOL_OPTIONS)
 * @param seedNice        {@code dwd.bench.scale.seedNice} (0): the nice value of the seed's kube-apiserver and etcd
 *                        threads; below 0 they get the CPU before dwd and the simulator, as a seed whose control
 *                        plane has cores of its own would (needs root)
 * @param seedProfile     {@code dwd.bench.scale.seedProfile} (false): record a CPU profile of the seed's
 *                        kube-apiserver over the meltdown's crossings (Go's pprof, {@code seed-burst.pprof})
 * @param seedGogc        the environment's {@code GOGC} ({@code make bench-scale SEED_GOGC=…} sets it; empty: Go's
 *                        default of 100), which the seed's kube-apiserver and etcd inherit: how much their heap may
 *                        grow past what is live before Go's collector runs again
 * @param out             where logs, recordings and the result go
 */
record BenchSettings(int shoots, int nodes, Duration window, Duration warmUp, boolean realShootApis, Duration latency,
                     double meltdown, double warmUpMeltdown, boolean profile, int seedConcurrency, String dwdJvmOptions,
                     int seedNice, boolean seedProfile, String seedGogc, Path out) {

    static final String PREFIX = "dwd.bench.scale.";

    static BenchSettings fromSystemProperties(Path target) {
        int shoots = Integer.getInteger(PREFIX + "shoots");
        String shootApi = System.getProperty(PREFIX + "shootApi", shoots <= 1_000 ? "real" : "simulated");
        if (!shootApi.equals("real") && !shootApi.equals("simulated")) {
            throw new IllegalArgumentException(PREFIX + "shootApi must be 'real' or 'simulated', not '" + shootApi + "'");
        }
        double warmUpMeltdown = Double.parseDouble(System.getProperty(PREFIX + "warmUpMeltdown", "0"));
        if (warmUpMeltdown > 0 && shootApi.equals("real")) {
            throw new IllegalArgumentException(PREFIX + "warmUpMeltdown needs " + PREFIX + "shootApi=simulated: the real "
                    + "shoot APIs share one lease set among the melting shoots");
        }
        return new BenchSettings(shoots,
                Integer.getInteger(PREFIX + "nodes", 3),
                Duration.ofSeconds(Math.round(Double.parseDouble(System.getProperty(PREFIX + "minutes", "5")) * 60)),
                Duration.ofSeconds(Integer.getInteger(PREFIX + "warmUpSeconds", 60)),
                shootApi.equals("real"),
                Duration.ofMillis(Integer.getInteger(PREFIX + "shootLatencyMillis", 0)),
                Double.parseDouble(System.getProperty(PREFIX + "meltdown", "0.1")),
                warmUpMeltdown,
                Boolean.getBoolean(PREFIX + "profile"),
                Integer.getInteger(PREFIX + "seedConcurrency", 32),
                System.getProperty(PREFIX + "jvmOptions", "").strip(),
                Integer.getInteger(PREFIX + "seedNice", 0),
                Boolean.getBoolean(PREFIX + "seedProfile"),
                System.getenv().getOrDefault("GOGC", "").strip(),
                target.resolve("bench-scale"));
    }

    /** Every k-th shoot melts down, for a fraction of 1/k. */
    boolean melts(int shoot) {
        return everyKth(meltdown, shoot);
    }

    /** Whether {@code shoot} is one of every k-th shoots, counted from the first, for a fraction of 1/k. */
    static boolean everyKth(double fraction, int shoot) {
        return fraction > 0 && shoot % Math.max(1, Math.round(1 / fraction)) == 0;
    }

    /** Every k-th shoot, counted from the second, melts in the warm-up, unless it {@link #melts} later. */
    boolean meltsInWarmUp(int shoot) {
        return warmUpMeltdown > 0 && !melts(shoot) && shoot % Math.max(2, Math.round(1 / warmUpMeltdown)) == 1;
    }
}
