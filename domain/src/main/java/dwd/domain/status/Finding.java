package dwd.domain.status;

import java.util.Objects;

/** One check that fired, with its message (a single line). */
public record Finding(CheckCode code, String message) {

    public Finding {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    public Severity severity() {
        return code.severity();
    }

    @Override
    public String toString() {
        return code + " " + severity().word() + ": " + message;
    }
}
