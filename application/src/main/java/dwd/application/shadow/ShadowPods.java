package dwd.application.shadow;

import dwd.application.port.out.Pods;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.domain.dryrun.DryRunMode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pod deletions in shadow mode: not sent (client dry-run) or sent with {@code dryRun=All} and the
 * UID precondition (server dry-run). A pod the shadow world deleted stays deleted there: a second
 * deletion of it is "already gone", and {@link ShadowPodWatches} no longer shows it, so each
 * would-be deletion is reported once. A refusal by the server is a finding: the deletion counts as
 * done in the shadow world and its answer is reported by {@link ShadowWeederObserver}.
 */
public final class ShadowPods implements Pods {

    /** How many deleted UIDs the shadow world remembers; the oldest are forgotten first. */
    static final int REMEMBERED_DELETIONS = 10_000;

    private final DryRunMode mode;
    private final Pods seed;
    // Guarded by this; never held during a call to the seed.
    private final Map<String, Boolean> deletedUids = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_DELETIONS;
        }
    };
    private final Map<String, Answer> unreported = new HashMap<>();

    /**
     * @param mode {@code CLIENT} or {@code SERVER}
     * @param seed in server mode, must send its deletions with {@code dryRun=All}
     * @throws IllegalArgumentException for {@code NONE}, or server mode on pods that would be deleted for real
     */
    public ShadowPods(DryRunMode mode, Pods seed) {
        if (!mode.isShadow()) {
            throw new IllegalArgumentException("shadow pods need --dry-run=client or server, not " + mode.flagValue());
        }
        if (mode == DryRunMode.SERVER && !seed.dryRunWrites()) {
            throw new IllegalArgumentException("--dry-run=server needs pod deletions sent with dryRun=All");
        }
        this.mode = mode;
        this.seed = seed;
    }

    @Override
    public Deletion delete(String namespace, String name, String uid) {
        synchronized (this) {
            if (deletedUids.containsKey(uid)) {
                return Deletion.ALREADY_GONE;
            }
        }
        var outcome = new Deletion[] {Deletion.DELETED};
        Answer answer = ServerAnswers.send(mode, () -> outcome[0] = seed.delete(namespace, name, uid));
        if (outcome[0] != Deletion.DELETED) {
            return outcome[0]; // gone or replaced in the seed: a fact, nothing would be deleted
        }
        synchronized (this) {
            deletedUids.put(uid, true);
            unreported.put(uid, answer);
        }
        return Deletion.DELETED;
    }

    @Override
    public boolean dryRunWrites() {
        return true;
    }

    /** Whether the shadow world deleted the pod with this UID. */
    synchronized boolean isDeleted(String uid) {
        return deletedUids.containsKey(uid);
    }

    /** The answer to the would-be deletion of {@code uid}, once. */
    synchronized Answer takeAnswer(String uid) {
        Answer answer = unreported.remove(uid);
        if (answer != null) {
            return answer;
        }
        return mode == DryRunMode.SERVER ? new Answer.Accepted() : new Answer.NotSent();
    }
}
