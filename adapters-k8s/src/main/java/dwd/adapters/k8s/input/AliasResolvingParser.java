package dwd.adapters.k8s.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML parser that resolves aliases: {@code *name} reads as the node anchored {@code &name}
 * before it, as Go's YAML libraries (and so kubectl and the original dependency-watchdog) read it.
 * Jackson's own parser hands an alias over as the string {@code name}.
 *
 * <p>Bounded: aliases may add at most {@link #MAX_VALUES_FROM_ALIASES} values to an input (a
 * "billion laughs" document is refused at that point, not expanded). Refused with a message of
 * their own: an alias with no anchor before it in its document, an alias inside the node it
 * names, an alias as a key, and merge keys ({@code <<}), which YAML 1.2 dropped.
 *
 * <p>While an alias is replayed, locations are the alias's.
 */
final class AliasResolvingParser extends JsonParserDelegate {

    /** How many values (scalars, mappings and lists) aliases may add to one input. */
    static final int MAX_VALUES_FROM_ALIASES = 100_000;

    private final LinearYamlParser yaml;
    /** Anchored nodes of the current document, by name; null for one too large to replay. */
    private final Map<String, TokenBuffer> anchors = new HashMap<>();
    private final List<Recording> recordings = new ArrayList<>();
    private JsonParser replay;
    private JsonLocation aliasLocation;
    private int depth;
    private long valuesFromAliases;

    /** An anchored node being recorded, from the depth it started at. */
    private static final class Recording {
        final String anchor;
        final int depth;
        TokenBuffer tokens = new TokenBuffer(null, false);
        long values;

        Recording(String anchor, int depth) {
            this.anchor = anchor;
            this.depth = depth;
        }
    }

    AliasResolvingParser(LinearYamlParser yaml) {
        super(yaml);
        this.yaml = yaml;
    }

    @Override
    public JsonToken nextToken() throws IOException {
        if (replay != null) {
            JsonToken token = replay.nextToken();
            if (token != null) {
                countFromAlias(token);
                return emitted(token);
            }
            replay.close();
            replay = null;
            aliasLocation = null;
            delegate = yaml;
        }
        JsonToken token = yaml.nextToken();
        if (token == null) {
            return null;
        }
        if (depth == 0 && token != JsonToken.END_OBJECT && token != JsonToken.END_ARRAY) {
            anchors.clear(); // a new document: anchors of the one before do not reach into it
        }
        if (token == JsonToken.FIELD_NAME && "<<".equals(yaml.currentName())) {
            throw refused("merge keys (<<) are not supported; write the keys out (YAML 1.2 has no merge keys)");
        }
        if (token == JsonToken.VALUE_STRING && yaml.isCurrentAlias()) {
            return startReplay(yaml.getText());
        }
        String anchor = token.isStructEnd() ? null : yaml.anchor();
        if (anchor != null && token == JsonToken.FIELD_NAME) {
            anchoredKey(anchor, yaml.currentName());
        } else if (anchor != null) {
            recordings.add(new Recording(anchor, depth));
        }
        return emitted(token);
    }

    private JsonToken startReplay(String alias) throws IOException {
        for (Recording open : recordings) {
            if (open.anchor.equals(alias)) {
                throw refused("alias *" + alias + " is inside the node it names, which would never end");
            }
        }
        if (!anchors.containsKey(alias)) {
            throw refused("alias *" + alias + " names no anchor; an anchor (&" + alias + ") must come before its"
                    + " aliases, in the same document");
        }
        TokenBuffer anchored = anchors.get(alias);
        if (anchored == null) {
            throw tooManyValues();
        }
        aliasLocation = yaml.currentTokenLocation();
        replay = anchored.asParser();
        delegate = replay;
        JsonToken first = replay.nextToken();
        countFromAlias(first);
        return emitted(first);
    }

    /** An anchored key ({@code &name key: …}): its alias stands for the key, as a string. */
    private void anchoredKey(String anchor, String key) throws IOException {
        var tokens = new TokenBuffer(null, false);
        tokens.writeString(key);
        anchors.put(anchor, tokens);
    }

    /** Records the token being handed out into every open anchor, and closes those it ends. */
    private JsonToken emitted(JsonToken token) throws IOException {
        if (token.isStructStart()) {
            depth++;
        } else if (token.isStructEnd()) {
            depth--;
        }
        for (int i = recordings.size() - 1; i >= 0; i--) {
            Recording recording = recordings.get(i);
            if (recording.tokens != null) {
                recording.tokens.copyCurrentEvent(delegate);
                if (isValue(token) && ++recording.values > MAX_VALUES_FROM_ALIASES) {
                    recording.tokens = null; // too large to replay within the bound: an alias to it is refused
                }
            }
            boolean ended = token.isScalarValue() ? depth == recording.depth : depth == recording.depth && token.isStructEnd();
            if (ended) {
                anchors.put(recording.anchor, recording.tokens);
                recordings.remove(i);
            }
        }
        return token;
    }

    private void countFromAlias(JsonToken token) throws JsonParseException {
        if (isValue(token) && ++valuesFromAliases > MAX_VALUES_FROM_ALIASES) {
            throw tooManyValues();
        }
    }

    private static boolean isValue(JsonToken token) {
        return token.isScalarValue() || token.isStructStart();
    }

    private JsonParseException tooManyValues() {
        return refused("aliases expand to more than " + String.format("%,d", MAX_VALUES_FROM_ALIASES)
                + " values; write the repeated parts out, or repeat less");
    }

    private JsonParseException refused(String message) {
        return new JsonParseException(this, message, currentTokenLocation());
    }

    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    /** Skips through {@link #nextToken()}, so that anchors in what is skipped are still known. */
    @Override
    public JsonParser skipChildren() throws IOException {
        JsonToken current = currentToken();
        if (current != JsonToken.START_OBJECT && current != JsonToken.START_ARRAY) {
            return this;
        }
        int open = 1;
        while (open > 0) {
            JsonToken token = nextToken();
            if (token == null) {
                break;
            }
            if (token.isStructStart()) {
                open++;
            } else if (token.isStructEnd()) {
                open--;
            }
        }
        return this;
    }

    @Override
    public JsonLocation currentTokenLocation() {
        return aliasLocation != null ? aliasLocation : yaml.currentTokenLocation();
    }

    @Override
    public JsonLocation currentLocation() {
        return aliasLocation != null ? aliasLocation : yaml.currentLocation();
    }

    @Override
    @Deprecated
    public JsonLocation getTokenLocation() {
        return currentTokenLocation();
    }

    @Override
    @Deprecated
    public JsonLocation getCurrentLocation() {
        return currentLocation();
    }

    @Override
    public void close() throws IOException {
        if (replay != null) {
            replay.close();
        }
        yaml.close();
    }
}
