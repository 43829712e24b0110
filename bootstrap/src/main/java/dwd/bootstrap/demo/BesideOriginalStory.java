package dwd.bootstrap.demo;

import static dwd.bootstrap.demo.DemoSettings.ALPHA;
import static dwd.bootstrap.demo.DemoSettings.COMPARISON_WINDOW;
import static dwd.bootstrap.demo.DemoSettings.STEP_TIMEOUT;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dwd.bootstrap.comparison.BesideOriginal;
import dwd.bootstrap.comparison.ComparisonTable;
import dwd.bootstrap.demo.DemoTimeline.Event;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's story with {@code --beside-original}: the original dependency-watchdog acts (its changes are
 * what the seed watch sees), dwd runs beside it in shadow mode and reports what it would do (its log lines);
 * each step checks that both did their part, and the story ends with dwd's comparison of the two.
 */
final class BesideOriginalStory {

    private final Narrator narrator;
    private final DemoStory story;

    /** @param story the demo's own story, whose parts (the cut, the healing, etcd's outage) this one plays too */
    BesideOriginalStory(Narrator narrator, DemoStory story) {
        this.narrator = narrator;
        this.story = story;
    }

    /** dwd's reports of what it would do are narrated as {@code would …}; the seed's changes are the original's. */
    static boolean wouldBe(Event event) {
        return event.text().startsWith("would ");
    }

    void networkCut(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        Instant cut = story.cut(seed, alphaNodes.subList(0, 3));
        bothScaled("2 network cut", "the original: MCM + CA to 0, then KCM; dwd would too", cut, timeline,
                order -> order.size() == 3 && order.get(2).equals(DemoSeed.KCM));
    }

    void recovery(DemoSeed seed, List<String> alphaNodes, DemoTimeline timeline) {
        Instant healed = story.heal(seed, alphaNodes);
        bothScaled("3 recovery", "the original: KCM, MCM after its delay, CA; dwd would too", healed, timeline,
                order -> order.equals(List.of(DemoSeed.KCM, DemoSeed.MCM, DemoSeed.CA)));
    }

    private void bothScaled(String step, String expected, Instant since, DemoTimeline timeline,
            java.util.function.Predicate<List<String>> inOrder) {
        timeline.await(events -> scaled(events, since, true).size() >= 3 && scaled(events, since, false).size() >= 3,
                STEP_TIMEOUT);
        List<Event> theirs = scaled(timeline.since(since), since, false);
        List<Event> ours = scaled(timeline.since(since), since, true);
        List<String> theirOrder = theirs.stream().map(Event::subject).toList();
        List<String> ourOrder = ours.stream().map(Event::subject).toList();
        boolean passed = inOrder.test(theirOrder) && inOrder.test(ourOrder);
        narrator.check(step, expected, theirs.isEmpty() || ours.isEmpty() ? "original " + theirOrder + ", dwd " + ourOrder
                : "original " + String.join(", ", DemoStory.shortNames(theirOrder)) + " from "
                        + narrator.relative(theirs.getFirst().at()) + "; dwd would " + String.join(", ",
                        DemoStory.shortNames(ourOrder)) + " from " + narrator.relative(ours.getFirst().at()), passed);
    }

    private static List<Event> scaled(List<Event> events, Instant since, boolean wouldBe) {
        return events.stream().filter(e -> !e.at().isBefore(since) && e.is(Kind.SCALED, ALPHA) && wouldBe(e) == wouldBe)
                .toList();
    }

    void etcdOutage(DemoSeed seed, DemoTimeline timeline) {
        Instant back = story.etcdReturns(seed, timeline);
        boolean deleted = timeline.await(events -> events.stream().filter(e -> !e.at().isBefore(back)
                && e.is(Kind.POD_DELETED, ALPHA) && !wouldBe(e)).count() >= 2, STEP_TIMEOUT);
        narrator.check("4 etcd recovers", "the original deletes both crash-looping pods",
                deleted ? "2 deleted" : "not both deleted", deleted);
    }

    /**
     * dwd's comparison of the story's episodes (alpha's meltdown and recovery, the weeding of etcd-main-client),
     * once decided: a check, and the table {@code dwd compare} prints, returned for the end of the demo.
     */
    String comparison(RoleProcess prober, RoleProcess weeder, DemoTimeline timeline) {
        narrator.step(5, "The comparison: what dwd would have done, against what the original did");
        Duration wait = COMPARISON_WINDOW.plus(STEP_TIMEOUT);
        timeline.await(events -> decided(prober, "meltdown") && decided(prober, "recovery")
                && decided(weeder, "weeding"), wait);
        List<ComparisonTable.Page> pages = new ArrayList<>();
        for (RoleProcess role : List.of(prober, weeder)) {
            page(role).ifPresent(json -> pages.add(new ComparisonTable.Page(role.metricsUrl(BesideOriginal.PAGE), json)));
        }
        long episodes = pages.stream().mapToLong(page -> page.json().path("episodes").size()).sum();
        long both = pages.stream().flatMap(page -> java.util.stream.StreamSupport.stream(
                page.json().path("episodes").spliterator(), false)).filter(e -> e.path("outcome").asText().equals("both"))
                .count();
        narrator.check("5 comparison", "alpha's meltdown, recovery and weeding: both alike",
                episodes + " episodes, " + both + " both", episodes == 3 && both == 3);
        return ComparisonTable.render(pages, true);
    }

    private static boolean decided(RoleProcess role, String kind) {
        return page(role).map(json -> java.util.stream.StreamSupport.stream(json.path("episodes").spliterator(), false)
                .anyMatch(e -> e.path("namespace").asText().equals(ALPHA) && e.path("kind").asText().equals(kind)))
                .orElse(false);
    }

    private static Optional<JsonNode> page(RoleProcess role) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(role.metricsUrl(BesideOriginal.PAGE))).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(new ObjectMapper().readTree(response.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
