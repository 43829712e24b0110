package dwd.application.comparison;

import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The seed's dependents as they would be without the original's writes, for a shadow-mode prober that
 * compares itself with the original: reads come from {@link OriginalDependents#view} (the comparison's
 * watch, at its latest version), or from the seed where no watch shows the dependent; writes go to the
 * seed unchanged (in shadow mode: dry runs). Placed between the shadow decorator and the adapter, so it
 * passes {@link #dryRunWrites()} on.
 */
public final class WithoutOriginalWrites implements ScalableResources {

    private final ScalableResources seed;
    private final OriginalDependents dependents;

    public WithoutOriginalWrites(ScalableResources seed, OriginalDependents dependents) {
        this.seed = seed;
        this.dependents = dependents;
    }

    @Override
    public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
        Optional<ScalableResource> view = dependents.view(namespace, ref);
        return view.isPresent() ? view : seed.read(namespace, ref, timeout);
    }

    @Override
    public Optional<ScalableResource> cached(String namespace, ResourceRef ref) {
        Optional<ScalableResource> view = dependents.view(namespace, ref);
        return view.isPresent() ? view : seed.cached(namespace, ref);
    }

    @Override
    public String patchAnnotationsAt(String namespace, ResourceRef ref, String version, Map<String, Optional<String>> changes,
            Duration timeout) {
        return seed.patchAnnotationsAt(namespace, ref, version, changes, timeout);
    }

    @Override
    public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
        return seed.scaleAt(namespace, ref, version, replicas, timeout);
    }

    @Override
    public boolean scalesInOneWrite(ResourceRef ref) {
        return seed.scalesInOneWrite(ref);
    }

    @Override
    public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
            Map<String, Optional<String>> changes, Duration timeout) {
        seed.scaleAndAnnotateAt(namespace, ref, version, replicas, changes, timeout);
    }

    @Override
    public boolean dryRunWrites() {
        return seed.dryRunWrites();
    }
}
