#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the soft-RoCE test VM (tests/vm/run.sh builds it into an initramfs).
# Two RDMA hosts in one guest: rxe0 on vethA (10.77.0.1) and rxe1 on vethB
# (10.77.0.2), both veth ends in the initial netns with policy routing to
# force traffic across the veth (two netns do not work for rxe; see
# shared/notes/soft-roce-vm/FINDINGS.md). The guest has no NIC: all traffic
# stays inside it. Results are serial lines "@@ RESULT NAME PASS|FAIL DETAIL".
export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/bb
/bb/busybox --install -s /bb 2>/dev/null
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp /run /var/tmp
mount -t tmpfs tmpfs /tmp
result() { echo "@@ RESULT $1 $2 $3"; }
info() { echo "@@ INFO $*"; }

for m in $(cat /modules.order); do
	insmod "/lib/modules/$m" 2>/dev/null || info "insmod $m failed"
done

# The veth pair starts at MTU 1500: the qosgen script must raise it.
ip link add vethA type veth peer name vethB
ip addr add 10.77.0.1/32 dev vethA
ip addr add 10.77.0.2/32 dev vethB
ip link set vethA up
ip link set vethB up
for k in all default vethA vethB; do
	echo 1 >/proc/sys/net/ipv4/conf/$k/accept_local
	echo 0 >/proc/sys/net/ipv4/conf/$k/rp_filter
done
ip rule add pref 10 iif vethA lookup local
ip rule add pref 11 iif vethB lookup local
ip rule add pref 20 to 10.77.0.2 lookup 100
ip rule add pref 21 to 10.77.0.1 lookup 101
ip rule del pref 0 lookup local
ip rule add pref 1000 lookup local
ip route add 10.77.0.2/32 dev vethA table 100
ip route add 10.77.0.1/32 dev vethB table 101
rdma link add rxe0 type rxe netdev vethA
rdma link add rxe1 type rxe netdev vethB

info "interfaces: $(ls /sys/class/net | tr '\n' ' ')"
mtu_before=$(cat /sys/class/net/vethA/mtu)
active_before=$(ibv_devinfo -d rxe0 | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p')
info "before: vethA mtu $mtu_before, rxe0 active_mtu $active_before"

# The scripts qosgen generated for the two hosts, run as push would run them.
for h in vm-a vm-b; do
	info "before $h: $(ls /sys/class/net | tr '\n' ' ')"
	sh "/qosgen/host/$h.sh" >"/tmp/$h.log" 2>&1
	echo $? >"/tmp/$h.rc"
	sed "s/^/@@ SCRIPT $h /" "/tmp/$h.log"
done
for h in vm-a vm-b; do
	# rxe has no MLNX_OFED ECN sysfs: reported as missing, exit 2, the rest set.
	if [ "$(cat /tmp/$h.rc)" = 2 ] && grep -q '^\[changed\] mtu: 1500 -> 9000' "/tmp/$h.log" &&
		grep -q '^\[changed\] roce_tos: 0 -> 106' "/tmp/$h.log" &&
		grep -q '^\[missing\] ecn.roce_np.enable.3' "/tmp/$h.log"; then
		result "script-$h" PASS "mtu and roce_tos changed, ECN knobs reported missing, exit 2"
	else
		result "script-$h" FAIL "exit $(cat /tmp/$h.rc)"
	fi
done
active_after=$(ibv_devinfo -d rxe0 | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p')
if [ "$active_after" = 4096 ] && [ "$(cat /sys/class/net/vethB/mtu)" = 9000 ]; then
	result active-mtu PASS "rxe0 active_mtu $active_before -> $active_after after the MTU change"
else
	result active-mtu FAIL "rxe0 active_mtu $active_after"
fi

# A second run changes nothing.
sh /qosgen/host/vm-a.sh >/tmp/again.log 2>&1
if ! grep -q '^\[changed\]' /tmp/again.log && grep -q '^\[ok\] roce_tos: 106' /tmp/again.log; then
	result script-idempotent PASS "second run: nothing changed"
else
	result script-idempotent FAIL "$(grep '^\[changed\]' /tmp/again.log | head -3 | tr '\n' ' ')"
fi

# rdma_cm traffic with no ToS option: the host's default_roce_tos must be on the wire.
# -Z root: the image has no tcpdump user to drop privileges to.
tcpdump -i vethB -n -v -c 400 -Z root udp port 4791 >/tmp/tcpdump.log 2>/tmp/tcpdump.err &
dump=$!
sleep 1
ib_write_bw -R -d rxe1 -n 200 -s 65536 -F >/tmp/server.log 2>&1 &
server=$!
sleep 2
ib_write_bw -R -d rxe0 -n 200 -s 65536 -F 10.77.0.2 >/tmp/client.log 2>&1
echo "client exit $?" >>/tmp/client.log
wait $server
sleep 1
kill $dump 2>/dev/null
wait $dump 2>/dev/null
tos=$(grep -o 'tos 0x[0-9a-f]*' /tmp/tcpdump.log | sort | uniq -c | tr '\n' ' ')
info "tcpdump: $tos"
sed -n '1,3p' /tmp/tcpdump.log | sed 's/^/@@ TCPDUMP /'
# RDMA WRITE data at path MTU 4096: IP length over 4000. The first packets are
# rdma_cm's connection setup; the check must see the data itself marked.
big=$(grep -c 'tos 0x6a,ECT(0).*length [4-9][0-9][0-9][0-9])' /tmp/tcpdump.log)
if [ "$big" -gt 100 ] && ! grep 'tos 0x' /tmp/tcpdump.log | grep -qv 'tos 0x6a'; then
	result wire-tos PASS "all captured RoCE packets carry tos 0x6a (DSCP 26, ECT(0)), $big of them full-size data: $tos"
else
	result wire-tos FAIL "captured: ${tos:-nothing}; tcpdump: $(head -2 /tmp/tcpdump.err | tr "\n" " ")"
fi
bw=$(awk '/^ *65536/ {print $4}' /tmp/client.log)
info "ib_write_bw -R, 65536 B x 200: average ${bw:-?} MB/s"
# qosgen probe: RC RDMA WRITE with the GRH traffic class, against itself and
# against an unmodified ib_write_bw (perftest 4.5) in both directions.
probe_pair() { # NAME SERVER-CMD CLIENT-CMD
	tcpdump -i vethB -n -v -c 200 -Z root udp port 4791 >"/tmp/$1.dump" 2>/dev/null &
	d=$!
	sleep 1
	$2 >"/tmp/$1.server" 2>&1 &
	srv=$!
	sleep 1
	timeout 120 $3 >"/tmp/$1.client" 2>&1
	echo "exit $?" >>"/tmp/$1.client"
	timeout 30 sh -c "wait $srv" 2>/dev/null
	wait $srv
	echo "exit $?" >>"/tmp/$1.server"
	sleep 1
	kill $d 2>/dev/null
	wait $d 2>/dev/null
	sed "s/^/@@ OUT $1 client /" "/tmp/$1.client" | grep -v '^@@ OUT .* client *$' | tail -4
	sed "s/^/@@ OUT $1 server /" "/tmp/$1.server" | tail -3
}
P="qosgen probe"
W="ib_write_bw -F -s 65536 -n 2000 --tclass=106"
probe_pair probe-probe "$P --server -d rxe1 -s 65536 -n 2000 --tclass 106" "$P -d rxe0 -s 65536 -n 2000 --tclass 106 10.77.0.2"
if grep -q '"gbps"' /tmp/probe-probe.client && grep -q 'exit 0' /tmp/probe-probe.server &&
	grep -q '"iters": 2000' /tmp/probe-probe.server; then
	result probe-self PASS "$(sed -n 's/.*"gbps": \([0-9.]*\).*/\1 Gb\/s/p' /tmp/probe-probe.client)"
else
	result probe-self FAIL "see OUT lines"
fi
big=$(grep -c 'tos 0x6a,ECT(0).*length [4-9][0-9][0-9][0-9])' /tmp/probe-probe.dump)
if [ "$big" -gt 50 ] && ! grep 'tos 0x' /tmp/probe-probe.dump | grep -qv 'tos 0x6a'; then
	result probe-wire-tos PASS "qosgen probe --tclass 106: $big full-size packets, all tos 0x6a"
else
	result probe-wire-tos FAIL "$(grep -o 'tos 0x[0-9a-f]*' /tmp/probe-probe.dump | sort | uniq -c | tr '\n' ' ')"
fi
probe_pair probe-client "$W -d rxe1" "$P -d rxe0 -s 65536 -n 2000 --tclass 106 10.77.0.2"
if grep -q '"peer_version": "6.06"' /tmp/probe-client.client && grep -q 'exit 0' /tmp/probe-client.server &&
	grep -q '^ *65536 *2000' /tmp/probe-client.server; then
	result interop-probe-client PASS "ib_write_bw server reports our 65536 B x 2000: $(grep '^ *65536' /tmp/probe-client.server | tr -s ' ')"
else
	result interop-probe-client FAIL "see OUT lines"
fi
probe_pair probe-server "$P --server -d rxe1 -s 65536 -n 2000" "$W -d rxe0 10.77.0.2"
if grep -q 'exit 0' /tmp/probe-server.client && grep -q '"iters": 2000' /tmp/probe-server.server &&
	grep -q '"size": 65536' /tmp/probe-server.server; then
	result interop-probe-server PASS "qosgen server got ib_write_bw's report: $(sed -n 's/.*"gbps": \([0-9.]*\).*/\1 Gb\/s/p' /tmp/probe-server.server)"
else
	result interop-probe-server FAIL "see OUT lines"
fi
# bench/verify: the same link, size and iterations, perftest against perftest
# and qosgen against qosgen, in this run. MiB/s as perftest prints it.
probe_pair perftest-perftest "$W -d rxe1" "$W -d rxe0 10.77.0.2"
pt=$(awk '/^ *65536 +2000/ {print $4}' /tmp/perftest-perftest.client)
qg=$(sed -n 's/.*"gbps": \([0-9.]*\).*/\1/p' /tmp/probe-probe.client | awk '{printf "%.2f", $1 * 1e9 / 8 / 1048576}')
echo "@@ BENCH ib_write_bw $pt MiB/s, qosgen probe $qg MiB/s, ratio $(echo "$qg $pt" | awk '$2 > 0 {printf "%.2f", $1 / $2}')x (65536 B x 2000, rxe over veth, target >= 0.97x)"
echo "@@ DONE"
poweroff -f
