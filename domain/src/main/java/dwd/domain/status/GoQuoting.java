package dwd.domain.status;

/** Go's {@code %q} rendering of a string, so that messages show empty and multi-line values unambiguously. */
final class GoQuoting {

    private GoQuoting() {
    }

    static String quote(String text) {
        var quoted = new StringBuilder(text.length() + 2).append('"');
        text.codePoints().forEach(codePoint -> {
            switch (codePoint) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (Character.isISOControl(codePoint)) {
                        quoted.append(codePoint < 0x80 ? String.format("\\x%02x", codePoint) : String.format("\\u%04x", codePoint));
                    } else {
                        quoted.appendCodePoint(codePoint);
                    }
                }
            }
        });
        return quoted.append('"').toString();
    }
}
