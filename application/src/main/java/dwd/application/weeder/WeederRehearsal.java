package dwd.application.weeder;

import dwd.application.port.out.Cancellable;
import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.Scheduler;
import dwd.application.port.out.WeederObserver;
import dwd.application.port.out.WeederObservers;
import dwd.domain.config.WeederConfig;
import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.Endpoint;
import dwd.domain.weeding.EndpointSliceState;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs the weeder's reaction once, at start-up, through its own code with ports that touch nothing:
 * a service of the config turns ready in a made-up namespace, its weeder "watches" one crash-looping
 * pod per selector and "deletes" it, and the service turns not ready again. No request is sent, no
 * observer hears of it, nothing is kept.
 *
 * <p>Why: the first readiness transition of a process otherwise runs this code for the first time,
 * and the JVM then loads and links it (classes, lambdas, method handles) on the way to the first
 * deletion, tens of milliseconds on a busy node. After the rehearsal the first real transition is
 * as quick as any later one.
 */
public final class WeederRehearsal {

    /** The made-up namespace; it appears only in debug lines of the supervisor. */
    static final String NAMESPACE = "dwd-rehearsal";

    private WeederRehearsal() {
    }

    /** Rehearses the reaction to the readiness of one configured service; returns when it is over. */
    public static void run(WeederConfig config) {
        run(config, WeederObservers.of());
    }

    /** The same, told to {@code observer}: tests see that it went all the way to the deletion. */
    static void run(WeederConfig config, WeederObserver observer) {
        String service = config.servicesAndDependantSelectors().keySet().iterator().next();
        List<Consumer<PodState>> listeners = new ArrayList<>();
        PodWatches watches = (namespace, selector, listener) -> {
            selector.toQueryString(); // as the real adapter builds its request
            listeners.add(listener);
            return () -> { };
        };
        Pods deleted = (namespace, name, uid) -> Pods.Deletion.DELETED;
        try (var supervisor = new WeederSupervisor(config, new Idle(), watches, deleted, observer)) {
            supervisor.sliceChanged(slice(service, false));
            supervisor.sliceChanged(slice(service, true));
            // After the start, as an adapter thread would deliver them.
            PodState crashLooping = new PodState(NAMESPACE, "crash-looping", "rehearsal-uid", false,
                    List.of(new ContainerState("main", Optional.of("CrashLoopBackOff"))), List.of());
            listeners.forEach(listener -> listener.accept(crashLooping));
            supervisor.sliceChanged(slice(service, false));
            supervisor.sliceRemoved(NAMESPACE, service);
        }
    }

    private static EndpointSliceState slice(String service, boolean ready) {
        return new EndpointSliceState(NAMESPACE, service, service, List.of(new Endpoint(Optional.of(ready))));
    }

    /** A scheduler whose tasks never run: the rehearsal's window ends when the service turns not ready. */
    private static final class Idle implements Scheduler {

        @Override
        public Instant now() {
            return Instant.EPOCH;
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            return () -> { };
        }
    }
}
