// Renders, with gardener's own code, the objects gardenlet deploys for dependency-watchdog: each role's
// ManagedResource for the seed (bootstrap.go, with the configs gardenlet builds in
// pkg/gardenlet/controller/seed/seed/components.go and the image of gardener's image vector), and the
// ManagedResource for a shoot with the probe identity's RBAC (access.go). scripts/gardener-objects runs it.
//
//	go run . prober|weeder|access
package main

import (
	"bytes"
	"context"
	"io"
	"fmt"
	"maps"
	"os"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"
	proberapi "github.com/gardener/dependency-watchdog/api/prober"
	weederapi "github.com/gardener/dependency-watchdog/api/weeder"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	fakeclient "sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/gardener/gardener/imagevector"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"github.com/gardener/gardener/pkg/client/kubernetes"
	"github.com/gardener/gardener/pkg/component/etcd/etcd"
	kubeapiserver "github.com/gardener/gardener/pkg/component/kubernetes/apiserver"
	"github.com/gardener/gardener/pkg/component/nodemanagement/dependencywatchdog"
	fakesecretsmanager "github.com/gardener/gardener/pkg/utils/secrets/manager/fake"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// printManagedResources prints the objects of every ManagedResource secret in namespace, one document each,
// as gardener serialized them (brotli-compressed in the secret).
func printManagedResources(c client.Client, namespace, header string) {
	secrets := &corev1.SecretList{}
	must(c.List(context.Background(), secrets, client.InNamespace(namespace)))
	for _, s := range secrets.Items {
		if !strings.HasPrefix(s.Name, "managedresource-") {
			continue
		}
		keys := make([]string, 0, len(s.Data))
		for k := range s.Data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Printf("# %s: ManagedResource %s\n", header, strings.TrimPrefix(s.Name[:strings.LastIndex(s.Name, "-")], "managedresource-"))
		for _, k := range keys {
			data := s.Data[k]
			if strings.HasSuffix(k, ".br") {
				var err error
				data, err = io.ReadAll(brotli.NewReader(bytes.NewReader(data)))
				must(err)
			}
			for _, doc := range strings.Split(string(data), "---\n") {
				if strings.TrimSpace(doc) != "" {
					fmt.Printf("---\n%s", doc)
				}
			}
		}
	}
}

func main() {
	ctx := context.Background()
	role := os.Args[1]
	found, err := imagevector.Containers().FindImage(imagevector.ContainerImageNameDependencyWatchdog)
	must(err)
	image := found.String()
	switch role {
	case "prober", "weeder":
		c := fakeclient.NewClientBuilder().WithScheme(kubernetes.SeedScheme).Build()
		values := dependencywatchdog.BootstrapperValues{Role: dependencywatchdog.Role(role), Image: image}
		if role == "weeder" {
			cfg := weederapi.Config{
				WatchDuration:                 &metav1.Duration{Duration: dependencywatchdog.DefaultWatchDuration},
				ServicesAndDependantSelectors: map[string]weederapi.DependantSelectors{},
			}
			etcdCfg, err := etcd.NewDependencyWatchdogWeederConfiguration(v1beta1constants.ETCDRoleMain)
			must(err)
			maps.Copy(cfg.ServicesAndDependantSelectors, etcdCfg)
			apiCfg, err := kubeapiserver.NewDependencyWatchdogWeederConfiguration()
			must(err)
			maps.Copy(cfg.ServicesAndDependantSelectors, apiCfg)
			values.WeederConfig = cfg
		} else {
			infos, err := kubeapiserver.NewDependencyWatchdogProberConfiguration()
			must(err)
			values.ProberConfig = proberapi.Config{
				KubeConfigSecretName:   dependencywatchdog.KubeConfigSecretName,
				ProbeInterval:          &metav1.Duration{Duration: dependencywatchdog.DefaultProbeInterval},
				DependentResourceInfos: infos,
			}
		}
		must(dependencywatchdog.NewBootstrapper(c, v1beta1constants.GardenNamespace, values).Deploy(ctx))
		printManagedResources(c, v1beta1constants.GardenNamespace, "seed, "+role)
	case "access":
		namespace := "shoot--dev--swap-in"
		c := fakeclient.NewClientBuilder().WithScheme(kubernetes.SeedScheme).Build()
		must(c.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "ca", Namespace: namespace}}))
		sm := fakesecretsmanager.New(c, namespace)
		must(dependencywatchdog.NewAccess(c, namespace, sm, dependencywatchdog.AccessValues{ServerInCluster: "kube-apiserver"}).Deploy(ctx))
		printManagedResources(c, namespace, "shoot")
	}
}
