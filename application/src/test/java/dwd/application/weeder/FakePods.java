package dwd.application.weeder;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Pods;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Records deletions; answers {@code DELETED} unless told otherwise for a UID. */
final class FakePods implements Pods {

    /** One deletion request. */
    record Request(String namespace, String name, String uid) { }

    private final List<Request> requests = new ArrayList<>();
    private final Map<String, Supplier<Deletion>> answers = new HashMap<>();

    @Override
    public Deletion delete(String namespace, String name, String uid) {
        Supplier<Deletion> answer;
        synchronized (this) {
            requests.add(new Request(namespace, name, uid));
            answer = answers.getOrDefault(uid, () -> Deletion.DELETED);
        }
        return answer.get();
    }

    synchronized void answer(String uid, Deletion outcome) {
        answers.put(uid, () -> outcome);
    }

    synchronized void fail(String uid, ApiFailure.Kind kind) {
        answers.put(uid, () -> {
            throw new ApiFailure(kind, "simulated " + kind);
        });
    }

    synchronized void failUnexpectedly(String uid) {
        answers.put(uid, () -> {
            throw new IllegalStateException("simulated bug");
        });
    }

    synchronized void clearAnswers() {
        answers.clear();
    }

    synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    synchronized List<String> deletedUids() {
        return requests.stream().map(Request::uid).toList();
    }
}
