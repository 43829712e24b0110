package dwd.application.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.EventRecorder;
import dwd.application.port.out.Leadership;
import dwd.application.port.out.Pods;
import dwd.application.port.out.ScalableResource;
import dwd.application.port.out.ScalableResources;
import dwd.domain.config.ResourceRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LeaderOnlyTest {

    static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");

    @Test
    void writesPassOnlyWhileLeadingAndReadsAlways() {
        List<String> calls = new ArrayList<>();
        ScalableResources resources = new ScalableResources() {
            @Override
            public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
                calls.add("read");
                return Optional.empty();
            }

            @Override
            public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
                    Map<String, Optional<String>> changes, Duration timeout) {
                calls.add("patch at " + version);
                return version + "+1";
            }

            @Override
            public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
                calls.add("scale at " + version);
                return version + "+1";
            }

            @Override
            public boolean scalesInOneWrite(ResourceRef ref) {
                return true;
            }

            @Override
            public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
                    Map<String, Optional<String>> changes, Duration timeout) {
                calls.add("scale and annotate at " + version);
            }

            @Override
            public boolean dryRunWrites() {
                return true;
            }
        };
        var leading = new AtomicBoolean(true);
        ScalableResources fenced = LeaderOnly.scalableResources(resources, leading::get);
        String patched = fenced.patchAnnotationsAt("ns", KCM, "7", Map.of(), Duration.ofSeconds(1));
        fenced.scaleAt("ns", KCM, patched, 0, Duration.ofSeconds(1));
        assertThat(fenced.scalesInOneWrite(KCM)).isTrue();
        fenced.scaleAndAnnotateAt("ns", KCM, "9", 0, Map.of(), Duration.ofSeconds(1));
        assertThat(fenced.dryRunWrites()).as("passed on: server-side shadow mode checks it").isTrue();
        leading.set(false);
        fenced.read("ns", KCM, Duration.ofSeconds(1));
        assertThatThrownBy(() -> fenced.scaleAt("ns", KCM, "8", 0, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> assertThat(failure.kind()).isEqualTo(ApiFailure.Kind.FORBIDDEN))
                .hasMessageContaining("not the leader");
        assertThatThrownBy(() -> fenced.patchAnnotationsAt("ns", KCM, "8", Map.of(), Duration.ofSeconds(1)))
                .isInstanceOf(ApiFailure.class);
        assertThatThrownBy(() -> fenced.scaleAndAnnotateAt("ns", KCM, "9", 0, Map.of(), Duration.ofSeconds(1)))
                .isInstanceOf(ApiFailure.class);
        assertThat(calls).containsExactly("patch at 7", "scale at 7+1", "scale and annotate at 9", "read");

        List<EventRecorder.Event> events = new ArrayList<>();
        EventRecorder recorder = LeaderOnly.events(events::add, leading::get);
        recorder.record(new EventRecorder.Event(new EventRecorder.ObjectRef("v1", "Pod", "ns", "p"),
                EventRecorder.Type.NORMAL, "Deleted", "Delete", "note"));
        assertThat(events).isEmpty();
    }

    @Test
    void aWriteIsGivenNoLongerThanLeadershipIsLeft() {
        List<String> sent = new ArrayList<>();
        ScalableResources resources = new ScalableResources() {
            @Override
            public Optional<ScalableResource> read(String namespace, ResourceRef ref, Duration timeout) {
                return Optional.empty();
            }

            @Override
            public String patchAnnotationsAt(String namespace, ResourceRef ref, String version,
                    Map<String, Optional<String>> changes, Duration timeout) {
                sent.add("patch within " + timeout);
                return version;
            }

            @Override
            public String scaleAt(String namespace, ResourceRef ref, String version, int replicas, Duration timeout) {
                sent.add("scale within " + timeout);
                return version;
            }

            @Override
            public void scaleAndAnnotateAt(String namespace, ResourceRef ref, String version, int replicas,
                    Map<String, Optional<String>> changes, Duration timeout) {
                sent.add("scale and annotate within " + timeout);
            }
        };
        var left = new AtomicReference<>(Duration.ofSeconds(2));
        ScalableResources fenced = LeaderOnly.scalableResources(resources, new Leadership() {
            @Override
            public boolean isLeading() {
                return left.get().isPositive();
            }

            @Override
            public Duration leadingFor() {
                return left.get();
            }
        });

        fenced.scaleAndAnnotateAt("ns", KCM, "7", 0, Map.of(), Duration.ofSeconds(30));
        fenced.patchAnnotationsAt("ns", KCM, "7", Map.of(), Duration.ofSeconds(1));
        left.set(Duration.ofMillis(300));
        fenced.scaleAt("ns", KCM, "7", 0, Duration.ofSeconds(30));
        left.set(Duration.ZERO);
        assertThatThrownBy(() -> fenced.scaleAt("ns", KCM, "7", 0, Duration.ofSeconds(30)))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> assertThat(failure.kind()).isEqualTo(ApiFailure.Kind.FORBIDDEN));

        assertThat(sent).containsExactly("scale and annotate within PT2S", "patch within PT1S", "scale within PT0.3S");
    }

    @Test
    void podDeletionsPassOnlyWhileLeading() {
        List<String> deleted = new ArrayList<>();
        Pods pods = (namespace, name, uid) -> {
            deleted.add(namespace + "/" + name + "/" + uid);
            return Pods.Deletion.DELETED;
        };
        var leading = new AtomicBoolean(true);
        Pods fenced = LeaderOnly.pods(pods, leading::get);

        assertThat(fenced.delete("ns", "kube-apiserver-0", "uid-1")).isEqualTo(Pods.Deletion.DELETED);
        leading.set(false);
        assertThatThrownBy(() -> fenced.delete("ns", "kube-apiserver-1", "uid-2"))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> assertThat(failure.kind()).isEqualTo(ApiFailure.Kind.FORBIDDEN))
                .hasMessageContaining("deleting pod ns/kube-apiserver-1")
                .hasMessageContaining("not the leader");
        assertThat(deleted).containsExactly("ns/kube-apiserver-0/uid-1");
    }
}
