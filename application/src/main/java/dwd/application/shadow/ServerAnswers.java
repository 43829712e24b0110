package dwd.application.shadow;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ShadowObserver.Answer;
import dwd.domain.dryrun.DryRunMode;

/** How shadow mode sends one would-be write and reads the answer. */
final class ServerAnswers {

    private ServerAnswers() {
    }

    /**
     * Client dry-run: sends nothing. Server dry-run: runs {@code write} (which carries {@code dryRun=All})
     * and turns the server's refusal into a finding.
     *
     * @throws ApiFailure when the write got no answer about itself (unreachable, throttled, timed out):
     *     the caller retries it as it would retry a real write
     */
    static Answer send(DryRunMode mode, Runnable write) {
        return send(mode, write, false);
    }

    /**
     * {@link #send} for a write made at a version: a conflict says that the resource has moved on since
     * the write was decided, not what the real write would meet, and is thrown for the caller to decide
     * again.
     */
    static Answer sendAt(DryRunMode mode, Runnable write) {
        return send(mode, write, true);
    }

    private static Answer send(DryRunMode mode, Runnable write, boolean conflictIsThrown) {
        if (mode != DryRunMode.SERVER) {
            return new Answer.NotSent();
        }
        try {
            write.run();
            return new Answer.Accepted();
        } catch (ApiFailure failure) {
            if (isAnswerAboutTheWrite(failure) && !(conflictIsThrown && failure.is(ApiFailure.Kind.CONFLICT))) {
                return new Answer.Refused(failure.kind(), failure.getMessage());
            }
            throw failure;
        }
    }

    /** The server looked at the request and said no: the real write would fail the same way. */
    static boolean isAnswerAboutTheWrite(ApiFailure failure) {
        return switch (failure.kind()) {
            case FORBIDDEN, UNAUTHORIZED, CONFLICT, NOT_FOUND, INVALID -> true;
            case THROTTLED, UNAVAILABLE, TIMEOUT, BAD_INPUT, CERTIFICATE_NOT_TRUSTED, CERTIFICATE_EXPIRED,
                 CERTIFICATE_HOST_MISMATCH -> false;
        };
    }
}
