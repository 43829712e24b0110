package dwd.application.health;

import java.util.Objects;

/** One named check behind {@code /healthz} or {@code /readyz}. Must be fast and must not block. */
@FunctionalInterface
public interface HealthCheck {

    /** The outcome of a check, with a one-line reason an operator can act on. */
    record Result(String name, boolean healthy, String detail) {
        public Result {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(detail, "detail");
        }

        public static Result ok(String name, String detail) {
            return new Result(name, true, detail);
        }

        public static Result failing(String name, String detail) {
            return new Result(name, false, detail);
        }
    }

    Result check();
}
