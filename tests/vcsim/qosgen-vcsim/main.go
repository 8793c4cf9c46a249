// SPDX-License-Identifier: MIT
//
// qosgen-vcsim: govmomi 0.24.2's vCenter simulator (the VPX inventory: one
// datacenter, a cluster of three hosts, a standalone host, DVS0), with the
// one thing stock vcsim lacks for qosgen's tests: ReconfigureDvs_Task that
// applies maxMtu and checks and advances configVersion, as vCenter does.
// Everything else (SOAP, sessions, PropertyCollector, tasks, OptionManager,
// HostFirewallSystem) is the stock simulator.
//
// Test knobs, never in a real vCenter:
//
//	-concurrent N   the first N reconfigures find that "someone else" changed
//	                the switch first (configVersion advanced), so the client's
//	                version is stale: the ConcurrentAccess retry path, made
//	                deterministic.
//	-cert/-key      the TLS certificate to serve (the test's own CA-less cert).
//	-hosts A,B,...  names for the cluster's hosts, in inventory order (vCenter
//	                names hosts by FQDN; vcsim's DC0_C0_H0 fits no DNS name,
//	                and its HostSystem has no Rename_Task).
//
// $VCSIM_USERNAME and $VCSIM_PASSWORD, when set, are the only login accepted
// (stock vcsim takes any); from the environment so that no password is in argv.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var hostNames = flag.String("hosts", "", "comma-separated names for DC0_C0's hosts")
var concurrent = flag.Int("concurrent", 0, "reconfigures that first see a concurrent change")

// The simulator's PropertyCollector finds the managed object type by walking
// embedded fields by value: embedding a pointer makes it panic.
type dvs struct {
	simulator.DistributedVirtualSwitch
}

func bump(info *types.DVSConfigInfo) {
	n, _ := strconv.Atoi(info.ConfigVersion)
	info.ConfigVersion = strconv.Itoa(n + 1)
}

func (d *dvs) ReconfigureDvsTask(req *types.ReconfigureDvs_Task) soap.HasFault {
	task := simulator.CreateTask(d, "reconfigureDvs", func(*simulator.Task) (types.AnyType, types.BaseMethodFault) {
		if req.Spec == nil {
			// Stock vcsim dereferences a spec of an unknown xsi:type and drops the connection.
			return nil, &types.InvalidArgument{InvalidProperty: "spec"}
		}
		spec := req.Spec.GetDVSConfigSpec()
		info := d.Config.GetDVSConfigInfo()
		if *concurrent > 0 {
			*concurrent--
			bump(info)
		}
		if spec.ConfigVersion != info.ConfigVersion {
			return nil, &types.ConcurrentAccess{}
		}
		if len(spec.Host) > 0 {
			return nil, &types.NotSupported{} // membership changes: not what qosgen sends
		}
		if v, ok := req.Spec.(*types.VMwareDVSConfigSpec); ok && v.MaxMtu != 0 {
			d.Config.(*types.VMwareDVSConfigInfo).MaxMtu = v.MaxMtu
		}
		bump(info)
		simulator.Map.Update(d, []types.PropertyChange{{Name: "config", Val: d.Config}})
		return nil, nil
	})
	return &methods.ReconfigureDvs_TaskBody{Res: &types.ReconfigureDvs_TaskResponse{Returnval: task.Run()}}
}

func main() {
	listen := flag.String("l", "127.0.0.1:0", "listen address (tests use loopback only)")
	cert := flag.String("cert", "", "TLS certificate (PEM)")
	key := flag.String("key", "", "TLS key (PEM)")
	flag.Parse()

	model := simulator.VPX()
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()
	for _, e := range simulator.Map.All("DistributedVirtualSwitch") {
		d := e.(*simulator.DistributedVirtualSwitch)
		d.Config.GetDVSConfigInfo().ConfigVersion = "1"
		simulator.Map.Put(&dvs{*d})
	}

	if *hostNames != "" {
		var hosts []*simulator.HostSystem
		for _, e := range simulator.Map.All("HostSystem") {
			if h := e.(*simulator.HostSystem); strings.HasPrefix(h.Name, "DC0_C0_") {
				hosts = append(hosts, h)
			}
		}
		sort.Slice(hosts, func(a, b int) bool { return hosts[a].Name < hosts[b].Name })
		for k, name := range strings.Split(*hostNames, ",") {
			if k < len(hosts) {
				hosts[k].Name = name
				hosts[k].Summary.Config.Name = name
			}
		}
	}

	model.Service.Listen = &url.URL{Host: *listen}
	if u := os.Getenv("VCSIM_USERNAME"); u != "" {
		model.Service.Listen.User = url.UserPassword(u, os.Getenv("VCSIM_PASSWORD"))
	}
	model.Service.TLS = new(tls.Config)
	if *cert != "" {
		c, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			log.Fatal(err)
		}
		model.Service.TLS.Certificates = []tls.Certificate{c}
	}
	s := model.Service.NewServer()
	// One line the harness waits for: where to connect.
	fmt.Printf("listening %s\n", s.URL.Host)
	os.Stdout.Sync()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	s.Close()
}
