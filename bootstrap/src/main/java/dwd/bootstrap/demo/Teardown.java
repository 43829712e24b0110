package dwd.bootstrap.demo;

import dwd.bootstrap.logging.LogLevels;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What the demo started, to be stopped newest first (the roles, then the control plane and its
 * work directory), each saying what it stopped; once at the normal end, or at once on Ctrl-C.
 */
final class Teardown {

    /** Stops one thing the demo started; returns what it did, one line each (none for the demo's own helpers). */
    @FunctionalInterface
    interface Stop {
        List<String> stop();
    }

    private final Deque<Stop> started = new ArrayDeque<>();
    private final Narrator narrator;
    private volatile boolean stopping;

    Teardown(Narrator narrator) {
        this.narrator = narrator;
    }

    /** Whether the demo is being stopped from outside (Ctrl-C): then nothing it sees is news. */
    boolean stopping() {
        return stopping;
    }

    /** Ctrl-C: mutes the story and stops everything. */
    void stopFromOutside() {
        stopping = true;
        narrator.mute();
        stopAll("dwd demo: asked to stop; stopping everything it started:");
    }

    /**
     * Puts {@code stop} on the list of what to stop at the end. If the demo is being stopped
     * already (Ctrl-C came while this was starting), stops it at once and ends the story.
     */
    Stop own(Stop stop) {
        synchronized (started) {
            if (!stopping) {
                started.push(stop);
                return stop;
            }
        }
        stop.stop().forEach(line -> narrator.notice("  " + line));
        throw new IllegalStateException("stopped while starting");
    }

    void disown(Stop stop) {
        synchronized (started) {
            started.remove(stop);
        }
    }

    /** Something the demo uses itself and closes without a word. */
    static Stop quietly(Runnable close) {
        return () -> {
            close.run();
            return List.of();
        };
    }

    /**
     * Stops everything started, newest first, printing what it stopped under {@code header}; safe to
     * call twice (Ctrl-C and the normal end).
     */
    void stopAll(String header) {
        synchronized (started) {
            if (started.isEmpty()) {
                return;
            }
            LogLevels.quietInformersForShutdown();
            var report = new ArrayList<String>();
            while (!started.isEmpty()) {
                Stop next = started.pop();
                try {
                    report.addAll(next.stop());
                } catch (RuntimeException e) {
                    report.add("stopping failed: " + e.getMessage());
                }
            }
            if (!report.isEmpty()) {
                narrator.notice("");
                narrator.notice(header);
                report.forEach(line -> narrator.notice("  " + line));
            }
        }
    }
}
