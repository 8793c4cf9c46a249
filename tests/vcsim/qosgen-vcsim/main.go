// SPDX-License-Identifier: MIT
//
// qosgen-vcsim: govmomi 0.24.2's vCenter simulator (the VPX inventory: one
// datacenter, a cluster of three hosts, a standalone host, DVS0), with what
// stock vcsim lacks for qosgen's tests, written after the vSphere API
// reference, not after any one server's behaviour:
//
//   - ReconfigureDvs_Task applies maxMtu and uplinkPortPolicy, checks and
//     advances configVersion, and keeps config.host (each member's physical
//     NICs) as vCenter reports it; stock vcsim ignores all of these and
//     tracks members only in summary.hostMember.
//   - with -module, a HostKernelModuleSystem per host
//     (QueryConfiguredModuleOptionString, UpdateModuleOptionString); stock
//     vcsim names one in every host's configManager but has no such object.
//   - HostNetworkSystem.UpdateVirtualNic, which stock vcsim lacks: the set
//     fields of the spec change (the MTU checked against ESXi's 1280-9000),
//     unset ones stay, as callers in the field rely on (PowerCLI's
//     Set-VMHostNetworkAdapter -Mtu sends only the MTU); config.network.vnic
//     and networkInfo.vnic show the result.
//
// Everything else (SOAP, sessions, PropertyCollector, tasks, OptionManager,
// HostFirewallSystem) is the stock simulator. Every host also gets vmnic2
// and vmnic3, free NICs like a dual-port ConnectX (stock hosts have vmnic0,
// used by vSwitch0, and vmnic1).
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
//	-detach A,...   these hosts are not on DVS0 at the start.
//	-pnic H=NIC     host H is on DVS0 with NIC at the start (repeatable);
//	                other members have no NIC on it.
//	-uplinks N      DVS0 starts with uplinks "Uplink 1".."Uplink N".
//	-module M=OPTS  every host has module M with option string OPTS
//	                (repeatable); any other module is NotFound.
//	-vmk NAME       every host has VMkernel NIC NAME (MTU 1500, a static
//	                address) besides vmk0.
//	-stuck          ReconfigureDvs_Task's tasks never start (they stay
//	                queued): a client's wait times out, the outcome unknown.
//	-vnic-refuse    UpdateVirtualNic fails with HostConfigFault: a host's
//	                last setting refused after the others were set.
//	-vnic-replace   UpdateVirtualNic replaces the whole spec, as a server
//	                that took unset fields for empty would: what a client that
//	                sends only the MTU must catch in its read-back.
//	-http           serve plain HTTP, no TLS (a client must refuse http://
//	                unless told otherwise: the login's password would be in
//	                clear text).
//	-hostile MODE   no simulator: a vCenter whose property reads
//	                (RetrievePropertiesEx) attack the client, everything else
//	                answered as vCenter does. doctype: a DTD with one 200 KB
//	                entity used 20,000 times in an object's name (4 GB if
//	                expanded); huge: a 100 MB answer, sent without a length;
//	                tokens: every page has a continuation token, for ever.
//
// $VCSIM_USERNAME and $VCSIM_PASSWORD, when set, are the only login accepted
// (stock vcsim takes any); from the environment so that no password is in argv.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var hostNames = flag.String("hosts", "", "comma-separated names for DC0_C0's hosts")
var concurrent = flag.Int("concurrent", 0, "reconfigures that first see a concurrent change")
var detach = flag.String("detach", "", "comma-separated hosts that are not on DVS0")
var uplinks = flag.Int("uplinks", 0, "DVS0's uplink count at the start")
var vmk = flag.String("vmk", "", "a VMkernel NIC every host has at the start")
var stuck = flag.Bool("stuck", false, "reconfigure tasks stay queued")
var vnicRefuse = flag.Bool("vnic-refuse", false, "UpdateVirtualNic fails")
var vnicReplace = flag.Bool("vnic-replace", false, "UpdateVirtualNic replaces the whole spec")
var plainHTTP = flag.Bool("http", false, "serve plain HTTP, no TLS")
var hostile = flag.String("hostile", "", "a hostile vCenter instead: doctype, huge or tokens")

type pairs map[string]string

func (p pairs) String() string { return fmt.Sprint(map[string]string(p)) }
func (p pairs) Set(v string) error {
	k := strings.IndexByte(v, '=')
	if k < 1 {
		return fmt.Errorf("want NAME=VALUE, got %q", v)
	}
	p[v[:k]] = v[k+1:]
	return nil
}

var pnics = pairs{}
var modules = pairs{}

// The simulator's PropertyCollector finds the managed object type by walking
// embedded fields by value: embedding a pointer makes it panic.
type dvs struct {
	simulator.DistributedVirtualSwitch
	ports int // the last uplink port key handed out
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
		// All or nothing, as in vCenter: a refused member leaves the switch as it was.
		hosts := append([]types.DistributedVirtualSwitchHostMember(nil), info.Host...)
		members := append([]types.ManagedObjectReference(nil), d.Summary.HostMember...)
		if fault := d.members(spec.Host); fault != nil {
			info.Host, d.Summary.HostMember = hosts, members
			return nil, fault
		}
		if spec.UplinkPortPolicy != nil {
			info.UplinkPortPolicy = spec.UplinkPortPolicy
		}
		if v, ok := req.Spec.(*types.VMwareDVSConfigSpec); ok && v.MaxMtu != 0 {
			d.Config.(*types.VMwareDVSConfigInfo).MaxMtu = v.MaxMtu
		}
		bump(info)
		simulator.Map.Update(d, []types.PropertyChange{
			{Name: "config", Val: d.Config},
			{Name: "summary.hostMember", Val: d.Summary.HostMember},
		})
		return nil, nil
	})
	if *stuck {
		return &methods.ReconfigureDvs_TaskBody{Res: &types.ReconfigureDvs_TaskResponse{Returnval: task.Self}}
	}
	return &methods.ReconfigureDvs_TaskBody{Res: &types.ReconfigureDvs_TaskResponse{Returnval: task.Run()}}
}

// The NICs of a backing, each with an uplink port key: the one asked for, or
// the next free one, as vCenter assigns them.
func (d *dvs) backing(h *simulator.HostSystem, b types.BaseDistributedVirtualSwitchHostMemberBacking) (types.BaseDistributedVirtualSwitchHostMemberBacking, types.BaseMethodFault) {
	pb, ok := b.(*types.DistributedVirtualSwitchHostMemberPnicBacking)
	if !ok || pb == nil {
		return &types.DistributedVirtualSwitchHostMemberPnicBacking{}, nil
	}
	used := map[string]bool{}
	for _, sw := range h.Config.Network.Vswitch {
		for _, key := range sw.Pnic {
			used[key] = true
		}
	}
	out := &types.DistributedVirtualSwitchHostMemberPnicBacking{}
	for _, p := range pb.PnicSpec {
		var nic *types.PhysicalNic
		for k := range h.Config.Network.Pnic {
			if h.Config.Network.Pnic[k].Device == p.PnicDevice {
				nic = &h.Config.Network.Pnic[k]
			}
		}
		if nic == nil {
			return nil, &types.NotFound{}
		}
		if used[nic.Key] {
			return nil, &types.ResourceInUse{Type: "PhysicalNic", Name: p.PnicDevice}
		}
		if p.UplinkPortKey == "" {
			d.ports++
			p.UplinkPortKey = strconv.Itoa(d.ports)
		}
		out.PnicSpec = append(out.PnicSpec, p)
	}
	return out, nil
}

// Membership as vCenter keeps it: config.host with each member's NICs, and
// summary.hostMember. An edit's backing replaces the member's NIC list.
func (d *dvs) members(specs []types.DistributedVirtualSwitchHostMemberConfigSpec) types.BaseMethodFault {
	info := d.Config.GetDVSConfigInfo()
	for _, m := range specs {
		h, _ := simulator.Map.Get(m.Host).(*simulator.HostSystem)
		if h == nil {
			return &types.ManagedObjectNotFound{Obj: m.Host}
		}
		at := -1
		for k := range info.Host {
			if *info.Host[k].Config.Host == m.Host {
				at = k
			}
		}
		op := types.ConfigSpecOperation(m.Operation)
		switch {
		case op == types.ConfigSpecOperationAdd && at >= 0:
			return &types.AlreadyExists{Name: h.Name}
		case op == types.ConfigSpecOperationEdit && at < 0:
			return &types.NotFound{}
		}
		switch op {
		case types.ConfigSpecOperationAdd, types.ConfigSpecOperationEdit:
			b, fault := d.backing(h, m.Backing)
			if fault != nil {
				return fault
			}
			if op == types.ConfigSpecOperationAdd {
				ref := m.Host
				info.Host = append(info.Host, types.DistributedVirtualSwitchHostMember{
					Config: types.DistributedVirtualSwitchHostMemberConfigInfo{Host: &ref},
					Status: "up",
				})
				at = len(info.Host) - 1
				d.Summary.HostMember = append(d.Summary.HostMember, ref)
			}
			info.Host[at].Config.Backing = b
		case types.ConfigSpecOperationRemove:
			if at < 0 {
				return &types.NotFound{}
			}
			info.Host = append(info.Host[:at], info.Host[at+1:]...)
			simulator.RemoveReference(&d.Summary.HostMember, m.Host)
		}
	}
	return nil
}

// A host's kernel modules and their configured option strings.
type kmod struct {
	mo.HostKernelModuleSystem
	options map[string]string
}

func (k *kmod) QueryConfiguredModuleOptionString(req *types.QueryConfiguredModuleOptionString) soap.HasFault {
	body := &methods.QueryConfiguredModuleOptionStringBody{}
	if v, ok := k.options[req.Name]; ok {
		body.Res = &types.QueryConfiguredModuleOptionStringResponse{Returnval: v}
	} else {
		body.Fault_ = simulator.Fault("", &types.NotFound{})
	}
	return body
}

func (k *kmod) UpdateModuleOptionString(req *types.UpdateModuleOptionString) soap.HasFault {
	body := &methods.UpdateModuleOptionStringBody{}
	if _, ok := k.options[req.Name]; ok {
		k.options[req.Name] = req.Options
		body.Res = &types.UpdateModuleOptionStringResponse{}
	} else {
		body.Fault_ = simulator.Fault("", &types.NotFound{})
	}
	return body
}

// A host's network system with UpdateVirtualNic. Embedded by value, as dvs.
type netsys struct {
	simulator.HostNetworkSystem
}

func (s *netsys) UpdateVirtualNic(req *types.UpdateVirtualNic) soap.HasFault {
	body := &methods.UpdateVirtualNicBody{}
	nics := s.Host.Config.Network.Vnic
	for k := range nics {
		if nics[k].Device != req.Device {
			continue
		}
		sp, n := req.Nic, &nics[k].Spec
		if *vnicRefuse {
			body.Fault_ = simulator.Fault("vmknic busy", &types.HostConfigFault{})
			return body
		}
		if sp.Mtu != 0 && (sp.Mtu < 1280 || sp.Mtu > 9000) {
			body.Fault_ = simulator.Fault("MTU out of range", &types.InvalidArgument{InvalidProperty: "nic.mtu"})
			return body
		}
		if *vnicReplace {
			*n = sp
		}
		if sp.Mtu != 0 {
			n.Mtu = sp.Mtu
		}
		if sp.Ip != nil {
			n.Ip = sp.Ip
		}
		if sp.Mac != "" {
			n.Mac = sp.Mac
		}
		if sp.Portgroup != "" {
			n.Portgroup, nics[k].Portgroup = sp.Portgroup, sp.Portgroup
		}
		if sp.TsoEnabled != nil {
			n.TsoEnabled = sp.TsoEnabled
		}
		if sp.DistributedVirtualPort != nil {
			n.DistributedVirtualPort = sp.DistributedVirtualPort
		}
		s.NetworkInfo.Vnic = nics
		body.Res = &types.UpdateVirtualNicResponse{}
		return body
	}
	body.Fault_ = simulator.Fault(req.Device+" not found", &types.NotFound{})
	return body
}

const soapOpen = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>`
const soapClose = `</soapenv:Body></soapenv:Envelope>`

// hostilePage writes one property-read answer: the attack of the mode.
func hostilePage(w http.ResponseWriter, mode string, page int) {
	obj := func(name string) string {
		return fmt.Sprintf(`<objects><obj type="HostSystem">host-%d</obj><propSet><name>name</name>`+
			`<val xsi:type="xsd:string">%s</val></propSet></objects>`, page, name)
	}
	switch mode {
	case "doctype":
		io.WriteString(w, `<?xml version="1.0"?>`+"\n"+`<!DOCTYPE soapenv:Envelope [<!ENTITY big "`)
		io.WriteString(w, strings.Repeat("ABCDEFGH", 200*1024/8))
		io.WriteString(w, `">]>`+"\n"+soapOpen[strings.Index(soapOpen, "<soapenv:Envelope"):])
		io.WriteString(w, `<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval>`+
			obj(strings.Repeat("&big;", 20000))+`</returnval></RetrievePropertiesExResponse>`+soapClose)
	case "huge":
		// No Content-Length: the client learns the size only by reading it.
		io.WriteString(w, soapOpen+`<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><objects>`+
			`<obj type="HostSystem">host-1</obj><propSet><name>name</name><val xsi:type="xsd:string">`)
		chunk := strings.Repeat("x", 1<<20)
		for i := 0; i < 100; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `</val></propSet></objects></returnval></RetrievePropertiesExResponse>`+soapClose)
	default: // tokens
		io.WriteString(w, soapOpen+`<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval>`+
			fmt.Sprintf("<token>%d</token>", page)+obj(fmt.Sprintf("other-%d", page))+
			`</returnval></RetrievePropertiesExResponse>`+soapClose)
	}
}

// serveHostile: a vCenter that logs anyone in and attacks on the property read.
func serveHostile(mode string, ln net.Listener, conf *tls.Config) {
	var pages int64
	mux := http.NewServeMux()
	mux.HandleFunc("/sdk", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		req := string(body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		switch {
		case strings.Contains(req, "<RetrieveServiceContent"):
			io.WriteString(w, soapOpen+`<RetrieveServiceContentResponse xmlns="urn:vim25"><returnval>`+
				`<rootFolder type="Folder">group-d1</rootFolder>`+
				`<propertyCollector type="PropertyCollector">propertyCollector</propertyCollector>`+
				`<viewManager type="ViewManager">ViewManager</viewManager>`+
				`<sessionManager type="SessionManager">SessionManager</sessionManager>`+
				`</returnval></RetrieveServiceContentResponse>`+soapClose)
		case strings.Contains(req, "<CreateContainerView"):
			io.WriteString(w, soapOpen+`<CreateContainerViewResponse xmlns="urn:vim25">`+
				`<returnval type="ContainerView">session[1]view-1</returnval>`+
				`</CreateContainerViewResponse>`+soapClose)
		case strings.Contains(req, "RetrievePropertiesEx"):
			hostilePage(w, mode, int(atomic.AddInt64(&pages, 1)))
		default: // Login, DestroyView, Logout
			io.WriteString(w, soapOpen+`<Response xmlns="urn:vim25"/>`+soapClose)
		}
	})
	srv := &http.Server{Handler: mux, TLSConfig: conf}
	if conf != nil {
		ln = tls.NewListener(ln, conf)
	}
	go srv.Serve(ln)
}

func main() {
	listen := flag.String("l", "127.0.0.1:0", "listen address (tests use loopback only)")
	cert := flag.String("cert", "", "TLS certificate (PEM)")
	key := flag.String("key", "", "TLS key (PEM)")
	flag.Var(pnics, "pnic", "HOST=NIC: on DVS0 with NIC at the start")
	flag.Var(modules, "module", "MODULE=OPTIONS: a module every host has")
	flag.Parse()

	if *hostile != "" {
		ln, err := net.Listen("tcp", *listen)
		if err != nil {
			log.Fatal(err)
		}
		var conf *tls.Config
		if !*plainHTTP {
			c, err := tls.LoadX509KeyPair(*cert, *key)
			if err != nil {
				log.Fatal(err)
			}
			conf = &tls.Config{Certificates: []tls.Certificate{c}}
		}
		serveHostile(*hostile, ln, conf)
		fmt.Printf("listening %s\n", ln.Addr())
		os.Stdout.Sync()
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
		<-sig
		return
	}

	model := simulator.VPX()
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()
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
	// In name order, so that each host's vmk address is the same in every run.
	var all []*simulator.HostSystem
	for _, e := range simulator.Map.All("HostSystem") {
		all = append(all, e.(*simulator.HostSystem))
	}
	sort.Slice(all, func(a, b int) bool { return all[a].Name < all[b].Name })
	for i, h := range all {
		if *vmk != "" {
			ip := &types.HostIpConfig{IpAddress: fmt.Sprintf("192.168.77.%d", 10+i), SubnetMask: "255.255.255.0"}
			h.Config.Network.Vnic = append(h.Config.Network.Vnic, types.HostVirtualNic{
				Device: *vmk, Key: "key-vim.host.VirtualNic-" + *vmk, Portgroup: "VM Network",
				Spec: types.HostVirtualNicSpec{Ip: ip, Mac: fmt.Sprintf("00:50:56:77:00:%02x", 10+i),
					Portgroup: "VM Network", Mtu: 1500, TsoEnabled: types.NewBool(true),
					NetStackInstanceKey: "defaultTcpipStack"}})
		}
		ns := &netsys{HostNetworkSystem: *simulator.Map.Get(*h.ConfigManager.NetworkSystem).(*simulator.HostNetworkSystem)}
		ns.NetworkInfo.Vnic = h.Config.Network.Vnic
		simulator.Map.Put(ns)
		for _, n := range []string{"vmnic2", "vmnic3"} {
			h.Config.Network.Pnic = append(h.Config.Network.Pnic, types.PhysicalNic{
				Key: "key-vim.host.PhysicalNic-" + n, Device: n, Driver: "nmlx5_core"})
		}
		if len(modules) > 0 {
			k := &kmod{options: map[string]string{}}
			k.Self.Type = "HostKernelModuleSystem"
			for m, o := range modules {
				k.options[m] = o
			}
			ref := simulator.Map.Put(k).Reference()
			h.ConfigManager.KernelModuleSystem = &ref
		}
	}

	for _, e := range simulator.Map.All("DistributedVirtualSwitch") {
		d := &dvs{DistributedVirtualSwitch: *e.(*simulator.DistributedVirtualSwitch)}
		info := d.Config.GetDVSConfigInfo()
		info.ConfigVersion = "1"
		if *uplinks > 0 {
			p := &types.DVSNameArrayUplinkPortPolicy{}
			for k := 1; k <= *uplinks; k++ {
				p.UplinkPortName = append(p.UplinkPortName, fmt.Sprintf("Uplink %d", k))
			}
			info.UplinkPortPolicy = p
		}
		// Stock vcsim put every host on the switch without config.host.
		var specs []types.DistributedVirtualSwitchHostMemberConfigSpec
		for _, ref := range d.Summary.HostMember {
			h := simulator.Map.Get(ref).(*simulator.HostSystem)
			if strings.Contains(","+*detach+",", ","+h.Name+",") {
				continue
			}
			b := &types.DistributedVirtualSwitchHostMemberPnicBacking{}
			if nic, ok := pnics[h.Name]; ok {
				b.PnicSpec = []types.DistributedVirtualSwitchHostMemberPnicSpec{{PnicDevice: nic}}
			}
			specs = append(specs, types.DistributedVirtualSwitchHostMemberConfigSpec{
				Operation: "add", Host: ref, Backing: b})
		}
		d.Summary.HostMember = nil
		if fault := d.members(specs); fault != nil {
			log.Fatalf("DVS0's starting members: %#v", fault)
		}
		simulator.Map.Put(d)
	}

	model.Service.Listen = &url.URL{Host: *listen}
	if u := os.Getenv("VCSIM_USERNAME"); u != "" {
		model.Service.Listen.User = url.UserPassword(u, os.Getenv("VCSIM_PASSWORD"))
	}
	model.Service.TLS = new(tls.Config)
	if *plainHTTP {
		model.Service.TLS = nil
	} else if *cert != "" {
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
