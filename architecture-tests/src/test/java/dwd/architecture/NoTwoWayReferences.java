package dwd.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reports each pair of top-level classes of one package that refer to each other, once. A nested, local or
 * anonymous class counts as its top-level class: it lives in that class's file. Each report names one
 * reference each way, to start from.
 */
final class NoTwoWayReferences extends ArchCondition<JavaClass> {

    /** From each top-level class to each top-level class of its package it refers to: the first reference. */
    private final Map<String, Map<String, Dependency>> references = new TreeMap<>();

    NoTwoWayReferences() {
        super("not refer to a class of their package that refers to them (a nested class counting as its top-level class)");
    }

    @Override
    public void init(Collection<JavaClass> allObjectsToTest) {
        references.clear();
    }

    @Override
    public void check(JavaClass javaClass, ConditionEvents events) {
        JavaClass origin = topLevel(javaClass);
        javaClass.getDirectDependenciesFromSelf().stream()
                .sorted(Comparator.comparing(Dependency::getDescription))
                .forEach(dependency -> {
                    JavaClass target = topLevel(dependency.getTargetClass().getBaseComponentType());
                    if (!target.equals(origin) && target.getPackageName().equals(origin.getPackageName())) {
                        references.computeIfAbsent(origin.getName(), name -> new TreeMap<>())
                                .merge(target.getName(), dependency, NoTwoWayReferences::earlier);
                    }
                });
    }

    @Override
    public void finish(ConditionEvents events) {
        references.forEach((first, targets) -> targets.forEach((second, there) -> {
            Dependency back = references.getOrDefault(second, Map.of()).get(first);
            if (back != null && first.compareTo(second) < 0) {
                events.add(SimpleConditionEvent.violated(there, first + " and " + second + " refer to each other: "
                        + there.getDescription() + "; " + back.getDescription()));
            }
        }));
        references.clear();
    }

    private static Dependency earlier(Dependency one, Dependency other) {
        return one.getDescription().compareTo(other.getDescription()) <= 0 ? one : other;
    }

    private static JavaClass topLevel(JavaClass javaClass) {
        JavaClass outermost = javaClass;
        while (outermost.getEnclosingClass().isPresent()) {
            outermost = outermost.getEnclosingClass().get();
        }
        return outermost;
    }
}
