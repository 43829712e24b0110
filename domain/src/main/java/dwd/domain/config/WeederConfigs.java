package dwd.domain.config;

import dwd.domain.config.Problems.DurationField;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.LabelSelectors;
import dwd.domain.selector.SelectorProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a weeder config file ({@link WeederConfigAsWritten}) into a {@link WeederConfig}: fills in the default
 * {@code watchDuration} of 5m, then reports every problem at once.
 *
 * <p>Report order: first the problems the original dependency-watchdog reports (an empty service map; per service, in
 * file order, missing {@code podSelectors} and selectors that break Kubernetes' rules). Then the problems only dwd
 * reports: an unparsable or non-positive {@code watchDuration}, service names that no Service can have, and missing or
 * empty selectors, which would match every pod in the namespace.
 */
public final class WeederConfigs {

    public static final Duration DEFAULT_WATCH_DURATION = Duration.ofMinutes(5);

    private static final String SERVICES = "servicesAndDependantSelectors";
    /** What Kubernetes accepts as a Service name (an RFC 1035 label). */

    private WeederConfigs() {
    }

    /**
     * Validates a weeder config file; {@code null} (an empty file) counts as one with every key absent.
     *
     * @return the config, or every problem found; never throws
     */
    public static Validated<WeederConfig> validate(WeederConfigAsWritten written) {
        WeederConfigAsWritten file = written == null ? new WeederConfigAsWritten(null, null) : written;
        Map<String, DependantSelectorsAsWritten> services = file.servicesAndDependantSelectors() == null
                ? Map.of() : file.servicesAndDependantSelectors();
        DurationField watchDuration = DurationField.of("watchDuration", file.watchDuration(), DEFAULT_WATCH_DURATION);
        Problems problems = new Problems();

        if (services.isEmpty()) {
            problems.add(SERVICES, "must not be empty; map each service name to the pods to restart when it turns"
                    + " ready, e.g. etcd-main-client: {podSelectors: [{matchLabels: {role: apiserver}}]}");
        }
        services.forEach((service, selectors) -> {
            String path = Problems.key(SERVICES, service);
            List<LabelSelectorAsWritten> podSelectors = selectors == null ? null : selectors.podSelectors();
            if (podSelectors == null || podSelectors.isEmpty()) {
                problems.add(Problems.child(path, "podSelectors"), "must not be empty; list at least one label"
                        + " selector of the pods that depend on this service");
                return;
            }
            forEachSelector(path, podSelectors, (selector, selectorPath) -> {
                if (!LabelSelectors.selectsEverything(selector)) {
                    report(LabelSelectors.validate(selector, selectorPath), problems);
                }
            });
        });

        problems.requirePositive(watchDuration, "it is how long dependent pods are watched after the service turns"
                + " ready, e.g. 5m");
        services.forEach((service, selectors) -> {
            String path = Problems.key(SERVICES, service);
            if (!KubernetesNames.isDns1035Label(service)) {
                problems.add(path, "is not a Service name, so no EndpointSlice would ever match it; Service names are"
                        + " lowercase DNS labels (a-z, 0-9 and '-', starting with a letter, at most 63 characters),"
                        + " e.g. etcd-main-client");
            }
            if (selectors != null && selectors.podSelectors() != null) {
                forEachSelector(path, selectors.podSelectors(), (selector, selectorPath) -> {
                    if (LabelSelectors.selectsEverything(selector)) {
                        report(LabelSelectors.validate(selector, selectorPath), problems);
                    }
                });
            }
        });

        return problems.outcome(() -> build(watchDuration.value(), services));
    }

    private static WeederConfig build(Duration watchDuration, Map<String, DependantSelectorsAsWritten> services) {
        Map<String, List<LabelSelector>> selectors = new LinkedHashMap<>();
        services.forEach((service, written) -> {
            List<LabelSelector> podSelectors = new ArrayList<>();
            written.podSelectors().forEach(selector -> podSelectors.add(LabelSelectors.toLabelSelector(selector)));
            selectors.put(service, podSelectors);
        });
        return new WeederConfig(watchDuration, selectors);
    }

    private interface SelectorVisitor {
        void visit(LabelSelectorAsWritten selector, String path);
    }

    private static void forEachSelector(String servicePath, List<LabelSelectorAsWritten> podSelectors, SelectorVisitor visitor) {
        for (int i = 0; i < podSelectors.size(); i++) {
            visitor.visit(podSelectors.get(i), Problems.index(Problems.child(servicePath, "podSelectors"), i));
        }
    }

    private static void report(List<SelectorProblem> selectorProblems, Problems problems) {
        selectorProblems.forEach(problem -> problems.add(problem.path(), problem.message()));
    }
}
