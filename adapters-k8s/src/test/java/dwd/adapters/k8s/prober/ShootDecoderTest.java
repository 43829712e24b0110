package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.domain.cluster.ClusterShoot;
import dwd.domain.cluster.LastOperation;
import dwd.domain.cluster.Shoot;
import dwd.domain.cluster.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShootDecoderTest {

    /** Decodes, and checks on the way that the cached form (only the fields read) decodes the same. */
    private static ClusterShoot decode(String clusterJson) {
        JsonObject cluster = JsonParser.parseString(clusterJson.replace('\'', '"')).getAsJsonObject();
        ClusterShoot decoded = ShootDecoder.decode(cluster);
        assertThat(ShootDecoder.decode(withOnlyTheFieldsRead(cluster))).as("decoded from the fields read").isEqualTo(decoded);
        return decoded;
    }

    private static JsonObject withOnlyTheFieldsRead(JsonObject cluster) {
        JsonObject slim = cluster.deepCopy();
        if (slim.get("spec") instanceof JsonObject spec && spec.has("shoot")) {
            spec.add("shoot", ShootDecoder.fieldsRead(spec.get("shoot")));
        }
        return slim;
    }

    private static ClusterShoot decodeShoot(String shootJson) {
        return decode("{'spec':{'shoot':" + shootJson + "}}");
    }

    private static Shoot present(ClusterShoot decoded) {
        assertThat(decoded).isInstanceOf(ClusterShoot.Present.class);
        return ((ClusterShoot.Present) decoded).shoot();
    }

    @Test
    void readsEveryFieldTheOriginalReads() {
        Shoot shoot = present(decodeShoot("""
                {'apiVersion':'core.gardener.cloud/v1beta1','kind':'Shoot',
                 'metadata':{'name':'a','deletionTimestamp':'2026-01-02T03:04:05Z'},
                 'spec':{'hibernation':{'enabled':false},
                         'provider':{'workers':[
                            {'name':'pool-a','machineControllerManager':{'nodeConditions':['DiskPressure','Custom']}},
                            {'name':'pool-b','machineControllerManager':{}},
                            {'name':'pool-c'}]},
                         'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':'2m0s'}}},
                 'status':{'hibernated':true,'lastOperation':{'type':'Reconcile','state':'Processing'}}}
                """));
        assertThat(shoot).isEqualTo(new Shoot(true, Optional.of(false), true,
                Optional.of(new LastOperation("Reconcile", "Processing")),
                List.of(new Worker("pool-a", true, List.of("DiskPressure", "Custom")),
                        new Worker("pool-b", true, List.of()),
                        new Worker("pool-c", false, List.of())),
                Optional.of(Duration.ofMinutes(2))));
    }

    @Test
    void unsetFieldsAndUnknownFieldsReadAsUnset() {
        Shoot shoot = present(decodeShoot("""
                {'metadata':{'deletionTimestamp':null,'somethingNew':{'x':1}},
                 'spec':{'region':'eu','hibernation':null,'provider':{'workers':null},
                         'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':null}}},
                 'status':{'lastOperation':null,'hibernated':null},
                 'brandNew':[1,2]}
                """));
        assertThat(shoot).isEqualTo(new Shoot(false, Optional.empty(), false, Optional.empty(), List.of(),
                Optional.empty()));
    }

    @Test
    void anEmptyShootIsAShootWithNothingSet() {
        assertThat(present(decodeShoot("{}"))).isEqualTo(
                new Shoot(false, Optional.empty(), false, Optional.empty(), List.of(), Optional.empty()));
    }

    @Test
    void aMachineControllerManagerOfNullIsNoSettings() {
        Shoot shoot = present(decodeShoot("{'spec':{'provider':{'workers':[{'name':'a','machineControllerManager':null}]}}}"));
        assertThat(shoot.workers()).containsExactly(new Worker("a", false, List.of()));
    }

    @Test
    void aClusterWithoutShootHasAMissingShoot() {
        assertThat(decode("{}")).isEqualTo(new ClusterShoot.Missing());
        assertThat(decode("{'spec':null}")).isEqualTo(new ClusterShoot.Missing());
        assertThat(decode("{'spec':{}}")).isEqualTo(new ClusterShoot.Missing());
        assertThat(decode("{'spec':{'shoot':null,'seed':{}}}")).isEqualTo(new ClusterShoot.Missing());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {'apiVersion':8}                                              | spec.shoot.apiVersion: expected a string, found the number 8
            {'kind':true}                                                 | spec.shoot.kind: expected a string, found true
            []                                                            | spec.shoot: expected an object, found a list
            'a shoot'                                                     | spec.shoot: expected an object, found a string
            {'metadata':'m'}                                              | spec.shoot.metadata: expected an object, found a string
            {'metadata':{'deletionTimestamp':5}}                          | spec.shoot.metadata.deletionTimestamp: expected a string, found the number 5
            {'metadata':{'deletionTimestamp':'yesterday'}}                | spec.shoot.metadata.deletionTimestamp: "yesterday" is not an RFC 3339 time
            {'spec':{'hibernation':{'enabled':'true'}}}                   | spec.shoot.spec.hibernation.enabled: expected true or false, found a string
            {'spec':{'provider':{'workers':{'name':'a'}}}}                | spec.shoot.spec.provider.workers: expected a list, found an object
            {'spec':{'provider':{'workers':['a']}}}                       | spec.shoot.spec.provider.workers[0]: expected an object, found a string
            {'spec':{'provider':{'workers':[{'name':1}]}}}                | spec.shoot.spec.provider.workers[0].name: expected a string, found the number 1
            {'spec':{'provider':{'workers':[{'name':'a','machineControllerManager':[]}]}}} | spec.shoot.spec.provider.workers[0].machineControllerManager: expected an object, found a list
            {'spec':{'provider':{'workers':[{'name':'a','machineControllerManager':{'nodeConditions':'DiskPressure'}}]}}} | spec.shoot.spec.provider.workers[0].machineControllerManager.nodeConditions: expected a list, found a string
            {'spec':{'provider':{'workers':[{'name':'a','machineControllerManager':{'nodeConditions':['A',2]}}]}}} | spec.shoot.spec.provider.workers[0].machineControllerManager.nodeConditions[1]: expected a string, found the number 2
            {'spec':{'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':40}}}} | spec.shoot.spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod: expected a string, found the number 40
            {'status':{'hibernated':'yes'}}                               | spec.shoot.status.hibernated: expected true or false, found a string
            {'status':{'lastOperation':{'type':['Reconcile']}}}           | spec.shoot.status.lastOperation.type: expected a string, found a list
            """)
    void aFieldOfTheWrongTypeMakesTheShootUndecodable(String shootJson, String reason) {
        assertThat(decodeShoot(shootJson)).isEqualTo(new ClusterShoot.Undecodable(reason));
    }

    @Test
    void anInvalidGracePeriodIsUndecodableAndSaysWhy() {
        ClusterShoot decoded = decodeShoot("{'spec':{'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':'40 seconds'}}}}");
        assertThat(decoded).isInstanceOf(ClusterShoot.Undecodable.class);
        assertThat(((ClusterShoot.Undecodable) decoded).reason())
                .startsWith("spec.shoot.spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod: invalid duration \"40 seconds\"");
    }

    @Test
    void listsAndStringsBeyondTheBoundsMakeTheShootUndecodableAndAreNotKept() {
        String tooManyWorkers = "{'spec':{'provider':{'workers':[" + String.join(",",
                java.util.Collections.nCopies(ShootDecoder.MAX_ENTRIES + 500, "{'name':'p'}")) + "]}}}";
        assertThat(decodeShoot(tooManyWorkers)).isEqualTo(new ClusterShoot.Undecodable(
                "spec.shoot.spec.provider.workers: more than 1,000 entries, the most dwd reads"));
        String tooManyConditions = "{'spec':{'provider':{'workers':[{'name':'p','machineControllerManager':{'nodeConditions':["
                + String.join(",", java.util.Collections.nCopies(ShootDecoder.MAX_ENTRIES + 1, "'C'")) + "]}}]}}}";
        assertThat(decodeShoot(tooManyConditions)).isEqualTo(new ClusterShoot.Undecodable(
                "spec.shoot.spec.provider.workers[0].machineControllerManager.nodeConditions: more than 1,000 entries,"
                        + " the most dwd reads"));
        String longName = "{'spec':{'provider':{'workers':[{'name':'" + "p".repeat(5_000) + "'}]}}}";
        assertThat(decodeShoot(longName)).isEqualTo(new ClusterShoot.Undecodable(
                "spec.shoot.spec.provider.workers[0].name: longer than 1,024 characters, the most dwd reads"));

        JsonElement kept = ShootDecoder.fieldsRead(JsonParser.parseString(
                ("{'spec':{'provider':{'workers':[{'name':'" + "p".repeat(5_000) + "','machineControllerManager':"
                        + "{'nodeConditions':[" + String.join(",", java.util.Collections.nCopies(50_000, "'C'"))
                        + "]}}]}}}").replace('\'', '"')));
        JsonObject worker = kept.getAsJsonObject().getAsJsonObject("spec").getAsJsonObject("provider")
                .getAsJsonArray("workers").get(0).getAsJsonObject();
        assertThat(worker.get("name").getAsString()).hasSize(ShootDecoder.MAX_CHARS + 1);
        assertThat(worker.getAsJsonObject("machineControllerManager").getAsJsonArray("nodeConditions"))
                .hasSize(ShootDecoder.MAX_ENTRIES + 1);
    }

    @Test
    void aGracePeriodOfZeroOrLessDecodesAsWrittenForTheRuleToReplace() {
        assertThat(present(decodeShoot("{'spec':{'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':'-1h'}}}}"))
                .nodeMonitorGracePeriod()).contains(Duration.ofHours(-1));
    }

    @Test
    void aSpecThatIsNotAnObjectIsUndecodable() {
        assertThat(decode("{'spec':'x'}")).isEqualTo(new ClusterShoot.Undecodable("spec: expected an object, found a string"));
    }

    @Test
    void goDurationsAreReadAsGoWritesThem() {
        assertThat(present(decodeShoot("{'spec':{'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':'40s'}}}}"))
                .nodeMonitorGracePeriod()).contains(Duration.ofSeconds(40));
        assertThat(present(decodeShoot("{'spec':{'kubernetes':{'kubeControllerManager':{'nodeMonitorGracePeriod':'1m30.5s'}}}}"))
                .nodeMonitorGracePeriod()).contains(Duration.ofMillis(90_500));
    }

    @Test
    void onlyTheFieldsReadAreKept() {
        JsonElement kept = ShootDecoder.fieldsRead(JsonParser.parseString("""
                {'apiVersion':'v','kind':'Shoot','metadata':{'name':'a','labels':{'x':'y'}},
                 'spec':{'region':'eu','provider':{'type':'aws','workers':[{'name':'p','minimum':3,
                   'machineControllerManager':{'drainTimeout':'2h','nodeConditions':['A']}}]}},
                 'status':{'hibernated':false,'conditions':[{'type':'x'}],'lastOperation':{'type':'Reconcile',
                   'state':'Succeeded','progress':100}}}
                """.replace('\'', '"')));
        assertThat(kept).isEqualTo(JsonParser.parseString("""
                {'apiVersion':'v','kind':'Shoot','metadata':{},
                 'spec':{'provider':{'workers':[{'name':'p','machineControllerManager':{'nodeConditions':['A']}}]}},
                 'status':{'hibernated':false,'lastOperation':{'type':'Reconcile','state':'Succeeded'}}}
                """.replace('\'', '"')));
    }

    @Test
    void decodingNeverThrowsOnAnyJsonShape() {
        for (String shoot : List.of("1", "true", "[[]]", "{'spec':[]}", "{'status':1}", "{'spec':{'provider':1}}",
                "{'spec':{'kubernetes':{'kubeControllerManager':[]}}}", "{'metadata':{'deletionTimestamp':{}}}")) {
            JsonObject cluster = JsonParser.parseString(("{'spec':{'shoot':" + shoot + "}}").replace('\'', '"'))
                    .getAsJsonObject();
            assertThat(ShootDecoder.decode(cluster)).as(shoot).isInstanceOf(ClusterShoot.Undecodable.class)
                    .isEqualTo(ShootDecoder.decode(withOnlyTheFieldsRead(cluster)));
        }
    }
}
