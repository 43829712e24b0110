package dwd.domain.config;

/** A text that {@link GoDuration#parse} rejects; the message says what is wrong and how to write it instead. */
public final class InvalidGoDuration extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final String reason;

    InvalidGoDuration(String text, String reason) {
        super((text == null ? "invalid duration" : "invalid duration " + quote(text)) + ": " + reason);
        this.text = text;
        this.reason = reason;
    }

    /** The rejected text, or {@code null} when none was given. */
    public String text() {
        return text;
    }

    /** What is wrong with the text and how to fix it, without the text itself. */
    public String reason() {
        return reason;
    }

    /** The text in double quotes, with control characters escaped so a message stays on one line. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.append('"').toString();
    }
}
