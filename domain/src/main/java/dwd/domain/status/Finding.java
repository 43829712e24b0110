package dwd.domain.status;

import java.util.Objects;

/**
 * One check that fired, with its message (a single line).
 *
 * @param field the path of the field the finding is about ({@link CheckCode#FAIL0000}), empty otherwise
 */
public record Finding(CheckCode code, String message, String field) {

    public Finding {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(field, "field");
    }

    public Finding(CheckCode code, String message) {
        this(code, message, "");
    }

    public Severity severity() {
        return code.severity();
    }

    @Override
    public String toString() {
        return code + " " + severity().word() + ": " + message;
    }
}
