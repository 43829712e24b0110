/*
 * /usr/local/bin/dependency-watchdog: the command gardenlet's Deployments run (the original's binary
 * path), and the image's entrypoint, so that `podman run IMAGE prober ...` takes the same path.
 *
 * The image has no shell, so this is a small static program rather than a script: it replaces itself
 * with the image's JVM, started with the image's flags, and passes its own arguments on unchanged.
 * The flags live in argfiles (/app/jvm.args, shared with ./dwd; /app/image.args, the image's own), so
 * that scripts/image trains the AOT cache with exactly the flags it is used with. JDK_JAVA_OPTIONS
 * still adds flags: the java launcher reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char java[] = "/opt/java/bin/java";

static const char *const jvm_flags[] = {
    java,
    "@/app/jvm.args",
    "@/app/image.args",
    "-XX:AOTCache=/app/dwd.aot",
    "--module", "dwd.bootstrap/dwd.bootstrap.Main",
};

int main(int argc, char **argv) {
    enum { FIXED = sizeof jvm_flags / sizeof jvm_flags[0] };
    char *args[FIXED + (argc > 0 ? argc : 1)];
    int n = 0;
    for (int i = 0; i < FIXED; i++) {
        args[n++] = (char *) jvm_flags[i];
    }
    for (int i = 1; i < argc; i++) {
        args[n++] = argv[i];
    }
    args[n] = NULL;
    execv(java, args);
    fprintf(stderr, "dependency-watchdog: cannot run %s: %s (the image is incomplete; rebuild it with make image)\n",
            java, strerror(errno));
    return 127;
}
