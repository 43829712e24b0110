package dwd.adapters.k8s.prober;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dwd.adapters.k8s.AnswerOutOfBounds;
import dwd.adapters.k8s.MalformedAnswer;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One list of a shoot (its nodes, its node leases), read page by page as the answers stream in,
 * keeping of each item only what the lease verdict reads. Everything about it a shoot controls is
 * bounded, and a list beyond a bound is refused as a whole, so that a probe run's memory and work
 * are bounded by design, whatever the shoot's API server answers:
 *
 * <ul>
 *   <li>at most {@link #MAX_ITEMS} items and {@link #MAX_PAGES} pages;
 *   <li>at most {@link #MAX_BYTES} read, all pages together;
 *   <li>no string longer than {@link #MAX_STRING_LENGTH} characters, no nesting deeper than
 *       {@link #MAX_NESTING} (Jackson's {@link StreamReadConstraints}, checked while reading: a huge
 *       string is refused before it is held; one that is skipped is never held at all);
 *   <li>what is kept, at most {@link #MAX_KEPT_BYTES}, each kept string counted at its heap cost.
 * </ul>
 *
 * <p>Not thread-safe: one list, read by one probe run.
 */
final class BoundedList<T> {

    /** Kubernetes supports 5,000 nodes per cluster; a list of more than twice that is no shoot's nodes or leases. */
    static final int MAX_ITEMS = 10_000;
    /** The items a page is asked for: a large shoot's nodes are never all in memory as JSON at once. */
    static final int PAGE_SIZE = 500;
    /** Enough pages for {@link #MAX_ITEMS} at {@link #PAGE_SIZE}, and a few short ones. */
    static final int MAX_PAGES = MAX_ITEMS / PAGE_SIZE + 5;
    /** A real node's JSON is 10–40 KB (most of it images and managed fields, skipped unread). */
    static final long MAX_BYTES = 256L * 1024 * 1024;
    /** No field of a Kubernetes object is longer (an object is at most 1.5 MiB, all annotations at most 256 KiB). */
    static final int MAX_STRING_LENGTH = 1024 * 1024;
    static final int MAX_NESTING = 100;
    /** About three times what a 10,000-node shoot keeps of its nodes (about 550 bytes a node by this count). */
    static final long MAX_KEPT_BYTES = 16L * 1024 * 1024;
    /** A real continue token is a few hundred characters; it goes back to the server in the next page's URL. */
    static final int MAX_CONTINUE_TOKEN_LENGTH = 4096;
    /** What an item's record and collections cost on the heap, besides its strings. */
    private static final int ITEM_COST = 128;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(MAX_BYTES)
                    .maxStringLength(MAX_STRING_LENGTH)
                    .maxNestingDepth(MAX_NESTING)
                    .build())
            .build();

    /** Reads one item, the parser at its {@code START_OBJECT}; leaves the parser at its {@code END_OBJECT}. */
    @FunctionalInterface
    interface ItemReader<T> {
        T read(Fields item) throws IOException;
    }

    private final String what;
    private final ItemReader<T> itemReader;
    private final List<T> items = new ArrayList<>();
    private int pages;
    private long bytes;
    private long kept;

    /** @param what what is listed, for messages: {@code "nodes"}, {@code "leases in kube-node-lease"} */
    BoundedList(String what, ItemReader<T> itemReader) {
        this.what = what;
        this.itemReader = itemReader;
    }

    /** What is listed, for messages. */
    String what() {
        return what;
    }

    /** The items read so far; all of them once {@link #readPage} returned no continue token. */
    List<T> items() {
        return items;
    }

    /** Refuses another page when the list already has {@link #MAX_PAGES}. */
    void beforeNextPage() {
        if (pages >= MAX_PAGES) {
            throw new AnswerOutOfBounds("more than " + MAX_PAGES + " pages of " + what + " (each page carried a continue"
                    + " token); a probe reads at most " + MAX_ITEMS + " items, " + PAGE_SIZE
                    + " a page");
        }
    }

    /**
     * Reads one page's items into the list; returns the page's continue token, if another page follows.
     * What the parser refuses is reported in dwd's terms, whatever JSON library reads the page: beyond its
     * constraints as {@link AnswerOutOfBounds}, malformed as {@link MalformedAnswer}.
     *
     * @throws IOException when the transport fails while the page streams in
     */
    Optional<String> readPage(InputStream body) throws IOException {
        try {
            return readPageWithJackson(body);
        } catch (StreamConstraintsException refused) {
            throw new AnswerOutOfBounds("the answer goes beyond what dwd reads (" + refused.getOriginalMessage() + ")");
        } catch (JsonProcessingException malformed) {
            throw new MalformedAnswer(malformed.getOriginalMessage(), malformed);
        }
    }

    private Optional<String> readPageWithJackson(InputStream body) throws IOException {
        pages++;
        Optional<String> token = Optional.empty();
        try (JsonParser parser = JSON.createParser(body)) {
            var page = new Fields(parser, this);
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new com.fasterxml.jackson.core.JsonParseException(parser, "a list is a JSON object");
            }
            while (page.next()) {
                switch (page.name()) {
                    case "items" -> readItems(page);
                    case "metadata" -> token = continueToken(page);
                    default -> page.skip();
                }
            }
            bytes += parser.currentLocation().getByteOffset();
        }
        if (bytes > MAX_BYTES) {
            throw new AnswerOutOfBounds("the " + what + " came to more than " + (MAX_BYTES >> 20) + " MiB");
        }
        return token;
    }

    private void readItems(Fields page) throws IOException {
        JsonParser parser = page.parser();
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            page.skip();
            return;
        }
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                continue;
            }
            if (items.size() >= MAX_ITEMS) {
                throw new AnswerOutOfBounds("more than " + MAX_ITEMS + " " + what + ", the most a probe reads; a shoot"
                        + " that needs more is not protected (delete the objects it does not need)");
            }
            if (bytes + parser.currentLocation().getByteOffset() > MAX_BYTES) {
                throw new AnswerOutOfBounds("the " + what + " came to more than " + (MAX_BYTES >> 20) + " MiB");
            }
            items.add(itemReader.read(new Fields(parser, this)));
            keep(ITEM_COST);
        }
    }

    private Optional<String> continueToken(Fields page) throws IOException {
        Optional<String> token = Optional.empty();
        if (page.parser().currentToken() != JsonToken.START_OBJECT) {
            page.skip();
            return token;
        }
        var metadata = new Fields(page.parser(), this);
        while (metadata.next()) {
            switch (metadata.name()) {
                case "continue" -> token = metadata.text().filter(text -> !text.isEmpty());
                default -> metadata.skip();
            }
        }
        if (token.isPresent() && token.get().length() > MAX_CONTINUE_TOKEN_LENGTH) {
            throw new AnswerOutOfBounds("a continue token of the " + what + " is longer than "
                    + MAX_CONTINUE_TOKEN_LENGTH + " characters");
        }
        return token;
    }

    private void keep(long cost) {
        kept += cost;
        if (kept > MAX_KEPT_BYTES) {
            throw new AnswerOutOfBounds("what a probe keeps of the " + what + " came to more than "
                    + (MAX_KEPT_BYTES >> 20) + " MiB");
        }
    }

    /**
     * The fields of one JSON object (the parser at its {@code START_OBJECT}), read in order: {@link #next()} moves to the next field's value;
     * each value is then read ({@link #text()}, {@link #object()}) or skipped ({@link #skip()}) unread.
     * Every string kept is counted against the list's bound.
     */
    static final class Fields {

        private final JsonParser parser;
        private final BoundedList<?> list;
        private String name;

        /** The object at the parser's {@code START_OBJECT}, whatever it keeps counted against {@code list}'s bound. */
        Fields(JsonParser parser, BoundedList<?> list) {
            this.parser = parser;
            this.list = list;
        }

        JsonParser parser() {
            return parser;
        }

        /**
         * Moves to the next field's value; false at the object's end. The previous value must have been
         * read or skipped.
         */
        boolean next() throws IOException {
            JsonToken token = parser.nextToken();
            if (token != JsonToken.FIELD_NAME) {
                return false;
            }
            name = parser.currentName();
            parser.nextToken();
            return true;
        }

        /** The current field's name. */
        String name() {
            return name;
        }

        /** The current value, if a string, kept and counted; any other value is skipped. */
        Optional<String> text() throws IOException {
            if (parser.currentToken() != JsonToken.VALUE_STRING) {
                parser.skipChildren();
                return Optional.empty();
            }
            String text = parser.getText();
            list.keep(48 + 2L * text.length());
            return Optional.of(text);
        }

        /** Whether the current value is an object, whose fields the result reads (else the value is skipped). */
        Optional<Fields> object() throws IOException {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return Optional.empty();
            }
            return Optional.of(new Fields(parser, list));
        }

        /** Whether the current value is an array; its elements follow ({@link JsonParser#nextToken()}) up to {@code END_ARRAY}. */
        boolean isArray() {
            return parser.currentToken() == JsonToken.START_ARRAY;
        }

        /** Skips the current value unread: a string is passed over without being held. */
        void skip() throws IOException {
            parser.skipChildren();
        }
    }
}
