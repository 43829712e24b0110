package dwd.bootstrap.gardener;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * What gardenlet deploys for dependency-watchdog, as gardener's own code renders it
 * ({@code pkg/component/nodemanagement/dependencywatchdog}: {@code bootstrap.go} for the seed side of
 * each role, {@code access.go} for the probe identity's RBAC in a shoot), kept as test data under
 * {@code src/test/resources/dwd/gardener/<version>/} and re-rendered by {@code scripts/gardener-objects}
 * when Gardener is bumped, so that a change of Gardener's shows as a diff of the data.
 */
public final class GardenerObjects {

    /** The Gardener release the data comes from: the one dependency-watchdog v1.7.0 builds against. */
    public static final String VERSION = "v1.136.2";

    private final List<JsonObject> documents;

    private GardenerObjects(List<JsonObject> documents) {
        this.documents = documents;
    }

    /** The seed-side objects of {@code role} ({@code prober} or {@code weeder}). */
    public static GardenerObjects seed(String role) {
        return load("dependency-watchdog-" + role + ".yaml");
    }

    /** The shoot-side objects: RBAC for the probe identity (kube-system/dependency-watchdog-probe). */
    public static GardenerObjects shootAccess() {
        return load("shoot-core-dependency-watchdog.yaml");
    }

    static GardenerObjects load(String file) {
        String path = "/dwd/gardener/" + VERSION + "/" + file;
        try (InputStream in = GardenerObjects.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the test class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The objects of a YAML file of this repository's, e.g. {@code deploy/beside-original/rbac.yaml}. */
    static GardenerObjects of(java.nio.file.Path yaml) {
        try {
            return parse(java.nio.file.Files.readString(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static GardenerObjects parse(String yaml) {
        var documents = new ArrayList<JsonObject>();
        for (Object document : new Yaml().loadAll(yaml)) {
            if (document != null) {
                documents.add(new Gson().toJsonTree(document).getAsJsonObject());
            }
        }
        return new GardenerObjects(documents);
    }

    /** The one object of this kind. */
    public JsonObject only(String kind) {
        List<JsonObject> found = documents.stream().filter(d -> d.get("kind").getAsString().equals(kind)).toList();
        if (found.size() != 1) {
            throw new IllegalStateException(found.size() + " objects of kind " + kind + " in Gardener's data");
        }
        return found.getFirst();
    }

    /** The Deployment's one container. */
    public JsonObject container() {
        JsonArray containers = only("Deployment").getAsJsonObject("spec").getAsJsonObject("template")
                .getAsJsonObject("spec").getAsJsonArray("containers");
        if (containers.size() != 1) {
            throw new IllegalStateException("Gardener's Deployment has " + containers.size() + " containers");
        }
        return containers.get(0).getAsJsonObject();
    }

    /** The pod's spec. */
    public JsonObject podSpec() {
        return only("Deployment").getAsJsonObject("spec").getAsJsonObject("template").getAsJsonObject("spec");
    }

    /** The container's {@code command}. */
    public List<String> command() {
        return strings(container().getAsJsonArray("command"));
    }

    /** The ConfigMap's data (file name → content). */
    public Map<String, String> configData() {
        var data = new java.util.LinkedHashMap<String, String>();
        only("ConfigMap").getAsJsonObject("data").entrySet()
                .forEach(entry -> data.put(entry.getKey(), entry.getValue().getAsString()));
        return data;
    }

    /**
     * Creates every object on the cluster {@code admin} talks to, except those whose kind the local control
     * plane does not serve (the VerticalPodAutoscaler: no VPA CRD there). Returns the kinds left out.
     */
    public List<String> apply(ApiClient admin) {
        var skipped = new ArrayList<String>();
        for (JsonObject document : documents) {
            String kind = document.get("kind").getAsString();
            String apiVersion = document.get("apiVersion").getAsString();
            if (kind.equals("VerticalPodAutoscaler")) {
                skipped.add(kind);
                continue;
            }
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
            var api = new DynamicKubernetesApi(group, version, plural(kind), admin);
            var created = api.create(new DynamicKubernetesObject(document.deepCopy()));
            if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
                throw new IllegalStateException("cannot create Gardener's " + kind + " "
                        + document.getAsJsonObject("metadata").get("name").getAsString() + ": " + created.getStatus());
            }
        }
        return skipped;
    }

    private static String plural(String kind) {
        String lower = kind.toLowerCase(Locale.ROOT);
        return lower.endsWith("y") ? lower.substring(0, lower.length() - 1) + "ies" : lower + "s";
    }

    static List<String> strings(JsonArray array) {
        var values = new ArrayList<String>();
        for (JsonElement element : array) {
            values.add(element.getAsString());
        }
        return values;
    }
}
